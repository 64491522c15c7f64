// Bad frames on the WebSocket, property-based: ExchangeStream over an in-memory socket fed
// arbitrary text frames and mutations of every kind of valid frame, with an OrderBookFeed on one
// market. The stream never throws; a frame that is not a message of the protocol becomes exactly
// one `invalid_frame` event with a code; a valid depth snapshot afterwards still builds the right
// book. With the book checked against a model after every frame: while the book is served it is
// uncrossed and equal to what the exchange sent, and once a depth frame could not be read (so an
// update may be missing) it is not served until a fresh snapshot.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OrderBookFeed, type BookHandle } from '../../../main/exchange/book-feed';
import { ExchangeStream, type StreamEvent } from '../../../main/exchange/stream-client';
import { serverMessageSchema } from '../../../shared/api/websocket-schemas';
import { ManualClock } from '../../../shared/clock';
import { b256 } from '../../../shared/encoding/b256';
import { FakeServer } from '../../support/main/exchange/fake-socket';
import { deeplyNestedText, hostileJson, mutationOf } from '../../support/fuzz/hostile';
import { checkProperty } from '../../support/property';

const MARKET = b256(`0x${'a1'.repeat(32)}`);
const OTHER = b256(`0x${'b2'.repeat(32)}`);
const ACCOUNT = b256(`0x${'77'.repeat(32)}`);
const ASSET = b256(`0x${'9c'.repeat(32)}`);

const snapshot = { action: 'subscribe_depth', market_id: MARKET, view: { buys: [{ price: '100', quantity: '5' }, ['99', '2']], sells: [['110', '3']] } };
const update = { action: 'subscribe_depth_update', market_id: MARKET, changes: { buys: [{ price: '101', quantity: '1' }], sells: [['110', '0']] } };
const validFrames: readonly unknown[] = [
  snapshot,
  update,
  { action: 'subscribe_depth_update', changes: { buys: [], sells: [['111', '4']] }, onchain_timestamp: '5' },
  { action: 'subscribe_trades', market_id: MARKET, trades: [{ trade_id: '9', side: 'Sell', price: '105', quantity: '2', total: '210', timestamp: '1' }] },
  { action: 'subscribe_orders', orders: [{ order_id: ACCOUNT, side: 'Buy', order_type: 'Spot', quantity: '10', price: '5' }] },
  { action: 'subscribe_balances', balance: [{ identity: { ContractId: ACCOUNT }, asset_id: ASSET, total_locked: '1', total_unlocked: '2', trading_account_balance: '1', order_books: {} }] },
  { action: 'subscribe_nonce', contract_id: ACCOUNT, nonce: '3' },
  { action: 'subscribe_nonce_v2', update: { sequential: { contract_id: ACCOUNT, nonce: '4' } } },
  { action: 'subscribe_margin_update', event: { kind: 'Draw' } },
  { action: 'error', message: 'trade stream restarted', turbo: true, resync_required: true },
  { error: 'Invalid subscription frequency: 2s' },
];

/** The frame's text; a value too deep for JSON.stringify is sent as equally deep text. */
function textOf(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    return deeplyNestedText(20_000, 'array');
  }
}

/** A text frame: garbage, JSON of anything, a valid frame, a mutated one, or a truncated one. */
const frame: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.string({ maxLength: 60 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 60 }), weight: 1 },
  { arbitrary: hostileJson.map(textOf), weight: 2 },
  { arbitrary: fc.constantFrom(...validFrames).map((value) => JSON.stringify(value)), weight: 1 },
  { arbitrary: fc.constantFrom(...validFrames).chain((value) => mutationOf(value, hostileJson)).map(textOf), weight: 5 },
  { arbitrary: fc.tuple(fc.constantFrom(...validFrames), fc.nat()).map(([value, cut]) => JSON.stringify(value).slice(0, cut % 80)), weight: 1 },
  { arbitrary: fc.constantFrom('PING', 'PONG', '', 'null', '[]', '{}'), weight: 1 },
);

function setup() {
  const clock = new ManualClock(1_700_000_000_000);
  const server = new FakeServer();
  const stream = new ExchangeStream({ url: 'ws://exchange.test/v1/ws', clock, socketFactory: server.factory });
  const events: StreamEvent[] = [];
  stream.onEvent((event) => events.push(event));
  stream.connect();
  server.last.open();
  const feed = new OrderBookFeed(stream);
  const crossedWhileServed: string[] = [];
  const opened = feed.open(MARKET, 10n, {
    onChange: (handle) => {
      const book = handle.book();
      if (book === null) return;
      const bid = book.bestBid();
      const ask = book.bestAsk();
      if ((bid !== undefined && ask !== undefined && bid >= ask) || !book.check().ok) crossedWhileServed.push(`${bid} / ${ask}`);
    },
  });
  if (!opened.ok) throw new Error(opened.message);
  return { clock, server, stream, events, handle: opened.value, crossedWhileServed };
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

describe('stream frames, hostile', () => {
  it('never throws; each frame that is not a protocol message is exactly one invalid_frame event with a code; a valid snapshot afterwards builds the book', () => {
    checkProperty(
      fc.property(fc.array(frame, { maxLength: 25 }), (frames) => {
        const { server, events, handle } = setup();
        for (const text of frames) {
          const before = events.length;
          server.last.push(text);
          const emitted = events.slice(before);
          if (text === 'PING' || text === 'PONG') {
            expect(emitted).toEqual([]);
            continue;
          }
          expect(emitted, `one event for ${text.slice(0, 80)}`).toHaveLength(1);
          const json = parseJson(text);
          const valid = json.ok && serverMessageSchema.safeParse(json.value).success;
          const event = emitted[0] as StreamEvent;
          if (valid) expect(event.type).not.toBe('invalid_frame');
          else {
            expect(event).toMatchObject({ type: 'invalid_frame', code: 'BAD_RESPONSE' });
            expect(event.type === 'invalid_frame' && event.message.length).toBeGreaterThan(0);
          }
        }
        server.last.push(JSON.stringify({ action: 'subscribe_depth', market_id: MARKET, orders: { buys: [['120', '7'], ['90', '1']], sells: [{ price: '121', quantity: '2' }] } }));
        expect(handle.state()).toBe('live');
        expect(handle.top(10)).toEqual({ ok: true, value: { buys: [[120n, 7n], [90n, 1n]], sells: [[121n, 2n]] } });
      }),
      { numRuns: 300 },
    );
  });
});

// ---- the book against a model -------------------------------------------------------------

type Levels = Map<bigint, bigint>;
interface Model {
  known: boolean;
  buys: Levels;
  sells: Levels;
}

const levelText = fc.record({ price: fc.bigInt({ min: 1n, max: 60n }), quantity: fc.bigInt({ min: 0n, max: 4n }) });
const side = fc.array(levelText, { maxLength: 6 });
const asWire = (levels: readonly { price: bigint; quantity: bigint }[], pairs: boolean) =>
  levels.map((level) => (pairs ? [String(level.price), String(level.quantity)] : { price: String(level.price), quantity: String(level.quantity) }));

const DEPTH_ACTIONS = new Set(['subscribe_depth', 'subscribe_depth_update']);
/** Actions that never carry depth: an unreadable frame of one of them cannot be a missed book update. */
const NOT_DEPTH = new Set(['subscribe_depth_view', 'subscribe_trades', 'subscribe_orders', 'subscribe_balances', 'subscribe_nonce', 'subscribe_nonce_v2', 'subscribe_margin', 'subscribe_margin_update', 'error']);

/** Frames of a depth stream: deltas and snapshots (in order or not), mutated ones, other markets, garbage. */
const depthFrame: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.record({ buys: side, sells: side, pairs: fc.boolean(), named: fc.boolean() }).map(({ buys, sells, pairs, named }) => JSON.stringify({ action: 'subscribe_depth_update', ...(named ? { market_id: MARKET } : {}), changes: { buys: asWire(buys, pairs), sells: asWire(sells, pairs) } })), weight: 6 },
  {
    arbitrary: fc.record({ buys: side, sells: side, sorted: fc.boolean() }).map(({ buys, sells, sorted }) => {
      const order = (levels: typeof buys, descending: boolean) => (sorted ? [...new Map(levels.filter((l) => l.quantity > 0n).map((l) => [l.price, l])).values()].sort((a, b) => (a.price < b.price ? 1 : -1) * (descending ? 1 : -1)) : levels);
      return JSON.stringify({ action: 'subscribe_depth', market_id: MARKET, view: { buys: asWire(order(buys, true), false), sells: asWire(order(sells, false), true) } });
    }),
    weight: 2,
  },
  { arbitrary: fc.constantFrom(snapshot, update).chain((value) => mutationOf(value, hostileJson)).map(textOf), weight: 3 },
  { arbitrary: fc.constant(JSON.stringify({ ...update, market_id: OTHER })), weight: 1 },
  { arbitrary: fc.constant(JSON.stringify({ ...update, turbo: true })), weight: 1 },
  { arbitrary: fc.constantFrom('{"action":"subscribe_depth_upd', 'not json', '{"action":"subscribe_trades","trades":"x"}'), weight: 1 },
);

function best(levels: Levels, highest: boolean): bigint | undefined {
  let found: bigint | undefined;
  for (const price of levels.keys()) if (found === undefined || (highest ? price > found : price < found)) found = price;
  return found;
}

function crossed(model: Model): boolean {
  const bid = best(model.buys, true);
  const ask = best(model.sells, false);
  return bid !== undefined && ask !== undefined && bid >= ask;
}

/** What a correct client knows after a frame: the book the exchange meant, or that it cannot know it. */
function applyToModel(model: Model, text: string): void {
  const json = parseJson(text);
  const parsed = json.ok ? serverMessageSchema.safeParse(json.value) : null;
  if (parsed === null || !parsed.success) {
    const record = json.ok && typeof json.value === 'object' && json.value !== null && !Array.isArray(json.value) ? (json.value as Record<string, unknown>) : null;
    const action = typeof record?.action === 'string' ? record.action : undefined;
    const market = typeof record?.market_id === 'string' && /^0x[0-9a-fA-F]{64}$/.test(record.market_id) ? record.market_id.toLowerCase() : undefined;
    const couldBeOurDepth = (action === undefined || !NOT_DEPTH.has(action)) && (market === undefined || market === MARKET);
    if (couldBeOurDepth) model.known = false;
    return;
  }
  const message = parsed.data;
  if (!DEPTH_ACTIONS.has(message.action) || ('turbo' in message && message.turbo === true)) return;
  if (message.action === 'subscribe_depth') {
    if (message.market_id !== MARKET) return;
    const { buys, sells } = message.levels;
    const strictly = (levels: readonly { price: bigint }[], descending: boolean) => levels.every((level, index) => index === 0 || (descending ? levels[index - 1]!.price > level.price : levels[index - 1]!.price < level.price));
    model.buys = new Map(buys.map((level) => [level.price, level.quantity]));
    model.sells = new Map(sells.map((level) => [level.price, level.quantity]));
    model.known = strictly(buys, true) && strictly(sells, false) && [...buys, ...sells].every((level) => level.quantity > 0n) && !crossed(model);
    return;
  }
  if (message.action !== 'subscribe_depth_update' || (message.market_id !== undefined && message.market_id !== MARKET) || !model.known) return;
  for (const [name, levels] of [['buys', message.changes.buys], ['sells', message.changes.sells]] as const) {
    for (const level of levels) {
      if (level.quantity === 0n) model[name].delete(level.price);
      else model[name].set(level.price, level.quantity);
    }
  }
  if (crossed(model)) model.known = false;
}

function sortedLevels(levels: Levels, descending: boolean): [bigint, bigint][] {
  return [...levels.entries()].sort((a, b) => (a[0] < b[0] ? 1 : -1) * (descending ? 1 : -1));
}

function expectServedBook(handle: BookHandle, model: Model, text: string): void {
  if (!model.known) {
    expect(handle.state(), `after ${text.slice(0, 100)}: the book may have missed an update and must not be served`).toBe('resyncing');
    expect(handle.book()).toBeNull();
    return;
  }
  expect(handle.state(), `after ${text.slice(0, 100)}`).toBe('live');
  expect(handle.top(1_000)).toEqual({ ok: true, value: { buys: sortedLevels(model.buys, true), sells: sortedLevels(model.sells, false) } });
}

describe('the depth book under hostile frames', () => {
  it('is served only while it is exactly what the exchange sent, never crossed; a frame it could not read stops it until a fresh snapshot', () => {
    checkProperty(
      fc.property(fc.array(depthFrame, { minLength: 1, maxLength: 40 }), (frames) => {
        const { server, handle, crossedWhileServed } = setup();
        const model: Model = { known: false, buys: new Map(), sells: new Map() };
        const start = JSON.stringify(snapshot);
        server.last.push(start);
        applyToModel(model, start);
        expectServedBook(handle, model, start);
        for (const text of frames) {
          server.last.push(text);
          applyToModel(model, text);
          expectServedBook(handle, model, text);
        }
        expect(crossedWhileServed).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });

  it('an update that cannot be read (a price as a JSON number) stops the book and resubscribes', () => {
    const { server, handle } = setup();
    server.last.push(JSON.stringify(snapshot));
    expect(handle.state()).toBe('live');
    server.last.sent.length = 0;
    server.last.push(JSON.stringify({ action: 'subscribe_depth_update', market_id: MARKET, changes: { buys: [], sells: [{ price: 110, quantity: '0' }] } }));
    expect(handle.state()).toBe('resyncing');
    expect(server.last.requests().map((request) => request.action)).toEqual(['unsubscribe_depth', 'subscribe_depth']);
    // An unreadable trade frame is no reason to drop the book.
    server.last.push(JSON.stringify(snapshot));
    server.last.push(JSON.stringify({ action: 'subscribe_trades', market_id: MARKET, trades: 'x' }));
    expect(handle.state()).toBe('live');
  });

  it('an unreadable update whose market id is mangled ("0X…") may be this book\'s: it resyncs', () => {
    const { server, handle } = setup();
    server.last.push(JSON.stringify(snapshot));
    expect(handle.state()).toBe('live');
    server.last.push(JSON.stringify({ action: 'subscribe_depth_update', market_id: `0X${'A'.repeat(64)}`, changes: { buys: [{ price: '101', quantity: '1' }], sells: [['110', '0']] } }));
    expect(handle.state()).toBe('resyncing');
    // One in the wire's own form that names another market leaves this book alone.
    server.last.push(JSON.stringify(snapshot));
    server.last.push(JSON.stringify({ action: 'subscribe_depth_update', market_id: `0x${'A'.repeat(64)}`, changes: { buys: [{ price: '101', quantity: '1' }], sells: [['110', '0']] } }));
    expect(handle.state()).toBe('live');
  });
});
