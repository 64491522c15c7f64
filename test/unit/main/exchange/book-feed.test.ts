import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../shared/clock';
import { b256 } from '../../../../shared/encoding/b256';
import { OrderBookFeed, type BookHandle } from '../../../../main/exchange/book-feed';
import { ExchangeStream } from '../../../../main/exchange/stream-client';
import { FakeServer } from '../../../support/main/exchange/fake-socket';

const market = b256(`0x${'a1'.repeat(32)}`);
const other = b256(`0x${'a2'.repeat(32)}`);

const level = (price: number, quantity: number) => ({ price: String(price), quantity: String(quantity) });
const snapshot = (marketId = market, turbo?: boolean) => ({
  action: 'subscribe_depth',
  market_id: marketId,
  view: { buys: [level(100, 5), level(99, 7)], sells: [[String(101), String(3)], [String(102), String(4)]] },
  ...(turbo === undefined ? {} : { turbo }),
});
const update = (buys: unknown[], sells: unknown[], marketId: string | null = market) => ({
  action: 'subscribe_depth_update',
  ...(marketId === null ? {} : { market_id: marketId }),
  changes: { buys, sells },
});

function setup() {
  const clock = new ManualClock(0);
  const server = new FakeServer();
  const stream = new ExchangeStream({ url: 'ws://fake/v1/ws', clock, socketFactory: server.factory });
  const feed = new OrderBookFeed(stream);
  stream.connect();
  server.last.open();
  const changes: string[] = [];
  const opened = feed.open(market, 100n, { onChange: (handle) => changes.push(handle.state()) });
  if (!opened.ok) throw new Error(opened.message);
  return { clock, server, stream, feed, book: opened.value, changes };
}

function top(book: BookHandle) {
  const read = book.top(5);
  if (!read.ok) throw new Error(read.code);
  return read.value;
}

describe('order book feed', () => {
  it('serves nothing before the snapshot, then applies deltas (quantity 0 removes a level)', () => {
    const { server, book, changes } = setup();
    expect(book.state()).toBe('resyncing');
    expect(book.top(5)).toMatchObject({ ok: false, code: 'BOOK_RESYNCING' });
    server.last.push(update([level(98, 1)], []));
    expect(book.book()).toBeNull();
    server.last.push(snapshot());
    expect(book.state()).toBe('live');
    server.last.push(update([level(100, 0), level(99, 8)], [level(101, 1)]));
    expect(top(book)).toEqual({ buys: [[99n, 8n]], sells: [[101n, 1n], [102n, 4n]] });
    expect(changes).toEqual(['live', 'live']);
  });

  it('goes resyncing on a crossing update, resubscribes, and is live again only after a fresh snapshot', () => {
    const { server, book } = setup();
    server.last.push(snapshot());
    server.last.sent.length = 0;
    server.last.push(update([level(105, 1)], []));
    expect(book.state()).toBe('resyncing');
    expect(book.book()).toBeNull();
    expect(book.lastProblem()).toContain('crossed');
    expect(server.last.requests()).toEqual([
      { action: 'unsubscribe_depth', market_id: market, precision: '100' },
      { action: 'subscribe_depth', market_id: market, precision: '100' },
    ]);
    server.last.push(update([level(98, 1)], [])); // late update of the old subscription: dropped
    expect(book.state()).toBe('resyncing');
    server.last.push(snapshot());
    expect(book.state()).toBe('live');
    expect(top(book).buys).toEqual([[100n, 5n], [99n, 7n]]);
    expect(book.resyncs()).toBe(1);
  });

  it('goes resyncing when a delta finds the book inconsistent (a level out of its place), without a full walk', () => {
    const { server, book } = setup();
    server.last.push(snapshot());
    const live = book.book();
    if (live === null) throw new Error('not live');
    // Plant a bug in the price order's binary search: a new level lands one place too far.
    const side = live.buys as unknown as { insertionIndex(price: bigint): number };
    const right = side.insertionIndex.bind(live.buys);
    side.insertionIndex = (price: bigint) => right(price) + 1;
    server.last.sent.length = 0;
    server.last.push(update([level(98, 1), level(97, 1)], []));
    expect(book.state()).toBe('resyncing');
    expect(book.book()).toBeNull();
    expect(book.lastProblem()).toMatch(/update refused: buys: levels .* out of order/);
    expect(server.last.requests()).toEqual([
      { action: 'unsubscribe_depth', market_id: market, precision: '100' },
      { action: 'subscribe_depth', market_id: market, precision: '100' },
    ]);
    server.last.push(snapshot());
    expect(top(book).buys).toEqual([[100n, 5n], [99n, 7n]]);
  });

  it('refuses an unsorted snapshot and resubscribes', () => {
    const { server, book } = setup();
    server.last.push({ action: 'subscribe_depth', market_id: market, view: { buys: [level(99, 1), level(100, 1)], sells: [] } });
    expect(book.state()).toBe('resyncing');
    expect(book.lastProblem()).toContain('snapshot refused');
    expect(server.last.requests().slice(-2).map((request) => request.action)).toEqual(['unsubscribe_depth', 'subscribe_depth']);
  });

  it('goes resyncing on a disconnect and comes back from the snapshot sent after the reconnect', () => {
    const { clock, server, book } = setup();
    server.last.push(snapshot());
    server.last.serverClose(1006);
    expect(book.state()).toBe('resyncing');
    expect(book.top(1)).toMatchObject({ ok: false, code: 'BOOK_RESYNCING' });
    clock.advance(2_000);
    server.last.open();
    expect(server.last.requests()).toEqual([{ action: 'subscribe_depth', market_id: market, precision: '100' }]);
    expect(book.state()).toBe('resyncing');
    server.last.push(snapshot());
    expect(book.state()).toBe('live');
  });

  it('keeps books of other markets and of the Turbo book apart, and resyncs what it cannot attribute', () => {
    const { server, feed, book } = setup();
    const turbo = feed.open(market, 100n, { turbo: true });
    const second = feed.open(other, 100n);
    if (!turbo.ok || !second.ok) throw new Error('open failed');
    server.last.push(snapshot());
    server.last.push(snapshot(market, true));
    server.last.push(snapshot(other));
    server.last.push(update([level(100, 9)], [], other));
    expect(top(second.value).buys[0]).toEqual([100n, 9n]);
    expect(top(book).buys[0]).toEqual([100n, 5n]);
    expect(top(turbo.value).buys[0]).toEqual([100n, 5n]);
    server.last.push(update([level(100, 1)], [], null));
    expect(book.state()).toBe('resyncing');
    expect(second.value.state()).toBe('resyncing');
    expect(turbo.value.state()).toBe('live');
    expect(feed.open(market, 1000n)).toMatchObject({ ok: false, code: 'SUBSCRIPTION_CONFLICT' });
  });

  it('an update older than one already applied (the stream reordered them) resyncs the book instead of applying it', () => {
    const { server, book } = setup();
    const at = (message: object, seen: number) => ({ ...message, seen_timestamp: String(seen * 1_000_000) });
    server.last.push(at(snapshot(), 10));
    server.last.push(at(update([level(98, 2)], []), 12));
    // Sent at 11 (the level appeared), delivered after 12 (it went): applied, it would bring the level back.
    server.last.sent.length = 0;
    server.last.push(at(update([level(98, 0)], []), 11));
    expect(book.state()).toBe('resyncing');
    expect(book.lastProblem()).toMatch(/older than/);
    expect(server.last.requests()).toEqual([
      { action: 'unsubscribe_depth', market_id: market, precision: '100' },
      { action: 'subscribe_depth', market_id: market, precision: '100' },
    ]);
    server.last.push(at(snapshot(), 20));
    expect(book.state()).toBe('live');
    // Updates of one time may come in any order: equal stamps are not a reordering.
    server.last.push(at(update([level(97, 1)], []), 20));
    expect(book.state()).toBe('live');
  });

  it('a snapshot older than the updates already applied is refused, never served', () => {
    const { server, book } = setup();
    const at = (message: object, seen: number) => ({ ...message, seen_timestamp: String(seen * 1_000_000) });
    server.last.push(at(snapshot(), 10));
    server.last.push(at(update([level(98, 2)], []), 12));
    server.last.sent.length = 0;
    // The snapshot of 10 again, after the update of 12: it lacks the level at 98.
    server.last.push(at(snapshot(), 10));
    expect(book.state()).toBe('resyncing');
    expect(book.book()).toBeNull();
    expect(book.lastProblem()).toMatch(/snapshot older than/);
    expect(server.last.requests()).toHaveLength(2);
    server.last.push(at({ ...snapshot(), view: { buys: [level(100, 5), level(98, 2)], sells: [level(101, 3)] } }, 13));
    expect(book.state()).toBe('live');
    expect(top(book).buys).toEqual([[100n, 5n], [98n, 2n]]);
  });

  it('closing a handle unsubscribes', () => {
    const { server, book } = setup();
    book.close();
    expect(server.last.requests().at(-1)).toEqual({ action: 'unsubscribe_depth', market_id: market, precision: '100' });
    expect(book.top(1)).toMatchObject({ ok: false, code: 'BOOK_CLOSED' });
  });
});
