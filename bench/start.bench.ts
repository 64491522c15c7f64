// Start-up as the trader feels it: from the command to "terminal ready" and to a live ladder in
// Chromium (the best bid of a live book drawn), for `npm start` (the browser host run from the
// build, built only when sources changed) against the same host run from its TypeScript sources
// through tsx (how every start ran before: the peer). Both on a warm install with the build
// current, one data directory kept across rounds (a returning trader's), interleaved rounds.
// Two rows: to ready (target < 3 s) and to a live ladder (target < 5 s).
// `npx tsx bench/start.bench.ts` prints the rows as JSON; `run()` returns them.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { ensureBuilt } from '../scripts/build-stamp.mjs';
import { launchChromium } from '../test/support/chromium';
import type { BenchResult } from './result';
import { interleaveAsync, ROUNDS } from './rounds';

const root = resolve(import.meta.dirname, '..');

interface StartFigures {
  /** Seconds from the spawn to the host's "terminal ready" line. */
  readonly ready: number;
  /** Seconds from the spawn to a live ladder's best bid in the page. */
  readonly live: number;
}

const COMMANDS = {
  ours: [process.execPath, join(root, 'scripts/start.mjs')],
  peer: [process.execPath, '--import', 'tsx', join(root, 'main/host/cli.ts')],
} as const;

async function startOnce(browser: Browser, command: readonly string[], dataDir: string): Promise<StartFigures> {
  const started = performance.now();
  const child = spawn(command[0]!, [...command.slice(1), '--port', '0', '--data-dir', dataDir], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  try {
    const url = await new Promise<string>((resolveUrl, reject) => {
      const timer = setTimeout(() => reject(new Error(`start bench: no "terminal ready" within 60 s:\n${output}`)), 60_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /terminal ready at (\S+)/.exec(output);
        if (match?.[1]) {
          clearTimeout(timer);
          resolveUrl(match[1]);
        }
      };
      child.stdout!.on('data', read);
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.once('exit', (code) => reject(new Error(`start bench: ${command.join(' ')} exited with ${code} before it was ready:\n${output}`)));
    });
    const ready = (performance.now() - started) / 1000;
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    try {
      await page.goto(url);
      // A first start opens the account setup over the workspace; a returning trader's does not.
      const closeSetup = page.getByTestId('close-setup');
      const bestBid = page.locator('[data-testid=ladder][data-freshness=live] [data-testid=ladder-row].best-bid').first();
      await Promise.race([closeSetup.waitFor({ timeout: 60_000 }).then(() => closeSetup.click()), bestBid.waitFor({ timeout: 60_000, state: 'attached' })]);
      await bestBid.waitFor({ timeout: 60_000, state: 'attached' });
      return { ready, live: (performance.now() - started) / 1000 };
    } finally {
      await page.close();
    }
  } finally {
    if (child.exitCode === null && child.pid !== undefined) {
      process.kill(-child.pid, 'SIGTERM');
      await new Promise((done) => child.once('exit', done));
    }
  }
}

export async function run(): Promise<BenchResult[]> {
  if (!ensureBuilt({ log: (line) => process.stderr.write(`start: ${line}\n`) })) throw new Error('start bench: the build failed');
  const browser = await launchChromium();
  const dataDirs = { ours: mkdtempSync(join(tmpdir(), 'lt-start-ours-')), peer: mkdtempSync(join(tmpdir(), 'lt-start-peer-')) };
  try {
    // One start each first: the data directories get their files and the page its cache, as on a desk used before.
    await startOnce(browser, COMMANDS.ours, dataDirs.ours);
    await startOnce(browser, COMMANDS.peer, dataDirs.peer);
    const figures = await interleaveAsync(ROUNDS, {
      ours: () => startOnce(browser, COMMANDS.ours, dataDirs.ours),
      peer: () => startOnce(browser, COMMANDS.peer, dataDirs.peer),
    });
    const rounds = (pick: (figures: StartFigures) => number) => figures.ours.map((mine, index) => ({ ours: pick(mine), peer: pick(figures.peer[index]!) }));
    const notes = 'ours: npm start (node scripts/start.mjs: the build check, then the browser host from out/main/host.js); peer: the same host from main/host/cli.ts through tsx; warm install, build current, a data directory used before';
    return [
      { name: 'start: command to "terminal ready" (npm start, browser host)', unit: 's', better: 'lower', target: '< 3 s', rounds: rounds((f) => f.ready), notes },
      { name: 'start: command to a live ladder in Chromium', unit: 's', better: 'lower', target: '< 5 s', rounds: rounds((f) => f.live), notes },
    ];
  } finally {
    await browser.close();
    for (const directory of Object.values(dataDirs)) rmSync(directory, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  run().then(
    (rows) => process.stdout.write(`${JSON.stringify(rows)}\n`),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
