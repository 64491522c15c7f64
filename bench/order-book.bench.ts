// Order-book maintenance as main runs it: main's book feed (main/exchange/book-feed.ts, opened with
// the options main's network runtime uses) over shared/book (bigint-exact), fed the stream
// messages it receives from the stream client, with every guarantee it keeps in production
// (snapshot checked in full; every delta checked for what it can break; uncrossed after every
// message; any inconsistency resyncs). The peer is ccxt's OrderBook (floats), the classes its
// WebSocket exchanges maintain books with. Two shapes, each replayed identically by both sides
// from a recording generated once from a seeded PRNG; the final books and a digest of every read
// are compared before the figures are trusted:
//
//   batched   one million deltas on a 500-level book (per side), 10 deltas per stream message,
//             the top 25 levels of each side read after every message. 70 % of deltas land
//             within 50 ticks of the top, 30 % anywhere; an existing level is updated (65 %) or
//             removed (35 %), a free price gets a new level. Levels arrive as bigint (what the
//             stream's schema yields); ccxt gets numbers.
//   single    one million deltas, one per stream message, each parsed from its wire decimal
//             strings (ours: the conversion of every wire decimal, shared/api/primitives.ts
//             decimalValue, into bigint; ccxt: parseFloat), 20 % removals, 500 levels, the top
//             25 of each side read every 100 deltas.
//
// JSON.parse and the schema's walk of the message object are outside both timings (ccxt's own
// message handlers are outside its timing too). `npx tsx bench/order-book.bench.ts` prints the
// rows as JSON; `run()` returns them.
import { pathToFileURL } from 'node:url';
// ccxt's package exports do not expose this subpath, so the file is imported by its path.
import { OrderBook as PeerBook } from '../node_modules/ccxt/js/src/base/ws/OrderBook.js';
import { OrderBookFeed, type BookHandle } from '../main/exchange/book-feed';
import type { ExchangeStream, StreamMessage } from '../main/exchange/stream-client';
import { StreamRouter, type StreamConsumer } from '../main/exchange/stream-routes';
import { decimalValue } from '../shared/api/primitives';
import type { BookLevel, BookLevels } from '../shared/book/order-book';
import { b256 } from '../shared/encoding/b256';
import { U64_MAX } from '../shared/encoding/decimal';
import { ok } from '../shared/result';
import { seededRandom } from '../sandbox/random';
import type { BenchResult } from './result';
import { interleave, ROUNDS, sized } from './rounds';

const LEVELS = 500;
const SPAN = 1_500; // price slots per side
const MID = 1_000_000; // in ticks
const TICK = 1_000_000; // raw quote units per tick
const LOT = 1_000; // raw base units per lot
const BATCH = 10;
const TOP = 25;
const SINGLE_READ_EVERY = 100;

interface Delta {
  readonly buy: boolean;
  readonly ticks: number;
  readonly lots: number; // 0 removes
}

interface Recording {
  readonly snapshot: { readonly buys: Delta[]; readonly sells: Delta[] };
  readonly deltas: Delta[];
}

function initial(random: ReturnType<typeof seededRandom>): { sides: Map<number, number>[]; snapshot: Recording['snapshot'] } {
  const sides = [new Map<number, number>(), new Map<number, number>()]; // distance from mid -> lots
  const snapshot = { buys: [] as Delta[], sells: [] as Delta[] };
  for (let sideIndex = 0; sideIndex < 2; sideIndex++) {
    const side = sides[sideIndex] as Map<number, number>;
    while (side.size < LEVELS) side.set(1 + random.int(SPAN), 1 + random.int(1_000));
    const sorted = [...side.entries()].sort((a, b) => a[0] - b[0]);
    for (const [distance, lots] of sorted) {
      const buy = sideIndex === 0;
      (buy ? snapshot.buys : snapshot.sells).push({ buy, ticks: buy ? MID - distance : MID + distance, lots });
    }
  }
  return { sides, snapshot };
}

/** The batched shape's stream: 65 % updates / 35 % removals of existing levels, new levels on free prices. */
function recordBatched(count: number, seed: number): Recording {
  const random = seededRandom(seed);
  const { sides, snapshot } = initial(random);
  const deltas: Delta[] = [];
  for (let index = 0; index < count; index++) {
    const buy = random.next() < 0.5;
    const side = sides[buy ? 0 : 1] as Map<number, number>;
    const distance = random.next() < 0.7 ? 1 + random.int(50) : 1 + random.int(SPAN);
    const existing = side.get(distance);
    let lots: number;
    if (existing !== undefined) lots = random.next() < 0.65 ? 1 + random.int(1_000) : side.size > LEVELS - 20 ? 0 : 1 + random.int(1_000);
    else lots = side.size < LEVELS + 20 ? 1 + random.int(1_000) : 0;
    if (lots === 0 && existing === undefined) {
      index--; // a removal of an absent level is a no-op; draw again so every delta does work
      continue;
    }
    if (lots === 0) side.delete(distance);
    else side.set(distance, lots);
    deltas.push({ buy, ticks: buy ? MID - distance : MID + distance, lots });
  }
  return { snapshot, deltas };
}

/** The single shape's stream: 20 % removals, 20 % new levels, 60 % updates, about 500 levels a side. */
function recordSingle(count: number, seed: number): Recording {
  const random = seededRandom(seed);
  const { sides, snapshot } = initial(random);
  const deltas: Delta[] = [];
  while (deltas.length < count) {
    const buy = random.next() < 0.5;
    const side = sides[buy ? 0 : 1] as Map<number, number>;
    const kind = random.next();
    const distance = random.next() < 0.7 ? 1 + random.int(50) : 1 + random.int(SPAN);
    const existing = side.get(distance);
    // Draw until the slot fits the kind (a removal needs a level, a new level a free price).
    if (kind < 0.2) {
      if (existing === undefined) continue;
      side.delete(distance);
      deltas.push({ buy, ticks: buy ? MID - distance : MID + distance, lots: 0 });
    } else if (kind < 0.4) {
      if (existing !== undefined) continue;
      const lots = 1 + random.int(1_000);
      side.set(distance, lots);
      deltas.push({ buy, ticks: buy ? MID - distance : MID + distance, lots });
    } else {
      if (existing === undefined) continue;
      const lots = 1 + random.int(1_000);
      side.set(distance, lots);
      deltas.push({ buy, ticks: buy ? MID - distance : MID + distance, lots });
    }
  }
  return { snapshot, deltas };
}

const MARKET = b256(`0x${'a1'.repeat(32)}`);
const NO_LEVELS: readonly BookLevel[] = [];

const toLevel = (delta: Delta): BookLevel => ({ price: BigInt(delta.ticks) * BigInt(TICK), quantity: BigInt(delta.lots) * BigInt(LOT) });

/** The batched stream as main's feed receives it: one update message per 10 deltas (what the schema yields). */
function oursBatched(recording: Recording): { snapshot: StreamMessage; updates: StreamMessage[] } {
  const updates: StreamMessage[] = [];
  for (let start = 0; start < recording.deltas.length; start += BATCH) {
    const buys: BookLevel[] = [];
    const sells: BookLevel[] = [];
    for (const delta of recording.deltas.slice(start, start + BATCH)) (delta.buy ? buys : sells).push(toLevel(delta));
    updates.push({ action: 'subscribe_depth_update', market_id: MARKET, changes: { buys, sells } });
  }
  return { snapshot: snapshotMessage(recording), updates };
}

function snapshotMessage(recording: Recording): StreamMessage {
  const levels: BookLevels = { buys: recording.snapshot.buys.map(toLevel), sells: recording.snapshot.sells.map(toLevel) };
  return { action: 'subscribe_depth', market_id: MARKET, levels } as unknown as StreamMessage;
}

/** A delta as it is on the wire: decimal strings (side, price, quantity). */
interface WireDelta {
  readonly buy: boolean;
  readonly price: string;
  readonly quantity: string;
}

const toWire = (delta: Delta): WireDelta => ({ buy: delta.buy, price: String(delta.ticks * TICK), quantity: String(delta.lots * LOT) });

/**
 * A stand-in for the stream client, with the surface the feed uses: it hands the feed the same
 * events the real client emits after parsing a frame, through the real routing table
 * (stream-routes.ts), as the client does. A resubscribe means the book refused what it was given:
 * the bench stops (a figure of a book that resynced would mean nothing).
 */
class ReplayStream {
  private readonly router = new StreamRouter();
  consume(consumer: StreamConsumer): () => void {
    return this.router.consume(consumer);
  }
  subscribeDepth() {
    return ok({ key: 'depth-bench', close: () => undefined });
  }
  resubscribe(): void {
    throw new Error('order-book bench: the book went resyncing');
  }
  deliver(message: StreamMessage): void {
    this.router.dispatch({ type: 'message', message });
  }
}

function openFeed(): { stream: ReplayStream; handle: BookHandle; changes: { count: number } } {
  const stream = new ReplayStream();
  const feed = new OrderBookFeed(stream as unknown as ExchangeStream);
  const changes = { count: 0 };
  // As main's network runtime opens it (main/services/network/network-runtime.ts): precision 10, canonical, onChange.
  const opened = feed.open(MARKET, 10n, { turbo: false, onChange: () => changes.count++ });
  if (!opened.ok) throw new Error(opened.message);
  return { stream, handle: opened.value, changes };
}

interface Run {
  readonly seconds: number;
  /** A digest of every top-25 read, so the reads cannot be optimised away and both sides can be compared. */
  readonly checksum: number;
  readonly finalTop: string;
}

const oursTop = (handle: BookHandle): string => {
  const read = handle.top(TOP);
  if (!read.ok) throw new Error(`ours: ${read.message}`);
  return JSON.stringify([read.value.buys.map(([p, q]) => [Number(p), Number(q)]), read.value.sells.map(([p, q]) => [Number(p), Number(q)])]);
};

function runOursBatched(messages: ReturnType<typeof oursBatched>): Run {
  const { stream, handle } = openFeed();
  stream.deliver(messages.snapshot);
  if (handle.state() !== 'live') throw new Error(`ours: snapshot refused: ${handle.lastProblem()}`);
  const prices: bigint[] = new Array<bigint>(TOP).fill(0n);
  const quantities: bigint[] = new Array<bigint>(TOP).fill(0n);
  let checksum = 0;
  const started = process.hrtime.bigint();
  for (const update of messages.updates) {
    stream.deliver(update);
    const book = handle.book();
    if (book === null) throw new Error(`ours: the book went resyncing: ${handle.lastProblem()}`);
    const bids = book.buys.topInto(TOP, prices, quantities);
    checksum += bids + Number(quantities[0]! & 0xffn);
    const asks = book.sells.topInto(TOP, prices, quantities);
    checksum += asks + Number(quantities[0]! & 0xffn);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { seconds, checksum, finalTop: oursTop(handle) };
}

function runOursSingle(snapshot: StreamMessage, wire: readonly WireDelta[]): Run {
  const { stream, handle } = openFeed();
  stream.deliver(snapshot);
  if (handle.state() !== 'live') throw new Error(`ours: snapshot refused: ${handle.lastProblem()}`);
  const prices: bigint[] = new Array<bigint>(TOP).fill(0n);
  const quantities: bigint[] = new Array<bigint>(TOP).fill(0n);
  let checksum = 0;
  const started = process.hrtime.bigint();
  for (let index = 0; index < wire.length; index++) {
    const delta = wire[index]!;
    const price = decimalValue(delta.price, U64_MAX);
    const quantity = decimalValue(delta.quantity, U64_MAX);
    if (price === null || quantity === null) throw new Error(`ours: delta ${index} is not two u64 decimals`);
    const level: readonly BookLevel[] = [{ price, quantity }];
    stream.deliver({ action: 'subscribe_depth_update', market_id: MARKET, changes: delta.buy ? { buys: level, sells: NO_LEVELS } : { buys: NO_LEVELS, sells: level } } as StreamMessage);
    if (index % SINGLE_READ_EVERY === SINGLE_READ_EVERY - 1) {
      const book = handle.book();
      if (book === null) throw new Error(`ours: the book went resyncing: ${handle.lastProblem()}`);
      const bids = book.buys.topInto(TOP, prices, quantities);
      checksum += bids + Number(quantities[0]! & 0xffn);
      const asks = book.sells.topInto(TOP, prices, quantities);
      checksum += asks + Number(quantities[0]! & 0xffn);
    }
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (handle.state() !== 'live') throw new Error(`ours: the book went resyncing: ${handle.lastProblem()}`);
  return { seconds, checksum, finalTop: oursTop(handle) };
}

type PeerSide = [number, number][] & { store(price: number, size: number): void };

function peerBook(recording: Recording): { bids: PeerSide; asks: PeerSide } {
  const book = new PeerBook({
    bids: recording.snapshot.buys.map((d) => [d.ticks * TICK, d.lots * LOT]),
    asks: recording.snapshot.sells.map((d) => [d.ticks * TICK, d.lots * LOT]),
  });
  return { bids: book.bids as unknown as PeerSide, asks: book.asks as unknown as PeerSide };
}

function peerReader(): { read(side: [number, number][]): number; quantities: Float64Array } {
  const prices = new Float64Array(TOP);
  const quantities = new Float64Array(TOP);
  return {
    quantities,
    read: (side) => {
      const count = Math.min(TOP, side.length);
      for (let index = 0; index < count; index++) {
        const row = side[index] as [number, number];
        prices[index] = row[0];
        quantities[index] = row[1];
      }
      return count;
    },
  };
}

const peerTop = (book: { bids: PeerSide; asks: PeerSide }): string => {
  const top = (side: [number, number][]) => side.slice(0, TOP).map((row) => [row[0], row[1]]);
  return JSON.stringify([top(book.bids), top(book.asks)]);
};

/** The batched stream as ccxt receives it: numbers, in the original order. */
function peerBatched(recording: Recording): Float64Array[] {
  const batches: Float64Array[] = [];
  for (let start = 0; start < recording.deltas.length; start += BATCH) {
    const slice = recording.deltas.slice(start, start + BATCH);
    const batch = new Float64Array(slice.length * 3);
    slice.forEach((delta, index) => {
      batch[index * 3] = delta.buy ? 1 : 0;
      batch[index * 3 + 1] = delta.ticks * TICK;
      batch[index * 3 + 2] = delta.lots * LOT;
    });
    batches.push(batch);
  }
  return batches;
}

function runPeerBatched(recording: Recording, batches: readonly Float64Array[]): Run {
  const book = peerBook(recording);
  const reader = peerReader();
  let checksum = 0;
  const started = process.hrtime.bigint();
  for (const batch of batches) {
    for (let index = 0; index < batch.length; index += 3) {
      const side = batch[index] === 1 ? book.bids : book.asks;
      side.store(batch[index + 1] as number, batch[index + 2] as number);
    }
    checksum += reader.read(book.bids) + ((reader.quantities[0] as number) % 256);
    checksum += reader.read(book.asks) + ((reader.quantities[0] as number) % 256);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { seconds, checksum, finalTop: peerTop(book) };
}

function runPeerSingle(recording: Recording, wire: readonly WireDelta[]): Run {
  const book = peerBook(recording);
  const reader = peerReader();
  let checksum = 0;
  const started = process.hrtime.bigint();
  for (let index = 0; index < wire.length; index++) {
    const delta = wire[index]!;
    // eslint-disable-next-line no-restricted-syntax -- the peer: ccxt keeps books in floats, parsed as its handlers do
    (delta.buy ? book.bids : book.asks).store(parseFloat(delta.price), parseFloat(delta.quantity));
    if (index % SINGLE_READ_EVERY === SINGLE_READ_EVERY - 1) {
      checksum += reader.read(book.bids) + ((reader.quantities[0] as number) % 256);
      checksum += reader.read(book.asks) + ((reader.quantities[0] as number) % 256);
    }
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { seconds, checksum, finalTop: peerTop(book) };
}

/**
 * Interleaved rounds (bench/rounds.ts) of both replays; the two sides must agree on every read and
 * the final book in every round. Each round's figure is deltas per second.
 */
function compare(label: string, ours: () => Run, peer: () => Run, deltas: number): { ours: number; peer: number }[] {
  const measured = interleave(ROUNDS, { ours, peer });
  return measured.ours.map((mine, round) => {
    const theirs = measured.peer[round]!;
    if (mine.finalTop !== theirs.finalTop || mine.checksum !== theirs.checksum) throw new Error(`order-book bench (${label}): ours and the peer disagree on the book`);
    return { ours: Math.round(deltas / mine.seconds), peer: Math.round(deltas / theirs.seconds) };
  });
}

export function run(count = sized(1_000_000, 100_000)): Promise<BenchResult[]> {
  const batched = recordBatched(count, 20_251_121);
  const oursMessages = oursBatched(batched);
  const peerMessages = peerBatched(batched);
  const single = recordSingle(count, 20_261_125);
  const wire = single.deltas.map(toWire);
  const singleSnapshot = snapshotMessage(single);
  // Warm both up (JIT) on a prefix of each shape.
  runOursBatched({ snapshot: oursMessages.snapshot, updates: oursMessages.updates.slice(0, 10_000) });
  runPeerBatched(batched, peerMessages.slice(0, 10_000));
  runOursSingle(singleSnapshot, wire.slice(0, 100_000));
  runPeerSingle(single, wire.slice(0, 100_000));
  const batchedRates = compare('batched', () => runOursBatched(oursMessages), () => runPeerBatched(batched, peerMessages), batched.deltas.length);
  const singleRates = compare('single', () => runOursSingle(singleSnapshot, wire), () => runPeerSingle(single, wire), single.deltas.length);
  return Promise.resolve([
    {
      name: `order book as main runs it (book feed, per-delta checks): ${BATCH}-delta messages, top ${TOP} per message (vs ccxt)`,
      unit: 'deltas/s',
      better: 'higher',
      target: '>= 1.5x peer',
      rounds: batchedRates,
      notes: `${batched.deltas.length} deltas, ${LEVELS} levels a side, 35 % of changes to existing levels remove them; main's feed (main/exchange/book-feed.ts) over shared/book, every guarantee on (sorted, positive, consistent, uncrossed, resync on any inconsistency) vs ccxt's OrderBook; ${ROUNDS} interleaved rounds`,
    },
    {
      name: `order book as main runs it: single wire deltas (decimal strings), top ${TOP} per ${SINGLE_READ_EVERY} (vs ccxt)`,
      unit: 'deltas/s',
      better: 'higher',
      target: '>= 1.5x peer',
      rounds: singleRates,
      notes: `${single.deltas.length} deltas, one per stream message, 20 % removals, ${LEVELS} levels a side; ours converts each decimal string with the wire's own conversion (decimalValue, into bigint) and delivers the message to main's feed; ccxt parses with parseFloat; ${ROUNDS} interleaved rounds`,
    },
  ]);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of await run()) process.stdout.write(`${JSON.stringify(row)}\n`);
}
