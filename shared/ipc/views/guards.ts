// The risk guards' state as main sees it (main/services/guards/risk-watch.ts), pushed on the
// `guardState` stream when it changes: the day's P&L against each daily loss limit and the orders
// counted against the orders-per-minute limit, for the header. Raw units; the renderer formats.

/** An account's day P&L in one quote asset that has a daily loss limit. */
export interface DayPnlView {
  readonly quoteAsset: string;
  /** The Turbo Account this row is of, or null for the trading account. */
  readonly turboAccount: string | null;
  /** Realized plus unrealized since 00:00 UTC, raw quote units; null while it cannot be read. */
  readonly pnl: bigint | null;
  /** The limit, raw quote units, positive (the P&L may fall to minus it). */
  readonly limit: bigint;
  /** The P&L is at or past minus the limit: orders that add exposure are refused. */
  readonly breached: boolean;
  /** Why the P&L cannot be read, or null. */
  readonly problem: string | null;
}

export interface GuardStateView {
  /** One row per quote asset with a daily loss limit, in the order of the settings: the trading account's, then each Turbo Account's with a figure. */
  readonly dayPnl: readonly DayPnlView[];
  /** Orders counted in the last 60 s and the limit; null when no limit is set. */
  readonly orderRate: { readonly count: number; readonly limit: number } | null;
}

/** Main asks every window to drop its arming (click-to-trade and the buy/sell hotkeys). */
export interface GuardDisarmView {
  /** Why, in the trader's words (shown on the ladder and in the notice). */
  readonly reason: string;
}
