// Market data pushed to windows: each window gets only the levels it shows, at most once per frame.
import type { Bar } from '../../api/market-schemas';
import type { BookLevel } from '../../book/order-book';
import type { Side } from '../../market/order-type';

/** A price level of shared/book, as it is. */
export type LevelView = BookLevel;

export interface BookFrame {
  readonly subscriptionId: string;
  readonly marketId: string;
  readonly turbo: boolean;
  /** `resyncing`: the book is being rebuilt; the ladder must not show stale levels. */
  readonly state: 'live' | 'resyncing';
  /** Grouping of price levels, in raw price units (a power of ten). */
  readonly precision: bigint;
  /** Bids best first, asks best first; at most the number of levels the window asked for. */
  readonly bids: readonly LevelView[];
  readonly asks: readonly LevelView[];
  /** The newest trade: its price, taker side and size (raw base units). */
  readonly lastTrade: { readonly price: bigint; readonly side: Side; readonly quantity: bigint } | null;
  /** Base quantity traded per price row over the subscription's flow window (volume at price), for the rows shown. */
  readonly volumeAtPrice: readonly LevelView[];
  /** The same volume split by the taker's side (bought: takers buying, sold: takers selling), for the rows shown. */
  readonly flowAtPrice: readonly FlowLevelView[];
  readonly flowWindow: FlowWindow;
  /** Increases with every frame of this subscription. */
  readonly sequence: number;
}

/**
 * How far back the ladder's order flow counts: the last 5 minutes or hour (whole minutes, the
 * current one included), or the session: since main began following the market's trades in this
 * run (a window, an alert or the tape opened it; the stream's first message of recent trades counts).
 */
export const FLOW_WINDOWS = ['5m', '1h', 'session'] as const;
export type FlowWindow = (typeof FLOW_WINDOWS)[number];

export interface FlowLevelView {
  readonly price: bigint;
  /** Base bought by takers (lifting offers) at this row. */
  readonly bought: bigint;
  /** Base sold by takers (hitting bids) at this row. */
  readonly sold: bigint;
}

export interface TradeView {
  readonly tradeId: string;
  readonly marketId: string;
  /** The taker's side. */
  readonly side: Side;
  readonly price: bigint;
  readonly quantity: bigint;
  /** Milliseconds since the epoch. */
  readonly time: number;
}

export interface TradesFrame {
  readonly subscriptionId: string;
  readonly marketId: string;
  /** True when `trades` replaces what the window had (first frame, or after a resync). */
  readonly reset: boolean;
  /** Newest first. */
  readonly trades: readonly TradeView[];
}

export const RESOLUTIONS = ['1m', '5m', '15m', '30m', '1h', '4h', '12h', '1d', '1w', '1M'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

/** A bar of the REST schema, its open time in milliseconds (the wire's `timestamp` unit varies: toMillis). */
export interface BarView extends Readonly<Pick<Bar, 'open' | 'high' | 'low' | 'close' | 'volume'>> {
  /** Bar open time, milliseconds since the epoch. */
  readonly time: number;
}

export interface BarsFrame {
  readonly subscriptionId: string;
  readonly marketId: string;
  readonly resolution: Resolution;
  readonly reset: boolean;
  /** Oldest first; on an update, the bars that changed (the last one, or a new one). */
  readonly bars: readonly BarView[];
}
