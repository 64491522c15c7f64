// Order-book maintenance: one million depth deltas on a 500-level book (per side), applied in
// batches of 10 (one stream message), reading the top 25 levels of each side after every batch,
// as the market data hub does. Ours is shared/book (bigint-exact); the peer is ccxt's OrderBook
// (floats), the classes its WebSocket exchanges maintain books with. Both replay the identical
// recorded stream (generated once from a seeded PRNG); the final books are compared before the
// figures are trusted.
//
// The stream: prices on a fixed grid on both sides of a mid (the book never crosses), about 500
// levels per side; 70 % of deltas land within 50 ticks of the top (where real books churn), 30 %
// anywhere in the book; an existing level is updated (65 %) or removed (35 %), a free price gets a
// new level. `npx tsx bench/order-book.bench.ts` prints one JSON line; `run()` returns it.
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
// ccxt's package exports do not expose this subpath, so the file is imported by its path.
import { OrderBook as PeerBook } from '../node_modules/ccxt/js/src/base/ws/OrderBook.js';
import { OrderBook, type BookLevel, type BookLevels } from '../shared/book/order-book';
import { b256 } from '../shared/encoding/b256';
import { seededRandom } from '../sandbox/random';

export interface BenchResult {
  readonly name: string;
  readonly unit: string;
  readonly ours: number;
  readonly peer: number;
  readonly ratio: number;
  readonly target: string;
  readonly notes?: string;
}

const LEVELS = 500;
const SPAN = 1_500; // price slots per side
const MID = 1_000_000; // in ticks
const TICK = 1_000_000; // raw quote units per tick
const LOT = 1_000; // raw base units per lot
const BATCH = 10;
const TOP = 25;

interface Delta {
  readonly buy: boolean;
  readonly ticks: number;
  readonly lots: number; // 0 removes
}

interface Recording {
  readonly snapshot: { readonly buys: Delta[]; readonly sells: Delta[] };
  readonly deltas: Delta[];
}

function record(count: number, seed: number): Recording {
  const random = seededRandom(seed);
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

const toLevel = (delta: Delta): BookLevel => ({ price: BigInt(delta.ticks) * BigInt(TICK), quantity: BigInt(delta.lots) * BigInt(LOT) });

/** The stream as ours receives it: one BookLevels value per message (what the schema parse yields). */
function oursMessages(recording: Recording): { snapshot: BookLevels; batches: BookLevels[] } {
  const snapshot = { buys: recording.snapshot.buys.map(toLevel), sells: recording.snapshot.sells.map(toLevel) };
  const batches: BookLevels[] = [];
  for (let start = 0; start < recording.deltas.length; start += BATCH) {
    const buys: BookLevel[] = [];
    const sells: BookLevel[] = [];
    for (const delta of recording.deltas.slice(start, start + BATCH)) (delta.buy ? buys : sells).push(toLevel(delta));
    batches.push({ buys, sells });
  }
  return { snapshot, batches };
}

/** The stream as ccxt receives it: numbers, in the original order. */
function peerMessages(recording: Recording): { bids: [number, number][]; asks: [number, number][]; batches: Float64Array[] } {
  const bids = recording.snapshot.buys.map((d): [number, number] => [d.ticks * TICK, d.lots * LOT]);
  const asks = recording.snapshot.sells.map((d): [number, number] => [d.ticks * TICK, d.lots * LOT]);
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
  return { bids, asks, batches };
}

const MARKET = b256(`0x${'a1'.repeat(32)}`);

interface Run {
  readonly seconds: number;
  /** A digest of every top-25 read, so the reads cannot be optimised away and both sides can be compared. */
  readonly checksum: number;
  readonly finalTop: string;
}

function runOurs(messages: ReturnType<typeof oursMessages>, fullCheck = false): Run {
  const book = new OrderBook(MARKET, 10n);
  const snapshot = book.applySnapshot(messages.snapshot);
  if (!snapshot.ok) throw new Error(`ours: ${snapshot.message}`);
  const prices: bigint[] = new Array<bigint>(TOP).fill(0n);
  const quantities: bigint[] = new Array<bigint>(TOP).fill(0n);
  let checksum = 0;
  const started = process.hrtime.bigint();
  for (const batch of messages.batches) {
    const applied = book.applyDeltas(batch);
    if (!applied.ok) throw new Error(`ours: ${applied.message}`);
    if (fullCheck && !book.check().ok) throw new Error('ours: the book failed its full check');
    const bids = book.buys.topInto(TOP, prices, quantities);
    checksum += bids + Number(quantities[0]! & 0xffn);
    const asks = book.sells.topInto(TOP, prices, quantities);
    checksum += asks + Number(quantities[0]! & 0xffn);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const top = book.top(TOP);
  return { seconds, checksum, finalTop: JSON.stringify([top.buys.map(([p, q]) => [Number(p), Number(q)]), top.sells.map(([p, q]) => [Number(p), Number(q)])]) };
}

function runPeer(messages: ReturnType<typeof peerMessages>): Run {
  const book = new PeerBook({ bids: messages.bids.map((row) => [...row]), asks: messages.asks.map((row) => [...row]) });
  const prices = new Float64Array(TOP);
  const quantities = new Float64Array(TOP);
  const bidsSide = book.bids as unknown as [number, number][] & { store(price: number, size: number): void };
  const asksSide = book.asks as unknown as [number, number][] & { store(price: number, size: number): void };
  const read = (side: [number, number][]): number => {
    const count = Math.min(TOP, side.length);
    for (let index = 0; index < count; index++) {
      const row = side[index] as [number, number];
      prices[index] = row[0];
      quantities[index] = row[1];
    }
    return count;
  };
  let checksum = 0;
  const started = process.hrtime.bigint();
  for (const batch of messages.batches) {
    for (let index = 0; index < batch.length; index += 3) {
      const side = batch[index] === 1 ? bidsSide : asksSide;
      side.store(batch[index + 1] as number, batch[index + 2] as number);
    }
    checksum += read(bidsSide) + ((quantities[0] as number) % 256);
    checksum += read(asksSide) + ((quantities[0] as number) % 256);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const top = (side: [number, number][]) => side.slice(0, TOP).map((row) => [row[0], row[1]]);
  return { seconds, checksum, finalTop: JSON.stringify([top(bidsSide), top(asksSide)]) };
}

export function run(count = 1_000_000): Promise<BenchResult> {
  const recording = record(count, 20_251_121);
  const ours = oursMessages(recording);
  const peer = peerMessages(recording);
  // Warm both up (JIT) on a prefix; then the best of three full replays each.
  runOurs({ snapshot: ours.snapshot, batches: ours.batches.slice(0, 10_000) });
  runPeer({ ...peer, batches: peer.batches.slice(0, 10_000) });
  let oursBest = Infinity;
  let peerBest = Infinity;
  let oursRun: Run | null = null;
  let peerRun: Run | null = null;
  for (let round = 0; round < 3; round++) {
    oursRun = runOurs(ours);
    peerRun = runPeer(peer);
    oursBest = Math.min(oursBest, oursRun.seconds);
    peerBest = Math.min(peerBest, peerRun.seconds);
  }
  if (oursRun === null || peerRun === null) throw new Error('no measurement');
  // Same stream, same result: otherwise the comparison means nothing.
  if (oursRun.finalTop !== peerRun.finalTop || oursRun.checksum !== peerRun.checksum) throw new Error('order-book bench: ours and the peer disagree on the book');
  // main/exchange/book-feed.ts also runs the O(levels) full check after every message: measured apart.
  const checked = runOurs(ours, true);
  const checkedRate = Math.round(recording.deltas.length / checked.seconds);
  const oursRate = Math.round(recording.deltas.length / oursBest);
  const peerRate = Math.round(recording.deltas.length / peerBest);
  return Promise.resolve({
    name: `order book: ${recording.deltas.length} deltas, ${LEVELS} levels, top ${TOP} read per ${BATCH}-delta message (shared/book vs ccxt OrderBook)`,
    unit: 'deltas/s',
    ours: oursRate,
    peer: peerRate,
    ratio: Math.round((oursRate / peerRate) * 100) / 100,
    target: '>= 1.5x peer',
    notes: `with the full sorted/uncrossed check after every message (as book-feed.ts runs it): ${checkedRate} deltas/s, ${Math.round((checkedRate / peerRate) * 100) / 100}x peer; load average ${loadavg()[0]?.toFixed(1)}`,
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${JSON.stringify(await run())}\n`);
}
