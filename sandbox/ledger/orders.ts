// An order as the ledger keeps it: the book entry plus every field of spec 2.4. Mutable fields
// are snapshotted once per transaction before their first change (touchOrder), so a reverted
// batch restores them; history and fills are append-only and restored by length.
import type { B256 } from '../../shared/encoding/b256';
import type { OrderType, Side } from '../../shared/market/order-type';
import type { BookEntry } from '../engine/book';
import type { Journal } from '../engine/journal';

export interface OrderHistoryEntry {
  readonly type: 'created' | 'fill' | 'cancel' | 'close';
  readonly status: 'success';
  readonly tx_id: string;
}

export interface OrderFill {
  readonly order_id: string;
  readonly quantity: bigint;
  readonly price: bigint;
  readonly timestamp: bigint;
  readonly fee: bigint;
}

export interface OrderRecord extends BookEntry {
  readonly id: B256;
  readonly marketId: B256;
  /** The trading account that placed it (the order's owner is {ContractId: account}). */
  readonly account: B256;
  readonly side: Side;
  readonly orderType: OrderType;
  readonly quantity: bigint;
  /** Nanoseconds since the epoch. */
  readonly timestamp: bigint;
  readonly sequence: number;
  quantityFill: bigint;
  /** Sum of the quote value of every fill (for the average fill price). */
  quoteFill: bigint;
  /** Funds still locked for this order (quote for a buy, base for a sell). */
  lockedRemaining: bigint;
  close: boolean;
  cancel: boolean;
  readonly history: OrderHistoryEntry[];
  readonly fills: OrderFill[];
  stamp: number;
  /** A canonical quote posted with CreateSharedOrder: Turbo takers may fill it too. */
  readonly shared?: boolean;
  /** An order on a Turbo book (views add `turbo: true`). */
  readonly turbo?: boolean;
  /** HouseOrderCompleted was logged for this shared order (set after commit, once). */
  completionLogged?: boolean;
}

export function touchOrder(journal: Journal, order: OrderRecord): OrderRecord {
  if (!journal.active || order.stamp === journal.stamp) return order;
  order.stamp = journal.stamp;
  const { quantityFill, quoteFill, lockedRemaining, close, cancel, remaining, live } = order;
  const historyLength = order.history.length;
  const fillsLength = order.fills.length;
  journal.record(() => {
    order.quantityFill = quantityFill;
    order.quoteFill = quoteFill;
    order.lockedRemaining = lockedRemaining;
    order.close = close;
    order.cancel = cancel;
    order.remaining = remaining;
    order.live = live;
    order.history.length = historyLength;
    order.fills.length = fillsLength;
    order.stamp = -1;
  });
  return order;
}
