// Execution algorithms as main runs them (main/services/algos), pushed on the `algos` stream after
// every change: each parent with its parameters, its progress and its children on the exchange.
// Every price and size is raw units (price: quote units per whole base unit as the venue prices;
// size: base units), formatted only at the display edge.
import type { Side } from '../../market/order-type';

export type AlgoKind = 'twap' | 'scale' | 'iceberg' | 'chase';

/**
 * running: main places and follows children. paused: nothing new is signed until the trader
 * resumes (a refused child, the price limit, a restart of main, the trader). finished: the total is
 * filled or every child was placed and ended. cancelled: by the trader or the kill switch; no child
 * is signed after it.
 */
export type AlgoState = 'running' | 'paused' | 'finished' | 'cancelled';

/** Each TWAP slice: a limit at the touch (the best price on the side it trades), or a bounded market within `slippageBps` of the touch. */
export type TwapSlice = { readonly kind: 'touch' } | { readonly kind: 'market'; readonly slippageBps: bigint };

/** How a scale order's sizes run from the first price (`from`) to the last (`to`). */
export type ScaleShape =
  | { readonly distribution: 'flat' }
  | {
      readonly distribution: 'increasing' | 'decreasing';
      readonly curve: 'linear' | 'geometric';
      /** Geometric only: each order's size over the one before, in basis points (12,000 = ×1.2). */
      readonly ratioBps: bigint;
    };

export type AlgoParams =
  | {
      readonly kind: 'twap';
      readonly durationMs: number;
      readonly intervalMs: number;
      /** Each slice's size moves by up to this share of the even slice, at random (0: none). */
      readonly sizeJitterBps: bigint;
      /** Each slice's time moves by up to this share of the interval, at random (0: none). */
      readonly timeJitterBps: bigint;
      readonly slice: TwapSlice;
    }
  | {
      readonly kind: 'scale';
      /** The first order's price and the last one's (any order of the two; every price lands on the tick). */
      readonly from: bigint;
      readonly to: bigint;
      readonly count: number;
      readonly shape: ScaleShape;
      readonly postOnly: boolean;
    }
  | {
      readonly kind: 'iceberg';
      /** The price every visible slice rests at. */
      readonly price: bigint;
      /** The size shown at a time (refreshed as it fills). */
      readonly visible: bigint;
    }
  | {
      readonly kind: 'chase';
      /** Ticks behind the touch (0: join the best bid for a buy, the best ask for a sell). */
      readonly offsetTicks: bigint;
      /** At most this many amends in any minute (they count against the rate limit and the orders-per-minute guard). */
      readonly maxAmendsPerMinute: number;
    };

/** What the trader asks for: a market, a side, a total and an optional price limit, and the algorithm's own parameters. */
export interface AlgoSpec {
  readonly marketId: string;
  readonly turbo: boolean;
  readonly side: Side;
  /** The total to fill (raw base units). */
  readonly quantity: bigint;
  /**
   * No child at a worse price than this (a buy above it, a sell below it); TWAP and chase pause
   * when the market is beyond it. null: none (scale and iceberg have their own prices).
   */
  readonly limitPrice: bigint | null;
  readonly params: AlgoParams;
}

export type AlgoChildStatus = 'signing' | 'open' | 'filled' | 'cancelled' | 'refused' | 'unknown';

/** One child order, from the journal entry that signed it to its end on the exchange. */
export interface AlgoChildView {
  readonly journalId: string;
  /** null until the exchange named it (or while a lost answer is reconciled). */
  readonly orderId: string | null;
  readonly price: bigint;
  readonly quantity: bigint;
  readonly filled: bigint;
  readonly status: AlgoChildStatus;
  readonly placedAt: number;
}

/** One planned child (a preview, or the scale orders not yet placed). */
export interface AlgoPlannedChild {
  readonly price: bigint;
  readonly quantity: bigint;
}

export interface AlgoView {
  readonly id: string;
  readonly networkId: string;
  /** The account its children are signed for. */
  readonly account: string;
  readonly spec: AlgoSpec;
  readonly state: AlgoState;
  /** Why it is paused, finished or cancelled, in the trader's words with a code; null while running. */
  readonly reason: { readonly code: string; readonly text: string } | null;
  readonly filled: bigint;
  readonly remaining: bigint;
  /** Volume-weighted average fill price (raw, rounded to the nearest unit); null before a fill. */
  readonly averagePrice: bigint | null;
  /** The touch on its side when it started (the best ask for a buy, the best bid for a sell). */
  readonly arrivalPrice: bigint | null;
  /** Average price against arrival in basis points, positive when worse for the trader; null before a fill. */
  readonly slippageBps: bigint | null;
  readonly counts: { readonly open: number; readonly filled: number; readonly cancelled: number };
  /** The children, newest last (the last 200). */
  readonly children: readonly AlgoChildView[];
  /** When main next acts on it by schedule (TWAP's next slice); null: none due. */
  readonly nextAt: number | null;
  /** Rounding said in the trader's words ("sizes rounded to the 0.001 ETH step; 0.004 ETH added to the last order"). */
  readonly notes: readonly string[];
  readonly startedAt: number;
  readonly updatedAt: number;
}

/** What starting an algorithm would do, before anything is signed (the ticket shows it). */
export interface AlgoPreview {
  readonly spec: AlgoSpec;
  /** Scale: every order; TWAP: the slices' sizes at the arrival touch; iceberg: the first slice; chase: the first order. */
  readonly children: readonly AlgoPlannedChild[];
  /** Signed batches the first placement takes (scale packs up to 5 orders per batch). */
  readonly batches: number;
  readonly notes: readonly string[];
}
