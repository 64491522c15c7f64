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
  readonly lastTrade: { readonly price: bigint; readonly side: Side } | null;
  /** Base quantity traded per price row this session (volume at price), for the rows shown. */
  readonly volumeAtPrice: readonly LevelView[];
  /** Increases with every frame of this subscription. */
  readonly sequence: number;
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
