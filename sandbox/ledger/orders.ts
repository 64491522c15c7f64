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
  /** Append with `appended` (a short list is replaced by an exact copy); undo truncates it. */
  history: OrderHistoryEntry[];
  fills: OrderFill[];
  stamp: number;
  /** A canonical quote posted with CreateSharedOrder: Turbo takers may fill it too. */
  readonly shared?: boolean;
  /** An order on a Turbo book (views add `turbo: true`). */
  readonly turbo?: boolean;
  /** HouseOrderCompleted was logged for this shared order (set after commit, once). */
  completionLogged?: boolean;
}

const CLOSE = 1;
const CANCEL = 2;
const LIVE = 4;

/** Undo of touchOrder (a static function: no closure per order per transaction). */
function restoreOrder(order: OrderRecord, quantityFill: bigint, quoteFill: bigint, lockedRemaining: bigint, remaining: bigint, flags: number, historyLength: number, fillsLength: number): void {
  order.quantityFill = quantityFill;
  order.quoteFill = quoteFill;
  order.lockedRemaining = lockedRemaining;
  order.close = (flags & CLOSE) !== 0;
  order.cancel = (flags & CANCEL) !== 0;
  order.remaining = remaining;
  order.live = (flags & LIVE) !== 0;
  // A list appended to since is a copy or the same array grown: truncating it restores it. The
  // shared empty list is never written to (it is frozen).
  if (order.history.length !== historyLength) order.history.length = historyLength;
  if (order.fills.length !== fillsLength) order.fills.length = fillsLength;
  order.stamp = -1;
}

export function touchOrder(journal: Journal, order: OrderRecord): OrderRecord {
  if (!journal.active || order.stamp === journal.stamp) return order;
  order.stamp = journal.stamp;
  const flags = (order.close ? CLOSE : 0) | (order.cancel ? CANCEL : 0) | (order.live ? LIVE : 0);
  journal.recordCall8(restoreOrder, order, order.quantityFill, order.quoteFill, order.lockedRemaining, order.remaining, flags, order.history.length, order.fills.length);
  return order;
}

/**
 * The fills of an order that has none: one frozen empty list shared by every such order (half the
 * orders of a busy book never fill, and each kept its own empty array). `appended` never writes to
 * a list of fewer than four, so it replaces this one on the first fill.
 */
export const NO_FILLS: OrderFill[] = Object.freeze([]) as unknown as OrderFill[];

/**
 * `list` with `item` appended: a list of up to four is replaced by an exact copy, a longer one is
 * pushed to. Most orders get one or two fills and history entries and are then retained for
 * reads; a push gives an array 16 spare slots, which were a large part of what every placement
 * left for the garbage collector to copy (docs/sandbox.md, "Performance"). A copy keeps the
 * prefix, so an undo that truncates the current list to its old length restores it.
 */
export function appended<T>(list: T[], item: T): T[] {
  switch (list.length) {
    case 0:
      return [item];
    case 1:
      return [list[0] as T, item];
    case 2:
      return [list[0] as T, list[1] as T, item];
    case 3:
      return [list[0] as T, list[1] as T, list[2] as T, item];
    default:
      list.push(item);
      return list;
  }
}
