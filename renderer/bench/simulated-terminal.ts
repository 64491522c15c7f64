// An in-memory TerminalApi for the ladder benchmark: markets shaped like the
// sandbox's, a 500-level book per side on a seeded random walk, trades, bars, an account that
// walks through onboarding, orders that rest and fill, balances and settings. It is never part of
// the app's bundle (renderer/index.html does not import it); it exists so the renderer's drawing
// cost can be measured in isolation, with a reproducible feed.
import { DEFAULT_HOTKEYS } from '../../shared/hotkeys/keymap';
import { requestNames, streamNames, type RequestInput, type RequestName, type StreamName, type StreamPayload, type TerminalApi, type Unsubscribe } from '../../shared/ipc/contract';
import type {
  AccountState,
  BalanceView,
  BarView,
  BookFrame,
  FillView,
  FreshnessView,
  LevelView,
  NetworkView,
  OrderView,
  RateLimitView,
  Settings,
  TradeView,
} from '../../shared/ipc/views';
import type { JournalEntryView } from '../../shared/ipc/views/journal';
import type { TurboMarketsView } from '../../shared/ipc/views/margin';
import type { TurboDepthRow, TurboDepthView } from '../../shared/ipc/views/margin-insights';
import type { PositionView } from '../../shared/ipc/views/positions';
import { closePlan, partialClosePlan, reversePlan } from '../../shared/positions/close-plan';
import type { B256 } from '../../shared/encoding/b256';
import type { Market } from '../../shared/market/market';
import { priceTick, quantityTick } from '../../shared/market/tick';
import { fail, ok, type Result } from '../../shared/result';

const id = (seed: number) => `0x${seed.toString(16).padStart(2, '0').repeat(32)}` as B256;
/** The simulated trading account. */
const ACCOUNT = id(0x7a);

const asset = (symbol: string, seed: number, decimals: number, maxPrecision: number) => ({ symbol, asset: id(seed), decimals, max_precision: maxPrecision });

export const SIMULATED_MARKETS: readonly Market[] = [
  { contract_id: id(0xc1), market_id: id(0xa1), base: asset('ETH', 0xe1, 9, 4), quote: asset('USDC', 0xd1, 6, 2), maker_fee: 100n, taker_fee: 250n, min_order: 1_000_000n, dust: 1_000_000n, price_window: 20 },
  { contract_id: id(0xc2), market_id: id(0xa2), base: asset('ETH', 0xe1, 9, 4), quote: asset('USDT', 0xd2, 6, 3), maker_fee: 0n, taker_fee: 200n, min_order: 5_000_000n, dust: 1_000_000n, price_window: 10 },
  { contract_id: id(0xc3), market_id: id(0xa3), base: asset('BTC', 0xe3, 8, 5), quote: asset('USDC', 0xd1, 6, 1), maker_fee: 50n, taker_fee: 150n, min_order: 10_000_000n, dust: 1_000n, price_window: 15 },
  { contract_id: id(0xc4), market_id: id(0xa4), base: asset('FUEL', 0xe4, 9, 0), quote: asset('USDC', 0xd1, 6, 6), maker_fee: 200n, taker_fee: 400n, min_order: 1_000_000n, dust: 0n, price_window: 25 },
];

const MIDS: Record<string, bigint> = { [id(0xa1)]: 3_000_000_000n, [id(0xa2)]: 3_001_000_000n, [id(0xa3)]: 60_000_000_000n, [id(0xa4)]: 20_000n };

/** mulberry32: a small seeded generator, so a benchmark run is repeatable. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface BookState {
  readonly market: Market;
  mid: bigint;
  /** price -> quantity, raw. */
  bids: Map<bigint, bigint>;
  asks: Map<bigint, bigint>;
  volume: Map<bigint, bigint>;
  lastTrade: { price: bigint; side: 'Buy' | 'Sell'; quantity: bigint } | null;
  trades: TradeView[];
  bars: BarView[];
}

interface Subscription {
  readonly id: string;
  readonly kind: 'book' | 'trades' | 'bars';
  readonly marketId: string;
  readonly turbo: boolean;
  precision: bigint;
  levels: number;
  sequence: number;
  resolution?: string;
}

export interface SimulatedTerminalOptions {
  readonly seed?: number;
  /** Levels per side kept in every book. */
  readonly depth?: number;
  /** Start with a finished onboarding (trading possible) instead of a fresh owner. */
  readonly onboarded?: boolean;
  /**
   * Everything the ladder can draw, for its benchmark's worst case (with `onboarded`): own orders
   * resting on both sides (they never fill, so the precomputed frames leave them in place), recent
   * fills bought and sold, a long position (the P&L column and the entry mark), a Turbo book with
   * its depth overlay on, and the last trade's size.
   */
  readonly everyColumn?: boolean;
  readonly now?: () => number;
}

export interface SimulatedTerminal {
  readonly api: TerminalApi;
  /** One market-data update of every subscribed book (and sometimes a trade). */
  step(): void;
  /** Push a resync of every book subscription, then live frames again after `ms`. */
  resync(ms: number): void;
  /** Steps per second on a timer; returns a stop function. */
  run(stepsPerSecond: number): () => void;
}

function floorTo(value: bigint, step: bigint): bigint {
  return value - (value % step);
}

export function createSimulatedTerminal(options: SimulatedTerminalOptions = {}): SimulatedTerminal {
  const random = seededRandom(options.seed ?? 7);
  const now = options.now ?? (() => Date.now());
  const depth = options.depth ?? 500;
  const listeners = new Map<StreamName, Set<(payload: never) => void>>();
  const subscriptions = new Map<string, Subscription>();
  const books = new Map<string, BookState>();
  let serial = 0;
  let resyncingUntil = 0;

  const emit = <K extends StreamName>(name: K, payload: StreamPayload<K>) => {
    for (const listener of listeners.get(name) ?? []) (listener as (value: StreamPayload<K>) => void)(payload);
  };
  const listen = <K extends StreamName>(name: K) => (listener: (payload: StreamPayload<K>) => void): Unsubscribe => {
    let set = listeners.get(name);
    if (!set) listeners.set(name, (set = new Set()));
    set.add(listener as (payload: never) => void);
    return () => set.delete(listener as (payload: never) => void);
  };

  const quantityFor = (market: Market) => {
    const unit = quantityTick(market);
    return unit * BigInt(1 + Math.floor(random() * 400)) * (market.base.max_precision > 2 ? 100n : 1n);
  };

  const bookOf = (market: Market): BookState => {
    let book = books.get(market.market_id);
    if (book) return book;
    const tick = priceTick(market);
    const mid = floorTo(MIDS[market.market_id] ?? 1_000_000n, tick);
    book = { market, mid, bids: new Map(), asks: new Map(), volume: new Map(), lastTrade: null, trades: [], bars: [] };
    for (let index = 1; index <= depth; index++) {
      book.bids.set(mid - BigInt(index) * tick, quantityFor(market));
      book.asks.set(mid + BigInt(index) * tick, quantityFor(market));
    }
    // An hour of one-minute bars walking to the current mid.
    const start = now() - 120 * 60_000;
    let price = mid;
    for (let minute = 0; minute < 120; minute++) {
      const open = price;
      const move = BigInt(Math.floor((random() - 0.5) * 40)) * tick * 10n;
      const close = open + move > tick ? open + move : open;
      const high = (open > close ? open : close) + BigInt(Math.floor(random() * 10)) * tick * 10n;
      const low = (open < close ? open : close) - BigInt(Math.floor(random() * 10)) * tick * 10n;
      book.bars.push({ time: Math.floor(start / 60_000) * 60_000 + minute * 60_000, open, high, low: low > 0n ? low : tick, close, volume: quantityFor(market) * 10n });
      price = close;
    }
    books.set(market.market_id, book);
    return book;
  };

  const marketOf = (marketId: string) => SIMULATED_MARKETS.find((market) => market.market_id === marketId) ?? null;

  const grouped = (levels: Map<bigint, bigint>, side: 'Buy' | 'Sell', precision: bigint, count: number): LevelView[] => {
    const sorted = [...levels.entries()].sort((a, b) => (side === 'Buy' ? (a[0] > b[0] ? -1 : 1) : a[0] < b[0] ? -1 : 1));
    const rows = new Map<bigint, bigint>();
    for (const [price, quantity] of sorted) {
      const row = side === 'Buy' ? floorTo(price, precision) : price % precision === 0n ? price : floorTo(price, precision) + precision;
      if (!rows.has(row) && rows.size >= count) break;
      rows.set(row, (rows.get(row) ?? 0n) + quantity);
    }
    return [...rows.entries()].map(([price, quantity]) => ({ price, quantity }));
  };

  const frameOf = (subscription: Subscription, book: BookState): BookFrame => {
    const resyncing = now() < resyncingUntil;
    return {
      subscriptionId: subscription.id,
      marketId: subscription.marketId,
      turbo: subscription.turbo,
      state: resyncing ? 'resyncing' : 'live',
      precision: subscription.precision,
      bids: resyncing ? [] : grouped(book.bids, 'Buy', subscription.precision, subscription.levels),
      asks: resyncing ? [] : grouped(book.asks, 'Sell', subscription.precision, subscription.levels),
      lastTrade: book.lastTrade === null ? null : { ...book.lastTrade, quantity: options.everyColumn ? book.lastTrade.quantity : 0n },
      volumeAtPrice: [...book.volume.entries()].map(([price, quantity]) => ({ price, quantity })),
      // The simulation does not tell takers' sides apart: all its volume shows as bought.
      flowAtPrice: [...book.volume.entries()].map(([price, quantity]) => ({ price, bought: quantity, sold: 0n })),
      flowWindow: 'session',
      sequence: ++subscription.sequence,
    };
  };

  // ---- account, orders, balances, settings -------------------------------------------------
  const owner = { address: id(0x0b), style: 'ledger' as const, custody: 'keychain' as const };
  let account: AccountState = {
    networkId: 'sandbox',
    keychain: { available: true, description: 'Secret Service', reason: null, commands: [] },
    owners: options.onboarded ? [owner] : [],
    activeOwner: options.onboarded ? owner : null,
    tradeAccount: options.onboarded ? { tradeAccountId: id(0x7a), nonce: 3n, whitelisted: true } : null,
    session: options.onboarded ? { sessionAddress: id(0x5e), expiry: BigInt(Math.floor(now() / 1000) + 29 * 86_400 + 7200), contractIds: SIMULATED_MARKETS.map((market) => market.contract_id), state: 'active', renewsAt: null } : null,
    steps: [],
    canTrade: options.onboarded === true,
  };
  const refreshSteps = () => {
    const done = (flag: boolean) => (flag ? 'done' : 'todo') as 'done' | 'todo';
    account = {
      ...account,
      steps: [
        { id: 'owner', title: 'Owner key', state: done(account.activeOwner !== null), detail: account.activeOwner ? `Owner ${account.activeOwner.address.slice(0, 10)}… in the ${account.keychain.description}` : null },
        { id: 'account', title: 'Trade account', state: done(account.tradeAccount !== null), detail: null },
        { id: 'funds', title: 'Test funds', state: account.tradeAccount && balances.length > 0 ? 'done' : 'todo', detail: null },
        { id: 'whitelist', title: 'Whitelist', state: account.tradeAccount?.whitelisted ? 'done' : 'todo', detail: null },
        { id: 'session', title: 'Trading session', state: done(account.session !== null), detail: null },
      ],
      canTrade: account.session !== null,
    };
    emit('account', account);
  };

  const orders = new Map<string, OrderView>();
  const fills: FillView[] = [];
  const balances: BalanceView[] = options.onboarded
    ? [
        { assetId: id(0xe1), symbol: 'ETH', decimals: 9, onAccount: 8_000_000_000n, locked: 1_500_000_000n, unlocked: 8_500_000_000n, books: [{ marketId: id(0xa1), turbo: false, locked: 1_500_000_000n, unlocked: 500_000_000n }] },
        { assetId: id(0xd1), symbol: 'USDC', decimals: 6, onAccount: 95_000_000_000n, locked: 4_500_000_000n, unlocked: 95_500_123_456n, books: [{ marketId: id(0xa1), turbo: false, locked: 4_500_000_000n, unlocked: 500_123_456n }] },
        { assetId: id(0xd2), symbol: 'USDT', decimals: 6, onAccount: 100_000_000_000n, locked: 0n, unlocked: 100_000_000_000n, books: [] },
      ]
    : [];
  refreshSteps();

  let settings: Settings = {
    confirmOrders: false,
    maxOrderQuantity: { [id(0xa1)]: 50_000_000_000n },
    maxOrderNotional: {},
    maxPosition: {},
    dailyLossLimit: {},
    maxOrdersPerMinute: 0,
    flattenOnDailyLoss: false,
    priceBandBps: {},
    hotkeys: { ...DEFAULT_HOTKEYS, cancelLast: 'Escape', cancelAll: 'Ctrl+Shift+X', togglePostOnly: 'P' },
    sound: true,
    desktopNotifications: false,
    parallelLanes: 0,
    sessionDays: 30,
    quantityPresets: { [id(0xa1)]: [100_000_000n, 500_000_000n, 1_000_000_000n, 5_000_000_000n] },
    pnlDisplay: {},
    chartStudies: { averages: [{ kind: 'EMA', length: 20 }, { kind: 'SMA', length: 50 }] },
    favouriteMarkets: [],
    largeTradeSize: {},
    turboDepthOverlay: options.everyColumn === true,
  };
  const journal: JournalEntryView[] = [];
  const journalAdd = (description: string, status: string) => {
    const entry: JournalEntryView = { seq: journal.length + 1, at: now(), id: `j${journal.length + 1}`, kind: 'signed', networkId: 'sandbox', endpoint: '/v1/session/actions', nonce: String(journal.length + 3), description, status, detail: null };
    journal.unshift(entry);
    emit('journal', entry);
    return entry;
  };
  const pushOrders = () => emit('orders', { open: [...orders.values()].filter((order) => order.status === 'open' || order.status === 'partially-filled'), fills: [...fills] });

  const rateLimits = (): RateLimitView[] => [
    { limiter: 'session actions', capacity: 5, remaining: 5 - Math.min(5, orders.size % 3), windowMs: 1000, queued: 0 },
    { limiter: 'session', capacity: 5, remaining: 5, windowMs: 1000, queued: 0 },
    { limiter: 'owner actions', capacity: 10, remaining: 9, windowMs: 60_000, queued: 0 },
  ];

  if (options.onboarded) {
    for (const [index, side] of (['Buy', 'Buy', 'Sell'] as const).entries()) {
      const market = SIMULATED_MARKETS[0]!;
      const mid = MIDS[market.market_id]!;
      const price = side === 'Buy' ? mid - BigInt(5 + index * 3) * 10_000n : mid + 8n * 10_000n;
      const orderId = id(0x90 + index);
      orders.set(orderId, { orderId, marketId: market.market_id, side, orderType: 'Limit', price, quantity: 500_000_000n, filled: index === 1 ? 100_000_000n : 0n, averagePrice: index === 1 ? price : 0n, status: index === 1 ? 'partially-filled' : 'open', turbo: false, account: ACCOUNT, time: now() - index * 60_000 });
    }
    fills.push({ orderId: id(0x91), marketId: id(0xa1), side: 'Buy', price: MIDS[id(0xa1)]! - 110_000n, quantity: 100_000_000n, fee: 30_000n, turbo: false, account: ACCOUNT, time: now() - 30_000 });
    if (options.everyColumn) {
      const market = SIMULATED_MARKETS[0]!;
      const mid = MIDS[market.market_id]!;
      for (const [index, side] of (['Buy', 'Sell', 'Sell', 'Buy', 'Sell'] as const).entries()) {
        const price = side === 'Buy' ? mid - BigInt(12 + index * 7) * 10_000n : mid + BigInt(4 + index * 6) * 10_000n;
        const orderId = id(0xb0 + index);
        orders.set(orderId, { orderId, marketId: market.market_id, side, orderType: 'Limit', price, quantity: 200_000_000n * BigInt(index + 1), filled: 0n, averagePrice: 0n, status: 'open', turbo: false, account: ACCOUNT, time: now() - index * 30_000 });
      }
      for (const [index, side] of (['Sell', 'Buy', 'Sell'] as const).entries()) {
        fills.push({ orderId: id(0x91), marketId: market.market_id, side, price: mid + BigInt(side === 'Sell' ? 13 + index * 9 : -(30 + index * 5)) * 10_000n, quantity: 100_000_000n, fee: 30_000n, turbo: false, account: ACCOUNT, time: now() - 60_000 * (index + 1) });
      }
    }
    journalAdd('Buy 0.5 ETH at 2,999.95 USDC (Limit) on ETH/USDC', 'accepted');
    journalAdd('Sell 0.5 ETH at 3,000.08 USDC (Limit) on ETH/USDC', 'accepted');
  }

  const tradeOn = (book: BookState) => {
    const side: 'Buy' | 'Sell' = random() < 0.5 ? 'Buy' : 'Sell';
    const levels = side === 'Buy' ? book.asks : book.bids;
    const best = [...levels.keys()].reduce<bigint | null>((chosen, price) => (chosen === null ? price : side === 'Buy' ? (price < chosen ? price : chosen) : price > chosen ? price : chosen), null);
    if (best === null) return;
    const quantity = quantityTick(book.market) * BigInt(1 + Math.floor(random() * 50));
    book.lastTrade = { price: best, side, quantity };
    book.volume.set(best, (book.volume.get(best) ?? 0n) + quantity);
    const trade: TradeView = { tradeId: `t${++serial}`, marketId: book.market.market_id, side, price: best, quantity, time: now() };
    book.trades.unshift(trade);
    book.trades.length = Math.min(book.trades.length, 200);
    const last = book.bars[book.bars.length - 1];
    const minute = Math.floor(now() / 60_000) * 60_000;
    let changed: BarView;
    if (last && last.time === minute) {
      changed = { ...last, high: best > last.high ? best : last.high, low: best < last.low ? best : last.low, close: best, volume: last.volume + quantity };
      book.bars[book.bars.length - 1] = changed;
    } else {
      changed = { time: minute, open: best, high: best, low: best, close: best, volume: quantity };
      book.bars.push(changed);
    }
    for (const subscription of subscriptions.values()) {
      if (subscription.marketId !== book.market.market_id) continue;
      if (subscription.kind === 'trades') emit('trades', { subscriptionId: subscription.id, marketId: subscription.marketId, reset: false, trades: [trade] });
      if (subscription.kind === 'bars') emit('bars', { subscriptionId: subscription.id, marketId: subscription.marketId, resolution: '1m', reset: false, bars: [changed] });
    }
    // Own resting orders at the traded price fill (not in the worst case: they stay on the ladder).
    for (const order of options.everyColumn ? [] : orders.values()) {
      if (order.marketId !== book.market.market_id || order.status === 'filled' || order.status === 'cancelled') continue;
      if (order.price !== best || order.side === side) continue;
      const fill: FillView = { orderId: order.orderId, marketId: order.marketId, side: order.side, price: best, quantity: order.quantity - order.filled, fee: 1000n, turbo: order.turbo, account: order.account, time: now() };
      orders.set(order.orderId, { ...order, filled: order.quantity, averagePrice: best, status: 'filled' });
      fills.unshift(fill);
      emit('fill', { fill, symbol: `${book.market.base.symbol}/${book.market.quote.symbol}` });
      pushOrders();
    }
  };

  // Freshness as main publishes it: live (resyncing while a resync is simulated), at most once a second.
  let freshnessAt = -Infinity;
  const freshnessView = (): FreshnessView => {
    const live = { state: 'live' as const, ageMs: 0, detail: null };
    const books = now() < resyncingUntil ? { state: 'resyncing' as const, ageMs: 0, detail: 'simulated resync' } : live;
    const keys = new Map([...subscriptions.values()].map((subscription) => [`${subscription.marketId}|${subscription.turbo}`, subscription]));
    return {
      networkId: 'sandbox',
      generation: 1,
      staleAfterMs: 8_000,
      link: live,
      orders: live,
      balances: live,
      markets: [...keys.values()].map((subscription) => ({ marketId: subscription.marketId, turbo: subscription.turbo, book: books, trades: live })),
    };
  };
  const publishFreshness = () => {
    freshnessAt = now();
    queueMicrotask(() => emit('freshness', freshnessView()));
  };

  const step = () => {
    if (now() - freshnessAt >= 1000) publishFreshness();
    for (const book of books.values()) {
      const tick = priceTick(book.market);
      // Move a handful of levels near the inside, and sometimes the mid by a tick.
      for (let change = 0; change < 6; change++) {
        const side = random() < 0.5 ? book.bids : book.asks;
        const offset = BigInt(1 + Math.floor(random() * random() * depth));
        const price = side === book.bids ? book.mid - offset * tick : book.mid + offset * tick;
        side.set(price, quantityFor(book.market));
      }
      if (random() < 0.08) {
        const up = random() < 0.5;
        book.mid += up ? tick : -tick;
        book.asks.delete(book.mid);
        book.bids.delete(book.mid);
        if (up) book.bids.set(book.mid - tick, quantityFor(book.market));
        else book.asks.set(book.mid + tick, quantityFor(book.market));
        for (const levels of [book.bids, book.asks]) {
          for (const price of levels.keys()) if ((levels === book.bids && price >= book.mid) || (levels === book.asks && price <= book.mid)) levels.delete(price);
        }
      }
      if (random() < 0.05) tradeOn(book);
    }
    for (const subscription of subscriptions.values()) {
      if (subscription.kind !== 'book') continue;
      const market = marketOf(subscription.marketId);
      if (market) emit('book', frameOf(subscription, bookOf(market)));
    }
  };

  // The worst case's position, Turbo book and Turbo depth overlay (market 0's canonical book).
  const everyColumnApi = (): Partial<TerminalApi> => {
    const market = SIMULATED_MARKETS[0]!;
    const mid = MIDS[market.market_id]!;
    const tick = priceTick(market);
    const size = 2_000_000_000n;
    const entry = mid - 20n * tick;
    const terms = { price: mid - 100n * tick, takerFee: market.taker_fee };
    const position: PositionView = {
      account: ACCOUNT,
      accountKind: 'trading',
      marketId: market.market_id,
      turbo: false,
      size,
      notClosable: null,
      close: closePlan(market, size, terms),
      partials: ([25, 50, 75] as const).map((percent) => partialClosePlan(market, size, percent, terms)),
      reverse: reversePlan(market, size, terms),
      limitTouch: mid + tick,
      limitCloses: ([25, 50, 75, 100] as const).map((percent) => partialClosePlan(market, size, percent, { price: mid + tick })),
      averageEntry: entry,
      basis: (size * entry) / 10n ** BigInt(market.base.decimals),
      mark: mid,
      markSide: 'bid',
      unrealized: (size * (mid - entry)) / 10n ** BigInt(market.base.decimals),
      unrealizedBps: 7n,
      realized: 0n,
      realizedBps: null,
      feesBase: 0n,
      feesQuote: 30_000n,
      fills: 2,
      liquidation: null,
      freeze: null,
    };
    const turboMarkets: TurboMarketsView = {
      networkId: 'sandbox',
      markets: [{ marketId: market.market_id, pair: `${market.base.symbol}/${market.quote.symbol}`, hasTurboBook: true, turboContractId: id(0xc9), connected: true, paused: false, tradable: true, reason: null, tierIds: [] }],
      tradingAs: null,
    };
    const turboDepth = (step: bigint): TurboDepthView => {
      const rows: TurboDepthRow[] = [];
      const centre = floorTo(mid, step);
      for (let offset = 250n; offset >= -250n; offset--) {
        if (offset === 0n || offset % 3n === 0n) continue;
        const quantity = quantityTick(market) * (offset < 0n ? -offset : offset) * 7n;
        rows.push(offset > 0n ? { price: centre + offset * step, executableBid: 0n, executableAsk: quantity, demandBid: 0n, demandAsk: offset % 2n === 0n ? quantity / 2n : 0n } : { price: centre + offset * step, executableBid: quantity, executableAsk: 0n, demandBid: offset % 2n === 0n ? quantity / 2n : 0n, demandAsk: 0n });
      }
      return { networkId: 'sandbox', marketId: market.market_id, step, intervalMs: 5_000, state: 'live', readAt: now(), problem: null, rows };
    };
    return {
      getPositions: () => reply({ positions: [position], asOf: now(), problems: [] }),
      getTurboMarkets: () => reply(turboMarkets),
      watchTurboDepth: (input) => reply(turboDepth(input.step)),
      unwatchTurboDepth: () => reply(null),
    };
  };

  const notReady = (name: RequestName) => Promise.resolve(fail('NOT_READY', `${name} is not simulated`));
  const reply = <T>(value: T): Promise<Result<T>> => Promise.resolve(ok(value));

  const networks: NetworkView[] = [
    { id: 'sandbox', name: 'Sandbox', kind: 'sandbox', restUrl: 'http://127.0.0.1:0', wsUrl: null, faucetUrl: null, hasFaucet: true, hasWhitelist: true, production: false, configured: true, active: true },
    { id: 'devnet', name: 'Devnet', kind: 'devnet', restUrl: null, wsUrl: null, faucetUrl: null, hasFaucet: true, hasWhitelist: true, production: false, configured: false, active: false },
    { id: 'testnet', name: 'Testnet', kind: 'testnet', restUrl: null, wsUrl: null, faucetUrl: null, hasFaucet: true, hasWhitelist: true, production: false, configured: false, active: false },
    { id: 'mainnet', name: 'Mainnet', kind: 'mainnet', restUrl: null, wsUrl: null, faucetUrl: null, hasFaucet: false, hasWhitelist: false, production: true, configured: false, active: false },
  ];

  const place = (input: RequestInput<'placeOrder'>) => {
    const orderId = `0x${(0x1000 + ++serial).toString(16).padStart(64, '0')}`;
    const order: OrderView = { orderId, marketId: input.marketId, side: input.side, orderType: input.orderType.kind, price: input.price, quantity: input.quantity, filled: 0n, averagePrice: 0n, status: 'open', turbo: input.turbo ?? false, account: ACCOUNT, time: now() };
    orders.set(orderId, order);
    const entry = journalAdd(`${input.side} ${input.quantity} at ${input.price} (${input.orderType.kind})`, 'accepted');
    pushOrders();
    return { journalId: entry.id, orders: [order], adjustments: [] };
  };

  const cancelIds = (ids: readonly string[]) => {
    for (const orderId of ids) {
      const order = orders.get(orderId);
      if (order) orders.set(orderId, { ...order, status: 'cancelled' });
    }
    pushOrders();
    return { requested: ids.length, cancelled: [...ids], failed: [], triggersRequested: 0, triggersCancelled: [], triggersFailed: [], unread: [], batches: Math.ceil(ids.length / 5) };
  };
  const openIds = (marketId?: string) => [...orders.values()].filter((order) => (order.status === 'open' || order.status === 'partially-filled') && (!marketId || order.marketId === marketId)).map((order) => order.orderId);

  // What is not simulated answers NOT_READY, as main does for a service still being built.
  const fallback = Object.fromEntries([
    ...requestNames.map((name) => [name, () => notReady(name)] as const),
    ...streamNames.map((name) => [`on${name[0]!.toUpperCase()}${name.slice(1)}`, listen(name)] as const),
  ]) as unknown as TerminalApi;

  const simulated: Partial<TerminalApi> = {
    getAppInfo: () => reply({ version: 'preview', host: 'browser', offline: false }),
    getConnection: () => reply({ networkId: 'sandbox', networkName: 'Sandbox', rest: 'up', stream: now() < resyncingUntil ? 'resyncing' : 'up', latencyMs: 3, sandbox: { state: 'running', restarts: 0 }, detail: null }),
    listNetworks: () => reply(networks),
    getFreshness: () => reply(freshnessView()),
    onFreshness: listen('freshness'),
    selectNetwork: (input) => reply(networks.find((network) => network.id === input.networkId) ?? networks[0]!),
    configureNetwork: (input) => reply({ ...networks.find((network) => network.id === input.networkId)!, restUrl: input.restUrl, configured: true }),
    listMarkets: () => reply({ networkId: 'sandbox', chainId: 9889n, markets: SIMULATED_MARKETS }),
    getAccountState: () => reply(account),
    createOwnerKey: (input) => {
      const created = { address: id(0x0b), style: input.style, custody: 'keychain' as const };
      account = { ...account, owners: [created], activeOwner: created };
      refreshSteps();
      return reply({ address: created.address });
    },
    beginKeyImport: () => notReady('beginKeyImport'),
    importOwnerKey: () => notReady('importOwnerKey'),
    registerWatchOnlyOwner: (input) => {
      const created = { address: input.address, style: input.style, custody: 'watch-only' as const };
      account = { ...account, owners: [created], activeOwner: created };
      refreshSteps();
      return reply({ address: input.address });
    },
    selectOwner: () => reply(account),
    forgetOwner: () => reply(account),
    createTradeAccount: () => {
      account = { ...account, tradeAccount: { tradeAccountId: id(0x7a), nonce: 0n, whitelisted: false } };
      refreshSteps();
      return reply({ tradeAccountId: id(0x7a) });
    },
    mintFromFaucet: () => Promise.resolve(fail('FAUCET_COOLDOWN', 'The faucet gives once a minute: try again in 42 seconds.')),
    whitelistAccount: () => {
      if (account.tradeAccount) account = { ...account, tradeAccount: { ...account.tradeAccount, whitelisted: true } };
      refreshSteps();
      return reply({ alreadyWhitelisted: false });
    },
    createSession: (input) => {
      const session = { sessionAddress: id(0x5e), expiry: BigInt(Math.floor(now() / 1000) + (input.days ?? 30) * 86_400), contractIds: SIMULATED_MARKETS.map((market) => market.contract_id), state: 'active' as const, renewsAt: null };
      account = { ...account, session };
      refreshSteps();
      return reply(session);
    },
    subscribeBook: (input) => {
      const market = marketOf(input.marketId);
      if (!market) return Promise.resolve(fail('UNKNOWN_MARKET', `No market ${input.marketId}`));
      const subscription: Subscription = { id: `s${++serial}`, kind: 'book', marketId: input.marketId, turbo: input.turbo ?? false, precision: input.precision, levels: input.levels, sequence: 0 };
      subscriptions.set(subscription.id, subscription);
      const book = bookOf(market);
      queueMicrotask(() => emit('book', frameOf(subscription, book)));
      publishFreshness();
      return reply({ subscriptionId: subscription.id });
    },
    updateBookView: (input) => {
      const subscription = subscriptions.get(input.subscriptionId);
      if (subscription) subscription.levels = input.levels;
      return reply(null);
    },
    subscribeTrades: (input) => {
      const market = marketOf(input.marketId);
      if (!market) return Promise.resolve(fail('UNKNOWN_MARKET', `No market ${input.marketId}`));
      const subscription: Subscription = { id: `s${++serial}`, kind: 'trades', marketId: input.marketId, turbo: false, precision: 1n, levels: 0, sequence: 0 };
      subscriptions.set(subscription.id, subscription);
      const book = bookOf(market);
      queueMicrotask(() => emit('trades', { subscriptionId: subscription.id, marketId: input.marketId, reset: true, trades: [...book.trades] }));
      publishFreshness();
      return reply({ subscriptionId: subscription.id });
    },
    subscribeBars: (input) => {
      const market = marketOf(input.marketId);
      if (!market) return Promise.resolve(fail('UNKNOWN_MARKET', `No market ${input.marketId}`));
      const subscription: Subscription = { id: `s${++serial}`, kind: 'bars', marketId: input.marketId, turbo: false, precision: 1n, levels: 0, sequence: 0, resolution: input.resolution };
      subscriptions.set(subscription.id, subscription);
      const book = bookOf(market);
      queueMicrotask(() => emit('bars', { subscriptionId: subscription.id, marketId: input.marketId, resolution: input.resolution, reset: true, bars: [...book.bars] }));
      publishFreshness();
      return reply({ subscriptionId: subscription.id });
    },
    unsubscribe: (input) => {
      subscriptions.delete(input.subscriptionId);
      return reply(null);
    },
    setWindowVisible: () => reply(null),
    placeOrder: (input) => reply(place(input)),
    cancelOrder: (input) => reply(cancelIds([input.orderId])),
    cancelAllOrders: (input) => reply(cancelIds(openIds(input.marketId))),
    moveOrder: (input) => {
      const old = orders.get(input.orderId);
      if (!old) return Promise.resolve(fail('UNKNOWN_ORDER', 'No such open order'));
      cancelIds([input.orderId]);
      return reply(place({ marketId: old.marketId, side: old.side, orderType: { kind: 'Limit' }, price: input.price, quantity: old.quantity - old.filled }));
    },
    settleBalance: () => reply(null),
    getOrders: () => reply({ open: [...orders.values()].filter((order) => order.status === 'open' || order.status === 'partially-filled'), fills: [...fills] }),
    getBalances: () => reply(balances),
    getOrderHistory: (input) => reply({ items: [...orders.values()].filter((order) => order.marketId === input.marketId), next: null }),
    getFills: (input) => reply({ items: fills.filter((fill) => fill.marketId === input.marketId), next: null }),
    getSettings: () => reply(settings),
    updateSettings: (input) => {
      settings = {
        ...settings,
        ...Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)),
        hotkeys: { ...settings.hotkeys, ...input.hotkeys },
      } as Settings;
      emit('settings', settings);
      return reply(settings);
    },
    getRateLimits: () => reply(rateLimits()),
    getJournal: () => reply(journal),
    ...(options.everyColumn ? everyColumnApi() : {}),
    onConnection: listen('connection'),
    onAccount: listen('account'),
    onBook: listen('book'),
    onTrades: listen('trades'),
    onBars: listen('bars'),
    onOrders: listen('orders'),
    onBalances: listen('balances'),
    onFill: listen('fill'),
    onRateLimits: listen('rateLimits'),
    onJournal: listen('journal'),
    onNotice: listen('notice'),
    onSettings: listen('settings'),
  };
  const api: TerminalApi = { ...fallback, ...simulated };

  return {
    api,
    step,
    resync(ms) {
      resyncingUntil = now() + ms;
      publishFreshness();
      step();
    },
    run(stepsPerSecond) {
      const timer = setInterval(step, 1000 / stepsPerSecond);
      return () => clearInterval(timer);
    },
  };
}
