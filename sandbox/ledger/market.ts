// One market's on-chain state: its book, its orders, the funds accounts keep inside it
// (locked by open orders or unlocked), the fees it collected, its trades. Applies CreateOrder,
// CancelOrder and SettleBalance with the spec's rules; every mutation goes through the
// journal so the caller can roll a whole batch back.
import type { B256 } from '../../shared/encoding/b256';
import { contractIdentity, identitiesEqual, type Identity } from '../../shared/encoding/identity';
import { feeOwed, quoteValue } from '../../shared/market/amounts';
import { powerOfTen } from '../../shared/market/market';
import type { OrderType, Side } from '../../shared/market/order-type';
import { checkOrder, ORDER_CODES } from '../../shared/market/validate-order';
import type { MarketConfig } from '../config/network';
import { OrderBook, type FillSink, type MakerDone } from '../engine/book';
import type { PlacementBook } from '../engine/placement';
import type { Journal } from '../engine/journal';
import { bookPrice, placementRevert, placeOrder } from '../engine/placement';
import type { ActionContext } from './action-context';
import { BookBalance } from './balances';
import type { ChangeSet } from './changes';
import { AccountOrders, OrderIndex } from './order-index';
import { addFill, addHistory, isCancelled, touchOrder, type OrderRecord } from './orders';
import { revert, type Revert } from './revert';
import { BarSeries } from '../market-data/bars';
import { TriggerBook } from '../triggers/book';
import { TRIGGER_CANCEL_REASONS, type TriggerRecord } from '../triggers/records';
import { blockId, BoundedLog, tradeTotal, type Trade } from './trades';

/** Trades kept per market for REST reads; older ones drop off (bars keep the history). */
export const TRADE_LOG_CAPACITY = 20_000;
/** Trades kept per account per market for trades_by_account. */
export const ACCOUNT_TRADE_CAPACITY = 5_000;
/** Closed orders kept per market for GET /v1/order(s); the oldest closed are forgotten first. */
export const CLOSED_ORDER_CAPACITY = 50_000;
/** The house re-quotes constantly: its closed orders get their own, smaller queue. */
export const CLOSED_HOUSE_ORDER_CAPACITY = 2_000;

/**
 * Closed orders in closing order; forgets the oldest past its capacity. A ring: once full, the
 * oldest order's slot takes the newest (no array regrown or shifted).
 */
export class RetentionQueue {
  private readonly items: OrderRecord[] = [];
  private head = 0;
  constructor(
    private readonly capacity: number,
    private readonly forget: (order: OrderRecord) => void,
  ) {}

  push(order: OrderRecord): void {
    const items = this.items;
    if (items.length < this.capacity) {
      items.push(order);
      return;
    }
    this.forget(items[this.head] as OrderRecord);
    items[this.head] = order;
    this.head = this.head + 1 === this.capacity ? 0 : this.head + 1;
  }
}

export interface NewOrder {
  readonly side: Side;
  readonly price: bigint;
  readonly quantity: bigint;
  readonly orderType: OrderType;
}

/** How an order is placed when it is not a plain order on this market's own book. */
export interface PlacementOptions {
  /** Where the order takes and rests (a Turbo order takes from shared quotes, rests here). */
  readonly venue?: PlacementBook<OrderRecord>;
  /** Who settles its fills (a Turbo fill moves money between two books). */
  readonly sink?: FillSink<OrderRecord>;
  /** CreateSharedOrder: a canonical quote that Turbo takers may fill too. */
  readonly shared?: boolean;
  /** Runs after the lock and before matching (a Spot shared order first fills crossed Turbo orders). */
  readonly beforeMatch?: (order: OrderRecord) => void;
}

/** Contract error names for the shared pre-flight codes (docs/sandbox.md). */
export const REASONS: Readonly<Record<string, string>> = {
  [ORDER_CODES.ZERO_QUANTITY]: 'InvalidQuantity',
  [ORDER_CODES.ZERO_PRICE]: 'InvalidPrice',
  [ORDER_CODES.PRICE_PRECISION]: 'PricePrecision',
  [ORDER_CODES.QUANTITY_PRECISION]: 'QuantityPrecision',
  [ORDER_CODES.BOUNDS]: 'InvalidBounds',
  [ORDER_CODES.FRACTIONAL_PRICE]: 'FractionalPrice',
  [ORDER_CODES.MIN_ORDER]: 'OrderBelowMinimum',
  [ORDER_CODES.DUST]: 'DustOrder',
  [ORDER_CODES.AMOUNT_TOO_LARGE]: 'Overflow',
};


/** The options of a plain order (one object, not a new `{}` per placement). */
const NO_OPTIONS: PlacementOptions = Object.freeze({});

/** Undo of `register` (static: no closure per order). */
function unregister(orders: OrderIndex, mine: AccountOrders, order: OrderRecord): void {
  orders.delete(order);
  mine.delete(order);
}

/** Every method that returns a Revert returns it before changing anything. */
export class MarketState implements FillSink<OrderRecord> {
  readonly book: OrderBook<OrderRecord>;
  /** Every open order and the most recent closed ones, by id. */
  readonly orders: OrderIndex;
  /** Per trading account, its orders in placement order. */
  readonly ordersByAccount = new Map<string, AccountOrders>();
  readonly trades = new BoundedLog<Trade>(TRADE_LOG_CAPACITY);
  /** Per trading account, the trades it took part in (bounded per account). */
  readonly tradesByAccount = new Map<string, BoundedLog<Trade>>();
  readonly bars = new BarSeries();
  readonly balances = new Map<string, BookBalance>();
  /** Trigger legs resting off the book with their escrow (sandbox/triggers). */
  readonly triggers: TriggerBook;
  feesBase = 0n;
  feesQuote = 0n;
  lastPrice: bigint | undefined;
  /** Set by the control surface; creates are refused while paused (margin 7). */
  paused = false;
  /** Forget a closed order past the retention capacity (one function for the market's life). */
  private readonly forgetOrder = (old: OrderRecord): void => {
    this.orders.delete(old);
    this.ordersByAccount.get(old.account)?.delete(old);
  };
  private readonly closed = new RetentionQueue(CLOSED_ORDER_CAPACITY, this.forgetOrder);
  private readonly closedHouse = new RetentionQueue(CLOSED_HOUSE_ORDER_CAPACITY, this.forgetOrder);
  private orderSequence = 0;
  private tradeSequence = 0;
  private countersStamp = -1;
  /** The order being matched and its transaction, while placeOrder runs. */
  private taker: OrderRecord | undefined;
  private fillContext: ActionContext | undefined;
  private readonly idPrefix: string;
  /** Per id kind (order, trade, trigger): the block of 4096 sequences last issued and its id prefix. */
  private readonly idBlocks = [-1, -1, -1];
  private readonly idBlockPrefixes = ['', '', ''];
  private readonly baseScale: bigint;
  /** The price window's bounds for `windowReference` and `windowPercent` (outsideWindow). */
  private windowReference: bigint | undefined;
  private windowPercent = 0;
  private windowLow = 0n;
  private windowHigh = 0n;

  constructor(
    readonly config: MarketConfig,
    private readonly journal: Journal,
    private readonly changes: ChangeSet,
    private readonly isHouse: (account: string) => boolean = () => false,
    /** This is a Turbo book (its orders rest here and take only shared quotes). */
    readonly turbo = false,
  ) {
    this.book = new OrderBook<OrderRecord>(journal, config.dust);
    // Order and trade ids: the book's id with a counter in the low 8 bytes. Unique, stable
    // for a seed, and cheap (no hash on the hot path).
    this.idPrefix = config.contract_id.slice(0, 50);
    this.orders = new OrderIndex(`${this.idPrefix}00`);
    this.baseScale = powerOfTen(config.base.decimals);
    this.triggers = new TriggerBook(config, journal, changes, (account) => this.balanceOf(account));
  }

  balanceOf(account: string): BookBalance {
    let balance = this.balances.get(account);
    if (balance === undefined) {
      balance = new BookBalance(this.journal);
      this.balances.set(account, balance);
      if (this.journal.active) this.journal.record(() => this.balances.delete(account));
    }
    return balance;
  }

  /** The price the window is centred on: the last trade, else the mid, else none. */
  referencePrice(): bigint | undefined {
    if (this.lastPrice !== undefined) return this.lastPrice;
    const bid = this.book.bestBid();
    const ask = this.book.bestAsk();
    if (bid !== undefined && ask !== undefined) return (bid + ask) / 2n;
    return bid ?? ask;
  }

  /**
   * True when `price` is more than `window` percent away from `reference`: |price - reference| * 100
   * > reference * window. For a whole distance that is distance > floor(reference * window / 100),
   * so the bounds are computed once per reference price and window (the reference moves only with
   * a trade) and an order costs two comparisons.
   */
  outsideWindow(price: bigint, reference: bigint, window: number): boolean {
    if (reference !== this.windowReference || window !== this.windowPercent) {
      const reach = (reference * BigInt(window)) / 100n;
      this.windowReference = reference;
      this.windowPercent = window;
      this.windowLow = reference - reach;
      this.windowHigh = reference + reach;
    }
    return price > this.windowHigh || price < this.windowLow;
  }

  /** The first 63 characters of the ids of `sequence`'s block of 4096 (built once per block). */
  private idBlock(sequence: number, kind: number): string {
    const block = Math.floor(sequence / 4096);
    if (this.idBlocks[kind] !== block) {
      this.idBlocks[kind] = block;
      this.idBlockPrefixes[kind] = `${this.idPrefix}${kind.toString(16).padStart(2, '0')}${block.toString(16).padStart(11, '0')}`;
    }
    return this.idBlockPrefixes[kind] as string;
  }

  private nextId(sequence: number, kind: number): B256 {
    return blockId(this.idBlock(sequence, kind), sequence);
  }

  /** The sequence of the last trade printed on this book (trigger legs watch the trades after it). */
  get lastTradeSequence(): number {
    return this.tradeSequence;
  }

  /** A fresh trigger id (kind 2 in the id scheme) and its sequence, inside a transaction. */
  nextTrigger(): { id: B256; sequence: number } {
    const sequence = this.triggers.nextSequence();
    return { id: this.nextId(sequence, 2), sequence };
  }

  createOrder(context: ActionContext, args: NewOrder, options: PlacementOptions = NO_OPTIONS): OrderRecord | Revert {
    const venue = options.venue ?? this.book;
    const { account } = context;
    const config = this.config;
    if (config.whitelistRequired && !account.whitelisted) {
      return revert('TraderNotWhiteListed', `trade account ${account.id} is not whitelisted on market ${config.market_id}`);
    }
    // validateOrder's rules without its intent and result objects (checkOrder): the order's value.
    const value = checkOrder(config, args.side, args.price, args.quantity, args.orderType);
    if (typeof value !== 'bigint') return revert(REASONS[value.code] ?? value.code, value.message);
    const windowed = !account.house && args.orderType.kind !== 'Market' && args.orderType.kind !== 'BoundedMarket';
    if (windowed && config.price_window > 0) {
      const reference = this.referencePrice();
      if (reference !== undefined && this.outsideWindow(args.price, reference, config.price_window)) {
        return revert('PriceOutsideWindow', `price ${args.price} is more than ${config.price_window}% away from the reference price ${reference}`);
      }
    }
    // What it forwards (and locks): the value for a buy, the quantity for a sell (as validateOrder's `forwarded`).
    const asset = args.side === 'Buy' ? config.quote.asset : config.base.asset;
    const amount = args.side === 'Buy' ? value : args.quantity;
    const available = account.balances.get(asset);
    if (available < amount) {
      return revert('InsufficientBalance', `trade account ${account.id} holds ${available} of asset ${asset}, the order forwards ${amount}`);
    }
    // Every revert is decided before the first mutation, so a Revert leaves this market as it was.
    const restingPrice = bookPrice(args.side, args.price, args.orderType);
    const refused = placementRevert(venue, args.side, restingPrice, args.quantity, args.orderType);
    if (refused?.kind === 'revert') return revert(refused.reason, refused.message);
    this.touchCounters();
    account.balances.add(asset, -amount);
    const balance = this.balanceOf(account.id).touch();
    if (args.side === 'Buy') balance.quoteLocked += amount;
    else balance.baseLocked += amount;

    const sequence = ++this.orderSequence;
    const order: OrderRecord = {
      id: this.nextId(sequence, 0),
      marketId: config.market_id,
      account: account.id,
      side: args.side,
      price: restingPrice,
      remaining: args.quantity,
      live: true,
      orderType: args.orderType,
      quantity: args.quantity,
      timestamp: context.timestamp,
      sequence,
      lockedRemaining: amount,
      close: false,
      createdTx: context.txId,
      history: undefined,
      fills: undefined,
      stamp: this.journal.stamp,
    };
    // Set after the literal: a spread in it copies through the runtime's slow path on every order.
    if (options.shared === true) (order as { shared?: boolean }).shared = true;
    if (this.turbo) (order as { turbo?: boolean }).turbo = true;
    this.register(order);
    options.beforeMatch?.(order);
    // The market itself is the fill sink (no closures per order): it reads the taker from here.
    this.taker = order;
    this.fillContext = context;
    let placement: ReturnType<typeof placeOrder>;
    try {
      placement = placeOrder(venue, order, args.orderType, config.dust, options.sink ?? this, true);
    } finally {
      this.taker = undefined;
      this.fillContext = undefined;
    }
    if (placement.kind === 'revert') return revert(placement.reason, placement.message);
    if (placement.rested) {
      // Untouched (its whole quantity at the price it was valued at, its whole lock), a buy locks
      // exactly what its remainder can spend: `amount` is floor(price * quantity / scale), which is
      // what releaseExcess would compute, so it would release nothing (and allocate two bigints).
      if (order.remaining !== args.quantity || order.price !== args.price || order.lockedRemaining !== amount) this.releaseExcess(order, balance);
    } else {
      order.close = true;
      // A market order's dropped rest cancels it (isCancelled reads it from this entry).
      const cancelled = placement.dropped > 0n && (args.orderType.kind === 'Market' || args.orderType.kind === 'BoundedMarket');
      addHistory(order, cancelled ? 'cancel' : 'close', context.txId);
      this.unlock(order, balance);
    }
    balance.check();
    this.changes.orders.add(order);
    this.changes.balances.add(account.id);
    this.changes.depth.add(config.market_id);
    return order;
  }

  /**
   * `cancel_order`: an order, or a pending trigger leg (CancelTriggerOrder is the same call). The
   * legs bound to a cancelled order are cancelled with it.
   */
  cancelOrder(context: ActionContext, orderId: string): OrderRecord | TriggerRecord | Revert {
    const order = this.orders.get(orderId);
    const trigger = order === undefined ? this.triggers.byId.get(orderId) : undefined;
    if (trigger !== undefined && trigger.account === context.account.id) {
      if (trigger.state !== 'pending') return revert('OrderNotFound', `trigger ${orderId} is no longer pending (${trigger.state})`);
      this.triggers.cancel(trigger, TRIGGER_CANCEL_REASONS.CANCELLED, context);
      return trigger;
    }
    if (order === undefined || order.account !== context.account.id) {
      return revert('OrderNotFound', `order ${orderId} is not an order of trade account ${context.account.id} on market ${this.config.market_id}`);
    }
    if (order.close) {
      return revert('OrderNotFound', `order ${orderId} is no longer open (${isCancelled(order) ? 'cancelled' : 'filled'})`);
    }
    touchOrder(this.journal, order);
    this.book.remove(order);
    order.close = true;
    addHistory(order, 'cancel', context.txId);
    this.unlock(order, this.balanceOf(order.account).touch());
    this.triggers.onParentCancelled(order, context);
    this.changes.orders.add(order);
    this.changes.balances.add(order.account);
    this.changes.depth.add(this.config.market_id);
    return order;
  }

  /** Move the account's unlocked funds in this book back to the account (SettleBalance). */
  settle(context: ActionContext, to: Identity): Revert | undefined {
    const { account } = context;
    if (!identitiesEqual(to, contractIdentity(account.id))) {
      return revert('Unauthorized', `SettleBalance: funds settle to the trade account ${account.id} only, got ${JSON.stringify(to)}`);
    }
    const balance = this.balances.get(account.id);
    if (balance === undefined || (balance.baseUnlocked === 0n && balance.quoteUnlocked === 0n)) return undefined;
    balance.touch();
    account.balances.add(this.config.base.asset, balance.baseUnlocked);
    account.balances.add(this.config.quote.asset, balance.quoteUnlocked);
    balance.baseUnlocked = 0n;
    balance.quoteUnlocked = 0n;
    this.changes.balances.add(account.id);
    return undefined;
  }

  /** After commit: fold a committed trade into the read models (log, per account, bars). */
  recordCommittedTrade(trade: Trade): void {
    this.trades.push(trade);
    this.accountTrades(trade.makerAccount).push(trade);
    if (trade.takerAccount !== trade.makerAccount) this.accountTrades(trade.takerAccount).push(trade);
    this.bars.addAt(trade.timestamp, trade.price, trade.quantity, tradeTotal(trade));
  }

  private accountTrades(account: string): BoundedLog<Trade> {
    let log = this.tradesByAccount.get(account);
    if (log === undefined) {
      log = new BoundedLog<Trade>(ACCOUNT_TRADE_CAPACITY);
      this.tradesByAccount.set(account, log);
    }
    return log;
  }

  /** After commit: forget the oldest closed orders past the retention capacity. */
  retain(order: OrderRecord): void {
    if (!order.close) return;
    (this.isHouse(order.account) ? this.closedHouse : this.closed).push(order);
  }

  private register(order: OrderRecord): void {
    this.orders.add(order);
    let mine = this.ordersByAccount.get(order.account);
    if (mine === undefined) {
      mine = new AccountOrders();
      this.ordersByAccount.set(order.account, mine);
    }
    mine.add(order);
    if (this.journal.active) this.journal.recordCall(unregister, this.orders, mine, order);
  }

  /** Return what an order still locks to its owner's unlocked funds in this book. */
  unlock(order: OrderRecord, balance: BookBalance): void {
    const amount = order.lockedRemaining;
    // The shared 0n even when nothing is left to unlock (a computed zero is one more retained object).
    order.lockedRemaining = 0n;
    if (amount === 0n) return;
    if (order.side === 'Buy') {
      balance.quoteLocked -= amount;
      balance.quoteUnlocked += amount;
    } else {
      balance.baseLocked -= amount;
      balance.baseUnlocked += amount;
    }
  }

  /** A buy that filled below its price keeps locked only what its remainder can spend. */
  releaseExcess(order: OrderRecord, balance: BookBalance): void {
    if (order.side !== 'Buy') return;
    const needed = quoteValue(this.config, order.price, order.remaining);
    const excess = order.lockedRemaining - needed;
    if (excess <= 0n) return;
    order.lockedRemaining = needed;
    balance.quoteLocked -= excess;
    balance.quoteUnlocked += excess;
  }

  /** FillSink: a fill of the current taker against `maker` (matching calls it synchronously). */
  onFill(maker: OrderRecord, quantity: bigint, price: bigint): void {
    const taker = this.taker as OrderRecord;
    const context = this.fillContext as ActionContext;
    const journal = this.journal;
    const config = this.config;
    touchOrder(journal, maker);
    const quote = (price * quantity) / this.baseScale;
    const buyer = taker.side === 'Buy' ? taker : maker;
    const seller = taker.side === 'Buy' ? maker : taker;
    const buyerFee = feeOwed(quantity, buyer === taker ? config.taker_fee : config.maker_fee);
    const sellerFee = feeOwed(quote, seller === taker ? config.taker_fee : config.maker_fee);
    const buyerBalance = this.balanceOf(buyer.account).touch();
    const sellerBalance = buyer.account === seller.account ? buyerBalance : this.balanceOf(seller.account).touch();
    buyer.lockedRemaining -= quote;
    buyerBalance.quoteLocked -= quote;
    buyerBalance.baseUnlocked += quantity - buyerFee;
    seller.lockedRemaining -= quantity;
    sellerBalance.baseLocked -= quantity;
    sellerBalance.quoteUnlocked += quote - sellerFee;
    this.feesBase += buyerFee;
    this.feesQuote += sellerFee;
    buyerBalance.feesPaidBase += buyerFee;
    sellerBalance.feesPaidQuote += sellerFee;
    const tradeSequence = ++this.tradeSequence;
    // The trade keeps the rates and the scale (shared bigints), not its total and fees: they are
    // computed again on read (tradeTotal, tradeMakerFee, tradeTakerFee), exactly as here.
    const trade: Trade = {
      idBlock: this.idBlock(tradeSequence, 1),
      marketId: config.market_id,
      sequence: tradeSequence,
      side: taker.side,
      quantity,
      price,
      scale: this.baseScale,
      timestamp: context.timestamp,
      makerOrderId: maker.id,
      takerOrderId: taker.id,
      makerAccount: maker.account,
      takerAccount: taker.account,
      makerFeePpm: config.maker_fee,
      takerFeePpm: config.taker_fee,
      txId: context.txId,
    };
    // Each side's fill is this trade seen from that side (orderFills): no copy per side.
    addFill(maker, trade);
    addFill(taker, trade);
    this.recordTrade(trade);
    this.changes.orders.add(maker);
    this.changes.balances.add(maker.account);
  }

  /** FillSink: the maker left the book (filled, or its remainder fell below dust). */
  onMakerDone(maker: OrderRecord, reason: MakerDone): void {
    const context = this.fillContext as ActionContext;
    maker.close = true;
    if (reason === 'dust') addHistory(maker, 'close', context.txId);
    this.unlock(maker, this.balanceOf(maker.account).touch());
  }

  /** A fresh trade sequence and its id block (counters must be touched in this transaction). */
  nextTrade(): { idBlock: string; sequence: number } {
    const sequence = ++this.tradeSequence;
    return { idBlock: this.idBlock(sequence, 1), sequence };
  }

  recordTrade(trade: Trade): void {
    this.lastPrice = trade.price;
    this.changes.trades.push(trade);
  }

  /** Snapshot fees, counters and the last price once per transaction before they change. */
  touchCounters(): void {
    const journal = this.journal;
    if (!journal.active || this.countersStamp === journal.stamp) return;
    this.countersStamp = journal.stamp;
    journal.recordCall(MarketState.restoreCounters, this, this.feesBase, this.feesQuote, this.orderSequence, this.tradeSequence, this.lastPrice);
  }

  /** Undo of touchCounters (static: no closure per transaction). */
  private static restoreCounters(market: MarketState, feesBase: bigint, feesQuote: bigint, orderSequence: number, tradeSequence: number, lastPrice: bigint | undefined): void {
    market.feesBase = feesBase;
    market.feesQuote = feesQuote;
    market.orderSequence = orderSequence;
    market.tradeSequence = tradeSequence;
    market.lastPrice = lastPrice;
    market.countersStamp = -1;
  }
}
