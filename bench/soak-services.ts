// The services soak (the soak of the four real pages is bench/soak.ts): main's real services
// (createTerminal, as test/support/terminal-harness.ts builds them)
// against a sandbox child whose market maker trades at a high rate, an onboarded account placing
// and cancelling orders now and then, and four windows on the WindowHub, each subscribed to a book
// (its own precision and depth), trades and bars on two markets. For the whole run it measures
// main's heap after forced garbage collections (warm-up against end), the size of every queue it
// can observe, and how many `book` frames each window gets per 16 ms frame per subscription.
// Prints one JSON line and a summary; exits 1 when a target is missed.
//
//   npx tsx bench/soak-services.ts [--minutes 10] [--maker-rate 10] [--warmup-seconds 60]
//
// Not part of `npm test` (it runs for minutes). It re-executes itself under `node --expose-gc`.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getHeapStatistics } from 'node:v8';
import type { Caller } from '../main/ipc/dispatcher';
import type { LimiterSnapshot } from '../main/exchange/rate-limiter';
import { nodeSandboxSpawner } from '../main/services/network/sandbox-process-node';
import { systemClock } from '../main/services/system-clock';
import { createTerminal, type Terminal } from '../main/services/terminal';
import type { StreamName } from '../shared/ipc/contract';
import type { BookFrame, Resolution } from '../shared/ipc/views';
import type { Market } from '../shared/market/market';
import { ok, type Result } from '../shared/result';
import { MemorySecretStore } from '../test/support/memory-secret-store';
import { positiveFlag } from './flags';

// ---- flags and the --expose-gc re-exec ------------------------------------------------------

const flag = (name: string, fallback: number) => positiveFlag('soak', name, fallback);

const MINUTES = flag('minutes', 10);
const MAKER_RATE = Math.round(flag('maker-rate', 10));
const WARMUP_MS = flag('warmup-seconds', Math.min(60, MINUTES * 60 * 0.2)) * 1000;
const SAMPLE_MS = 5_000;
const ORDER_EVERY_MS = 4_000;
const FRAME_MS = 16;

/** Targets. */
const MAX_HEAP_GROWTH = 0.1;
const MAX_BOOK_PUSHES_PER_FRAME = 1;

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) {
  // Re-run under --expose-gc so the heap is measured after real collections, not at a random point.
  const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(child.status ?? 1);
}

// ---- what the soak observes -----------------------------------------------------------------

/** Book pushes of one subscription in one window: counted per aligned 16 ms frame. */
interface FrameCounter {
  pushes: number;
  bucket: number;
  inBucket: number;
  maxInBucket: number;
  lastAt: number;
  minGapMs: number;
  crossed: number;
  live: number;
}

interface QueueSeries {
  /** The largest size the code allows (its own bound), or null when it has none of its own. */
  readonly cap: number | null;
  readonly samples: number[];
}

/** Main's private queues and stores, read for this diagnostic only (no API exposes them). */
interface HubInternals {
  readonly pacers: Map<string, { readonly dirty: Set<string> }>;
  readonly subscriptions: Map<string, { readonly kind: string; readonly pending?: unknown[]; readonly changed?: Set<number> }>;
  readonly trades: Map<string, { readonly tape: unknown[]; readonly flow: { readonly session: Map<bigint, unknown> } }>;
}
interface JournalInternals {
  readonly recent: unknown[];
  readonly records: Map<string, unknown>;
  readonly open: Map<string, unknown>;
}
interface StreamInternals {
  readonly markets: Map<string, unknown>;
}

function heapAfterGc(): number {
  gc?.();
  gc?.();
  return getHeapStatistics().used_heap_size;
}

function value<T>(result: Result<T>, what: string): T {
  if (!result.ok) throw new Error(`${what}: ${result.code}: ${result.message}`);
  return result.value;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(probe: () => T | null | undefined | false, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = probe();
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

// ---- the run --------------------------------------------------------------------------------

interface WindowPlan {
  readonly id: string;
  readonly market: number;
  readonly precision: bigint;
  readonly levels: number;
  readonly trades: boolean;
  readonly bars: Resolution | null;
}

const WINDOWS: readonly WindowPlan[] = [
  { id: 'soak-1', market: 0, precision: 10n, levels: 25, trades: true, bars: '1m' },
  { id: 'soak-2', market: 0, precision: 1_000n, levels: 50, trades: true, bars: '5m' },
  { id: 'soak-3', market: 1, precision: 10n, levels: 10, trades: true, bars: '1m' },
  { id: 'soak-4', market: 1, precision: 100_000n, levels: 100, trades: true, bars: '15m' },
];

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lt-soak-'));
  const terminal: Terminal = createTerminal({
    clock: systemClock,
    host: 'browser',
    version: 'soak',
    dataDir,
    openKeychain: () => Promise.resolve(ok(new MemorySecretStore())),
    spawnSandbox: nodeSandboxSpawner({ modulePath: join(process.cwd(), 'sandbox/cli.ts'), execArgv: ['--import', 'tsx'] }),
    random: (length) => new Uint8Array(randomBytes(length)),
    sandboxArgs: ['--maker', 'on', '--maker-rate', String(MAKER_RATE)],
  });

  const counters = new Map<string, FrameCounter>();
  const streamCounts = new Map<string, number>();
  const sink = (windowId: string) => ({
    send: (stream: StreamName, payload: unknown) => {
      streamCounts.set(stream, (streamCounts.get(stream) ?? 0) + 1);
      if (stream !== 'book') return;
      const frame = payload as BookFrame;
      const key = `${windowId}|${frame.subscriptionId}`;
      // Buckets on the clock main paces with (systemClock: Date.now), gaps on the precise one.
      const now = Date.now();
      const precise = performance.now();
      const counter = counters.get(key) ?? { pushes: 0, bucket: -1, inBucket: 0, maxInBucket: 0, lastAt: -Infinity, minGapMs: Infinity, crossed: 0, live: 0 };
      counters.set(key, counter);
      const bucket = Math.floor(now / FRAME_MS);
      counter.inBucket = bucket === counter.bucket ? counter.inBucket + 1 : 1;
      counter.bucket = bucket;
      counter.maxInBucket = Math.max(counter.maxInBucket, counter.inBucket);
      counter.minGapMs = Math.min(counter.minGapMs, precise - counter.lastAt);
      counter.lastAt = precise;
      counter.pushes++;
      if (frame.state === 'live') {
        counter.live++;
        const bid = frame.bids[0]?.price;
        const ask = frame.asks[0]?.price;
        if (bid !== undefined && ask !== undefined && bid >= ask) counter.crossed++;
      }
    },
  });
  for (const plan of WINDOWS) terminal.windows.attach(plan.id, sink(plan.id));

  value(await terminal.start(), 'start');
  const h = terminal.handlers;
  const account: Caller = { windowId: WINDOWS[0]!.id, frameUrl: 'app://terminal/' };
  const markets = value(await h.listMarkets({}, account), 'listMarkets').markets;
  if (markets.length < 2) throw new Error(`the sandbox lists ${markets.length} markets; the soak needs two`);
  value(await h.createOwnerKey({ style: 'ledger' }, account), 'createOwnerKey');
  value(await h.createTradeAccount({}, account), 'createTradeAccount');
  value(await h.mintFromFaucet({}, account), 'mintFromFaucet');
  value(await h.whitelistAccount({}, account), 'whitelistAccount');
  value(await h.createSession({ marketIds: markets.map((market) => market.market_id), days: 30 }, account), 'createSession');

  for (const plan of WINDOWS) {
    const caller: Caller = { windowId: plan.id, frameUrl: 'app://terminal/' };
    const marketId = markets[plan.market]!.market_id;
    value(await h.subscribeBook({ marketId, precision: plan.precision, levels: plan.levels }, caller), `subscribeBook ${plan.id}`);
    if (plan.trades) value(await h.subscribeTrades({ marketId }, caller), `subscribeTrades ${plan.id}`);
    if (plan.bars !== null) value(await h.subscribeBars({ marketId, resolution: plan.bars, countBack: 300 }, caller), `subscribeBars ${plan.id}`);
  }
  const runtime = await until(() => terminal.runtime(), 10_000, 'the network runtime');
  const hub = terminal.hub as unknown as HubInternals;
  const journal = (runtime as unknown as { deps: { journal: JournalInternals } }).deps.journal;
  const stream = runtime.stream as unknown as StreamInternals;

  // ---- trading now and then ------------------------------------------------------------------
  const restUrl = terminal.restUrl() ?? '';
  const orders = { placed: 0, cancelled: 0, filledBeforeCancel: 0, failed: 0, lastFailure: '' };
  const mine: { marketId: string; orderId: string }[] = [];
  const inside = async (market: Market) => {
    const body = (await (await fetch(`${restUrl}/v1/depth?market_id=${market.market_id}&precision=10`)).json()) as Record<string, { buys: { price: string }[]; sells: { price: string }[] } | undefined>;
    const sides = body.view ?? body.orders;
    return sides?.buys[0] && sides.sells[0] ? { bid: BigInt(sides.buys[0].price), ask: BigInt(sides.sells[0].price) } : null;
  };
  let tradeStep = 0;
  const trade = async () => {
    tradeStep++;
    if (mine.length >= 3 || (mine.length > 0 && tradeStep % 3 === 0)) {
      const oldest = mine.shift()!;
      const cancelled = await h.cancelOrder({ marketId: oldest.marketId, orderId: oldest.orderId }, account);
      if (cancelled.ok) orders.cancelled++;
      else if (cancelled.code === 'ORDER_NOT_OPEN') orders.filledBeforeCancel++;
      else {
        orders.failed++;
        orders.lastFailure = `${cancelled.code}: ${cancelled.message}`;
      }
      return;
    }
    const market = markets[tradeStep % 2]!;
    const prices = await inside(market);
    if (prices === null) return;
    const tick = 10n ** BigInt(Math.max(0, market.quote.decimals - market.quote.max_precision));
    const step = 10n ** BigInt(Math.max(0, market.base.decimals - market.base.max_precision));
    const side = tradeStep % 4 < 2 ? 'Buy' : 'Sell';
    const price = side === 'Buy' ? ((prices.bid * 93n) / 100n / tick) * tick : ((prices.ask * 107n) / 100n / tick + 1n) * tick;
    const byValue = ((2n * market.min_order * 10n ** BigInt(market.base.decimals)) / price / step + 2n) * step;
    const byDust = ((market.dust + step - 1n) / step) * step;
    const placed = await h.placeOrder({ marketId: market.market_id, side, orderType: { kind: 'PostOnly' }, price, quantity: byValue > byDust ? byValue : byDust }, account);
    if (!placed.ok) {
      orders.failed++;
      orders.lastFailure = `${placed.code}: ${placed.message}`;
      return;
    }
    orders.placed++;
    for (const order of placed.value.orders) if (order.status === 'open') mine.push({ marketId: order.marketId, orderId: order.orderId });
  };

  // ---- sampling ------------------------------------------------------------------------------
  const queues = new Map<string, QueueSeries>();
  const record = (name: string, cap: number | null, size: number) => {
    const series = queues.get(name) ?? { cap, samples: [] };
    queues.set(name, series);
    series.samples.push(size);
  };
  const sample = () => {
    const lanes: readonly LimiterSnapshot[] = runtime.limiter.snapshot();
    record('rate limiter: requests queued (largest lane)', 256, Math.max(0, ...lanes.map((lane) => lane.queued)));
    record('rate limiter: requests in flight (all lanes)', null, lanes.reduce((sum, lane) => sum + lane.inFlight, 0));
    record('rate limiter: lanes tracked', 256, lanes.length);
    record('stream: subscriptions awaiting their first message', null, runtime.stream.status().awaiting);
    record('stream: market subscriptions', 256, stream.markets.size);
    let dirty = 0;
    for (const pacer of hub.pacers.values()) dirty += pacer.dirty.size;
    record('hub: frames pending (marked, not yet flushed)', 64 * WINDOWS.length, dirty);
    let pending = 0;
    let changed = 0;
    for (const subscription of hub.subscriptions.values()) {
      pending = Math.max(pending, subscription.pending?.length ?? 0);
      changed = Math.max(changed, subscription.changed?.size ?? 0);
    }
    record('hub: trades pending for one window (largest)', 200, pending);
    record('hub: bars changed, not yet sent (largest)', null, changed);
    record('hub: trade tape (largest)', 200, Math.max(0, ...[...hub.trades.values()].map((channel) => channel.tape.length)));
    record('hub: order-flow rows since the channel opened (largest)', 4_000, Math.max(0, ...[...hub.trades.values()].map((channel) => channel.flow.session.size)));
    record('journal: entries in memory', 2000, journal.recent.length);
    record('journal: records in memory', 2000, journal.records.size);
    record('journal: unresolved requests', null, journal.open.size);
  };

  const started = Date.now();
  const end = started + MINUTES * 60_000;
  let nextOrder = started + 2_000;
  let nextSample = started;
  let baselineHeap: number | null = null;
  const heapTrace: { atSeconds: number; bytes: number }[] = [];
  let nextHeap = started + WARMUP_MS;
  process.stdout.write(`soak: ${MINUTES} min, maker rate ${MAKER_RATE}/s per market, warm-up ${Math.round(WARMUP_MS / 1000)} s, ${WINDOWS.length} windows on ${markets[0]!.market_id.slice(0, 10)}… and ${markets[1]!.market_id.slice(0, 10)}…\n`);
  while (Date.now() < end) {
    const now = Date.now();
    if (now >= nextOrder) {
      nextOrder = now + ORDER_EVERY_MS;
      await trade().catch((error: unknown) => {
        orders.failed++;
        orders.lastFailure = String(error);
      });
    }
    if (now >= nextSample) {
      nextSample = now + SAMPLE_MS;
      sample();
    }
    if (now >= nextHeap) {
      nextHeap = now + 60_000;
      const bytes = heapAfterGc();
      baselineHeap ??= bytes;
      heapTrace.push({ atSeconds: Math.round((now - started) / 1000), bytes });
      process.stdout.write(`soak: ${Math.round((now - started) / 1000)} s, heap ${(bytes / 1048576).toFixed(1)} MiB, book frames ${streamCounts.get('book') ?? 0}, orders placed ${orders.placed}\n`);
    }
    await sleep(100);
  }
  sample();
  const finalHeap = heapAfterGc();
  heapTrace.push({ atSeconds: Math.round((Date.now() - started) / 1000), bytes: finalHeap });

  // ---- verdicts ------------------------------------------------------------------------------
  const baseline = baselineHeap ?? finalHeap;
  const growth = (finalHeap - baseline) / baseline;
  const queueReport = [...queues].map(([name, series]) => {
    const half = series.samples.slice(0, Math.ceil(series.samples.length / 2));
    const lastQuarter = series.samples.slice(Math.floor((series.samples.length * 3) / 4));
    const max = Math.max(...series.samples);
    const firstHalfMax = Math.max(...half);
    const lastQuarterMax = Math.max(...lastQuarter);
    // Within its own cap, or, for a queue with none, not still climbing at the end of the run.
    const bounded = series.cap !== null ? max <= series.cap : lastQuarterMax <= Math.max(2 * firstHalfMax, firstHalfMax + 10);
    return { name, cap: series.cap, max, firstHalfMax, lastQuarterMax, last: series.samples.at(-1) ?? 0, bounded };
  });
  const frameReport = [...counters].map(([key, counter]) => ({
    key,
    pushes: counter.pushes,
    live: counter.live,
    maxPerFrame: counter.maxInBucket,
    minGapMs: Number(counter.minGapMs.toFixed(2)),
    crossed: counter.crossed,
  }));
  const maxPerFrame = Math.max(0, ...frameReport.map((row) => row.maxPerFrame));
  const everyWindowFed = WINDOWS.every((plan) => frameReport.some((row) => row.key.startsWith(`${plan.id}|`) && row.live > 0));
  const checks = {
    heapGrowthUnder10Percent: growth < MAX_HEAP_GROWTH,
    queuesBounded: queueReport.every((row) => row.bounded),
    atMostOneBookPushPerFramePerSubscription: maxPerFrame <= MAX_BOOK_PUSHES_PER_FRAME,
    noCrossedBookFrame: frameReport.every((row) => row.crossed === 0),
    everyWindowReceivedLiveBooks: everyWindowFed,
  };
  const pass = Object.values(checks).every(Boolean);
  const result = {
    soak: {
      minutes: MINUTES,
      makerRate: MAKER_RATE,
      warmupSeconds: WARMUP_MS / 1000,
      heap: { baselineBytes: baseline, finalBytes: finalHeap, growth: Number(growth.toFixed(4)), trace: heapTrace },
      queues: queueReport,
      frames: { maxBookPushesPerFramePerSubscription: maxPerFrame, subscriptions: frameReport, pushesByStream: Object.fromEntries(streamCounts) },
      orders,
      checks,
      pass,
    },
  };
  process.stdout.write(`${JSON.stringify(result, (_key, member: unknown) => (typeof member === 'bigint' ? member.toString() : member))}\n`);

  const mib = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MiB`;
  const lines = [
    '',
    `Soak ${MINUTES} min, maker ${MAKER_RATE} takes/s per market, 4 windows, 2 markets: ${pass ? 'PASS' : 'FAIL'}`,
    `  heap after gc: ${mib(baseline)} after warm-up -> ${mib(finalHeap)} at the end (${(growth * 100).toFixed(1)} %, target < 10 %) ${checks.heapGrowthUnder10Percent ? 'ok' : 'MISSED'}`,
    `  book pushes: at most ${maxPerFrame} per 16 ms frame per window per subscription (target <= 1) ${checks.atMostOneBookPushPerFramePerSubscription ? 'ok' : 'MISSED'}; smallest gap ${Math.min(...frameReport.map((row) => row.minGapMs)).toFixed(1)} ms; ${frameReport.reduce((sum, row) => sum + row.pushes, 0)} book frames, crossed ${frameReport.reduce((sum, row) => sum + row.crossed, 0)}`,
    `  queues (max over the run / cap):`,
    ...queueReport.map((row) => `    ${row.bounded ? 'ok    ' : 'GROWS '}${row.name}: max ${row.max}, first half ${row.firstHalfMax}, last quarter ${row.lastQuarterMax}${row.cap === null ? '' : ` / cap ${row.cap}`}`),
    `  orders: ${orders.placed} placed, ${orders.cancelled} cancelled, ${orders.filledBeforeCancel} filled before their cancel, ${orders.failed} failed${orders.failed > 0 ? ` (last: ${orders.lastFailure})` : ''}`,
    `  frames by stream: ${[...streamCounts].map(([name, count]) => `${name} ${count}`).join(', ')}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);

  await terminal.stop();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(pass ? 0 : 1);
}

main().catch((error: unknown) => {
  process.stderr.write(`soak: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
