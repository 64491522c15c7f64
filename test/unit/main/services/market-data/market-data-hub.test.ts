import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../../shared/clock';
import { OrderBook } from '../../../../../shared/book/order-book';
import type { B256 } from '../../../../../shared/encoding/b256';
import type { BookFrame, TradeView, TradesFrame, BarsFrame } from '../../../../../shared/ipc/views';
import { ok } from '../../../../../shared/result';
import { flowInRange, groupLevels, MarketDataHub, type FeedState, type MarketFeed, type TradesEvent } from '../../../../../main/services/market-data/market-data-hub';
import { WindowHub } from '../../../../../main/services/window-hub';
import { checkProperty } from '../../../../support/property';

const market = `0x${'ab'.repeat(32)}`;

class FakeFeed implements MarketFeed {
  depthOpen = 0;
  tradesOpen = 0;
  books = new Map<string, { book: OrderBook; state: FeedState; notify: () => void }>();
  tradeListeners: ((event: TradesEvent) => void)[] = [];
  openDepth(marketId: string, _turbo: boolean, onChange: () => void) {
    const precision = 10n;
    this.depthOpen++;
    const book = new OrderBook(marketId as B256, precision);
    book.applySnapshot({
      buys: Array.from({ length: 50 }, (_, index) => ({ price: 1000n - BigInt(index) * 10n, quantity: 5n })),
      sells: Array.from({ length: 50 }, (_, index) => ({ price: 1010n + BigInt(index) * 10n, quantity: 7n })),
    });
    const entry = { book, state: 'live' as FeedState, notify: onChange };
    this.books.set(marketId, entry);
    return { state: () => entry.state, book: () => entry.book, close: () => void this.depthOpen-- };
  }
  openTrades(_marketId: string, _turbo: boolean, onTrades: (event: TradesEvent) => void) {
    this.tradesOpen++;
    this.tradeListeners.push(onTrades);
    return { close: () => void this.tradesOpen-- };
  }
  recentTrades() {
    return Promise.resolve(ok([] as TradeView[]));
  }
  bars() {
    return Promise.resolve(ok([{ time: 0, open: 1n, high: 2n, low: 1n, close: 2n, volume: 3n }]));
  }
}

function setup() {
  const clock = new ManualClock(1_000);
  const windows = new WindowHub();
  const received = new Map<string, { stream: string; payload: unknown }[]>();
  const attach = (id: string) => {
    received.set(id, []);
    windows.attach(id, { send: (stream, payload) => received.get(id)!.push({ stream, payload }) });
  };
  const feed = new FakeFeed();
  const hub = new MarketDataHub(feed, windows, clock);
  return { clock, windows, received, attach, feed, hub };
}

const books = (messages: { stream: string; payload: unknown }[]) => messages.filter((m) => m.stream === 'book').map((m) => m.payload as BookFrame);

describe('market data hub', () => {
  it('two windows on one market share one upstream subscription; the last to leave closes it', () => {
    const { attach, feed, hub, windows } = setup();
    attach('w1');
    attach('w2');
    const first = hub.subscribeBook('w1', { marketId: market, turbo: false, precision: 10n, levels: 10 });
    const second = hub.subscribeBook('w2', { marketId: market, turbo: false, precision: 10n, levels: 25 });
    expect(feed.depthOpen).toBe(1);
    expect(feed.tradesOpen).toBe(1);
    expect(first.ok && second.ok).toBe(true);
    hub.unsubscribe('w1', first.ok ? first.value : '');
    expect(feed.depthOpen).toBe(1);
    windows.detach('w2');
    expect(feed.depthOpen).toBe(0);
    expect(feed.tradesOpen).toBe(0);
  });

  it('sends each window only the levels it shows, at most once per frame', () => {
    const { attach, clock, feed, hub, received } = setup();
    attach('w1');
    hub.subscribeBook('w1', { marketId: market, turbo: false, precision: 10n, levels: 10 });
    clock.advance(16);
    const entry = feed.books.get(market)!;
    for (let index = 0; index < 100; index++) {
      entry.book.applyDelta('buys', 1000n, BigInt(index + 1));
      entry.notify();
    }
    clock.advance(16);
    const frames = books(received.get('w1')!);
    expect(frames).toHaveLength(2);
    expect(frames[1]!.bids).toHaveLength(10);
    expect(frames[1]!.asks).toHaveLength(10);
    expect(frames[1]!.bids[0]).toEqual({ price: 1000n, quantity: 100n });
    expect(frames[1]!.sequence).toBe(2);
  });

  it('sends nothing to a hidden window and a fresh frame when it is shown again', () => {
    const { attach, clock, feed, hub, received } = setup();
    attach('w1');
    hub.subscribeBook('w1', { marketId: market, turbo: false, precision: 10n, levels: 5 });
    clock.advance(16);
    hub.setVisible('w1', false);
    const entry = feed.books.get(market)!;
    entry.book.applyDelta('sells', 1010n, 99n);
    entry.notify();
    clock.advance(100);
    expect(books(received.get('w1')!)).toHaveLength(1);
    hub.setVisible('w1', true);
    clock.advance(16);
    const frames = books(received.get('w1')!);
    expect(frames).toHaveLength(2);
    expect(frames[1]!.asks[0]).toEqual({ price: 1010n, quantity: 99n });
  });

  it('a network switch clears every window at once and serves the same subscriptions from the next feed', async () => {
    const { attach, clock, feed, hub, received } = setup();
    attach('w1');
    const book = hub.subscribeBook('w1', { marketId: market, turbo: false, precision: 10n, levels: 5 });
    const trades = hub.subscribeTrades('w1', { marketId: market, turbo: false });
    const bars = await hub.subscribeBars('w1', { marketId: market, turbo: false, resolution: '1m', countBack: 10 });
    clock.advance(16);
    feed.tradeListeners[0]!({ reset: false, trades: [{ tradeId: 't1', marketId: market, side: 'Buy', price: 1010n, quantity: 2n, time: 120_000 }] });
    clock.advance(16);
    expect(hub.channelStates()).toEqual([{ marketId: market, turbo: false, depth: 'live', tradesAwaiting: false }]);
    const mark = received.get('w1')!.length;
    hub.detach();
    // Synchronous: nothing of the old network is left on screen, even if the next one attaches at once.
    const cleared = received.get('w1')!.slice(mark);
    expect(books(cleared).at(-1)).toMatchObject({ subscriptionId: book.ok && book.value, state: 'resyncing', bids: [], asks: [] });
    expect(cleared.find((m) => m.stream === 'trades')?.payload).toMatchObject({ subscriptionId: trades.ok && trades.value, reset: true, trades: [] });
    expect(cleared.find((m) => m.stream === 'bars')?.payload).toMatchObject({ subscriptionId: bars.ok && bars.value, reset: true, bars: [] });
    expect(feed.depthOpen).toBe(0);
    expect(feed.tradesOpen).toBe(0);
    expect(hub.channelStates()).toEqual([]);

    const next = new FakeFeed();
    hub.attach(next);
    expect(next.depthOpen).toBe(1);
    expect(next.tradesOpen).toBe(1);
    expect(hub.channelStates()).toEqual([{ marketId: market, turbo: false, depth: 'live', tradesAwaiting: true }]);
    await Promise.resolve();
    clock.advance(16);
    const after = received.get('w1')!.slice(mark + cleared.length);
    expect(books(after).at(-1)).toMatchObject({ subscriptionId: book.ok && book.value, state: 'live' });
    expect(after.find((m) => m.stream === 'bars')?.payload).toMatchObject({ subscriptionId: bars.ok && bars.value, reset: true, bars: [{ time: 0 }] });
    next.tradeListeners[0]!({ reset: false, trades: [{ tradeId: 't2', marketId: market, side: 'Sell', price: 1000n, quantity: 1n, time: 121_000 }] });
    clock.advance(16);
    const tape = received.get('w1')!.filter((m) => m.stream === 'trades').map((m) => m.payload as TradesFrame);
    expect(tape.at(-1)!.trades.map((trade) => trade.tradeId)).toContain('t2');
    expect(tape.at(-1)!.trades.map((trade) => trade.tradeId)).not.toContain('t1');
    // Ids are never reused across feeds: a new subscription gets a new one.
    const again = hub.subscribeTrades('w1', { marketId: market, turbo: false });
    expect(again.ok && [book, trades, bars].every((old) => old.ok && old.value !== again.value)).toBe(true);
  });

  it('accepts subscriptions while no feed is attached and opens them on attach', async () => {
    const { attach, clock, hub, received } = setup();
    hub.detach();
    attach('w1');
    const book = hub.subscribeBook('w1', { marketId: market, turbo: false, precision: 10n, levels: 5 });
    const bars = await hub.subscribeBars('w1', { marketId: market, turbo: false, resolution: '1m', countBack: 10 });
    expect(book.ok && bars.ok).toBe(true);
    clock.advance(16);
    expect(books(received.get('w1')!).at(-1)).toMatchObject({ state: 'resyncing', bids: [] });
    const next = new FakeFeed();
    hub.attach(next);
    await Promise.resolve();
    clock.advance(16);
    expect(books(received.get('w1')!).at(-1)).toMatchObject({ state: 'live' });
    expect(received.get('w1')!.filter((m) => m.stream === 'bars').at(-1)?.payload).toMatchObject({ reset: true, bars: [{ time: 0 }] });
  });

  it('shows resyncing with no levels instead of a stale book', () => {
    const { attach, clock, feed, hub, received } = setup();
    attach('w1');
    hub.subscribeBook('w1', { marketId: market, turbo: false, precision: 10n, levels: 5 });
    const entry = feed.books.get(market)!;
    entry.state = 'resyncing';
    entry.notify();
    clock.advance(16);
    const frame = books(received.get('w1')!).at(-1)!;
    expect(frame.state).toBe('resyncing');
    expect(frame.bids).toEqual([]);
    expect(frame.asks).toEqual([]);
  });

  it('feeds the tape, the last trade, volume at price and live candles from one trade stream', async () => {
    const { attach, clock, feed, hub, received } = setup();
    attach('w1');
    hub.subscribeBook('w1', { marketId: market, turbo: false, precision: 10n, levels: 5 });
    hub.subscribeTrades('w1', { marketId: market, turbo: false });
    const bars = await hub.subscribeBars('w1', { marketId: market, turbo: false, resolution: '1m', countBack: 10 });
    expect(bars.ok).toBe(true);
    clock.advance(16);
    feed.tradeListeners[0]!({
      reset: false,
      trades: [
        { tradeId: 't1', marketId: market, side: 'Buy', price: 1010n, quantity: 2n, time: 120_000 },
        { tradeId: 't2', marketId: market, side: 'Sell', price: 1004n, quantity: 3n, time: 120_500 },
      ],
    });
    clock.advance(16);
    const messages = received.get('w1')!;
    const tape = messages.filter((m) => m.stream === 'trades').map((m) => m.payload as TradesFrame).at(-1)!;
    expect(tape.trades.map((trade) => trade.tradeId)).toEqual(['t2', 't1']);
    const book = books(messages).at(-1)!;
    expect(book.lastTrade).toMatchObject({ price: 1004n, side: 'Sell' });
    expect(book.volumeAtPrice).toEqual([{ price: 1010n, quantity: 2n }, { price: 1000n, quantity: 3n }]);
    const candle = messages.filter((m) => m.stream === 'bars').map((m) => m.payload as BarsFrame).at(-1)!;
    expect(candle.reset).toBe(false);
    expect(candle.bars).toEqual([{ time: 120_000, open: 1010n, high: 1010n, low: 1004n, close: 1004n, volume: 5n }]);
  });

  it('a sweep (one message, trades of one time, newest first as the stream sends them) stays newest first on the tape, its last price the last trade and the candle close', async () => {
    // The sandbox stamps every trade of a transaction with one time and sends them newest first
    // (docs/sandbox.md), as GET /v1/trades (desc) lists them: nothing but that order tells trades of
    // one time apart, so the hub keeps it (the trader-session oracle holds the tape to that order).
    const { attach, clock, feed, hub, received } = setup();
    attach('w1');
    hub.subscribeBook('w1', { marketId: market, turbo: false, precision: 10n, levels: 5 });
    hub.subscribeTrades('w1', { marketId: market, turbo: false });
    await hub.subscribeBars('w1', { marketId: market, turbo: false, resolution: '1m', countBack: 10 });
    clock.advance(16);
    feed.tradeListeners[0]!({
      reset: false,
      trades: [
        { tradeId: 's3', marketId: market, side: 'Buy', price: 1030n, quantity: 1n, time: 180_000 },
        { tradeId: 's2', marketId: market, side: 'Buy', price: 1020n, quantity: 1n, time: 180_000 },
        { tradeId: 's1', marketId: market, side: 'Buy', price: 1010n, quantity: 1n, time: 180_000 },
      ],
    });
    clock.advance(16);
    const messages = received.get('w1')!;
    const tape = messages.filter((m) => m.stream === 'trades').map((m) => m.payload as TradesFrame).at(-1)!;
    expect(tape.trades.map((trade) => trade.tradeId)).toEqual(['s3', 's2', 's1']);
    expect(books(messages).at(-1)!.lastTrade).toMatchObject({ price: 1030n, side: 'Buy' });
    const candle = messages.filter((m) => m.stream === 'bars').map((m) => m.payload as BarsFrame).at(-1)!;
    expect(candle.bars.at(-1)).toMatchObject({ open: 1010n, close: 1030n, high: 1030n, low: 1010n });
  });

  it('a trade the stream delivers twice (a duplicated message) is on the tape once and counted once in volume and candles', async () => {
    const { attach, clock, feed, hub, received } = setup();
    attach('w1');
    hub.subscribeBook('w1', { marketId: market, turbo: false, precision: 10n, levels: 5 });
    hub.subscribeTrades('w1', { marketId: market, turbo: false });
    await hub.subscribeBars('w1', { marketId: market, turbo: false, resolution: '1m', countBack: 10 });
    clock.advance(16);
    const message = { reset: false, trades: [{ tradeId: 't1', marketId: market, side: 'Buy' as const, price: 1010n, quantity: 2n, time: 120_000 }] };
    feed.tradeListeners[0]!(message);
    feed.tradeListeners[0]!(message);
    feed.tradeListeners[0]!({ reset: false, trades: [{ tradeId: 't2', marketId: market, side: 'Sell', price: 1004n, quantity: 3n, time: 120_500 }, { tradeId: 't2', marketId: market, side: 'Sell', price: 1004n, quantity: 3n, time: 120_500 }] });
    clock.advance(16);
    const messages = received.get('w1')!;
    const shown = messages.filter((m) => m.stream === 'trades').flatMap((m) => (m.payload as TradesFrame).trades.map((trade) => trade.tradeId));
    expect(shown.filter((id) => id === 't1')).toHaveLength(1);
    expect(shown.filter((id) => id === 't2')).toHaveLength(1);
    expect(books(messages).at(-1)!.volumeAtPrice).toEqual([{ price: 1010n, quantity: 2n }, { price: 1000n, quantity: 3n }]);
    const candle = messages.filter((m) => m.stream === 'bars').map((m) => m.payload as BarsFrame).at(-1)!;
    expect(candle.bars.at(-1)).toMatchObject({ volume: 5n });
    // A restarted stream: its first message repeats recent history. The tape shows it again; volume
    // and candles do not count it again.
    feed.tradeListeners[0]!({ reset: true, trades: [] });
    feed.tradeListeners[0]!({ reset: false, trades: [message.trades[0]!] });
    clock.advance(16);
    const after = received.get('w1')!;
    expect(after.filter((m) => m.stream === 'trades').map((m) => m.payload as TradesFrame).at(-1)!.trades.map((trade) => trade.tradeId)).toEqual(['t1']);
    expect(books(after).at(-1)!.volumeAtPrice).toEqual([{ price: 1010n, quantity: 2n }, { price: 1000n, quantity: 3n }]);
  });

  it('a restarted exchange numbers its trades from the start again: its trades are new ones on the tape and in volume, not repeats of the old ids', () => {
    const { attach, clock, feed, hub, received } = setup();
    attach('w1');
    hub.subscribeBook('w1', { marketId: market, turbo: false, precision: 10n, levels: 5 });
    hub.subscribeTrades('w1', { marketId: market, turbo: false });
    clock.advance(16);
    const trade = (tradeId: string, price: bigint, time: number) => ({ tradeId, marketId: market, side: 'Buy' as const, price, quantity: 1n, time });
    feed.tradeListeners[0]!({ reset: false, trades: [trade('t2', 1010n, 120_500), trade('t1', 1010n, 120_000)] });
    clock.advance(16);
    // The exchange restarts: its stream comes back with a history of one trade, then trades on with
    // the ids the old exchange had used (other trades, later).
    feed.tradeListeners[0]!({ reset: true, trades: [] });
    feed.tradeListeners[0]!({ reset: false, trades: [trade('t1', 1020n, 200_000)] });
    feed.tradeListeners[0]!({ reset: false, trades: [trade('t2', 1030n, 200_500)] });
    clock.advance(16);
    const frames = received.get('w1')!.filter((m) => m.stream === 'trades').map((m) => m.payload as TradesFrame);
    const sinceReset = frames.slice(frames.findLastIndex((frame) => frame.reset));
    expect(sinceReset.flatMap((frame) => frame.trades.map((shown) => `${shown.tradeId}@${shown.price}`))).toEqual(['t2@1030', 't1@1020']);
    expect(books(received.get('w1')!).at(-1)!.volumeAtPrice).toEqual([{ price: 1030n, quantity: 1n }, { price: 1020n, quantity: 1n }, { price: 1010n, quantity: 2n }]);
  });

  it('groups levels into coarser rows: bids floored, asks ceiled, never better than on offer', () => {
    const bids = groupLevels([[1009n, 1n], [1001n, 2n], [999n, 4n], [990n, 8n]], 10n, 'buys', 5);
    expect(bids).toEqual([{ price: 1000n, quantity: 3n }, { price: 990n, quantity: 12n }]);
    const asks = groupLevels([[1001n, 1n], [1010n, 2n], [1011n, 4n]], 10n, 'sells', 1);
    expect(asks).toEqual([{ price: 1010n, quantity: 3n }]);
  });

  it('serves two precisions of one market from one upstream book', () => {
    const { attach, feed, hub, clock, received } = setup();
    attach('w1');
    hub.subscribeBook('w1', { marketId: market, turbo: false, precision: 10n, levels: 3 });
    hub.subscribeBook('w1', { marketId: market, turbo: false, precision: 100n, levels: 3 });
    expect(feed.depthOpen).toBe(1);
    clock.advance(16);
    const [fine, coarse] = books(received.get('w1')!);
    expect(fine!.bids.map((level) => level.price)).toEqual([1000n, 990n, 980n]);
    expect(coarse!.bids.map((level) => level.price)).toEqual([1000n, 900n, 800n]);
    // Asks 1010..1100 (ten levels of 7) all ceil to the 1100 row.
    expect(coarse!.asks[0]).toEqual({ price: 1100n, quantity: 70n });
  });

  it('groups order flow into the rows shown, each side on its own', () => {
    const flow = new Map([
      [1005n, { bought: 1n, sold: 0n }],
      [1009n, { bought: 0n, sold: 2n }],
      [2000n, { bought: 9n, sold: 0n }],
      [500n, { bought: 4n, sold: 4n }],
    ]);
    expect(flowInRange(flow, 10n, [{ price: 1000n, quantity: 1n }], [{ price: 1010n, quantity: 1n }], 1)).toEqual([{ price: 1000n, bought: 1n, sold: 2n }]);
  });

  it('sends the flow of the rows a ladder of that many levels can show, not every row down to the deepest level of a thin book', () => {
    const flow = new Map([
      [995n, { bought: 1n, sold: 0n }],
      [985n, { bought: 0n, sold: 1n }],
      [500n, { bought: 4n, sold: 4n }],
      [1031n, { bought: 2n, sold: 0n }],
      [4990n, { bought: 3n, sold: 0n }],
    ]);
    // Bids at 1000 and 100, asks at 1010 and 5000 (a thin book): two rows each side of each inside.
    const bids = [
      { price: 1000n, quantity: 1n },
      { price: 100n, quantity: 1n },
    ];
    const asks = [
      { price: 1010n, quantity: 1n },
      { price: 5000n, quantity: 1n },
    ];
    expect(flowInRange(flow, 10n, bids, asks, 2)).toEqual([
      { price: 1030n, bought: 2n, sold: 0n },
      { price: 990n, bought: 1n, sold: 0n },
      { price: 980n, bought: 0n, sold: 1n },
    ]);
    // Split around a wide spread: the rows next to each inside, none of the spread between.
    const wide = new Map([
      [1000n, { bought: 1n, sold: 0n }],
      [3000n, { bought: 1n, sold: 0n }],
      [5010n, { bought: 0n, sold: 1n }],
    ]);
    expect(flowInRange(wide, 10n, bids.slice(0, 1), [{ price: 5000n, quantity: 1n }], 3).map((row) => row.price)).toEqual([5010n, 1000n]);
    expect(flowInRange(wide, 10n, [], [], 3)).toEqual([]);
  });

  it('picks the same rows as grouping every price first, whatever the flow, precision and inside', () => {
    // The definition, written plainly: every price's row, kept when it is within `levels` rows of
    // the best bid's row or of the best ask's row (the code compares raw prices instead).
    const byDefinition = (flow: ReadonlyMap<bigint, { bought: bigint; sold: bigint }>, precision: bigint, bids: { price: bigint }[], asks: { price: bigint }[], levels: number) => {
      const span = BigInt(levels) * precision;
      const rowOf = (price: bigint) => (price / precision) * precision;
      const near = [bids[0]?.price, asks[0]?.price].flatMap((price) => (price === undefined ? [] : [rowOf(price)]));
      const rows = new Map<bigint, { bought: bigint; sold: bigint }>();
      for (const [price, cell] of flow) {
        const row = rowOf(price);
        if (!near.some((inside) => row >= inside - span && row <= inside + span)) continue;
        const sum = rows.get(row) ?? { bought: 0n, sold: 0n };
        rows.set(row, { bought: sum.bought + cell.bought, sold: sum.sold + cell.sold });
      }
      return [...rows].sort((a, b) => (a[0] < b[0] ? 1 : a[0] > b[0] ? -1 : 0)).map(([price, cell]) => ({ price, bought: cell.bought, sold: cell.sold }));
    };
    // Prices a few rows either side of the inside, so the ends of the range are hit: a row, and
    // an offset inside it (taken modulo the precision).
    const near = fc.tuple(fc.integer({ min: -40, max: 40 }), fc.oneof(fc.constant(0n), fc.constant(999n), fc.bigInt({ min: 0n, max: 999n })));
    const CENTER = 100_000n;
    const priceOf = ([rows, offset]: [number, bigint], precision: bigint) => CENTER + BigInt(rows) * precision + (offset % precision);
    checkProperty(
      fc.property(
        fc.array(fc.tuple(near, fc.bigInt({ min: 0n, max: 1_000n }), fc.bigInt({ min: 0n, max: 1_000n })), { maxLength: 300 }),
        fc.constantFrom(1n, 5n, 10n, 100n, 1_000n),
        fc.option(near, { nil: undefined }),
        fc.option(near, { nil: undefined }),
        fc.integer({ min: 0, max: 30 }),
        (cells, precision, bid, ask, levels) => {
          const flow = new Map(cells.map(([at, bought, sold]) => [priceOf(at, precision), { bought, sold }] as const));
          const bids = bid === undefined ? [] : [{ price: priceOf(bid, precision), quantity: 1n }];
          const asks = ask === undefined ? [] : [{ price: priceOf(ask, precision), quantity: 1n }];
          expect(flowInRange(flow, precision, bids, asks, levels)).toEqual(byDefinition(flow, precision, bids, asks, levels));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("main's own watch of a market (alerts)", () => {
  const trade = (tradeId: string, price: bigint): TradeView => ({ tradeId, price, quantity: 1n, side: 'Buy', time: 1 }) as TradeView;

  it('holds the channels with no window, reads best prices and the last trade, is told of changes, and follows a network switch', () => {
    const { feed, hub, windows } = setup();
    let changes = 0;
    const watch = hub.watch(market, false, () => changes++);
    expect(feed.depthOpen).toBe(1);
    expect(feed.tradesOpen).toBe(1);
    expect(watch.quote()).toEqual({ bid: 1000n, ask: 1010n, last: null });
    feed.books.get(market)!.notify();
    for (const listener of feed.tradeListeners) listener({ trades: [trade('t1', 1005n)], reset: false });
    expect(changes).toBe(2);
    expect(watch.quote().last).toBe(1005n);
    // A window coming and going does not take the watch's channels with it.
    windows.attach('w1', { send: () => undefined });
    windows.detach('w1');
    expect(feed.depthOpen).toBe(1);
    hub.detach();
    const next = new FakeFeed();
    hub.attach(next);
    expect(next.depthOpen).toBe(1);
    expect(next.tradesOpen).toBe(1);
    watch.close();
    expect(next.depthOpen).toBe(0);
    expect(next.tradesOpen).toBe(0);
  });

  it('reports the last trade every book frame carries, and tells when it changes or its stream closes', () => {
    const { attach, clock, feed, hub, received } = setup();
    const told: string[] = [];
    hub.onLastTrade((marketId, turbo) => told.push(`${marketId}:${turbo}`));
    attach('w1');
    const book = hub.subscribeBook('w1', { marketId: market, turbo: false, precision: 10n, levels: 5 });
    expect(hub.lastTradePrice(market, false)).toBeNull();
    feed.tradeListeners[0]!({ trades: [trade('t1', 1005n), trade('t2', 1007n)], reset: false });
    clock.advance(16);
    expect(hub.lastTradePrice(market, false)).toBe(books(received.get('w1')!).at(-1)!.lastTrade!.price);
    expect(hub.lastTradePrice(market, true)).toBeNull();
    expect(told).toEqual([`${market}:false`]);
    // The same trade again changes nothing.
    feed.tradeListeners[0]!({ trades: [trade('t2', 1007n)], reset: false });
    expect(told.length).toBe(1);
    hub.unsubscribe('w1', book.ok ? book.value : '');
    expect(hub.lastTradePrice(market, false)).toBeNull();
    expect(told).toEqual([`${market}:false`, `${market}:false`]);
  });
});
