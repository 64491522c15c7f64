// Alerts: conditions main watches with every window closed, and the firings it announces. An alert
// notifies; it never trades.

/**
 * Which price a level alert reads: the best bid, the best ask, the last trade, or the mark (the
 * midpoint of the best bid and ask, rounded down: the trailing stop's mark, shared/market/reference-mark.ts).
 */
export type AlertPriceSource = 'bid' | 'ask' | 'last' | 'mark';

export type AlertCondition =
  /**
   * The price crosses `price` (raw quote units per whole base unit) upwards (`above`) or downwards
   * (`below`). It re-arms only once the price has gone back past `price` by `hysteresis`, so a
   * price hovering on the level does not fire again and again.
   */
  | { readonly kind: 'price'; readonly marketId: string; readonly turbo: boolean; readonly source: AlertPriceSource; readonly direction: 'above' | 'below'; readonly price: bigint; readonly hysteresis: bigint }
  /** The best ask minus the best bid is wider than `ticks` price steps. */
  | { readonly kind: 'spread'; readonly marketId: string; readonly turbo: boolean; readonly ticks: number }
  /** A fill of one of the account's orders (on one market, or on any when `marketId` is null). */
  | { readonly kind: 'fill'; readonly marketId: string | null }
  /** A signed request the exchange (or main's checks before sending) refused or reverted. */
  | { readonly kind: 'rejected' }
  /** Nothing from the exchange (heartbeats included) for longer than `seconds`. */
  | { readonly kind: 'stale'; readonly seconds: number }
  /**
   * A Turbo Account's distance to its liquidation threshold (`V - threshold`, in % of V) or its
   * freeze line (`min(V stressed-marked, V stressed-filled) - freeze line`, in % of that stressed
   * value) below `belowBps` basis points: the margin risk panel's distances (shared/margin
   * computeRisk), read by main from the account's live risk, which it follows while the alert is on.
   */
  | { readonly kind: 'margin'; readonly marginAccountId: string; readonly line: MarginAlertLine; readonly belowBps: number };

/** Which line of a Turbo Account a margin alert measures the distance to. */
export type MarginAlertLine = 'liquidation' | 'freeze';

export type AlertKind = AlertCondition['kind'];

export interface AlertView {
  readonly id: string;
  readonly condition: AlertCondition;
  /** Fires again after each re-arm (and cool-down); a one-shot alert turns itself off when it fires. */
  readonly repeat: boolean;
  /** Shortest time between two firings of this alert. */
  readonly cooldownSeconds: number;
  /** Play a sound with the notification. */
  readonly sound: boolean;
  /** The trader's own words, shown with the notification. */
  readonly note: string;
  readonly enabled: boolean;
  readonly createdAt: number;
  readonly lastFiredAt: number | null;
  /** Human-readable condition, e.g. "ETH/USDC bid crosses above 3,000.00". */
  readonly description: string;
}

/** One firing, recorded on disk before it is announced. */
export interface AlertFiringView {
  readonly id: string;
  readonly alertId: string;
  readonly at: number;
  /** What happened, e.g. "ETH/USDC bid crossed above 3,000.00 (3,000.50)". */
  readonly text: string;
  readonly sound: boolean;
  /** Announced (notice, desktop notification); an undelivered firing is announced at the next start. */
  readonly delivered: boolean;
}

export interface AlertsSnapshot {
  readonly alerts: readonly AlertView[];
  /** The latest firings, newest first. */
  readonly firings: readonly AlertFiringView[];
}
