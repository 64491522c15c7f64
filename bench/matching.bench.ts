// Matching engine placements per second against the npm library nodejs-order-book, on the same
// generated stream of limit orders (about a third cross the spread and trade), measured in the
// same run. Two rows:
//
//   matching engine   the placement as the sandbox's exchange runs it for every order: the
//                     engine (sandbox/engine: price-time priority, bigint raw units) inside
//                     sandbox/ledger's createOrder in a transaction (market rules, the price
//                     window, balance locks, fees, the undo journal that makes a batch atomic,
//                     order and trade records, per-account logs, bars, the change set published
//                     after commit). This is the figure the target judges (>= 1.0x the peer). The
//                     peer keeps its orders by id and returns the filled and partial orders, in
//                     floating-point numbers. The resting orders (placement index and remaining
//                     quantity) must be identical on both sides after the stream, so the figures
//                     compare the same matching.
//   engine alone      sandbox/engine without the ledger around it (each order a record with an
//                     id, journaled, fills kept, an id index): how much of the time is matching.
//
// Both sides get the stream in their own input form, converted before the timing: ours as bigint
// raw units (price and quantity), the peer's as numbers.
//
// Method (the same for every contender): each contender first runs the whole stream once untimed
// (so no timed round pays for the JIT, or for V8 learning to pretenure the long-lived records, which
// it does only after ~200,000 orders), then interleaved rounds (bench/rounds.ts), the order of the
// three rotating round by round; each round gives a ratio to the peer's run of the same round, and
// bench/run.ts judges their median and spread.
//
// `npx tsx bench/matching.bench.ts` prints the rows as JSON; `run()` returns them.
import { pathToFileURL } from 'node:url';
import { OrderBook as PeerBook, Side as PeerSide } from 'nodejs-order-book';
import { contractIdentity } from '../shared/encoding/identity';
import type { Side } from '../shared/market/order-type';
import { buildNetwork } from '../sandbox/config/network';
import { OrderBook, type BookEntry, type FillSink, type MakerDone } from '../sandbox/engine/book';
import { Journal } from '../sandbox/engine/journal';
import { placeOrder } from '../sandbox/engine/placement';
import { deriveId } from '../sandbox/ids';
import { Ledger } from '../sandbox/ledger/ledger';
import type { MarketState } from '../sandbox/ledger/market';
import { seededRandom } from '../sandbox/random';
import { median } from './judge';
import type { BenchResult } from './result';
import { interleave, ROUNDS, sized } from './rounds';

interface StreamOrder {
  readonly side: Side;
  /** Price in ticks. */
  readonly ticks: number;
  /** Quantity in lots. */
  readonly lots: number;
  /** The same in raw units. */
  readonly price: bigint;
  readonly quantity: bigint;
}

const PRICE_TICK = 10_000n; // 0.01 USDC (ETH/USDC of the sandbox's network)
const LOT = 100_000_000n; // 0.1 ETH

/** Limit orders around a mid: about a third cross the spread and trade. */
function generateStream(count: number, seed: number): StreamOrder[] {
  const random = seededRandom(seed);
  const mid = 300_000;
  const orders: StreamOrder[] = [];
  for (let i = 0; i < count; i++) {
    const side: Side = random.next() < 0.5 ? 'Buy' : 'Sell';
    const offset = random.int(40) - 12;
    const ticks = side === 'Buy' ? mid - offset : mid + offset;
    const lots = 1 + random.int(10);
    orders.push({ side, ticks, lots, price: BigInt(ticks) * PRICE_TICK, quantity: BigInt(lots) * LOT });
  }
  return orders;
}

interface Runner {
  place(order: StreamOrder, index: number): void;
  /** The resting orders as `id:lots`, sorted: equal on both sides iff they matched the same way. */
  resting?(): string;
}

function once(stream: readonly StreamOrder[], makeRunner: () => Runner): { rate: number; cpuRate: number; resting: string | undefined } {
  const runner = makeRunner();
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  for (let i = 0; i < stream.length; i++) runner.place(stream[i] as StreamOrder, i);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const used = process.cpuUsage(cpu);
  return { rate: stream.length / seconds, cpuRate: stream.length / ((used.user + used.system) / 1e6), resting: runner.resting?.() };
}

type Measured = { rate: number; cpuRate: number; resting: string | undefined };

/** Interleaved rounds (bench/rounds.ts): every contender once per round, the order rotating. */
function measure(stream: readonly StreamOrder[], contenders: Record<string, () => Runner>, rounds = ROUNDS): Record<string, Measured[]> {
  const measured = interleave(rounds, Object.fromEntries(Object.entries(contenders).map(([label, makeRunner]) => [label, () => once(stream, makeRunner)])));
  for (const [label, figures] of Object.entries(measured)) if (figures.some((figure) => !Number.isFinite(figure.rate) || figure.rate === 0)) throw new Error(`${label}: no measurement`);
  return measured;
}

interface EngineOrder extends BookEntry {
  readonly id: string;
  readonly side: Side;
  readonly price: bigint;
  remaining: bigint;
  live: boolean;
}

interface Fill {
  readonly maker: string;
  readonly taker: string;
  readonly quantity: bigint;
  readonly price: bigint;
}

/** sandbox/engine with what a placement needs around it: records, an id index, fills kept, a transaction. */
function engineRunner(dust: bigint): () => Runner {
  return () => {
    const journal = new Journal();
    const book = new OrderBook<EngineOrder>(journal, dust);
    const open = new Map<string, EngineOrder>();
    let taker = '';
    let fills: Fill[] = [];
    const sink: FillSink<EngineOrder> = {
      onFill(maker, quantity, price) {
        fills.push({ maker: maker.id, taker, quantity, price });
      },
      onMakerDone(maker: EngineOrder, _reason: MakerDone) {
        open.delete(maker.id);
      },
    };
    return {
      place(order, index) {
        const record: EngineOrder = { id: String(index), side: order.side, price: order.price, remaining: order.quantity, live: true };
        taker = record.id;
        fills = [];
        journal.begin();
        const placed = placeOrder(book, record, { kind: 'Spot' }, dust, sink);
        journal.commit();
        if (placed.kind !== 'placed') throw new Error(`engine: order ${index} reverted: ${placed.message}`);
        if (placed.rested) open.set(record.id, record);
      },
      resting: () =>
        [...open.values()]
          .map((order) => `${order.id}:${order.remaining / LOT}`)
          .sort()
          .join(','),
    };
  };
}

/**
 * The whole placement as the sandbox runs it: sandbox/ledger's createOrder in a transaction
 * (rules, window, locks, fees, journal, records, trades, bars, the change set published).
 */
function ledgerRunner(txIds: readonly string[]): Runner {
  const network = buildNetwork(1, 1n);
  const ledger = new Ledger(network);
  const config = network.markets.find((market) => market.name === 'ETH/USDC');
  if (!config) throw new Error('ETH/USDC missing');
  const market = ledger.markets.get(config.market_id) as MarketState;
  const accounts = [0, 1].map((n) => {
    const account = ledger.createAccount(deriveId(1, `bench/${n}`), { Address: deriveId(1, `bench/owner/${n}`) }, 0);
    ledger.mint(contractIdentity(account.id), config.base.asset, 10n ** 30n);
    ledger.mint(contractIdentity(account.id), config.quote.asset, 10n ** 30n);
    return account;
  });
  const spot = { kind: 'Spot' } as const;
  return {
    place(order, index) {
      const account = accounts[index & 1] as (typeof accounts)[number];
      const context = { account, txId: txIds[index] as string, timestamp: BigInt(index) };
      const args = { side: order.side, price: order.price, quantity: order.quantity, orderType: spot };
      const result = ledger.transact(() => market.createOrder(context, args));
      if ('revert' in result) throw new Error(`bench order reverted: ${result.reason} ${result.message}`);
    },
    // The market numbers its orders in placement order from 1: the sequence names the stream index.
    resting: () =>
      [...market.orders.values()]
        .filter((order) => !order.close)
        .map((order) => `${order.sequence - 1}:${order.remaining / LOT}`)
        .sort()
        .join(','),
  };
}

function peerRunner(): Runner {
  const book = new PeerBook();
  return {
    place(order, index) {
      book.limit({ id: String(index), side: order.side === 'Buy' ? PeerSide.BUY : PeerSide.SELL, size: order.lots, price: order.ticks });
    },
    resting: () => {
      const orders = (book as unknown as { orders: Record<string, { id: string; size: number }> }).orders;
      return Object.values(orders)
        .map((order) => `${order.id}:${order.size}`)
        .sort()
        .join(',');
    },
  };
}

export function run(count = sized(100_000, 20_000)): BenchResult[] {
  const stream = generateStream(count, 42);
  const dust = buildNetwork(1, 1n).markets.find((market) => market.name === 'ETH/USDC')?.dust;
  if (dust === undefined) throw new Error('ETH/USDC missing');
  const engine = engineRunner(dust);
  // Each order its own transaction id, a hash as the sandbox's are (made before the timing, as the
  // sandbox hashes a transaction before the ledger sees it): a constant id would spare the ledger
  // the 'fill' history entry of a maker filled in a later transaction than the one that made it.
  const txIds = stream.map((_, index) => deriveId(1, `bench/tx/${index}`));
  const ledger = (): Runner => ledgerRunner(txIds);
  // Warm every contender up on the whole stream once (untimed), so none pays for the JIT or for
  // pretenuring in its timed rounds.
  measure(stream, { ledger, engine, peer: peerRunner }, 1);
  const measured = measure(stream, { ledger, peer: peerRunner, engine });
  const ours = measured.ledger!;
  const peer = measured.peer!;
  const alone = measured.engine!;
  for (let round = 0; round < ours.length; round++) {
    if (ours[round]!.resting !== peer[round]!.resting) throw new Error('matching bench: the sandbox (through its ledger) and the peer disagree on the resting orders (not the same matching)');
    if (alone[round]!.resting !== peer[round]!.resting) throw new Error('matching bench: sandbox/engine alone and the peer disagree on the resting orders (not the same matching)');
  }
  const rounds = (side: readonly Measured[]) => side.map((mine, index) => ({ ours: Math.round(mine.rate), peer: Math.round(peer[index]!.rate) }));
  const cpuRate = (side: readonly Measured[]) => Math.round(median(side.map((figure) => figure.cpuRate)));
  const cpu = `per CPU second of the process (median round): ours ${cpuRate(ours)}, engine alone ${cpuRate(alone)}, peer ${cpuRate(peer)} (${Math.round((cpuRate(ours) / cpuRate(peer)) * 100) / 100}x)`;
  return [
    {
      name: `matching engine as the sandbox runs it (placement through sandbox/ledger): ${count} limit orders, price-time, bigint (vs nodejs-order-book)`,
      unit: 'orders/s',
      better: 'higher',
      target: '>= 1.0x peer',
      rounds: rounds(ours),
      notes: `each order through sandbox/ledger's createOrder in a transaction (rules, window, locks, fees, journal, order and trade records, per-account logs, bars, change set published); resting orders identical to the peer's after the stream; one untimed warm-up on the whole stream each, then ${ROUNDS} interleaved rounds with the peer and the engine alone; ${cpu}`,
    },
    {
      name: `matching engine alone (sandbox/engine, no ledger): ${count} limit placements (vs nodejs-order-book)`,
      unit: 'orders/s',
      better: 'higher',
      target: '>= 1.0x peer',
      rounds: rounds(alone),
      notes: `each placement journaled (atomic), fills kept, resting orders indexed by id, no ledger; resting orders identical to the peer's; the same rounds as the row above; ${cpu}`,
    },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of run()) process.stdout.write(`${JSON.stringify(row)}\n`);
}
