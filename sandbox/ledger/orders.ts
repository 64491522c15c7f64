// An order as the ledger keeps it: the book entry plus every field of spec 2.4. Mutable fields
// are snapshotted once per transaction before their first change (touchOrder), so a reverted
// batch restores them; history and fills are append-only and restored by length.
//
// What only reads need is kept in its smallest form and built on read (docs/sandbox.md,
// "Performance"): the history's first entry ('created') is the creating transaction's id, its
// 'fill' entries are the transactions of its fills (one per transaction it traded in after the
// one that created it), and the list holds only the closing entry ('cancel' or 'close'); an order's fills are the trades it took part in (a fill is
// the trade seen from one side: the other order's id and this side's fee), and the quantity and
// quote filled are their sums. `orderHistory`, `orderFills`, `filledQuantity` and `filledQuote`
// give the spec's figures.
import type { B256 } from '../../shared/encoding/b256';
import type { OrderType, Side } from '../../shared/market/order-type';
import type { BookEntry } from '../engine/book';
import type { Journal } from '../engine/journal';
import { tradeMakerFee, tradeTakerFee, tradeTotal, type Trade } from './trades';

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
  /** Funds still locked for this order (quote for a buy, base for a sell). */
  lockedRemaining: bigint;
  /**
   * Off the book for good (filled, cancelled, or closed as dust). Whether it was cancelled is not
   * kept: it is the history's last entry (`isCancelled`).
   */
  close: boolean;
  /** The transaction that created it: the history's first entry, `created` (see `orderHistory`). */
  readonly createdTx: string;
  /**
   * The history's closing entry ('cancel' or 'close'; a ShortList: nothing until there is one),
   * appended with `addHistory`; undo truncates it. The 'fill' entries are not kept: they are the
   * transactions of its fills. Read the whole history with `orderHistory`.
   */
  history: ShortList<OrderHistoryEntry>;
  /**
   * The trades it took part in, oldest first (a ShortList), appended with `addFill`; undo truncates
   * it. Read its fills with `orderFills`, the totals with `filledQuantity` and `filledQuote`.
   */
  fills: ShortList<Trade>;
  stamp: number;
  /** A canonical quote posted with CreateSharedOrder: Turbo takers may fill it too. */
  readonly shared?: boolean;
  /** An order on a Turbo book (views add `turbo: true`). */
  readonly turbo?: boolean;
  /** HouseOrderCompleted was logged for this shared order (set after commit, once). */
  completionLogged?: boolean;
}

const CLOSE = 1;
const LIVE = 2;

/** Undo of touchOrder (a static function: no closure per order per transaction). */
function restoreOrder(order: OrderRecord, lockedRemaining: bigint, remaining: bigint, flags: number, historyLength: number, fillsLength: number): void {
  order.lockedRemaining = lockedRemaining;
  order.close = (flags & CLOSE) !== 0;
  order.remaining = remaining;
  order.live = (flags & LIVE) !== 0;
  // A list appended to since keeps the old one as its prefix: truncating it restores it.
  if (listLength(order.history) !== historyLength) order.history = truncated(order.history, historyLength);
  if (listLength(order.fills) !== fillsLength) order.fills = truncated(order.fills, fillsLength);
  order.stamp = -1;
}

export function touchOrder(journal: Journal, order: OrderRecord): OrderRecord {
  if (!journal.active || order.stamp === journal.stamp) return order;
  order.stamp = journal.stamp;
  const flags = (order.close ? CLOSE : 0) | (order.live ? LIVE : 0);
  journal.recordCall(restoreOrder, order, order.lockedRemaining, order.remaining, flags, listLength(order.history), listLength(order.fills));
  return order;
}

/**
 * The entry last appended by `addHistory`. An entry is an immutable value (read through
 * `orderHistory`, copied into every view), so the orders of one transaction share one.
 */
let lastEntry: OrderHistoryEntry = { type: 'close', status: 'success', tx_id: '' };

/** A history entry that `addHistory` keeps: the order's closing ('fill' entries are its fills'). */
export type ClosingEntryType = 'cancel' | 'close';

/**
 * Append the closing entry to an order's history ('cancel' or 'close'; its `created` entry is
 * implicit and its 'fill' entries are read from its fills, see `orderHistory`). Nothing is appended
 * to an order after it closes, so every 'fill' entry of the history comes before this one.
 */
export function addHistory(order: OrderRecord, type: ClosingEntryType, txId: string): void {
  let entry = lastEntry;
  if (entry.type !== type || entry.tx_id !== txId) {
    entry = { type, status: 'success', tx_id: txId };
    lastEntry = entry;
  }
  order.history = listAppended(order.history, entry);
}

/** Append a trade `order` took part in to its fills. */
export function addFill(order: OrderRecord, trade: Trade): void {
  order.fills = listAppended(order.fills, trade);
}

/**
 * Spec 2.4's `cancel`: the order was cancelled (by CancelOrder, or a market order's unfilled rest
 * dropped). A 'cancel' entry is appended exactly where an order is cancelled, nothing is appended
 * after an order closes, and an undo truncates the history with the rest of the order, so the last
 * entry says it; the order keeps no field for it (one field fewer per order).
 */
export function isCancelled(order: OrderRecord): boolean {
  const history = order.history;
  if (history === undefined) return false;
  const last = Array.isArray(history) ? (history[history.length - 1] as OrderHistoryEntry) : history;
  return last.type === 'cancel';
}

/**
 * Spec 2.4's history: `created` in the creating transaction, a 'fill' entry for each later
 * transaction the order traded in, then its closing entry if it closed with one (a maker filled
 * entirely has none). The 'fill' entries are read from its fills (each trade carries its
 * transaction): an order gets a 'fill' entry exactly when it trades in a transaction other than
 * that of its latest entry, and a trade is appended to its fills exactly when it trades, so the
 * transactions of its fills, each run of one transaction counted once and the creating one
 * skipped, are its 'fill' entries (kept as entries they were an object per filled maker and per
 * transaction for the collector to copy: docs/sandbox.md, "Performance").
 */
export function orderHistory(order: OrderRecord): OrderHistoryEntry[] {
  const entries: OrderHistoryEntry[] = [{ type: 'created', status: 'success', tx_id: order.createdTx }];
  let latest = order.createdTx;
  for (const trade of listItems(order.fills)) {
    if (trade.txId === latest) continue;
    latest = trade.txId;
    entries.push({ type: 'fill', status: 'success', tx_id: latest });
  }
  for (const entry of listItems(order.history)) entries.push(entry);
  return entries;
}

/**
 * The base quantity filled: the sum of its fills (every fill appends its trade to the order's
 * fills, and an undo truncates them, so the sum is exactly a running total the order could
 * keep; kept as the trades only, it costs no bigint per fill and none retained per order).
 */
export function filledQuantity(order: OrderRecord): bigint {
  let sum = 0n;
  for (const trade of listItems(order.fills)) sum += trade.quantity;
  return sum;
}

/** The quote value of every fill summed (for the average fill price), from its fills likewise. */
export function filledQuote(order: OrderRecord): bigint {
  let sum = 0n;
  for (const trade of listItems(order.fills)) sum += tradeTotal(trade);
  return sum;
}

/** One fill of `order`: the trade seen from its side (the other order, this side's fee). */
export function fillOf(order: OrderRecord, trade: Trade): OrderFill {
  const maker = trade.makerOrderId === order.id;
  return { order_id: maker ? trade.takerOrderId : trade.makerOrderId, quantity: trade.quantity, price: trade.price, timestamp: trade.timestamp, fee: maker ? tradeMakerFee(trade) : tradeTakerFee(trade) };
}

/** Spec 2.4's fills, oldest first. */
export function orderFills(order: OrderRecord): OrderFill[] {
  return listItems(order.fills).map((trade) => fillOf(order, trade));
}

/**
 * A short append-only list as an order keeps it: nothing while empty, the item itself while it is
 * the only one, an array from the second on. Most orders get one fill and one history entry and
 * are then retained for reads; an array for each was two more objects per order for the garbage
 * collector to copy (docs/sandbox.md, "Performance"). Items are never arrays.
 */
export type ShortList<T extends object> = T | T[] | undefined;

export function listLength<T extends object>(list: ShortList<T>): number {
  if (list === undefined) return 0;
  return Array.isArray(list) ? list.length : 1;
}

/** The items, oldest first (a fresh array unless the list is one: do not write to it). */
export function listItems<T extends object>(list: ShortList<T>): readonly T[] {
  if (list === undefined) return [];
  return Array.isArray(list) ? list : [list];
}

/**
 * `list` with `item` appended. An array of up to four is replaced by an exact copy, a longer one is
 * pushed to (a push gives an array 16 spare slots, kept with every retained order). Either way the
 * old list is a prefix of the new one, so an undo that truncates to the old length restores it.
 */
export function listAppended<T extends object>(list: ShortList<T>, item: T): ShortList<T> {
  if (list === undefined) return item;
  if (!Array.isArray(list)) return [list, item];
  switch (list.length) {
    case 2:
      return [list[0] as T, list[1] as T, item];
    case 3:
      return [list[0] as T, list[1] as T, list[2] as T, item];
    default:
      list.push(item);
      return list;
  }
}

/** `list` cut to its first `length` items (undo of appends). */
export function truncated<T extends object>(list: ShortList<T>, length: number): ShortList<T> {
  if (length === 0 || list === undefined) return undefined;
  if (!Array.isArray(list)) return list;
  if (length === 1) return list[0];
  list.length = length;
  return list;
}
