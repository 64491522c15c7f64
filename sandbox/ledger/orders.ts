// An order as the ledger keeps it: the book entry plus every field of spec 2.4. Mutable fields
// are snapshotted once per transaction before their first change (touchOrder), so a reverted
// batch restores them; history and fills are append-only and restored by length.
//
// What only reads need is kept in its smallest form and built on read (docs/sandbox.md,
// "Performance"): the history's first entry ('created') is the creating transaction's id, the
// list holds only the entries after it; an order's fills are the trades it took part in (a fill is
// the trade seen from one side: the other order's id and this side's fee). `orderHistory` and
// `orderFills` give the spec's lists.
import type { B256 } from '../../shared/encoding/b256';
import type { OrderType, Side } from '../../shared/market/order-type';
import type { BookEntry } from '../engine/book';
import type { Journal } from '../engine/journal';
import type { Trade } from './trades';

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
  /** The transaction that created it: the history's first entry, `created` (see `orderHistory`). */
  readonly createdTx: string;
  /**
   * The history after its first entry (NO_HISTORY until there is one), appended with `addHistory`;
   * undo truncates it. Read the whole history with `orderHistory`.
   */
  history: OrderHistoryEntry[];
  /**
   * The trades it took part in, oldest first (NO_FILLS until the first), appended with `appended`;
   * undo truncates it. Read its fills with `orderFills`.
   */
  fills: Trade[];
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
export const NO_FILLS: Trade[] = Object.freeze([]) as unknown as Trade[];

/** The history of an order with nothing after `created` (shared, frozen, like NO_FILLS). */
export const NO_HISTORY: OrderHistoryEntry[] = Object.freeze([]) as unknown as OrderHistoryEntry[];

/**
 * The entry last appended by `addHistory`. An entry is an immutable value (read through
 * `orderHistory`, copied into every view), so the orders of one transaction share one: a taker and
 * every maker it filled get the same 'fill' entry rather than one object each.
 */
let lastEntry: OrderHistoryEntry = { type: 'created', status: 'success', tx_id: '' };

/** Append an entry to an order's history (its `created` entry is implicit). */
export function addHistory(order: OrderRecord, type: OrderHistoryEntry['type'], txId: string): void {
  let entry = lastEntry;
  if (entry.type !== type || entry.tx_id !== txId) {
    entry = { type, status: 'success', tx_id: txId };
    lastEntry = entry;
  }
  order.history = appended(order.history, entry);
}

/** The transaction of the order's latest history entry. */
export function lastHistoryTx(order: OrderRecord): string {
  const history = order.history;
  return history.length === 0 ? order.createdTx : (history[history.length - 1] as OrderHistoryEntry).tx_id;
}

/** Spec 2.4's history: `created` in the creating transaction, then every later entry. */
export function orderHistory(order: OrderRecord): OrderHistoryEntry[] {
  const entries: OrderHistoryEntry[] = [{ type: 'created', status: 'success', tx_id: order.createdTx }];
  for (const entry of order.history) entries.push(entry);
  return entries;
}

/** One fill of `order`: the trade seen from its side (the other order, this side's fee). */
export function fillOf(order: OrderRecord, trade: Trade): OrderFill {
  const maker = trade.makerOrderId === order.id;
  return { order_id: maker ? trade.takerOrderId : trade.makerOrderId, quantity: trade.quantity, price: trade.price, timestamp: trade.timestamp, fee: maker ? trade.makerFee : trade.takerFee };
}

/** Spec 2.4's fills, oldest first. */
export function orderFills(order: OrderRecord): OrderFill[] {
  return order.fills.map((trade) => fillOf(order, trade));
}

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
