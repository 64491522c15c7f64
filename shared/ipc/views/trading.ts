// Orders, fills, balances and the results of trading requests.
import type { OrderTypeKind, Side } from '../../market/order-type';
import type { TriggerFillMarker, TriggerRole } from './trigger-fill';

export interface OrderView {
  readonly orderId: string;
  readonly marketId: string;
  readonly side: Side;
  readonly orderType: OrderTypeKind;
  readonly price: bigint;
  readonly quantity: bigint;
  readonly filled: bigint;
  /** Average fill price; 0 when nothing filled. */
  readonly averagePrice: bigint;
  readonly status: 'open' | 'partially-filled' | 'filled' | 'cancelled';
  /** On the market's Turbo book (true) or its canonical book. */
  readonly turbo: boolean;
  /** The account that owns the order: the trading account, or one of its Turbo Accounts. */
  readonly account: string;
  /** Milliseconds since the epoch. */
  readonly time: number;
}

export interface FillView {
  readonly orderId: string;
  readonly marketId: string;
  readonly side: Side;
  readonly price: bigint;
  readonly quantity: bigint;
  readonly fee: bigint;
  /** The order's book: the market's Turbo book (true) or its canonical book. */
  readonly turbo: boolean;
  /** The account that owns the order: the trading account, or one of its Turbo Accounts. */
  readonly account: string;
  readonly time: number;
}

export interface BookBalanceView {
  readonly marketId: string;
  /** The market's Turbo book rather than its canonical one. */
  readonly turbo: boolean;
  readonly locked: bigint;
  readonly unlocked: bigint;
}

export interface BalanceView {
  readonly assetId: string;
  readonly symbol: string;
  readonly decimals: number;
  /** On the trading account itself, not in any book. */
  readonly onAccount: bigint;
  readonly locked: bigint;
  /** Unlocked in books (settle to move it to the account) plus on the account. */
  readonly unlocked: bigint;
  readonly books: readonly BookBalanceView[];
}

export interface OrdersSnapshot {
  readonly open: readonly OrderView[];
  /** The most recent fills, newest first. */
  readonly fills: readonly FillView[];
}

export interface Page<T> {
  readonly items: readonly T[];
  /** Opaque cursor for the next (older) page; null at the end. */
  readonly next: string | null;
}

export interface PlacedOrder {
  /** The journal entry of the signed request. */
  readonly journalId: string;
  readonly orders: readonly OrderView[];
  /** What main adjusted before signing (quantity floored to the tick, ...), in words. */
  readonly adjustments: readonly string[];
  /** An amend (or move): the order the new one replaced, cancelled in the same signed batch. */
  readonly replacedOrderId?: string;
  /**
   * An amend of an order with take-profit / stop-loss legs: the legs carried to the new order in
   * the same signed batch (same kinds and prices, sized from the new order).
   */
  readonly carriedLegs?: readonly CarriedLeg[];
  /**
   * An amend of a partly filled order with legs: the filled quantity the same legs keep protecting
   * (a pair sized to it, created in the same signed batch), in raw base units.
   */
  readonly protectedFilled?: bigint;
}

/** A take-profit or stop-loss an amend carried to the new order. */
export interface CarriedLeg {
  readonly role: TriggerRole;
  readonly side: Side;
  readonly triggerPrice: bigint;
}

/** An order or a trigger leg that could not be cancelled: its id, main's words for it, and why. */
export interface CancelFailure {
  readonly orderId: string;
  /** "Sell 0.25 ETH at 2,800 USDC on ETH/USDC", "Sell leg at 2,800 USDC on ETH/USDC (Turbo book)". */
  readonly description?: string;
  readonly reason: string;
}

/** A book whose open orders and pending legs could not be read: what is on it is not known. */
export interface UnreadBook {
  readonly marketId: string;
  readonly turbo: boolean;
  readonly account: string;
  readonly reason: string;
}

export interface CancelReport {
  /** Orders: found open, cancelled, and those that could not be cancelled. */
  readonly requested: number;
  readonly cancelled: readonly string[];
  readonly failed: readonly CancelFailure[];
  /**
   * Trigger legs (stops, OCO pairs, take-profits and stop-losses): found pending, cancelled (by
   * their own cancel, or with the order they are bound to), and those that could not be.
   */
  readonly triggersRequested: number;
  readonly triggersCancelled: readonly string[];
  readonly triggersFailed: readonly CancelFailure[];
  /** Books that could not be read before cancelling (their orders and legs are not known). */
  readonly unread: readonly UnreadBook[];
  /** Signed batches sent (the 5-action cap groups cancels). */
  readonly batches: number;
}

export interface RateLimitView {
  readonly limiter: string;
  readonly capacity: number;
  readonly remaining: number;
  readonly windowMs: number;
  readonly queued: number;
}

export interface FillNotice {
  readonly fill: FillView;
  readonly symbol: string;
  /** Present when the filled order was a trigger leg that fired (views/trigger-fill.ts). */
  readonly trigger?: TriggerFillMarker;
}

export interface Notice {
  readonly id: string;
  readonly level: 'info' | 'warning' | 'error';
  readonly text: string;
  readonly time: number;
  /** A stable code when the notice reports an expected failure (e.g. POSITION_UNPROTECTED). */
  readonly code?: string;
  /** What the notice is about ("Order refused"), shown before the text. */
  readonly title?: string;
  /** The raw exchange text and codes behind a trader sentence, shown behind a "Details" toggle. */
  readonly details?: string;
}
