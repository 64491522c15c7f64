// Depth ladder rendering in headless Chromium: the real Ladder component against the same rows
// re-created on every update (the naive peer), both fed 500 levels a side with every column the
// ladder has on (cumulative depth, own orders, fills, P&L, order flow, Turbo depth: the page's
// default, renderer/bench/ladder-bench.tsx), one row at 100 updates
// a second and one at 1,000. Each row is five interleaved rounds (bench/rounds.ts) of a page of
// ours and a page of the peer, a few seconds each; each round reports the page's script time per
// animation frame at p99 (target under 4 ms, a frame budget, so absolute) and the frames missed at
// 60 Hz, beside an idle baseline (the same replay with nothing drawing it) that shows what the
// machine alone misses. A missed frame counts against the ladder when the page's own main-thread work
// (script, plus the style, layout and paint after each frame) in that interval reached half a
// frame: a frame the machine missed while the page was nearly idle is the machine's.
// `npx tsx bench/ladder.bench.ts` prints one line of JSON per row; `run()` returns the rows.
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import { launchChromium } from '../test/support/chromium';
import { median } from './judge';
import type { BenchResult } from './result';
import { interleaveAsync, ROUNDS, sized } from './rounds';

interface PageResult {
  readonly mode: string;
  readonly rows: number;
  readonly levelsPerSide: number;
  readonly updates: number;
  readonly frames: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly skippedFrames: number;
  readonly skippedWithOwnWork: number;
  readonly workP99: number;
  readonly workMax: number;
  readonly workInSkippedMax: number;
  readonly longTasks: number;
  readonly firstFrameRows: number;
}

const root = resolve(import.meta.dirname, '..');
const outDir = join(root, 'out/bench');
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

function serve(directory: string): Promise<Server> {
  const server = createServer((request, response) => {
    const path = normalize(join(directory, new URL(request.url ?? '/', 'http://localhost').pathname));
    if (!path.startsWith(directory + sep)) {
      response.writeHead(403).end();
      return;
    }
    readFile(path).then(
      (body) => response.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(body),
      () => response.writeHead(404).end(),
    );
  });
  return new Promise((resolveServer) => server.listen(0, '127.0.0.1', () => resolveServer(server)));
}

/** The page's globals, seen from Node (the bench tsconfig has no DOM types). */
interface BenchWindow {
  __benchResult?: PageResult;
  __benchError?: string;
}

const round = (value: number) => Math.round(value * 1000) / 1000;

/** A peer's page that did not finish within its budget: it held the main thread that long at least. */
interface Unfinished {
  readonly unfinishedAfterMs: number;
}

type Measure = (mode: 'ours' | 'naive' | 'idle', seconds: number, rate: number) => Promise<PageResult>;
type MeasurePeer = (seconds: number, rate: number, rows: number) => Promise<PageResult | Unfinished>;

/**
 * The naive peer's page gets this much beyond its replay (a second of warm-up and the measured
 * seconds): at 1,000 updates/s it cannot keep up and delivers its backlog in one task that can last
 * a minute on a loaded machine; its figure is then how long it was waited for, a lower bound.
 */
const PEER_BUDGET_SECONDS = 5;

/**
 * A page's p99 script time per frame; a page that drew no frame while it was measured held the
 * main thread for the whole measurement, and a peer page that did not finish for its whole budget.
 */
function frameTime(page: PageResult | Unfinished, seconds: number): number {
  if ('unfinishedAfterMs' in page) return page.unfinishedAfterMs;
  return page.frames === 0 ? seconds * 1000 : round(page.p99);
}

const perRound = (pages: readonly (PageResult | Unfinished)[], figure: (page: PageResult) => number) => pages.map((page) => ('unfinishedAfterMs' in page ? 'unfinished' : String(figure(page)))).join(', ');

/** One rate's row: interleaved rounds of a page of ours and a page of the naive peer. */
async function measureRate(measure: Measure, measurePeer: MeasurePeer, rate: number, seconds: number): Promise<BenchResult> {
  // A first page at this rate pays for compiling the bundle and the replay: warm up, then measure.
  // It also says how many rows the ladder holds at this page height: the peer draws as many.
  const rows = (await measure('ours', 2, rate)).rows;
  // What the machine alone misses with the same replay and nothing drawing it.
  const idle = await measure('idle', seconds, rate);
  const pages = await interleaveAsync(ROUNDS, { ours: () => measure('ours', seconds, rate), naive: () => measurePeer(seconds, rate, rows) });
  const ours = pages.ours as PageResult[];
  const naive = pages.naive;
  const middle = (results: readonly PageResult[], key: keyof PageResult) => round(median(results.map((result) => Number(result[key]))));
  return {
    name: `ladder at ${rate.toLocaleString('en-US')} updates/s: script time per frame, p99 (a ${VIEWPORT_HEIGHT.toLocaleString('en-US')} px ladder: ${rows} rows, 500 levels a side, every column, headless Chromium)`,
    unit: 'ms',
    better: 'lower',
    target: '< 4 ms p99 and no frame missed by its own work',
    rounds: ours.map((page, index) => ({ ours: frameTime(page, seconds), peer: frameTime(naive[index]!, seconds), conditions: page.frames > 0 && page.skippedWithOwnWork === 0 })),
    notes:
      `${ROUNDS} interleaved rounds of a page of ${seconds} s each (ours, naive; naive, ours; …); medians: ours p50 ${middle(ours, 'p50')} / p99 ${middle(ours, 'p99')} / max ${middle(ours, 'max')} ms script per frame; ` +
      `own work (script + rendering, to the first task after each frame) per interval p99 ${middle(ours, 'workP99')} / max ${middle(ours, 'workMax')} ms (idle page: p99 ${round(idle.workP99)} / max ${round(idle.workMax)} ms); ` +
      `frames drawn per round: ours ${perRound(ours, (page) => page.frames)}, naive ${perRound(naive, (page) => page.frames)} (a page that drew none counts its whole ${seconds} s as its frame; a naive page unfinished after its ${seconds + 1 + PEER_BUDGET_SECONDS} s budget counts the time it was waited for, a lower bound); ` +
      `frames missed per round: ours ${perRound(ours, (page) => page.skippedFrames)} (with its own work >= half a frame: ${perRound(ours, (page) => page.skippedWithOwnWork)}), naive ${perRound(naive, (page) => page.skippedFrames)}, the idle page ${idle.skippedFrames}`,
    details: { ours, naive, idle: { skippedFrames: idle.skippedFrames, longTasks: idle.longTasks } },
  };
}

// The page is 1,000 px tall, as it always was, and the ladder sizes itself to it as the app's does
// (a row per 18 px of its body, every row on screen: about 50 rows). Until 2026-11-28 the page held
// 500 rows and was as tall as they were, about 50 of them on screen: a ladder the app never has
// (its ladder holds the rows its body shows), and the browser rendered the rows within its
// content-visibility margin too, so about 86 rows were written each frame. `run({ rows: 500 })`
// still measures that page. docs/reliability.md gives the figure for a page as tall as a 4K
// monitor on its side (about 115 rows).
const VIEWPORT_HEIGHT = 1_000;

export async function run(options: { seconds?: number; rows?: number | 'fit'; rates?: readonly number[] } = {}): Promise<BenchResult[]> {
  const seconds = options.seconds ?? sized(3, 1);
  const held = options.rows ?? 'fit';
  const rates = options.rates ?? [100, 1_000];
  await build({ configFile: join(root, 'bench/ladder/vite.config.ts') });
  const server = await serve(outDir);
  const browser = await launchChromium();
  try {
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const open = async (mode: 'ours' | 'naive' | 'idle', runSeconds: number, rate: number, budgetMs: number, naiveRows?: number): Promise<PageResult | Unfinished> => {
      const tab = await browser.newPage({ viewport: { width: 900, height: VIEWPORT_HEIGHT } });
      try {
        await tab.goto(`${origin}/bench/ladder.html?mode=${mode}&seconds=${runSeconds}&rows=${held}&rate=${rate}${naiveRows === undefined ? '' : `&naiveRows=${naiveRows}`}`);
        const started = performance.now();
        try {
          await tab.waitForFunction(() => (globalThis as unknown as BenchWindow).__benchResult !== undefined || (globalThis as unknown as BenchWindow).__benchError !== undefined, undefined, { timeout: budgetMs });
        } catch (error) {
          if (error instanceof Error && error.name === 'TimeoutError') return { unfinishedAfterMs: Math.round(performance.now() - started) };
          throw error;
        }
        const error = await tab.evaluate(() => (globalThis as unknown as BenchWindow).__benchError);
        if (error) throw new Error(`ladder bench page (${mode}, ${rate} updates/s): ${error}`);
        return (await tab.evaluate(() => (globalThis as unknown as BenchWindow).__benchResult)) as PageResult;
      } finally {
        await tab.close();
      }
    };
    const measure: Measure = async (mode, runSeconds, rate) => {
      const budget = (runSeconds + 60) * 1000;
      const page = await open(mode, runSeconds, rate, budget);
      if ('unfinishedAfterMs' in page) throw new Error(`ladder bench page (${mode}, ${rate} updates/s) did not finish within ${budget / 1000} s`);
      return page;
    };
    const measurePeer: MeasurePeer = (runSeconds, rate, rows) => open('naive', runSeconds, rate, (runSeconds + 1 + PEER_BUDGET_SECONDS) * 1000, rows);
    const results: BenchResult[] = [];
    for (const rate of rates) results.push(await measureRate(measure, measurePeer, rate, seconds));
    return results;
  } finally {
    await browser.close();
    server.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  run().then(
    (results) => {
      for (const result of results) process.stdout.write(`${JSON.stringify(result)}\n`);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
