// `npm run bench`: runs every bench/*.bench.ts one after the other (each measures ours and its
// peer in the same run) and prints one table: what was measured, our figure, the peer's, the
// ratio, the target and whether it is met. `npm run bench -- order-book signing` runs only the
// named ones.
//
// Exit code 1 when a benchmark fails to run, misses a target relative to its peer (a ratio, both
// measured in the same run), or misses an absolute target (a time, a rate) on a machine that was
// quiet while it ran. An absolute target missed while the machine was loaded (the one-minute load
// average above the number of cores at the start or the end of that benchmark) is shown as
// "miss (loaded …)" and does not fail the run: on a shared 2-core machine such a figure measures
// the other tenants, not the code. The figure and the miss stay in the table.
import { cpus, loadavg } from 'node:os';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchResult } from './result';

interface BenchModule {
  /** One row, or several when a bench measures more than one shape of the same thing. */
  run(): BenchResult | BenchResult[] | Promise<BenchResult | BenchResult[]>;
}

type Verdict = 'pass' | 'FAIL' | 'n/a';

/** A target judged on the ratio to the peer (`… x …`), as opposed to an absolute figure. */
export function isRatioTarget(target: string): boolean {
  return /[0-9]\s*(x|×)/.test(target);
}

/**
 * Judge a target written as `<op> <number>[x] …`: with `x` it applies to the ratio (ours against
 * the peer), otherwise to our figure in the benchmark's unit. A benchmark may decide itself
 * (`pass`, or `details.oursMeetsTarget`) when its target has conditions this cannot read.
 */
export function verdict(result: BenchResult): Verdict {
  if (typeof result.pass === 'boolean') return result.pass ? 'pass' : 'FAIL';
  const own = result.details?.oursMeetsTarget;
  if (typeof own === 'boolean') return own ? 'pass' : 'FAIL';
  const match = /(>=|<=|>|<|≥|≤)\s*([0-9][0-9_,.]*)\s*(x|×)?/.exec(result.target);
  if (match === null) return 'n/a';
  const [, operator, text, times] = match as unknown as [string, string, string, string | undefined];
  const bound = Number(text.replace(/[_,]/g, ''));
  const value = times === undefined ? result.ours : result.ratio;
  if (!Number.isFinite(bound) || !Number.isFinite(value)) return 'n/a';
  const met = operator === '>=' || operator === '≥' ? value >= bound : operator === '<=' || operator === '≤' ? value <= bound : operator === '>' ? value > bound : value < bound;
  return met ? 'pass' : 'FAIL';
}

function cell(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
}

function figure(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  return Math.abs(value) >= 1000 ? Math.round(value).toLocaleString('en-US') : String(value);
}

async function main(): Promise<void> {
  const folder = dirname(fileURLToPath(import.meta.url));
  const only = process.argv.slice(2);
  const files = readdirSync(folder)
    .filter((file) => file.endsWith('.bench.ts'))
    .filter((file) => only.length === 0 || only.some((name) => file.startsWith(name)))
    .sort();
  const rows: { file: string; result?: BenchResult; error?: string; verdict: Verdict | 'ERROR'; loaded?: string }[] = [];
  const cores = cpus().length;
  for (const file of files) {
    process.stderr.write(`running ${file} …\n`);
    try {
      const module = (await import(pathToFileURL(join(folder, file)).href)) as Partial<BenchModule>;
      if (typeof module.run !== 'function') throw new Error('exports no run()');
      const loadBefore = loadavg()[0] ?? 0;
      const produced = await module.run();
      const loadAfter = loadavg()[0] ?? 0;
      const load = Math.max(loadBefore, loadAfter);
      for (const result of Array.isArray(produced) ? produced : [produced]) {
        const judged = verdict(result);
        const loaded = judged === 'FAIL' && !isRatioTarget(result.target) && load > cores ? `miss (loaded ${load.toFixed(1)}/${cores} cores)` : undefined;
        rows.push({ file, result, verdict: judged, ...(loaded === undefined ? {} : { loaded }) });
      }
    } catch (error) {
      rows.push({ file, error: error instanceof Error ? error.message : String(error), verdict: 'ERROR' });
    }
  }
  const header = `${cell('benchmark', 64)} ${cell('unit', 10)} ${cell('ours', 12)} ${cell('peer', 12)} ${cell('ratio', 7)} ${cell('target', 18)} result`;
  const lines = [header, '-'.repeat(header.length)];
  const notes: string[] = [];
  for (const row of rows) {
    if (row.result === undefined) {
      lines.push(`${cell(row.file, 64)} ${cell('', 10)} ${cell('', 12)} ${cell('', 12)} ${cell('', 7)} ${cell('', 18)} ERROR: ${row.error ?? ''}`);
      continue;
    }
    const { result } = row;
    lines.push(`${cell(result.name, 64)} ${cell(result.unit, 10)} ${cell(figure(result.ours), 12)} ${cell(figure(result.peer), 12)} ${cell(`${result.ratio}x`, 7)} ${cell(result.target, 18)} ${row.loaded ?? row.verdict}`);
    notes.push(`${row.file}: ${result.name}; target ${result.target}${result.notes === undefined ? '' : `; ${result.notes}`}`);
  }
  process.stdout.write(`${lines.join('\n')}\n\nratio: how many times better ours is than the peer (throughput ours/peer, latency peer/ours).\n${notes.join('\n')}\n`);
  process.stdout.write(`load average (1 min) at the end: ${loadavg()[0]?.toFixed(1)} on ${cores} cores\n`);
  if (rows.some((row) => row.verdict === 'ERROR' || (row.verdict === 'FAIL' && row.loaded === undefined))) process.exitCode = 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
