// User settings: network choice, trading safety, hotkeys, notifications, nonce lanes.
import type { ChartStudies } from '../../chart/chart-studies';
import type { PnlDisplay } from '../../positions/pnl-display';

export const HOTKEY_ACTIONS = [
  'buyAtBest',
  'sellAtBest',
  'cancelLast',
  'cancelAll',
  'recenter',
  'togglePostOnly',
  'toggleArm',
  'killSwitch',
  'flatten',
  'closeHalf',
  'closeHalfByLimit',
  'reverse',
  'sizePreset1',
  'sizePreset2',
  'sizePreset3',
  'sizePreset4',
  'sizePreset5',
  'showHotkeys',
] as const;
export type HotkeyAction = (typeof HOTKEY_ACTIONS)[number];

export interface NetworkView {
  readonly id: string;
  readonly name: string;
  readonly kind: 'sandbox' | 'devnet' | 'testnet' | 'mainnet';
  readonly restUrl: string | null;
  readonly wsUrl: string | null;
  readonly faucetUrl: string | null;
  readonly hasFaucet: boolean;
  readonly hasWhitelist: boolean;
  readonly production: boolean;
  readonly configured: boolean;
  readonly active: boolean;
}

export interface Settings {
  readonly confirmOrders: boolean;
  /** Per market id: the largest quantity (raw base units) the ticket accepts; absent means no cap. */
  readonly maxOrderQuantity: Readonly<Record<string, bigint>>;
  /** Per market id: the largest order notional (price × quantity, raw quote units) main signs; absent means no cap (GUARD_MAX_NOTIONAL). */
  readonly maxOrderNotional: Readonly<Record<string, bigint>>;
  /**
   * Per market id: the largest position (raw base units, long or short) an order may leave at worst,
   * counting the account's resting orders on its side; absent means no cap (GUARD_MAX_POSITION).
   */
  readonly maxPosition: Readonly<Record<string, bigint>>;
  /**
   * Per quote asset id: the daily loss limit (raw quote units, positive). Once an account's P&L in
   * that asset since 00:00 UTC, realized plus unrealized, is at or past minus it, main refuses every
   * order that adds exposure (GUARD_DAILY_LOSS); absent means no limit.
   */
  readonly dailyLossLimit: Readonly<Record<string, bigint>>;
  /** The most orders main signs in any 60 seconds (each order an amend or a request creates; cancels and legs do not); 0 is no limit (GUARD_ORDER_RATE). */
  readonly maxOrdersPerMinute: number;
  /**
   * On the daily loss limit's breach, besides refusing new exposure and disarming every window, main
   * cancels the account's open orders and legs and flattens its positions (once per breach and UTC
   * day). Off by default; turning it off again is a loosening (confirmed).
   */
  readonly flattenOnDailyLoss: boolean;
  /**
   * Per market id: how far (bps) from the book's reference main signs a price (0 is off); absent
   * means the default (shared/market/price-band.ts). Main refuses an order beyond it (GUARD_PRICE_BAND).
   */
  readonly priceBandBps: Readonly<Record<string, number>>;
  /** Key combination per action (shared/hotkeys/keymap.ts); "" is no key. No two actions share one. */
  readonly hotkeys: Readonly<Record<HotkeyAction, string>>;
  readonly sound: boolean;
  readonly desktopNotifications: boolean;
  /** 0 is sequential nonces; 1-5 parallel lanes, so several orders can be in flight. */
  readonly parallelLanes: number;
  readonly sessionDays: number;
  /** Quantity presets per market, raw base units. */
  readonly quantityPresets: Readonly<Record<string, readonly bigint[]>>;
  /**
   * Per market id: what a position's unrealized P&L is marked at and the unit beside its quote
   * figure (shared/positions/pnl-display.ts); a market not named uses the exit side and percent.
   */
  readonly pnlDisplay: Readonly<Record<string, PnlDisplay>>;
  /** The chart's two moving averages (kind and length), the same on every chart (shared/chart/chart-studies.ts). */
  readonly chartStudies: ChartStudies;
  /** Market ids the trader starred in the markets overview, listed first there. */
  readonly favouriteMarkets: readonly string[];
  /**
   * Per market id: the size (raw base units) from which a trade is a large lot, highlighted on the
   * ladder's order-flow column and the tape; absent means none is highlighted.
   */
  readonly largeTradeSize: Readonly<Record<string, bigint>>;
  /** The ladder shows the Turbo book's executable and demand depth per row (main reads them while on); off by default. */
  readonly turboDepthOverlay: boolean;
}
