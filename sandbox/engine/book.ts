// A price-time priority order book for one market: price levels per side, FIFO inside a level.
// Pure and synchronous, fast enough for the bench (docs/sandbox.md): each side keeps its
// prices sorted worst-to-best so the best level is the last element (O(1) to read and pop),
// a level is an array with a moving head (fills consume from the front without shifting),
// and a cancelled order is only marked dead and skipped later (no search inside the level).
// Every mutation is recorded in the Journal when a transaction is open.
import type { Side } from '../../shared/market/order-type';
import type { Journal } from './journal';

/** What the book needs of an order; the ledger's order record extends it. */
export interface BookEntry {
  readonly side: Side;
  /** The price the order rests at. */
  readonly price: bigint;
  /** Base quantity still open. */
  remaining: bigint;
  /** False once filled, cancelled or closed as dust: the level skips it. */
  live: boolean;
}

export interface Level<O extends BookEntry> {
  readonly price: bigint;
  orders: O[];
  head: number;
  /** Sum of `remaining` over the live orders of the level. */
  total: bigint;
}

class BookSide<O extends BookEntry> {
  /** Worst to best: bids ascending, asks descending; the best price is last. */
  readonly prices: bigint[] = [];
  readonly levels = new Map<bigint, Level<O>>();
  /**
   * The level of the last price (the best), kept by `insertLevel` and `deleteLevel`: matching reads
   * it for every level it visits, and the map keyed by bigint hashed the price each time.
   */
  private bestLevel: Level<O> | undefined;

  constructor(private readonly isBid: boolean) {}

  /** True when `a` is a better price than `b` on this side. */
  better(a: bigint, b: bigint): boolean {
    return this.isBid ? a > b : a < b;
  }

  best(): Level<O> | undefined {
    return this.bestLevel;
  }

  /** Put `level` at `index` of the price order (every change of the levels goes through here). */
  insertLevel(index: number, level: Level<O>): void {
    this.prices.splice(index, 0, level.price);
    this.levels.set(level.price, level);
    if (index === this.prices.length - 1) this.bestLevel = level;
  }

  /** Take the level at `index` (its price `price`) out of the price order. */
  deleteLevel(index: number, price: bigint): void {
    this.prices.splice(index, 1);
    this.levels.delete(price);
    if (index === this.prices.length) {
      const best = this.prices[index - 1];
      this.bestLevel = best === undefined ? undefined : this.levels.get(best);
    }
  }

  /** Index where `price` sits (or would be inserted) in the worst-to-best array. */
  indexOf(price: bigint): number {
    let low = 0;
    let high = this.prices.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.better(price, this.prices[mid] as bigint)) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}

export type MakerDone = 'filled' | 'dust';

// Static undo functions for Journal.recordCall (no closure per fill on the matching path).
function restoreEntry(order: BookEntry, remaining: bigint): void {
  order.remaining = remaining;
  order.live = true;
}

function restoreLevel<O extends BookEntry>(level: Level<O> & { stamp?: number | undefined }, orders: O[], length: number, head: number, total: bigint): void {
  orders.length = length;
  level.orders = orders;
  level.head = head;
  level.total = total;
  level.stamp = undefined;
}

function unrestLevel<O extends BookEntry>(bookSide: BookSide<O>, index: number, price: bigint): void {
  bookSide.deleteLevel(index, price);
}

function restoreRemovedLevel<O extends BookEntry>(bookSide: BookSide<O>, index: number, level: Level<O>): void {
  bookSide.insertLevel(index, level);
}

/** Receives what matching did; called synchronously inside `match`. */
export interface FillSink<O extends BookEntry> {
  /** `maker.remaining` is already reduced by `quantity`; the fill is at the maker's price. */
  onFill(maker: O, quantity: bigint, price: bigint): void;
  /** The maker left the book: fully filled, or its remainder fell below dust. */
  onMakerDone(maker: O, reason: MakerDone, remainder: bigint): void;
}

/** Matching bounds of a taker. */
export interface TakerBounds {
  /** Worst price the taker accepts (a buy pays at most this, a sell gets at least this). */
  readonly worst: bigint;
  /** Optional best price at which execution may happen (BoundedMarket's other bound). */
  readonly best?: bigint;
}

export class OrderBook<O extends BookEntry> {
  readonly bids = new BookSide<O>(true);
  readonly asks = new BookSide<O>(false);

  constructor(
    private readonly journal: Journal,
    /** Resting remainders below this quantity leave the book. */
    private readonly dust: bigint,
  ) {}

  side(side: Side): BookSide<O> {
    return side === 'Buy' ? this.bids : this.asks;
  }

  bestBid(): bigint | undefined {
    return this.bids.prices[this.bids.prices.length - 1];
  }

  bestAsk(): bigint | undefined {
    return this.asks.prices[this.asks.prices.length - 1];
  }

  /** True when a taker on `side` with these bounds would execute against something now. */
  wouldTake(side: Side, bounds: TakerBounds): boolean {
    const level = (side === 'Buy' ? this.asks : this.bids).best();
    return level !== undefined && this.inBounds(side, level.price, bounds);
  }

  /** Quantity a taker could fill now within the bounds, counting at most up to `needed`. */
  available(side: Side, bounds: TakerBounds, needed: bigint): bigint {
    const opposite = side === 'Buy' ? this.asks : this.bids;
    let sum = 0n;
    for (let i = opposite.prices.length - 1; i >= 0 && sum < needed; i--) {
      const price = opposite.prices[i] as bigint;
      if (!this.inBounds(side, price, bounds)) break;
      sum += (opposite.levels.get(price) as Level<O>).total;
    }
    return sum;
  }

  private inBounds(side: Side, price: bigint, bounds: TakerBounds): boolean {
    if (side === 'Buy') return price <= bounds.worst && (bounds.best === undefined || price >= bounds.best);
    return price >= bounds.worst && (bounds.best === undefined || price <= bounds.best);
  }

  /**
   * Match a taker of `quantity` on `side` against the opposite side, best price first, oldest
   * first inside a level. Returns the quantity filled. The taker itself is not on the book.
   */
  match(side: Side, quantity: bigint, bounds: TakerBounds, sink: FillSink<O>): bigint {
    const opposite = side === 'Buy' ? this.asks : this.bids;
    const journal = this.journal;
    let left = quantity;
    while (left > 0n) {
      const level = opposite.best();
      if (level === undefined || !this.inBounds(side, level.price, bounds)) break;
      this.recordLevel(level);
      while (left > 0n && level.head < level.orders.length) {
        const maker = level.orders[level.head] as O;
        if (!maker.live) {
          level.head++;
          continue;
        }
        const fill = maker.remaining < left ? maker.remaining : left;
        const before = maker.remaining;
        if (journal.active) journal.recordCall(restoreEntry, maker, before);
        // A filled maker keeps the shared 0n (it is retained for reads; a computed zero would be
        // one more object per filled order for the collector to copy).
        maker.remaining = fill === before ? 0n : before - fill;
        level.total -= fill;
        left -= fill;
        sink.onFill(maker, fill, level.price);
        if (maker.remaining === 0n || maker.remaining < this.dust) {
          const remainder = maker.remaining;
          maker.live = false;
          level.total -= remainder;
          level.head++;
          sink.onMakerDone(maker, remainder === 0n ? 'filled' : 'dust', remainder);
        }
      }
      if (level.total === 0n) this.removeLevel(opposite, level);
      else this.compact(level);
    }
    return quantity - left;
  }

  /**
   * Like `match`, but only against orders `eligible` accepts (a Turbo taker fills only shared
   * quotes of the canonical book, never public orders), and at most `maxFills` makers (house
   * executions are bounded). Ineligible orders keep their place; levels are walked best first.
   * Kept apart from `match` so the public hot path pays nothing for the filter.
   */
  matchWhere(side: Side, quantity: bigint, bounds: TakerBounds, sink: FillSink<O>, eligible: (order: O) => boolean, maxFills = Number.MAX_SAFE_INTEGER): bigint {
    const opposite = side === 'Buy' ? this.asks : this.bids;
    const journal = this.journal;
    let left = quantity;
    let fills = 0;
    for (let i = opposite.prices.length - 1; i >= 0 && left > 0n && fills < maxFills; i--) {
      const level = opposite.levels.get(opposite.prices[i] as bigint) as Level<O>;
      if (!this.inBounds(side, level.price, bounds)) break;
      for (let j = level.head; j < level.orders.length && left > 0n && fills < maxFills; j++) {
        const maker = level.orders[j] as O;
        if (!maker.live || !eligible(maker)) continue;
        this.recordLevel(level);
        const fill = maker.remaining < left ? maker.remaining : left;
        const before = maker.remaining;
        if (journal.active) journal.recordCall(restoreEntry, maker, before);
        maker.remaining = before - fill;
        level.total -= fill;
        left -= fill;
        fills++;
        sink.onFill(maker, fill, level.price);
        if (maker.remaining === 0n || maker.remaining < this.dust) {
          const remainder = maker.remaining;
          maker.live = false;
          level.total -= remainder;
          sink.onMakerDone(maker, remainder === 0n ? 'filled' : 'dust', remainder);
        }
      }
      // Removing index i leaves the better-priced (already visited) and worse indices valid.
      if (level.total === 0n) this.removeLevel(opposite, level);
    }
    return quantity - left;
  }

  /** Quantity of `eligible` orders a taker could fill now within the bounds, up to `needed`. */
  availableWhere(side: Side, bounds: TakerBounds, needed: bigint, eligible: (order: O) => boolean): bigint {
    const opposite = side === 'Buy' ? this.asks : this.bids;
    let sum = 0n;
    for (let i = opposite.prices.length - 1; i >= 0 && sum < needed; i--) {
      const level = opposite.levels.get(opposite.prices[i] as bigint) as Level<O>;
      if (!this.inBounds(side, level.price, bounds)) break;
      for (const order of OrderBook.liveOrders(level)) if (eligible(order)) sum += order.remaining;
    }
    return sum;
  }

  /** Put an order on the book behind every order already at its price. */
  rest(order: O): void {
    const bookSide = this.side(order.side);
    let level = bookSide.levels.get(order.price);
    if (level === undefined) {
      const created: Level<O> = { price: order.price, orders: [], head: 0, total: 0n };
      level = created;
      const index = bookSide.indexOf(order.price);
      bookSide.insertLevel(index, created);
      if (this.journal.active) this.journal.recordCall(unrestLevel, bookSide, index, created.price);
    } else this.recordLevel(level);
    level.orders.push(order);
    level.total += order.remaining;
  }

  /**
   * Reduce a resting order filled outside `match` (a house execution fills its resting shared
   * quote against Turbo orders). Returns how it ended: still open, filled, or closed as dust.
   */
  reduce(order: O, quantity: bigint): 'open' | MakerDone {
    const level = this.side(order.side).levels.get(order.price);
    if (level === undefined || !order.live) throw new Error(`reduce: order at ${order.price} is not on the book`);
    this.recordLevel(level);
    const before = order.remaining;
    if (this.journal.active) this.journal.recordCall(restoreEntry, order, before);
    order.remaining = before - quantity;
    level.total -= quantity;
    if (order.remaining !== 0n && order.remaining >= this.dust) return 'open';
    const remainder = order.remaining;
    order.live = false;
    level.total -= remainder;
    if (level.total === 0n) this.removeLevel(this.side(order.side), level);
    return remainder === 0n ? 'filled' : 'dust';
  }

  /** Take a live order off the book (cancel, or close as dust). */
  remove(order: O): void {
    if (!order.live) return;
    const bookSide = this.side(order.side);
    const level = bookSide.levels.get(order.price);
    if (level === undefined) return;
    this.recordLevel(level);
    if (this.journal.active) this.journal.record(() => {
      order.live = true;
    });
    order.live = false;
    level.total -= order.remaining;
    if (level.total === 0n) this.removeLevel(bookSide, level);
  }

  /** Levels best first, up to `limit` (depth reads). */
  *levels(side: Side, limit = Infinity): Generator<Level<O>> {
    const bookSide = this.side(side);
    let count = 0;
    for (let i = bookSide.prices.length - 1; i >= 0 && count < limit; i--, count++) {
      yield bookSide.levels.get(bookSide.prices[i] as bigint) as Level<O>;
    }
  }

  /** Live orders of a level, oldest first. */
  static *liveOrders<O extends BookEntry>(level: Level<O>): Generator<O> {
    for (let i = level.head; i < level.orders.length; i++) {
      const order = level.orders[i] as O;
      if (order.live) yield order;
    }
  }

  private removeLevel(bookSide: BookSide<O>, level: Level<O>): void {
    const index = bookSide.indexOf(level.price);
    // indexOf returns the first index not better than the price: the level itself.
    bookSide.deleteLevel(index, level.price);
    if (this.journal.active) this.journal.recordCall(restoreRemovedLevel, bookSide, index, level);
  }

  /** Snapshot what a level mutation may change, once per level per transaction. */
  private recordLevel(level: Level<O> & { stamp?: number }): void {
    const journal = this.journal;
    if (!journal.active || level.stamp === journal.stamp) return;
    level.stamp = journal.stamp;
    // Eight slots rather than four and a {head, total} object: nothing allocated per level touched.
    journal.recordCall(restoreLevel, level, level.orders, level.orders.length, level.head, level.total);
  }

  /** Drop consumed entries at the front once they are the larger part of the array. */
  private compact(level: Level<O>): void {
    if (level.head < 32 || level.head * 2 < level.orders.length) return;
    // The journal (recordLevel) kept the old array; slicing leaves it intact for an undo.
    level.orders = level.orders.slice(level.head);
    level.head = 0;
  }
}
