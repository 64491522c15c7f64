// What one market's order flow (main/services/market-data/order-flow.ts) holds over a long day: an
// OrderFlow fed 30 trades a second, prices a random walk of 1–3 ticks (about 18 distinct prices per
// 50 trades, as the sandbox's realistic maker at 20 takes/s trades), the heap after a full
// collection every ten minutes of trade time. A diagnosis for the soak's main heap slope (the flow
// keeps a table per minute for its 1-hour window, so it fills for an hour by design), not a bench
// row.
//
//   node --expose-gc --import tsx bench/order-flow-memory.ts [--minutes 90] [--markets 1]
import { OrderFlow } from '../main/services/market-data/order-flow';
import { positiveFlag } from './flags';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('order-flow-memory: run with node --expose-gc (the heap is read after a full collection)');
const MINUTES = positiveFlag('order-flow-memory', 'minutes', 90);
const MARKETS = positiveFlag('order-flow-memory', 'markets', 1);
const TRADES_PER_SECOND = 30;
const TICK = 10_000n;

const flows = Array.from({ length: MARKETS }, () => new OrderFlow());
// A fixed linear congruential generator: the same walk on every run.
let seed = 12_345;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) & 0x7fff_ffff) / 0x7fff_ffff;
let price = 3_000_000_000n;
let time = Date.UTC(2026, 10, 28, 12, 0, 0);
gc();
const base = process.memoryUsage().heapUsed;
const first: bigint[] = [];
for (let minute = 1; minute <= MINUTES; minute++) {
  for (let trade = 0; trade < TRADES_PER_SECOND * 60; trade++) {
    const step = random();
    price += (step < 0.45 ? -1n : step > 0.55 ? 1n : 0n) * TICK * BigInt(1 + Math.floor(random() * 3));
    time += Math.round(1000 / TRADES_PER_SECOND);
    const side = random() < 0.5 ? 'Buy' : 'Sell';
    for (const flow of flows) flow.add({ price, quantity: 1_000_000n, side, time });
    if (minute === 1) first.push(price);
  }
  if (minute === 1) {
    let distinct = 0;
    const groups = Math.floor(first.length / 50);
    for (let group = 0; group < groups; group++) distinct += new Set(first.slice(group * 50, group * 50 + 50)).size;
    process.stdout.write(`distinct prices per 50 trades in the first minute: ${(distinct / groups).toFixed(1)}\n`);
  }
  if (minute % 10 === 0) {
    gc();
    process.stdout.write(`minute ${minute}: heap +${((process.memoryUsage().heapUsed - base) / 1_048_576).toFixed(2)} MiB for ${MARKETS} market(s)\n`);
  }
}
