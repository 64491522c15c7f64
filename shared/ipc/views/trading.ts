// Orders, fills, balances and the results of trading requests.
import type { OrderTypeKind, Side } from '../../market/order-type';
import type { TriggerFillMarker } from './trigger-fill';

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
}

export interface CancelReport {
  readonly requested: number;
  readonly cancelled: readonly string[];
  readonly failed: readonly { readonly orderId: string; readonly reason: string }[];
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
