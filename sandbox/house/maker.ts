// The house market maker. Per market it walks a seeded random mid price, keeps several levels
// of quotes on both sides inside the price window, and now and then takes liquidity so trades
// print at a human pace (`makerRate` per second per market). Everything goes through the same
// MarketState calls as a signed batch, one ledger transaction per step, so the streams, the
// invariants and the books see the house like any trader.
import { contractIdentity } from '../../shared/encoding/identity';
import type { Side } from '../../shared/market/order-type';
import type { Clock } from '../../shared/clock';
import { nowNanos } from '../clock';
import type { Ledger } from '../ledger/ledger';
import type { MarketState } from '../ledger/market';
import { isRevert } from '../ledger/revert';
import type { Random } from '../random';
import type { House } from './accounts';
import { createSharedOrder, executeTurboOrders } from '../turbo/matching';
import { onPriceTick, validQuantity } from './sizing';

export interface MakerOptions {
  readonly levels: number;
  /** Distance between quote levels, in parts per million of the mid. */
  readonly levelStepPpm: bigint;
  readonly quoteIntervalMs: number;
  /** Taker trades per second per market; 0 disables taking. */
  readonly takesPerSecond: number;
}

export const DEFAULT_MAKER: MakerOptions = { levels: 5, levelStepPpm: 500n, quoteIntervalMs: 2000, takesPerSecond: 2 };

interface MarketMaker {
  readonly market: MarketState;
  mid: bigint;
  readonly quotes: string[];
}

export class HouseMaker {
  private readonly books = new Map<string, MarketMaker>();
  private readonly timers: NodeJS.Timeout[] = [];
  /** Held: the mid does not walk, the house takes nothing, and every level has the same size. */
  private pinned = false;

  constructor(
    private readonly log: (line: string) => void,
    private readonly ledger: Ledger,
    private readonly house: House,
    private readonly clock: Pick<Clock, 'now'>,
    private readonly random: Random,
    private readonly nextTxId: () => string,
    private readonly options: MakerOptions = DEFAULT_MAKER,
  ) {
    for (const market of ledger.markets.values()) this.books.set(market.config.market_id, { market, mid: market.config.initialMid, quotes: [] });
  }

  /** Run a step; a bug is logged, never thrown into a timer (which would end the process). */
  private guarded(step: () => void): void {
    try {
      step();
    } catch (error) {
      this.log(`bug in the house maker: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }

  start(): void {
    for (const book of this.books.values()) this.guarded(() => this.quote(book));
    this.timers.push(setInterval(() => this.books.forEach((book) => this.guarded(() => this.walkAndQuote(book))), this.options.quoteIntervalMs));
    if (this.options.takesPerSecond > 0 && !this.pinned) {
      // One timer for every market; each fires a take with probability rate * interval.
      const intervalMs = 100;
      const chance = Math.min(1, (this.options.takesPerSecond * intervalMs) / 1000);
      this.timers.push(
        setInterval(() => {
          for (const book of this.books.values()) if (this.random.next() < chance) this.guarded(() => this.take(book));
        }, intervalMs),
      );
    }
    for (const timer of this.timers) timer.unref();
  }

  stop(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers.length = 0;
  }

  /**
   * Hold the book still (a test that trades must not depend on the timers' luck): quotes are
   * posted again at every interval, so what a test takes comes back, but at the same prices and
   * sizes, and the house takes nothing. Takes effect at the next start().
   */
  pin(pinned: boolean): void {
    this.pinned = pinned;
  }

  /** Re-centre the walk (control surface moved the price). */
  setMid(marketId: string, mid: bigint): void {
    const book = this.books.get(marketId);
    if (book === undefined) return;
    book.mid = mid;
    this.quote(book);
  }

  private walkAndQuote(book: MarketMaker): void {
    if (this.pinned) {
      this.quote(book);
      return;
    }
    const config = book.market.config;
    // A step of at most ±0.1 %, pulled back towards the start so the walk stays well inside
    // the window around the initial price.
    const step = BigInt(Math.round((this.random.next() - 0.5) * 2000));
    let mid = book.mid + (book.mid * step) / 1_000_000n;
    const limit = (config.initialMid * BigInt(config.price_window)) / 200n;
    if (mid > config.initialMid + limit) mid = config.initialMid + limit;
    if (mid < config.initialMid - limit) mid = config.initialMid - limit;
    book.mid = mid;
    this.quote(book);
  }

  /** Cancel the previous quotes and post fresh levels around the mid, in one transaction. */
  private quote(book: MarketMaker): void {
    const { market } = book;
    const link = this.ledger.turbo.get(market.config.market_id);
    const account = this.house.maker;
    const context = { account, txId: this.nextTxId(), timestamp: nowNanos(this.clock) };
    const placed: string[] = [];
    this.ledger.transact(() => {
      for (const id of book.quotes) {
        const order = market.orders.get(id);
        if (order !== undefined && !order.close) market.cancelOrder(context, id);
      }
      market.settle(context, contractIdentity(account.id));
      for (let level = 1; level <= this.options.levels; level++) {
        for (const side of ['Buy', 'Sell'] as const) {
          const offset = (book.mid * this.options.levelStepPpm * BigInt(level)) / 1_000_000n;
          const price = onPriceTick(market.config, side === 'Buy' ? book.mid - offset : book.mid + offset);
          const size = validQuantity(market.config, price, this.sizeNear(market, price));
          if (size === undefined) continue;
          // PostOnly: the house never crosses a resting order while quoting. On a market with a
          // Turbo book every quote is shared, so the Turbo book is alive too (margin 4.5).
          const args = { side, price, quantity: size, orderType: { kind: 'PostOnly' as const } };
          const order = link === undefined ? market.createOrder(context, args) : createSharedOrder(link, market, this.ledger.journal, this.ledger.changes, context, args);
          if (!isRevert(order)) placed.push(order.id);
        }
      }
      return undefined;
    });
    // Now and then (every re-quote) fill resting Turbo orders the fresh shared quotes cross.
    if (link !== undefined) {
      for (const id of placed) {
        const order = market.orders.get(id);
        if (order === undefined || order.close) continue;
        this.ledger.transact(() => executeTurboOrders(link, this.ledger.journal, this.ledger.changes, { ...context, txId: this.nextTxId() }, { sourceOrderId: id, maxBaseQuantity: order.remaining, maxFills: 5n }));
      }
    }
    book.quotes.length = 0;
    book.quotes.push(...placed);
  }

  private take(book: MarketMaker): void {
    const { market } = book;
    const side: Side = this.random.next() < 0.5 ? 'Buy' : 'Sell';
    const window = BigInt(market.config.price_window);
    const worst = onPriceTick(market.config, side === 'Buy' ? book.mid + (book.mid * window) / 200n : book.mid - (book.mid * window) / 200n);
    const size = validQuantity(market.config, worst, this.sizeNear(market, worst) / 2n);
    if (size === undefined) return;
    const context = { account: this.house.taker, txId: this.nextTxId(), timestamp: nowNanos(this.clock) };
    this.ledger.transact(() => {
      const order = market.createOrder(context, { side, price: worst, quantity: size, orderType: { kind: 'Market' } });
      if (isRevert(order)) return order;
      market.settle(context, contractIdentity(this.house.taker.id));
      return undefined;
    });
  }

  /** A base quantity worth a few times min_order, varied a little by the seeded random (not while pinned). */
  private sizeNear(market: MarketState, price: bigint): bigint {
    const factor = this.pinned ? 120n : BigInt(20 + this.random.int(200));
    return (market.config.min_order * factor * 10n ** BigInt(market.config.base.decimals)) / price;
  }
}
