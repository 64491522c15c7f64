// The house market maker. Per market it walks a seeded random mid price, keeps levels of quotes
// on both sides inside the price window, and now and then takes liquidity so trades print at a
// human pace (`makerRate` per second per market). How deep it quotes is its depth profile
// (depth-profile.ts), how the mid moves its regime (regimes.ts). Everything goes through the
// same MarketState calls as a signed batch, one ledger transaction per quote step (so one depth
// update per step), and the streams, the invariants and the books see the house like any trader.
import { contractIdentity } from '../../shared/encoding/identity';
import type { Side } from '../../shared/market/order-type';
import { powerOfTen } from '../../shared/market/market';
import type { Clock } from '../../shared/clock';
import { nowNanos } from '../clock';
import type { Ledger } from '../ledger/ledger';
import type { MarketState } from '../ledger/market';
import { isRevert } from '../ledger/revert';
import type { Random } from '../random';
import type { House } from './accounts';
import { createSharedOrder, executeTurboOrders } from '../turbo/matching';
import { onPriceTick, validQuantity } from './sizing';
import { FULL_PPM, ladder, REALISTIC_SHAPE, REFILL_INTERVALS, type LadderShape, type MakerProfileName } from './depth-profile';
import { regimeShape, REGIMES, stepPpm, type MakerRegimeName, type Regime } from './regimes';

export interface MakerOptions {
  /** Levels a side of the thin-legacy profile. */
  readonly levels: number;
  /** Distance between the thin-legacy profile's levels, in parts per million of the mid. */
  readonly levelStepPpm: bigint;
  /** Taker trades per second per market; 0 disables taking. */
  readonly takesPerSecond: number;
  readonly profile: MakerProfileName;
  readonly regime: MakerRegimeName;
}

export const DEFAULT_MAKER: MakerOptions = { levels: 5, levelStepPpm: 500n, takesPerSecond: 2, profile: 'realistic', regime: 'normal' };

/** Quote steps one clock advance may run at most (an advance of hours must not stall the sandbox). */
export const MAX_STEPS_PER_ADVANCE = 100;

interface PostedQuote {
  readonly side: Side;
  readonly level: number;
  /** What rested after the step that placed or kept it. */
  readonly quantity: bigint;
}

interface MarketMaker {
  readonly market: MarketState;
  mid: bigint;
  /** Order ids of the thin-legacy quotes. */
  readonly quotes: string[];
  /** Quotes of a depth profile by order id (what the refill model compares with what is left). */
  readonly posted: Map<string, PostedQuote>;
  /** Share of each level the book quotes now, ppm of its full size, by side and level. */
  readonly available: Record<Side, bigint[]>;
}

export class HouseMaker {
  private readonly books = new Map<string, MarketMaker>();
  private readonly timers: NodeJS.Timeout[] = [];
  /** Held: the mid does not walk, the house takes nothing (thin-legacy: every level the same size). */
  private pinned = false;
  private profile: MakerProfileName;
  private regimeName: MakerRegimeName;
  /** Whether the timers run (start() to stop()). */
  private running = false;
  /** Sandbox-clock time advanced since the last quote step it ran, in ms. */
  private advancedMs = 0;
  /** Steps only when the sandbox clock is advanced: no wall timers, no house takes (tests). */
  private clockDriven = false;

  constructor(
    private readonly log: (line: string) => void,
    private readonly ledger: Ledger,
    private readonly house: House,
    private readonly clock: Pick<Clock, 'now'>,
    private readonly random: Random,
    private readonly nextTxId: () => string,
    private readonly options: MakerOptions = DEFAULT_MAKER,
  ) {
    this.profile = options.profile;
    this.regimeName = options.regime;
    for (const market of ledger.markets.values()) this.books.set(market.config.market_id, { market, mid: market.config.initialMid, quotes: [], posted: new Map(), available: { Buy: [], Sell: [] } });
  }

  /** The profile, the regime and whether the book is held, as the control surface reports them. */
  get state(): { readonly profile: MakerProfileName; readonly regime: MakerRegimeName; readonly pinned: boolean; readonly clockDriven: boolean; readonly running: boolean } {
    return { profile: this.profile, regime: this.regimeName, pinned: this.pinned, clockDriven: this.clockDriven, running: this.running };
  }

  private get regime(): Regime {
    return REGIMES[this.regimeName];
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
    this.running = true;
    this.advancedMs = 0;
    for (const book of this.books.values()) this.guarded(() => this.quote(book));
    if (this.clockDriven) return;
    this.timers.push(setInterval(() => this.step(), this.regime.quoteIntervalMs));
    const takesPerSecond = this.options.takesPerSecond * this.regime.takeRateFactor;
    if (takesPerSecond > 0 && !this.pinned) {
      // One timer for every market; each tick takes rate * interval times on average: the whole
      // part every tick, the rest with that probability (so a rate above 10 a second is kept, and
      // a rate up to 10 draws the same random numbers as it always did).
      const intervalMs = 100;
      const expected = (takesPerSecond * intervalMs) / 1000;
      const whole = Math.floor(expected);
      const chance = expected - whole;
      this.timers.push(
        setInterval(() => {
          for (const book of this.books.values()) {
            for (let take = 0; take < whole; take++) this.guarded(() => this.take(book));
            if (chance > 0 && this.random.next() < chance) this.guarded(() => this.take(book));
          }
        }, intervalMs),
      );
    }
    for (const timer of this.timers) timer.unref();
  }

  stop(): void {
    this.running = false;
    for (const timer of this.timers) clearInterval(timer);
    this.timers.length = 0;
  }

  /** One quote step on every book: walk (unless pinned) and quote. */
  private step(): void {
    this.books.forEach((book) => this.guarded(() => this.walkAndQuote(book)));
  }

  /**
   * The sandbox clock moved forward by `ms` (control surface): a running maker takes the quote
   * steps that time holds (at most MAX_STEPS_PER_ADVANCE), so a test drives the regime with the
   * clock instead of waiting on wall time. The thin-legacy profile steps on wall time only, as
   * the maker always did (so the books of tests that move the clock stay as they were), unless
   * the maker is clock-driven.
   */
  advanceClock(ms: number): number {
    if (!this.running || (this.profile === 'thin-legacy' && !this.clockDriven)) return 0;
    this.advancedMs += ms;
    const interval = this.regime.quoteIntervalMs;
    const due = Math.floor(this.advancedMs / interval);
    this.advancedMs -= due * interval;
    const steps = Math.min(due, MAX_STEPS_PER_ADVANCE);
    for (let i = 0; i < steps; i++) this.step();
    return steps;
  }

  /** Change the profile, the regime and what drives the steps; takes effect at the next start(). */
  configure(change: { readonly profile?: MakerProfileName | undefined; readonly regime?: MakerRegimeName | undefined; readonly clockDriven?: boolean | undefined }): void {
    if (change.profile !== undefined) this.profile = change.profile;
    if (change.regime !== undefined) this.regimeName = change.regime;
    if (change.clockDriven !== undefined) this.clockDriven = change.clockDriven;
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
    // The regime's step (normal: at most ±0.1 %), held within half the price window around the
    // initial price, where a trend stops.
    const step = stepPpm(this.regime, this.random.next());
    let mid = book.mid + (book.mid * step) / 1_000_000n;
    const limit = (config.initialMid * BigInt(config.price_window)) / 200n;
    if (mid > config.initialMid + limit) mid = config.initialMid + limit;
    if (mid < config.initialMid - limit) mid = config.initialMid - limit;
    book.mid = mid;
    this.quote(book);
  }

  private quote(book: MarketMaker): void {
    if (this.profile === 'thin-legacy') this.quoteLegacy(book);
    else this.quoteProfile(book, REALISTIC_SHAPE);
  }

  /** Cancel the previous quotes and post fresh levels around the mid, in one transaction. */
  private quoteLegacy(book: MarketMaker): void {
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
      for (const id of book.posted.keys()) {
        const order = market.orders.get(id);
        if (order !== undefined && !order.close) market.cancelOrder(context, id);
      }
      book.posted.clear();
      market.settle(context, contractIdentity(account.id));
      const levels = this.regime.levelsPpm === FULL_PPM ? this.options.levels : Math.max(3, Number((BigInt(this.options.levels) * this.regime.levelsPpm) / FULL_PPM));
      for (let level = 1; level <= levels; level++) {
        for (const side of ['Buy', 'Sell'] as const) {
          const offset = (book.mid * this.options.levelStepPpm * BigInt(level)) / 1_000_000n;
          const price = onPriceTick(market.config, side === 'Buy' ? book.mid - offset : book.mid + offset);
          const size = validQuantity(market.config, price, (this.sizeNear(market, price) * this.regime.sizePpm) / FULL_PPM);
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
    this.executeTurbo(book, placed, context);
    book.quotes.length = 0;
    book.quotes.push(...placed);
  }

  /** Now and then (every re-quote) fill resting Turbo orders the fresh shared quotes cross. */
  private executeTurbo(book: MarketMaker, placed: readonly string[], context: { readonly account: House['maker']; readonly txId: string; readonly timestamp: bigint }): void {
    const { market } = book;
    const link = this.ledger.turbo.get(market.config.market_id);
    if (link === undefined) return;
    for (const id of placed) {
      const order = market.orders.get(id);
      if (order === undefined || order.close) continue;
      this.ledger.transact(() => executeTurboOrders(link, this.ledger.journal, this.ledger.changes, { ...context, txId: this.nextTxId() }, { sourceOrderId: id, maxBaseQuantity: order.remaining, maxFills: 5n }));
    }
  }

  /**
   * A depth profile's step, in one transaction (one depth update): each level's share refills
   * by 1/REFILL_INTERVALS of what was taken from it, so a trader who takes a level sees it come
   * back over the next steps; a quote whose price and size stay is left resting, the rest are
   * cancelled and posted afresh.
   */
  private quoteProfile(book: MarketMaker, profileShape: LadderShape): void {
    const { market } = book;
    const shape = regimeShape(profileShape, this.regime);
    this.refill(book, profileShape.levels);
    const wanted = ladder(market.config, book.mid, shape, (side, level) => book.available[side][level] ?? FULL_PPM);
    const link = this.ledger.turbo.get(market.config.market_id);
    const account = this.house.maker;
    const context = { account, txId: this.nextTxId(), timestamp: nowNanos(this.clock) };
    const placed: string[] = [];
    const posted = new Map<string, PostedQuote>();
    this.ledger.transact(() => {
      const keep = new Map<string, string>();
      for (const [id, quote] of book.posted) {
        const order = market.orders.get(id);
        if (order === undefined || order.close) continue;
        keep.set(`${quote.side}|${order.price}|${order.remaining}`, id);
      }
      for (const id of book.quotes) {
        const order = market.orders.get(id);
        if (order !== undefined && !order.close) market.cancelOrder(context, id);
      }
      book.quotes.length = 0;
      const fresh: typeof wanted = [];
      for (const quote of wanted) {
        const key = `${quote.side}|${quote.price}|${quote.quantity}`;
        const id = keep.get(key);
        if (id === undefined) fresh.push(quote);
        else {
          keep.delete(key);
          posted.set(id, { side: quote.side, level: quote.level, quantity: quote.quantity });
        }
      }
      for (const id of keep.values()) market.cancelOrder(context, id);
      market.settle(context, contractIdentity(account.id));
      for (const quote of fresh) {
        const args = { side: quote.side, price: quote.price, quantity: quote.quantity, orderType: { kind: 'PostOnly' as const } };
        const order = link === undefined ? market.createOrder(context, args) : createSharedOrder(link, market, this.ledger.journal, this.ledger.changes, context, args);
        if (isRevert(order)) continue;
        placed.push(order.id);
        posted.set(order.id, { side: quote.side, level: quote.level, quantity: quote.quantity });
      }
      return undefined;
    });
    book.posted.clear();
    for (const [id, quote] of posted) book.posted.set(id, quote);
    this.executeTurbo(book, placed, context);
  }

  /** What was taken from each level since the last step leaves its share; a refill adds to it. */
  private refill(book: MarketMaker, levels: number): void {
    const taken: Record<Side, Map<number, { quantity: bigint; left: bigint }>> = { Buy: new Map(), Sell: new Map() };
    for (const [id, quote] of book.posted) {
      const order = book.market.orders.get(id);
      const left = order === undefined || order.close ? 0n : order.remaining;
      taken[quote.side].set(quote.level, { quantity: quote.quantity, left });
    }
    // Rounded up: a level taken whole is full again after exactly REFILL_INTERVALS steps.
    const step = (FULL_PPM + BigInt(REFILL_INTERVALS) - 1n) / BigInt(REFILL_INTERVALS);
    for (const side of ['Buy', 'Sell'] as const) {
      const shares = book.available[side];
      for (let level = 0; level < levels; level++) {
        let share = shares[level] ?? FULL_PPM;
        const quote = taken[side].get(level);
        if (quote !== undefined && quote.left < quote.quantity) share = (share * quote.left) / quote.quantity;
        if (share < FULL_PPM) share = share + step >= FULL_PPM ? FULL_PPM : share + step;
        shares[level] = share;
      }
    }
  }

  private take(book: MarketMaker): void {
    const { market } = book;
    const side: Side = this.random.next() < 0.5 ? 'Buy' : 'Sell';
    const window = BigInt(market.config.price_window);
    const worst = onPriceTick(market.config, side === 'Buy' ? book.mid + (book.mid * window) / 200n : book.mid - (book.mid * window) / 200n);
    const size = validQuantity(market.config, worst, this.profile === 'thin-legacy' ? this.sizeNear(market, worst) / 2n : this.takeSize(book));
    if (size === undefined) return;
    const context = { account: this.house.taker, txId: this.nextTxId(), timestamp: nowNanos(this.clock) };
    this.ledger.transact(() => {
      const order = market.createOrder(context, { side, price: worst, quantity: size, orderType: { kind: 'Market' } });
      if (isRevert(order)) return order;
      market.settle(context, contractIdentity(this.house.taker.id));
      return undefined;
    });
    // The house's own flow is not a trader's impact: what it took comes back whole at the next
    // step (as on a venue whose makers refill small flow at once), so only a trader's orders
    // leave levels refilling over several steps.
    for (const [id, quote] of book.posted) {
      const order = market.orders.get(id);
      const left = order === undefined || order.close ? 0n : order.remaining;
      if (left < quote.quantity) book.posted.set(id, { ...quote, quantity: left });
    }
  }

  /** A depth profile's take: a tenth of the inside level up to the regime's multiple of it, so some takes walk the book. */
  private takeSize(book: MarketMaker): bigint {
    const shape = regimeShape(REALISTIC_SHAPE, this.regime);
    const inside = (shape.insideValue * powerOfTen(book.market.config.quote.decimals) * powerOfTen(book.market.config.base.decimals)) / book.mid;
    const percent = 10 + this.random.int(Math.max(1, Math.round(this.regime.takeSizeFactor * 100) - 10));
    return (inside * BigInt(percent)) / 100n;
  }

  /** A base quantity worth a few times min_order, varied a little by the seeded random (not while pinned). */
  private sizeNear(market: MarketState, price: bigint): bigint {
    const factor = this.pinned ? 120n : BigInt(20 + this.random.int(200));
    return (market.config.min_order * factor * 10n ** BigInt(market.config.base.decimals)) / price;
  }
}
