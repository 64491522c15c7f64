// Depth ladder rendering in headless Chromium: the real Ladder component against the same rows
// re-created on every update (the naive peer), both fed 500 levels a side at 100 updates a second
// for about 10 seconds. Reports the page's script time per animation frame at p99 (target under
// 4 ms) and the frames missed at 60 Hz, measured in the same run, beside an idle baseline (the
// same replay with nothing drawing it, run before and after ours) that shows what the machine
// alone misses. A missed frame counts against the ladder when the page's own main-thread work
// (script, plus the style, layout and paint after each frame) in that interval reached half a
// frame: a frame the machine missed while the page was nearly idle is the machine's.
// `npx tsx bench/ladder.bench.ts` prints one line of JSON; `run()` returns the same object.
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import { launchChromium } from '../test/support/chromium';
import type { BenchResult } from './result';

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

export async function run(options: { seconds?: number; rows?: number; rate?: number } = {}): Promise<BenchResult> {
  const seconds = options.seconds ?? 10;
  const rows = options.rows ?? 500;
  const rate = options.rate ?? 100;
  await build({ configFile: join(root, 'bench/ladder/vite.config.ts') });
  const server = await serve(outDir);
  const browser = await launchChromium();
  try {
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const measure = async (mode: 'ours' | 'naive' | 'idle', runSeconds = seconds): Promise<PageResult> => {
      const tab = await browser.newPage({ viewport: { width: 900, height: 1000 } });
      try {
        await tab.goto(`${origin}/bench/ladder.html?mode=${mode}&seconds=${runSeconds}&rows=${rows}&rate=${rate}`);
        await tab.waitForFunction(() => (globalThis as unknown as BenchWindow).__benchResult !== undefined || (globalThis as unknown as BenchWindow).__benchError !== undefined, undefined, { timeout: (seconds + 60) * 1000 });
        const error = await tab.evaluate(() => (globalThis as unknown as BenchWindow).__benchError);
        if (error) throw new Error(`ladder bench page (${mode}): ${error}`);
        return (await tab.evaluate(() => (globalThis as unknown as BenchWindow).__benchResult)) as PageResult;
      } finally {
        await tab.close();
      }
    };
    // A first page in a fresh browser pays for compiling the bundle: warm up, then measure.
    await measure('ours', 3);
    const idle = await measure('idle');
    const ours = await measure('ours');
    const idleAfter = await measure('idle');
    const naive = await measure('naive');
    return {
      name: `ladder: renderer script time per frame, p99 (${rows} rows, 500 levels a side, ${rate} updates/s, ${seconds} s, headless Chromium)`,
      unit: 'ms',
      ours: round(ours.p99),
      peer: round(naive.p99),
      ratio: round(naive.p99 / Math.max(ours.p99, 0.001)),
      target: 'ours p99 < 4 ms per frame and no frame skipped at 60 Hz by its own work',
      notes:
        `ours p50 ${round(ours.p50)} / p99 ${round(ours.p99)} / max ${round(ours.max)} ms script per frame; own work (script + rendering, to the first task after each frame) per interval p99 ${round(ours.workP99)} / max ${round(ours.workMax)} ms (idle page: p99 ${round(idle.workP99)} / max ${round(idle.workMax)} ms); ` +
        `frames missed: ours ${ours.skippedFrames} (${ours.skippedWithOwnWork} with its own work >= half a frame; the most own work in a missed interval ${round(ours.workInSkippedMax)} ms), ` +
        `idle before ${idle.skippedFrames}, idle after ${idleAfter.skippedFrames}, naive ${naive.skippedFrames}`,
      details: {
        ours: { ...ours, p50: round(ours.p50), p99: round(ours.p99), max: round(ours.max) },
        naive: { ...naive, p50: round(naive.p50), p99: round(naive.p99), max: round(naive.max) },
        // Frames the machine itself missed with the same replay and nothing drawing it (a shared
        // two-core machine), before and after ours.
        idle: { skippedFrames: idle.skippedFrames, longTasks: idle.longTasks },
        idleAfter: { skippedFrames: idleAfter.skippedFrames, longTasks: idleAfter.longTasks },
        oursSkippedAboveIdle: Math.max(0, ours.skippedFrames - Math.max(idle.skippedFrames, idleAfter.skippedFrames)),
        // Frames missed while the ladder's own work in that interval reached half a frame.
        oursSkippedByOwnWork: ours.skippedWithOwnWork,
        oursMeetsTarget: ours.p99 < 4 && ours.skippedWithOwnWork === 0,
      },
    };
  } finally {
    await browser.close();
    server.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  run().then(
    (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
