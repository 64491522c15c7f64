// The fills of one account on one book (a market's Canonical or Turbo book), from two sources:
// the orders the exchange reports (the orders stream, and the order reads main makes anyway), and
// the account's trades read over REST (GET /v1/trades_by_account) at start and after a resync.
//
// A fill's identity is its order and its place among that order's fills: an order carries every
// fill it ever had (spec 2.4 `fills`), in the order they happened, and the account's trades of one
// order, oldest first, are the same list. So a fill is never counted twice however often the
// stream repeats its order, and the two sources meet on the same key. Which source wins is in
// docs/protocol.md ("One fill source"): the REST read is authoritative for everything that
// happened before it began; an order reported after the read began keeps the fills it adds
// beyond what the read saw until the next read confirms or drops them.
import type { AccountTrade, Order } from '../../../shared/api/market-schemas';
import type { AccountingFill } from '../../../shared/positions/accounting';
import type { Side } from '../../../shared/market/order-type';

export interface StoredFill extends AccountingFill {
  readonly orderId: string;
  /** Its place among its order's fills, from 0. */
  readonly index: number;
  /** Nanoseconds since the epoch. */
  readonly timestamp: bigint;
  /** The exchange's trade id, once a REST read named it. */
  readonly tradeId: string | null;
  /** Maker or taker, once a REST read named it. */
  readonly role: 'maker' | 'taker' | null;
}

interface Reported {
  readonly fills: readonly StoredFill[];
  /** The arrival count when the order was reported (see FillBook.take). */
  readonly arrival: number;
}

/** Oldest first: fill time, then the order id, then the fill's place in its order (docs/protocol.md "Positions and P&L"). */
export function compareFills(left: Pick<StoredFill, 'timestamp' | 'orderId' | 'index'>, right: Pick<StoredFill, 'timestamp' | 'orderId' | 'index'>): number {
  if (left.timestamp !== right.timestamp) return left.timestamp < right.timestamp ? -1 : 1;
  if (left.orderId !== right.orderId) return left.orderId < right.orderId ? -1 : 1;
  return left.index - right.index;
}

/** The fills an order reports, keyed by their place in it. */
export function orderFills(order: Pick<Order, 'order_id' | 'side' | 'fills'>): StoredFill[] {
  return (order.fills ?? []).map((fill, index) => ({
    orderId: order.order_id.toLowerCase(),
    index,
    side: order.side as Side,
    price: fill.price,
    quantity: fill.quantity,
    fee: fill.fee,
    timestamp: fill.timestamp,
    tradeId: null,
    role: null,
  }));
}

export class FillBook {
  /** Per order (lower-case id): its fills as REST reads confirmed them, by their place in it. */
  private readonly confirmed = new Map<string, StoredFill[]>();
  private readonly trades = new Set<string>();
  /** Per order: its fills as last reported by an order (stream or order read). */
  private readonly reported = new Map<string, Reported>();
  private newest: bigint | null = null;
  private read = false;
  private sorted: StoredFill[] | null = null;

  /** A REST read of the account's trades has completed: the fills are the book's whole history. */
  get ready(): boolean {
    return this.read;
  }

  /** The newest trade a read confirmed (a later read after a resync may stop there). */
  get newestConfirmed(): bigint | null {
    return this.newest;
  }

  knowsTrade(tradeId: string): boolean {
    return this.trades.has(tradeId);
  }

  /**
   * An order as the exchange reported it, at arrival count `arrival` (the source counts every
   * report it takes). The order's list replaces the one it reported before: an order's fills only
   * grow, so the longer list is kept.
   */
  take(order: Pick<Order, 'order_id' | 'side' | 'fills'>, arrival: number): boolean {
    const fills = orderFills(order);
    const key = order.order_id.toLowerCase();
    const held = this.reported.get(key);
    if (held !== undefined && held.fills.length >= fills.length) return false;
    if (fills.length === 0) return false;
    const shown = Math.max(held?.fills.length ?? 0, this.confirmed.get(key)?.length ?? 0);
    const changed = fills.length > shown;
    this.reported.set(key, { fills, arrival });
    if (!changed || this.sorted === null) return changed;
    // The usual case, fills newer than every other: appended, not sorted again (a long day's fills
    // would otherwise be sorted once per fill). A new array: one handed out before stays as it was.
    const added = fills.slice(shown).sort(compareFills);
    const last = this.sorted.at(-1);
    this.sorted = last === undefined || compareFills(added[0]!, last) > 0 ? [...this.sorted, ...added] : null;
    return changed;
  }

  /**
   * The account's trades a read returned, oldest first, read from arrival count `since` on. A
   * complete read (`complete`) replaces what earlier reads confirmed; a read after a resync that
   * stopped at trades already confirmed adds to them. Either way the confirmed fills are then the
   * whole history as of the read's start, so an order reported before it began keeps nothing
   * beyond what the read confirmed (REST wins); one reported after keeps its further fills.
   */
  applyRead(trades: readonly AccountTrade[], since: number, complete: boolean): void {
    if (complete) {
      this.confirmed.clear();
      this.trades.clear();
      this.newest = null;
    }
    for (const trade of trades) {
      if (this.trades.has(trade.trade_id)) continue;
      this.trades.add(trade.trade_id);
      const key = trade.order_id.toLowerCase();
      const list = this.confirmed.get(key) ?? [];
      list.push({
        orderId: key,
        index: list.length,
        side: trade.account_side,
        price: trade.price,
        quantity: trade.quantity,
        fee: trade.fee,
        timestamp: trade.timestamp,
        tradeId: trade.trade_id,
        role: trade.role,
      });
      this.confirmed.set(key, list);
      if (this.newest === null || trade.timestamp > this.newest) this.newest = trade.timestamp;
    }
    for (const [key, held] of this.reported) {
      if (held.arrival < since || held.fills.length <= (this.confirmed.get(key)?.length ?? 0)) this.reported.delete(key);
    }
    this.read = true;
    this.sorted = null;
  }

  /** Every fill, oldest first: the confirmed ones, then what orders reported beyond them. */
  fills(): readonly StoredFill[] {
    if (this.sorted !== null) return this.sorted;
    const out: StoredFill[] = [];
    for (const list of this.confirmed.values()) out.push(...list);
    for (const [key, held] of this.reported) out.push(...held.fills.slice(this.confirmed.get(key)?.length ?? 0));
    out.sort(compareFills);
    this.sorted = out;
    return out;
  }

  /** Fills reported by orders that no read has confirmed yet. */
  unconfirmed(): number {
    let count = 0;
    for (const [key, held] of this.reported) count += Math.max(0, held.fills.length - (this.confirmed.get(key)?.length ?? 0));
    return count;
  }
}
