// Soak: a long day on the real app. The browser host from the build (real main services, the
// embedded sandbox with its maker at ten times its usual rate of takes: bench/four-windows.ts) and
// four real Chromium pages on its feed: two ladder windows, the chart window and the main window
// with the tape. A trader's clicks now and then: on the first ladder window, a bid placed a dozen
// rows under the best bid, then cancelled by a click on it, and again.
//
// Measured over the run, every SAMPLE seconds:
// - main (the host process): its heap after a forced full collection, its active handles and
//   requests by type (timers, sockets, …) and the listeners on `process`, from the host's own
//   report (`--report-resources-ms`, with Node's --expose-gc; no inspector: the host refuses one);
// - each page: its JS heap after a forced collection (CDP HeapProfiler.collectGarbage, then
//   Runtime.getHeapUsage), its DOM nodes and JS event listeners (Memory.getDOMCounters) and its
//   pending timers (setTimeout/setInterval counted by a script the page runs before the app);
// - each page's frame intervals (requestAnimationFrame), summarised per minute (p50, p99, max),
//   without the interval each forced collection of the soak's own falls in.
// After the warm-up, a least-squares line through each series gives its slope per hour, also as
// a percentage of the level at the end of the warm-up. A series grows when its slope is positive,
// more than three standard errors from zero (a trend, not noise) and above its allowance per hour
// (heaps 5 %, counts 5 %, the per-minute p99 frame interval 20 %). Exit 1 when any series grows, a
// click fails, or a page threw.
//
// Each sample line also says which upstream channels main holds (book and trade streams: each
// trade channel keeps an hour of order flow, order-flow.ts, so main's heap fills for the first
// hour by design) and the journal's newest entry number (each window keeps the newest 500 entries
// and 100 notices, so the pages' heaps fill until the clicks have written that many).
//
// The default run is 95 minutes, 65 of them warm-up: the order flow's hour fills main's heap and
// the clicks (one every 10 s) fill each window's 500 journal entries in about 42 minutes, both by
// design; the 30 minutes after are judged. A run too short for that judges after its first third.
//
//   npx tsx bench/soak.ts [--minutes 95] [--warmup-minutes 65] [--sample-seconds 30] [--maker-rate 20] [--click-seconds 10]
//
// Not part of `npm test` or `npm run bench` (it runs for an hour and a half). Screenshots of the four pages
// at half time go to test-results/screenshots/soak-*.png.
import { pathToFileURL } from 'node:url';
import type { CDPSession, Page } from 'playwright-core';
import { screenshot } from '../test/support/chromium';
import { confirmIfAsked } from '../test/support/terminal-page';
import { quantile } from './judge';
import { trendOf, type Point, type Trend } from './trend';
import { MAKER_RATE, openFourWindows, USUAL_MAKER_RATE, type DeskWindow } from './four-windows';
import { positiveFlag } from './flags';

// ---- flags ----------------------------------------------------------------------------------

const flag = (name: string, fallback: number) => positiveFlag('soak', name, fallback);

const MINUTES = flag('minutes', 95);
/** Main's order flow keeps an hour of minute tables (order-flow.ts): it fills for the first hour. */
const FILLS_FOR_MINUTES = 65;
const WARMUP_MINUTES = flag('warmup-minutes', MINUTES - FILLS_FOR_MINUTES >= 30 ? FILLS_FOR_MINUTES : MINUTES / 3);
const SAMPLE_SECONDS = flag('sample-seconds', 30);
const RATE = Math.round(flag('maker-rate', MAKER_RATE));
const CLICK_EVERY_MS = flag('click-seconds', 10) * 1000;

/** Allowed growth per hour after the warm-up, as a share of the warm-up's level. */
const ALLOWANCE = { heap: 0.05, count: 0.05, frames: 0.2 } as const;

// ---- what each page runs before the app ------------------------------------------------------

/**
 * Counts the page's pending timers (a timeout until it fires or is cleared, an interval until it
 * is cleared) and records the intervals between animation frames. Runs in every page before the
 * app's own script; read back with `page.evaluate`.
 */
const PAGE_PROBE = `(() => {
  const pending = new Set();
  const setT = window.setTimeout.bind(window), clearT = window.clearTimeout.bind(window);
  const setI = window.setInterval.bind(window), clearI = window.clearInterval.bind(window);
  window.setTimeout = (handler, ms, ...rest) => {
    if (typeof handler !== 'function') return setT(handler, ms, ...rest);
    const id = setT((...args) => { pending.delete(id); handler(...args); }, ms, ...rest);
    pending.add(id);
    return id;
  };
  window.clearTimeout = (id) => { pending.delete(id); clearT(id); };
  window.setInterval = (handler, ms, ...rest) => { const id = setI(handler, ms, ...rest); pending.add(id); return id; };
  window.clearInterval = (id) => { pending.delete(id); clearI(id); };
  let intervals = [];
  let last = 0;
  let skip = false;
  const frame = (now) => { if (last > 0 && !skip) intervals.push(now - last); skip = false; last = now; requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
  Object.defineProperty(window, '__soak', { value: {
    timers: () => pending.size,
    skipFrame: () => { skip = true; },
    frames: () => { const taken = intervals; intervals = []; return taken; },
  } });
})();`;

interface SoakProbe {
  timers(): number;
  /** Leave out the frame interval the soak's own forced collection falls in. */
  skipFrame(): void;
  frames(): number[];
}

// ---- the run --------------------------------------------------------------------------------

interface PageSeries {
  readonly window: DeskWindow;
  readonly session: CDPSession;
  readonly heap: Point[];
  readonly nodes: Point[];
  readonly listeners: Point[];
  readonly timers: Point[];
  /** Per minute: p50, p99 and max of the frame intervals, ms. */
  readonly frames: { minutes: number; count: number; p50: number; p99: number; max: number }[];
}

interface MainSample {
  readonly at: number;
  readonly collected: boolean;
  readonly heapUsed: number;
  readonly resources: Record<string, number>;
  readonly processListeners: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mib = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MiB`;

async function samplePage(series: PageSeries, minutes: number): Promise<void> {
  await series.window.page.evaluate(() => (globalThis as unknown as { __soak: SoakProbe }).__soak.skipFrame());
  await series.session.send('HeapProfiler.collectGarbage');
  const heap = (await series.session.send('Runtime.getHeapUsage')) as { usedSize: number };
  const counters = (await series.session.send('Memory.getDOMCounters')) as { nodes: number; jsEventListeners: number };
  const timers = await series.window.page.evaluate(() => (globalThis as unknown as { __soak: SoakProbe }).__soak.timers());
  series.heap.push({ minutes, value: heap.usedSize });
  series.nodes.push({ minutes, value: counters.nodes });
  series.listeners.push({ minutes, value: counters.jsEventListeners });
  series.timers.push({ minutes, value: timers });
}

async function sampleFrames(series: PageSeries, minutes: number): Promise<void> {
  const intervals = await series.window.page.evaluate(() => (globalThis as unknown as { __soak: SoakProbe }).__soak.frames());
  if (intervals.length === 0) return;
  series.frames.push({ minutes, count: intervals.length, p50: quantile(intervals, 0.5), p99: quantile(intervals, 0.99), max: Math.max(...intervals) });
}

/** The trader's clicks on a ladder window: a bid a dozen rows under the best bid, then a click on it to cancel it. */
function trader(page: Page) {
  const counts = { placed: 0, cancelled: 0, failed: 0, lastFailure: '' };
  let armed = false;
  let resting: string | null = null;
  const ladder = page.getByTestId('ladder');
  const click = async () => {
    if (!armed) {
      // Rows of a coarse group (the fourth, 1,000 ticks on ETH/USDC): a bid a dozen rows under the
      // best rests out of the busy maker's reach, as the ladder e2e suite places it.
      const groups = await page.getByTestId('ladder-precision').locator('option').evaluateAll((options) => options.map((option) => option.getAttribute('value') ?? ''));
      await page.getByTestId('ladder-precision').selectOption(groups[Math.min(3, groups.length - 1)]!);
      await page.getByTestId('ladder-arm').click();
      await page.locator('[data-testid=ladder][data-clickable=true]').waitFor({ timeout: 20_000 });
      armed = true;
    }
    if (resting === null) {
      // The ladder holds its rows while the market moves; centre it on the inside first.
      await page.getByTestId('ladder-recenter').click();
      const prices = await ladder.locator('[data-testid=ladder-row]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-price') ?? ''));
      const best = await ladder.locator('[data-testid=ladder-row].best-bid').first().getAttribute('data-price', { timeout: 10_000 });
      const at = best === null ? -1 : prices.indexOf(best);
      if (at < 0) throw new Error('no best bid on the ladder');
      const target = prices[Math.min(at + 12, prices.length - 2)]!;
      await ladder.locator(`[data-testid=ladder-row][data-price="${target}"] [data-testid=bid-cell]`).click();
      await confirmIfAsked(page);
      await ladder.locator(`[data-testid=ladder-row][data-price="${target}"] [data-testid=own-order]`).waitFor({ timeout: 20_000 });
      resting = target;
      counts.placed++;
      return;
    }
    // The market may have carried the ladder's rows away from the bid: centre it again first, so a
    // bid still resting is on screen and cancelled, never left behind as the trader's clicks go on.
    await page.getByTestId('ladder-recenter').click();
    const own = ladder.locator(`[data-testid=ladder-row][data-price="${resting}"] [data-testid=own-order]`);
    // The recentred rows are drawn on the next animation frame.
    await own.first().waitFor({ timeout: 3_000 }).catch(() => undefined);
    if ((await own.count()) === 0) {
      resting = null; // filled: place another next time
      return;
    }
    await own.first().click();
    await confirmIfAsked(page);
    await own.first().waitFor({ state: 'detached', timeout: 20_000 });
    resting = null;
    counts.cancelled++;
  };
  return {
    counts,
    click: () =>
      click().catch((error: unknown) => {
        counts.failed++;
        counts.lastFailure = error instanceof Error ? error.message.split('\n')[0]! : String(error);
        resting = null;
      }),
  };
}

async function main(): Promise<void> {
  const log = (line: string) => process.stdout.write(`soak: ${line}\n`);
  const desk = await openFourWindows({
    makerRate: RATE,
    // LT_SOAK_HOST_NODE_ARGS: more Node flags for main, for a diagnosis (e.g. "--heapsnapshot-signal=SIGUSR2").
    hostNodeArgs: `--expose-gc ${process.env.LT_SOAK_HOST_NODE_ARGS ?? ''}`.trim(),
    hostArgs: ['--report-resources-ms', String(SAMPLE_SECONDS * 1000)],
    initScript: PAGE_PROBE,
    log: (line) => process.stderr.write(`soak: ${line}\n`),
  });
  const { host, bridge } = desk.terminal;
  const pageErrors: string[] = [];
  const pages: PageSeries[] = [];
  try {
    for (const window of desk.windows) {
      window.page.on('pageerror', (error) => pageErrors.push(`${window.name}: ${String(error)}`));
      const session = await window.page.context().newCDPSession(window.page);
      pages.push({ window, session, heap: [], nodes: [], listeners: [], timers: [], frames: [] });
    }
    const clicks = trader(desk.windows[0]!.page);
    const mainSamples: MainSample[] = [];
    let mainRead = 0;
    const readMain = () => {
      for (; mainRead < host.output.length; mainRead++) {
        const line = host.output[mainRead]!;
        if (line.startsWith('resources ')) mainSamples.push(JSON.parse(line.slice('resources '.length)) as MainSample);
      }
    };

    const started = Date.now();
    const minutesNow = () => (Date.now() - started) / 60_000;
    const end = started + MINUTES * 60_000;
    let nextSample = started;
    let nextFrames = started + 60_000;
    let nextClick = started + 5_000;
    let shot = false;
    log(`${MINUTES} min (warm-up ${WARMUP_MINUTES} min), maker ${RATE} takes/s per market, ${desk.windows.map((window) => window.name).join(', ')}; samples every ${SAMPLE_SECONDS} s`);
    while (Date.now() < end) {
      const now = Date.now();
      if (now >= nextClick) {
        nextClick = now + CLICK_EVERY_MS;
        await clicks.click();
      }
      if (now >= nextSample) {
        nextSample = now + SAMPLE_SECONDS * 1000;
        for (const series of pages) await samplePage(series, minutesNow());
        readMain();
        const latest = mainSamples.at(-1);
        const diagnostics = await bridge.api.getDeskDiagnostics({});
        const journal = await bridge.api.getJournal({ limit: 1 });
        const upstream = diagnostics.ok ? `${diagnostics.value.upstream.depth} book and ${diagnostics.value.upstream.trades} trade channels` : `channels unknown (${diagnostics.code})`;
        const newest = journal.ok ? `journal #${journal.value[0]?.seq ?? 0}` : `journal unknown (${journal.code})`;
        log(
          `${minutesNow().toFixed(1)} min: main heap ${latest === undefined ? '?' : mib(latest.heapUsed)}, timers ${latest?.resources.Timeout ?? '?'}, ${upstream}, ${newest}; ` +
            pages.map((series) => `${series.window.name} ${mib(series.heap.at(-1)!.value)} ${series.nodes.at(-1)!.value} nodes ${series.listeners.at(-1)!.value} listeners`).join('; ') +
            `; clicks ${clicks.counts.placed} placed ${clicks.counts.cancelled} cancelled ${clicks.counts.failed} failed`,
        );
      }
      if (now >= nextFrames) {
        nextFrames = now + 60_000;
        for (const series of pages) await sampleFrames(series, minutesNow());
      }
      if (!shot && now >= started + (MINUTES * 60_000) / 2) {
        shot = true;
        for (const series of pages) log(`screenshot ${await screenshot(series.window.page, `soak-${series.window.name.replace(/\W+/g, '-').replace(/-$/, '')}`)}`);
      }
      await sleep(250);
    }
    for (const series of pages) {
      await samplePage(series, minutesNow());
      await sampleFrames(series, minutesNow());
    }
    readMain();

    // ---- verdicts ----------------------------------------------------------------------------
    const minutesOf = (at: number) => (at - started) / 60_000;
    const mainPoints = (pick: (sample: MainSample) => number) => mainSamples.map((sample) => ({ minutes: minutesOf(sample.at), value: pick(sample) }));
    const resourceTypes = [...new Set(mainSamples.flatMap((sample) => Object.keys(sample.resources)))].sort();
    const trends: Trend[] = [
      trendOf('main: heap after gc', 'bytes', mainPoints((sample) => sample.heapUsed), WARMUP_MINUTES, ALLOWANCE.heap),
      trendOf('main: active handles and requests', 'count', mainPoints((sample) => Object.values(sample.resources).reduce((sum, count) => sum + count, 0)), WARMUP_MINUTES, ALLOWANCE.count),
      ...resourceTypes.map((type) => trendOf(`main: active ${type}`, 'count', mainPoints((sample) => sample.resources[type] ?? 0), WARMUP_MINUTES, ALLOWANCE.count)),
      trendOf('main: listeners on process', 'count', mainPoints((sample) => sample.processListeners), WARMUP_MINUTES, ALLOWANCE.count),
      ...pages.flatMap((series) => [
        trendOf(`${series.window.name}: heap after gc`, 'bytes', series.heap, WARMUP_MINUTES, ALLOWANCE.heap),
        trendOf(`${series.window.name}: DOM nodes`, 'count', series.nodes, WARMUP_MINUTES, ALLOWANCE.count),
        trendOf(`${series.window.name}: JS event listeners`, 'count', series.listeners, WARMUP_MINUTES, ALLOWANCE.count),
        trendOf(`${series.window.name}: pending timers`, 'count', series.timers, WARMUP_MINUTES, ALLOWANCE.count),
        trendOf(
          `${series.window.name}: frame interval p99 per minute`,
          'ms',
          series.frames.map((minute) => ({ minutes: minute.minutes, value: minute.p99 })),
          WARMUP_MINUTES,
          ALLOWANCE.frames,
        ),
      ]),
    ];
    const mainCollected = mainSamples.length > 0 && mainSamples.every((sample) => sample.collected);
    const checks = {
      noGrowthTrend: trends.every((trend) => !trend.grows),
      enoughPointsAfterWarmup: trends.every((trend) => trend.points >= 3),
      mainHeapAfterForcedGc: mainCollected,
      clicksTraded: clicks.counts.placed > 0 && clicks.counts.failed === 0,
      noPageErrors: pageErrors.length === 0,
    };
    const pass = Object.values(checks).every(Boolean);
    const result = {
      soak: {
        minutes: MINUTES,
        warmupMinutes: WARMUP_MINUTES,
        makerRate: RATE,
        trends,
        frames: Object.fromEntries(pages.map((series) => [series.window.name, series.frames])),
        main: mainSamples,
        pages: Object.fromEntries(pages.map((series) => [series.window.name, { heap: series.heap, nodes: series.nodes, listeners: series.listeners, timers: series.timers }])),
        clicks: clicks.counts,
        pageErrors,
        checks,
        pass,
      },
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);

    const figure = (trend: Trend, value: number) => (trend.unit === 'bytes' ? mib(value) : trend.unit === 'ms' ? `${value.toFixed(1)} ms` : value.toFixed(trend.unit === 'count' && Number.isInteger(value) ? 0 : 1));
    const lines = [
      '',
      `Soak ${MINUTES} min, maker ${RATE} takes/s per market (${RATE / USUAL_MAKER_RATE} times the sandbox's usual ${USUAL_MAKER_RATE}), four windows: ${pass ? 'PASS' : 'FAIL'}`,
      `  slopes after the ${WARMUP_MINUTES} min warm-up (least squares; growth = positive, > 3 standard errors, above the allowance per hour):`,
      ...trends.map(
        (trend) =>
          `    ${trend.grows ? 'GROWS ' : 'ok    '}${trend.name}: ${figure(trend, trend.level)} -> ${figure(trend, trend.last)}, slope ${figure(trend, trend.perHour)}/h (${trend.percentPerHour.toFixed(1)} %/h of the warm-up level, ± ${figure(trend, trend.standardError)}), ${trend.points} points`,
      ),
      `  frame intervals per minute (p50/p99/max ms): ${pages.map((series) => `${series.window.name} ${series.frames.map((minute) => `${minute.p50.toFixed(0)}/${minute.p99.toFixed(0)}/${minute.max.toFixed(0)}`).join(' ')}`).join('; ')}`,
      `  main's heap ${mainCollected ? 'after a forced gc' : 'NOT after a forced gc (no --expose-gc)'}, ${mainSamples.length} samples; handles by type at the end: ${JSON.stringify(mainSamples.at(-1)?.resources ?? {})}`,
      `  clicks on ${desk.windows[0]!.name}: ${clicks.counts.placed} placed, ${clicks.counts.cancelled} cancelled, ${clicks.counts.failed} failed${clicks.counts.failed > 0 ? ` (last: ${clicks.counts.lastFailure})` : ''}`,
      `  page errors: ${pageErrors.length === 0 ? 'none' : pageErrors.join('; ')}`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    process.exitCode = pass ? 0 : 1;
  } finally {
    await desk.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    process.stderr.write(`soak: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
