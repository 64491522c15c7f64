// One data feed for every window. Windows subscribe to books, trades and candles through the
// contract; the hub reference-counts them so that two windows on one market cause one upstream
// subscription and the last one to leave unsubscribes. Each window receives at most one frame per
// frame interval per subscription, only the levels it shows, and nothing while it is hidden.
//
// The hub outlives the network: a network switch detaches the old network's feed (every window is
// sent a frame that clears what it showed: an empty, resyncing book, an empty tape and chart) and
// attaches the new one, on which the windows' subscriptions are opened again under the same ids.
// A window never has to notice the switch to keep receiving data.
import type { Clock } from '../../../shared/clock';
import type { OrderBook } from '../../../shared/book/order-book';
import type { BarView, BarsFrame, BookFrame, FlowLevelView, FlowWindow, LevelView, Resolution, TradeView } from '../../../shared/ipc/views';
import { bookKey } from '../../../shared/market/market';
import { fail, ok, type Result } from '../../../shared/result';
import { applyTradeToBars } from './bars';
import { FramePacer } from './frame-pacer';
import { OrderFlow, type FlowCell } from './order-flow';
import type { WindowHub } from '../window-hub';

export type FeedState = 'live' | 'resyncing';

export interface DepthHandle {
  state(): FeedState;
  /** The maintained book; only meaningful while `live`. */
  book(): OrderBook | null;
  close(): void;
}

export interface TradesEvent {
  readonly trades: readonly TradeView[];
  /** The stream restarted: what came before may be incomplete. */
  readonly reset: boolean;
}

/** What the hub needs from a network connection (implemented over the REST and WebSocket clients). */
export interface MarketFeed {
  /**
   * One book per market and book kind at the finest precision: the stream allows one depth
   * subscription per market on a connection, so windows asking for coarser rows are served by
   * grouping in main.
   */
  openDepth(marketId: string, turbo: boolean, onChange: () => void): DepthHandle;
  openTrades(marketId: string, turbo: boolean, onTrades: (event: TradesEvent) => void): { close(): void };
  recentTrades(marketId: string, turbo: boolean): Promise<Result<readonly TradeView[]>>;
  bars(marketId: string, turbo: boolean, resolution: Resolution, countBack: number): Promise<Result<readonly BarView[]>>;
}

const TAPE_LENGTH = 200;
/**
 * Trade ids remembered per channel: a trade delivered again (a duplicated or replayed message) is
 * dropped, or it would print twice on the tape and count twice in volume and candles.
 */
const REMEMBERED_TRADE_IDS = 2 * TAPE_LENGTH;

interface TradeChannel {
  readonly market: string;
  readonly turbo: boolean;
  readonly handle: { close(): void };
  /** No trade message since the channel opened or its stream restarted. */
  awaiting: boolean;
  readonly users: Set<string>;
  readonly tape: TradeView[];
  /** Base traded per exact price and taker side, since the channel opened and per minute (bounded: order-flow.ts). */
  readonly flow: OrderFlow;
  last: TradeView | null;
  /** The newest trades seen (by tradeIdentity), oldest first (bounded by REMEMBERED_TRADE_IDS), and as a set. */
  readonly seenIds: string[];
  readonly seen: Set<string>;
  /**
   * The tape was emptied (a restarted stream) and the next message's trades rebuild it, those seen
   * before included (a resubscription's first message repeats recent history); volume and candles
   * still count only the trades never seen.
   */
  rebuilding: boolean;
}

interface DepthChannel {
  readonly handle: DepthHandle;
  readonly users: Set<string>;
}

type Subscription =
  | { readonly kind: 'book'; readonly id: string; readonly windowId: string; readonly market: string; readonly turbo: boolean; readonly precision: bigint; levels: number; flowWindow: FlowWindow; sequence: number }
  | { readonly kind: 'trades'; readonly id: string; readonly windowId: string; readonly market: string; readonly turbo: boolean; pending: TradeView[]; reset: boolean }
  | {
      readonly kind: 'bars';
      readonly id: string;
      readonly windowId: string;
      readonly market: string;
      readonly turbo: boolean;
      readonly resolution: Resolution;
      readonly countBack: number;
      bars: BarView[];
      changed: Set<number>;
      reset: boolean;
      loaded: boolean;
    };

export const UNKNOWN_SUBSCRIPTION = 'UNKNOWN_SUBSCRIPTION';

/** The upstream channels open now, for the freshness of each market's book and trades. */
export interface ChannelStates {
  readonly marketId: string;
  readonly turbo: boolean;
  /** Null when no window shows the book. */
  readonly depth: FeedState | null;
  /** Null when nothing follows the trades. */
  readonly tradesAwaiting: boolean | null;
}
const MAX_SUBSCRIPTIONS_PER_WINDOW = 64;

/** Main's own reader of a market (alerts): it holds the channels a window's book would, with no window. */
export interface HubWatch {
  quote(): { bid: bigint | null; ask: bigint | null; last: bigint | null };
  close(): void;
}

interface Watcher {
  readonly market: string;
  readonly turbo: boolean;
  readonly onChange: () => void;
}

export class MarketDataHub {
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly watchers = new Map<string, Watcher>();
  private readonly depth = new Map<string, DepthChannel>();
  private readonly trades = new Map<string, TradeChannel>();
  private readonly pacers = new Map<string, FramePacer>();
  private nextId = 0;
  private readonly stateListeners = new Set<() => void>();
  private readonly lastTradeListeners = new Set<(market: string, turbo: boolean) => void>();
  /** Depth state last seen per channel key, to tell a change of it. */
  private readonly depthStates = new Map<string, FeedState>();
  /** Increases with every attach and detach: work of an earlier feed finds it changed and stops. */
  private epoch = 0;
  private readonly stopListening: () => void;

  constructor(
    private feed: MarketFeed | null,
    private readonly windows: WindowHub,
    private readonly clock: Clock,
  ) {
    this.stopListening = windows.onWindowClosed((windowId) => this.dropWindow(windowId));
  }

  /**
   * The network is going away: close every upstream channel and send each window a frame that
   * clears what it shows of it. The subscriptions stay; `attach` serves them from the next network.
   */
  detach(): void {
    this.epoch++;
    this.feed = null;
    for (const channel of this.depth.values()) channel.handle.close();
    for (const channel of this.trades.values()) channel.handle.close();
    this.depth.clear();
    this.trades.clear();
    this.depthStates.clear();
    this.stateChanged();
    for (const subscription of this.subscriptions.values()) {
      if (subscription.kind === 'trades') {
        subscription.reset = true;
        subscription.pending = [];
      } else if (subscription.kind === 'bars') {
        subscription.bars = [];
        subscription.changed.clear();
        subscription.reset = true;
        // Sent once, empty: the chart clears; the new network's history follows on attach.
        subscription.loaded = true;
      }
    }
    // At once, not on the next frame: the next network attaches before that.
    const byWindow = new Map<string, Set<string>>();
    for (const subscription of this.subscriptions.values()) {
      let ids = byWindow.get(subscription.windowId);
      if (!ids) byWindow.set(subscription.windowId, (ids = new Set()));
      ids.add(subscription.id);
    }
    for (const [windowId, ids] of byWindow) this.flush(windowId, ids);
  }

  /** Serve every subscription from `feed` (a new network), under the ids the windows hold. */
  attach(feed: MarketFeed): void {
    if (this.feed !== null) this.detach();
    this.epoch++;
    this.feed = feed;
    for (const subscription of this.subscriptions.values()) {
      if (subscription.kind === 'book') this.retainDepth(subscription.market, subscription.turbo, subscription.id);
      this.retainTrades(subscription.market, subscription.turbo, subscription.id);
      if (subscription.kind === 'bars') {
        subscription.loaded = false;
        void this.loadBars(subscription);
      }
      this.pacer(subscription.windowId).mark(subscription.id);
    }
    for (const [id, watcher] of this.watchers) {
      this.retainDepth(watcher.market, watcher.turbo, id);
      this.retainTrades(watcher.market, watcher.turbo, id);
    }
  }

  /** A channel turned live or resyncing (or opened, or closed): freshness changed. */
  onStateChange(listener: () => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  private stateChanged(): void {
    for (const listener of this.stateListeners) listener();
  }

  /**
   * The newest trade's price of a book whose trade stream main follows now (a window's book, tape
   * or chart, or a watch), the one every book frame carries as its last trade; null where none is
   * followed or none arrived yet.
   */
  lastTradePrice(market: string, turbo: boolean): bigint | null {
    return this.trades.get(this.tradeKey(market, turbo))?.last?.price ?? null;
  }

  /** Told when a followed book's last trade changes, or its trade stream is opened or closed. */
  onLastTrade(listener: (market: string, turbo: boolean) => void): () => void {
    this.lastTradeListeners.add(listener);
    return () => this.lastTradeListeners.delete(listener);
  }

  private lastTradeChanged(market: string, turbo: boolean): void {
    for (const listener of this.lastTradeListeners) listener(market, turbo);
  }

  /** The upstream channels, for freshness. */
  channelStates(): ChannelStates[] {
    const keys = new Set([...this.depth.keys(), ...this.trades.keys()]);
    const states: ChannelStates[] = [];
    for (const key of keys) {
      const [marketId, book] = key.split(':') as [string, string];
      const depth = this.depth.get(key);
      const trades = this.trades.get(key);
      states.push({ marketId, turbo: book === 'turbo', depth: depth ? depth.handle.state() : null, tradesAwaiting: trades ? trades.awaiting : null });
    }
    return states;
  }
  /** Upstream subscriptions currently open (tests, diagnostics). */
  upstreamCount(): { depth: number; trades: number } {
    return { depth: this.depth.size, trades: this.trades.size };
  }

  private pacer(windowId: string): FramePacer {
    let pacer = this.pacers.get(windowId);
    if (!pacer) {
      pacer = new FramePacer(this.clock, (keys) => this.flush(windowId, keys));
      this.pacers.set(windowId, pacer);
    }
    return pacer;
  }

  private newId(windowId: string): Result<string> {
    let count = 0;
    for (const subscription of this.subscriptions.values()) if (subscription.windowId === windowId) count++;
    if (count >= MAX_SUBSCRIPTIONS_PER_WINDOW) return fail('TOO_MANY_SUBSCRIPTIONS', `a window may hold at most ${MAX_SUBSCRIPTIONS_PER_WINDOW} subscriptions`);
    return ok(`sub-${++this.nextId}`);
  }

  private tradeKey(market: string, turbo: boolean): string {
    return bookKey(market, turbo);
  }

  private depthKey(market: string, turbo: boolean): string {
    return this.tradeKey(market, turbo);
  }

  private retainDepth(market: string, turbo: boolean, subscriptionId: string): void {
    const feed = this.feed;
    if (feed === null) return;
    const key = this.depthKey(market, turbo);
    let channel = this.depth.get(key);
    if (!channel) {
      channel = { users: new Set(), handle: feed.openDepth(market, turbo, () => this.onDepth(key)) };
      this.depth.set(key, channel);
      this.stateChanged();
    }
    channel.users.add(subscriptionId);
  }

  private retainTrades(market: string, turbo: boolean, subscriptionId: string): void {
    const feed = this.feed;
    if (feed === null) return;
    const key = this.tradeKey(market, turbo);
    let channel = this.trades.get(key);
    if (!channel) {
      const created: TradeChannel = {
        market,
        turbo,
        users: new Set(),
        awaiting: true,
        tape: [],
        flow: new OrderFlow(),
        last: null,
        seenIds: [],
        seen: new Set(),
        rebuilding: true,
        handle: feed.openTrades(market, turbo, (event) => this.onTrades(key, event)),
      };
      channel = created;
      this.trades.set(key, channel);
      this.stateChanged();
      void feed.recentTrades(market, turbo).then((recent) => {
        if (!recent.ok || this.trades.get(key) !== created) return;
        // Recent history goes behind what the stream already delivered.
        const known = new Set(created.tape.map(tradeIdentity));
        for (const trade of uniqueTrades(recent.value)) if (!known.has(tradeIdentity(trade)) && created.tape.length < TAPE_LENGTH) created.tape.push(trade);
        const before = created.last;
        created.last ??= created.tape[0] ?? null;
        if (created.last !== before) this.lastTradeChanged(market, turbo);
        for (const subscription of this.subscriptions.values()) {
          if (subscription.kind === 'trades' && this.tradeKey(subscription.market, subscription.turbo) === key) {
            subscription.reset = true;
            subscription.pending = [];
            this.pacer(subscription.windowId).mark(subscription.id);
          }
        }
      });
    }
    channel.users.add(subscriptionId);
  }

  private releaseTrades(market: string, turbo: boolean, subscriptionId: string): void {
    const key = this.tradeKey(market, turbo);
    const channel = this.trades.get(key);
    if (!channel) return;
    channel.users.delete(subscriptionId);
    if (channel.users.size === 0) {
      channel.handle.close();
      this.trades.delete(key);
      this.stateChanged();
      if (channel.last !== null) this.lastTradeChanged(market, turbo);
    }
  }

  /** The trades of a message not seen on the channel before (nor earlier in the same message), remembered. */
  private unseenTrades(channel: TradeChannel, trades: readonly TradeView[]): TradeView[] {
    const fresh: TradeView[] = [];
    for (const trade of trades) {
      const identity = tradeIdentity(trade);
      if (channel.seen.has(identity)) continue;
      channel.seen.add(identity);
      channel.seenIds.push(identity);
      fresh.push(trade);
    }
    if (channel.seenIds.length > REMEMBERED_TRADE_IDS) {
      for (const forgotten of channel.seenIds.splice(0, channel.seenIds.length - REMEMBERED_TRADE_IDS)) channel.seen.delete(forgotten);
    }
    return fresh;
  }

  private onTrades(key: string, event: TradesEvent): void {
    const channel = this.trades.get(key);
    if (!channel) return;
    if (channel.awaiting !== event.reset) {
      channel.awaiting = event.reset;
      this.stateChanged();
    }
    if (event.reset) {
      channel.tape.length = 0;
      channel.rebuilding = true;
    }
    const fresh = this.unseenTrades(channel, event.trades);
    const onTape = channel.rebuilding ? new Set(channel.tape.map(tradeIdentity)) : null;
    const shown = onTape === null ? fresh : uniqueTrades(event.trades).filter((trade) => !onTape.has(tradeIdentity(trade)));
    if (event.trades.length > 0) channel.rebuilding = false;
    // Streams deliver newest first within a message (docs/sandbox.md), as the tape shows them: the
    // sort is stable, so trades of one time (a sweep) keep that order, the only one that tells them apart.
    const newestFirst = (trades: readonly TradeView[]) => [...trades].sort((left, right) => right.time - left.time);
    const ordered = newestFirst(shown);
    const chronological = newestFirst(fresh).reverse();
    for (const trade of chronological) channel.flow.add(trade);
    channel.tape.unshift(...ordered);
    if (channel.tape.length > TAPE_LENGTH) channel.tape.length = TAPE_LENGTH;
    const before = channel.last;
    channel.last = channel.tape[0] ?? channel.last;
    for (const subscription of this.subscriptions.values()) {
      if (this.tradeKey(subscription.market, subscription.turbo) !== key) continue;
      if (subscription.kind === 'trades') {
        if (event.reset) {
          subscription.reset = true;
          subscription.pending = [];
        } else {
          subscription.pending.unshift(...ordered);
          if (subscription.pending.length > TAPE_LENGTH) subscription.pending.length = TAPE_LENGTH;
        }
      } else if (subscription.kind === 'bars' && subscription.loaded) {
        for (const trade of chronological) {
          const index = applyTradeToBars(subscription.bars, subscription.resolution, trade);
          if (index !== null) subscription.changed.add(index);
        }
      }
      this.pacer(subscription.windowId).mark(subscription.id);
    }
    for (const id of channel.users) this.watchers.get(id)?.onChange();
    if (channel.last !== before && channel.last !== null) this.lastTradeChanged(channel.market, channel.turbo);
  }

  subscribeBook(windowId: string, input: { marketId: string; turbo: boolean; precision: bigint; levels: number; flowWindow?: FlowWindow }): Result<string> {
    const id = this.newId(windowId);
    if (!id.ok) return id;
    const subscription: Subscription = { kind: 'book', id: id.value, windowId, market: input.marketId, turbo: input.turbo, precision: input.precision, levels: input.levels, flowWindow: input.flowWindow ?? 'session', sequence: 0 };
    this.subscriptions.set(id.value, subscription);
    this.retainDepth(input.marketId, input.turbo, id.value);
    this.retainTrades(input.marketId, input.turbo, id.value);
    this.pacer(windowId).mark(id.value);
    return id;
  }

  updateBookView(windowId: string, subscriptionId: string, levels: number, flowWindow?: FlowWindow): Result<null> {
    const subscription = this.subscriptions.get(subscriptionId);
    if (subscription?.kind !== 'book' || subscription.windowId !== windowId) return fail(UNKNOWN_SUBSCRIPTION, `no book subscription ${subscriptionId} in this window`);
    subscription.levels = levels;
    if (flowWindow !== undefined) subscription.flowWindow = flowWindow;
    this.pacer(windowId).mark(subscriptionId);
    return ok(null);
  }

  private onDepth(key: string): void {
    const channel = this.depth.get(key);
    if (!channel) return;
    const state = channel.handle.state();
    if (this.depthStates.get(key) !== state) {
      this.depthStates.set(key, state);
      this.stateChanged();
    }
    for (const id of channel.users) {
      const subscription = this.subscriptions.get(id);
      if (subscription) this.pacer(subscription.windowId).mark(id);
      this.watchers.get(id)?.onChange();
    }
  }

  subscribeTrades(windowId: string, input: { marketId: string; turbo: boolean }): Result<string> {
    const id = this.newId(windowId);
    if (!id.ok) return id;
    this.subscriptions.set(id.value, { kind: 'trades', id: id.value, windowId, market: input.marketId, turbo: input.turbo, pending: [], reset: true });
    this.retainTrades(input.marketId, input.turbo, id.value);
    this.pacer(windowId).mark(id.value);
    return id;
  }

  async subscribeBars(windowId: string, input: { marketId: string; turbo: boolean; resolution: Resolution; countBack: number }): Promise<Result<string>> {
    const id = this.newId(windowId);
    if (!id.ok) return id;
    const subscription: Subscription = {
      kind: 'bars',
      id: id.value,
      windowId,
      market: input.marketId,
      turbo: input.turbo,
      resolution: input.resolution,
      countBack: input.countBack,
      bars: [],
      changed: new Set(),
      reset: true,
      loaded: false,
    };
    this.subscriptions.set(id.value, subscription);
    this.retainTrades(input.marketId, input.turbo, id.value);
    // Without a network (a switch in progress) the history is loaded when the next one attaches.
    if (this.feed === null) return id;
    const loaded = await this.loadBars(subscription);
    if (!loaded.ok) {
      if (this.subscriptions.has(id.value)) this.unsubscribe(windowId, id.value);
      return loaded;
    }
    if (!this.subscriptions.has(id.value)) return fail(UNKNOWN_SUBSCRIPTION, 'the subscription was closed while loading');
    return id;
  }

  /** Load (or reload, on a new network) a chart's history, then send it whole. */
  private async loadBars(subscription: Extract<Subscription, { kind: 'bars' }>): Promise<Result<null>> {
    const feed = this.feed;
    if (feed === null) return ok(null);
    const epoch = this.epoch;
    const history = await feed.bars(subscription.market, subscription.turbo, subscription.resolution, subscription.countBack);
    // A switch meanwhile: the next network's load takes over.
    if (epoch !== this.epoch || !this.subscriptions.has(subscription.id)) return ok(null);
    if (!history.ok) return history;
    subscription.bars = [...history.value];
    subscription.changed.clear();
    subscription.reset = true;
    subscription.loaded = true;
    this.pacer(subscription.windowId).mark(subscription.id);
    return ok(null);
  }

  unsubscribe(windowId: string, subscriptionId: string): Result<null> {
    const subscription = this.subscriptions.get(subscriptionId);
    if (!subscription || subscription.windowId !== windowId) return fail(UNKNOWN_SUBSCRIPTION, `no subscription ${subscriptionId} in this window`);
    this.subscriptions.delete(subscriptionId);
    if (subscription.kind === 'book') this.releaseDepth(subscription.market, subscription.turbo, subscriptionId);
    this.releaseTrades(subscription.market, subscription.turbo, subscriptionId);
    return ok(null);
  }

  private releaseDepth(market: string, turbo: boolean, id: string): void {
    const key = this.depthKey(market, turbo);
    const channel = this.depth.get(key);
    channel?.users.delete(id);
    if (channel && channel.users.size === 0) {
      channel.handle.close();
      this.depth.delete(key);
      this.depthStates.delete(key);
      this.stateChanged();
    }
  }

  /**
   * Main's own reader of a market's best prices and last trade: it holds the book and trade
   * channels like a window's book (across network switches too) until closed, and is told of
   * every change.
   */
  watch(market: string, turbo: boolean, onChange: () => void): HubWatch {
    const id = `watch-${++this.nextId}`;
    this.watchers.set(id, { market, turbo, onChange });
    this.retainDepth(market, turbo, id);
    this.retainTrades(market, turbo, id);
    const key = this.depthKey(market, turbo);
    return {
      quote: () => {
        const channel = this.depth.get(key);
        const book = channel?.handle.state() === 'live' ? channel.handle.book() : null;
        return { bid: book?.bestBid() ?? null, ask: book?.bestAsk() ?? null, last: this.trades.get(key)?.last?.price ?? null };
      },
      close: () => {
        if (!this.watchers.delete(id)) return;
        this.releaseDepth(market, turbo, id);
        this.releaseTrades(market, turbo, id);
      },
    };
  }

  /** A window became visible again: send it a fresh frame of everything it shows. */
  setVisible(windowId: string, visible: boolean): void {
    this.windows.setVisible(windowId, visible);
    if (!visible) return;
    for (const subscription of this.subscriptions.values()) {
      if (subscription.windowId !== windowId) continue;
      if (subscription.kind !== 'book') subscription.reset = true;
      this.pacer(windowId).mark(subscription.id);
    }
  }

  private dropWindow(windowId: string): void {
    for (const subscription of [...this.subscriptions.values()]) {
      if (subscription.windowId === windowId) this.unsubscribe(windowId, subscription.id);
    }
    this.pacers.get(windowId)?.cancel();
    this.pacers.delete(windowId);
  }

  private flush(windowId: string, ids: ReadonlySet<string>): void {
    // A hidden window gets nothing; it is refreshed in full when shown (setVisible).
    if (!this.windows.isVisible(windowId)) return;
    for (const id of ids) {
      const subscription = this.subscriptions.get(id);
      if (!subscription) continue;
      if (subscription.kind === 'book') this.windows.sendTo(windowId, 'book', this.bookFrame(subscription));
      else if (subscription.kind === 'trades') {
        const channel = this.trades.get(this.tradeKey(subscription.market, subscription.turbo));
        const trades = subscription.reset ? (channel?.tape ?? []) : subscription.pending;
        if (!subscription.reset && trades.length === 0) continue;
        this.windows.sendTo(windowId, 'trades', { subscriptionId: id, marketId: subscription.market, reset: subscription.reset, trades: [...trades] });
        subscription.reset = false;
        subscription.pending = [];
      } else if (subscription.loaded) {
        const bars = subscription.reset ? subscription.bars : [...subscription.changed].sort((a, b) => a - b).map((index) => subscription.bars[index]!);
        if (!subscription.reset && bars.length === 0) continue;
        const frame: BarsFrame = { subscriptionId: id, marketId: subscription.market, resolution: subscription.resolution, reset: subscription.reset, bars: [...bars] };
        this.windows.sendTo(windowId, 'bars', frame);
        subscription.reset = false;
        subscription.changed.clear();
      }
    }
  }

  private bookFrame(subscription: Extract<Subscription, { kind: 'book' }>): BookFrame {
    const channel = this.depth.get(this.depthKey(subscription.market, subscription.turbo));
    const trades = this.trades.get(this.tradeKey(subscription.market, subscription.turbo));
    const book = channel?.handle.book() ?? null;
    const live = channel?.handle.state() === 'live' && book !== null;
    const bids = live ? groupLevels(book.buys.top(MAX_FINE_LEVELS), subscription.precision, 'buys', subscription.levels) : [];
    const asks = live ? groupLevels(book.sells.top(MAX_FINE_LEVELS), subscription.precision, 'sells', subscription.levels) : [];
    subscription.sequence += 1;
    const flow = live ? flowInRange(trades?.flow.rows(subscription.flowWindow, this.clock.now()), subscription.precision, bids, asks, subscription.levels) : [];
    return {
      subscriptionId: subscription.id,
      marketId: subscription.market,
      turbo: subscription.turbo,
      state: live ? 'live' : 'resyncing',
      precision: subscription.precision,
      bids,
      asks,
      lastTrade: trades?.last ? { price: trades.last.price, side: trades.last.side, quantity: trades.last.quantity } : null,
      volumeAtPrice: flow.map((row) => ({ price: row.price, quantity: row.bought + row.sold })),
      flowAtPrice: flow,
      flowWindow: subscription.flowWindow,
      sequence: subscription.sequence,
    };
  }

  close(): void {
    this.stopListening();
    for (const subscription of [...this.subscriptions.values()]) this.unsubscribe(subscription.windowId, subscription.id);
    for (const pacer of this.pacers.values()) pacer.cancel();
    this.pacers.clear();
  }
}

/** Fine levels read to build a grouped view (the stream's depth is at most 500 levels a side). */
const MAX_FINE_LEVELS = 500;

/**
 * Group fine levels (best first) into rows of `precision`: a bid row is its price floored to the
 * precision, an ask row its price ceiled, so a row never shows a better price than is on offer.
 */
export function groupLevels(levels: readonly (readonly [bigint, bigint])[], precision: bigint, side: 'buys' | 'sells', count: number): LevelView[] {
  const rows: LevelView[] = [];
  for (const [price, quantity] of levels) {
    const row = side === 'buys' ? (price / precision) * precision : ((price + precision - 1n) / precision) * precision;
    const last = rows[rows.length - 1];
    if (last && last.price === row) rows[rows.length - 1] = { price: row, quantity: last.quantity + quantity };
    else {
      if (rows.length === count) break;
      rows.push({ price: row, quantity });
    }
  }
  return rows;
}

/**
 * Order flow grouped into rows of `precision` (row = price floored to the precision), highest
 * first, for the rows the ladder can show: those within `levels` rows of the best bid's row or of the
 * best ask's row. The ladder asks for its rows on screen plus its distance from the inside plus a
 * margin (Ladder.tsx), so every row it shows, in one block or split around the spread, is within
 * that many rows of an inside price. Bounding by the deepest level instead sent every row between
 * the deepest bid and the deepest ask: on a thin book, 1,323 rows (122 kB) in each frame for a
 * ladder of 34 rows.
 */
export function flowInRange(flow: ReadonlyMap<bigint, FlowCell> | undefined, precision: bigint, bids: readonly LevelView[], asks: readonly LevelView[], levels: number): FlowLevelView[] {
  if (!flow || flow.size === 0) return [];
  const span = BigInt(levels) * precision;
  // Each inside row's rows as raw prices [from, to): a price's row (floored to the precision) is
  // within `levels` rows of the inside exactly when the price is in that range, since both ends are
  // multiples of the precision (prices are never negative). Every window's book frame runs this
  // over every price the flow holds (up to 4,000) at up to 60 frames a second, so the prices
  // outside are passed over by comparison alone, with no bigint made for them.
  let nearFrom: bigint | null = null;
  let nearTo = 0n;
  let farFrom: bigint | null = null;
  let farTo = 0n;
  for (const level of [bids[0], asks[0]]) {
    if (level === undefined) continue;
    const inside = (level.price / precision) * precision;
    if (nearFrom === null) {
      nearFrom = inside - span;
      nearTo = inside + span + precision;
    } else {
      farFrom = inside - span;
      farTo = inside + span + precision;
    }
  }
  if (nearFrom === null) return [];
  const rows = new Map<bigint, { bought: bigint; sold: bigint }>();
  const from = nearFrom;
  // forEach, not for-of: an entry pair per price would be garbage too.
  flow.forEach((cell, price) => {
    if (!((price >= from && price < nearTo) || (farFrom !== null && price >= farFrom && price < farTo))) return;
    const row = (price / precision) * precision;
    const sum = rows.get(row);
    if (sum === undefined) rows.set(row, { bought: cell.bought, sold: cell.sold });
    else {
      sum.bought += cell.bought;
      sum.sold += cell.sold;
    }
  });
  return [...rows].sort((a, b) => (a[0] < b[0] ? 1 : a[0] > b[0] ? -1 : 0)).map(([price, cell]) => ({ price, bought: cell.bought, sold: cell.sold }));
}

/** The trades of a list with each trade id once (its first occurrence). */
function uniqueTrades(trades: readonly TradeView[]): TradeView[] {
  const seen = new Set<string>();
  return trades.filter((trade) => {
    const identity = tradeIdentity(trade);
    return !seen.has(identity) && seen.add(identity) !== undefined;
  });
}

/**
 * A trade as the same trade again: its id with its time, price, size and side. An id alone is not
 * enough: a restarted exchange (the sandbox after a crash) numbers its trades from the start again,
 * and its new trades must not pass for repeats of the old ones.
 */
function tradeIdentity(trade: TradeView): string {
  return `${trade.tradeId}|${trade.time}|${trade.price}|${trade.quantity}|${trade.side}`;
}
