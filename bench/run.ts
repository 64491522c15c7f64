// `npm run bench`: runs every bench/*.bench.ts one after the other and prints one table. Each bench
// measures ours and its peer in at least five interleaved rounds (bench/rounds.ts); the table gives
// the median of each figure, the spread of the figure the target reads, and the verdict
// (bench/judge.ts): pass when every round meets the target, FAIL when none does, STRADDLES when the
// spread crosses it. `npm run bench -- order-book signing` runs only the named ones;
// `npm run bench -- --quick` runs the same rounds far shorter, to check the mechanics.
//
// Exit code 0 only when every row passes: a row that fails, straddles its target or cannot run
// fails the run. The load of the machine excuses nothing; the table states it (the CPU model, and
// the cores other processes kept busy while each bench ran, measured from outside the bench's own
// process tree: bench/machine-load.ts) so a reader can tell a slow machine from slow code.
import { cpus } from 'node:os';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { judge, type Judgement, type Verdict } from './judge';
import { describeLoad, watchLoad, type Load } from './machine-load';
import type { BenchResult } from './result';

interface BenchModule {
  /** One row, or several when a bench measures more than one shape of the same thing. */
  run(): BenchResult | BenchResult[] | Promise<BenchResult | BenchResult[]>;
}

interface Row {
  readonly file: string;
  readonly result?: BenchResult;
  readonly judgement?: Judgement;
  readonly error?: string;
  readonly verdict: Verdict;
  readonly load: Load | undefined;
}

function cell(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
}

/** Three significant digits at most, thousands separated: a table of medians, not of noise. */
export function figure(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Math.abs(value) >= 1000) return Math.round(value).toLocaleString('en-US');
  return String(Number(value.toPrecision(3)));
}

function verdictText(row: Row): string {
  if (row.verdict === 'ERROR') return `ERROR: ${row.error ?? row.judgement?.problem ?? ''}`;
  const judgement = row.judgement;
  return judgement === undefined ? row.verdict : `${row.verdict} (${judgement.met}/${judgement.rounds})`;
}

async function main(): Promise<void> {
  const folder = dirname(fileURLToPath(import.meta.url));
  const args = process.argv.slice(2);
  if (args.includes('--quick')) process.env.LT_BENCH_QUICK = '1';
  const only = args.filter((arg) => !arg.startsWith('--'));
  const files = readdirSync(folder)
    .filter((file) => file.endsWith('.bench.ts'))
    .filter((file) => only.length === 0 || only.some((name) => file.startsWith(name)))
    .sort();
  const watch = watchLoad();
  const runStart = watch.mark();
  const rows: Row[] = [];
  for (const file of files) {
    process.stderr.write(`running ${file} …\n`);
    const before = watch.mark();
    try {
      const module = (await import(pathToFileURL(join(folder, file)).href)) as Partial<BenchModule>;
      if (typeof module.run !== 'function') throw new Error('exports no run()');
      const produced = await module.run();
      const load = watch.between(before, watch.mark());
      for (const result of Array.isArray(produced) ? produced : [produced]) {
        const judgement = judge(result);
        rows.push({ file, result, judgement, verdict: judgement.verdict, load });
      }
    } catch (error) {
      rows.push({ file, error: error instanceof Error ? error.message : String(error), verdict: 'ERROR', load: watch.between(before, watch.mark()) });
    }
  }
  const runLoad = watch.between(runStart, watch.mark());
  watch.stop();

  const cores = cpus().length;
  const header = `${cell('benchmark', 60)} ${cell('unit', 9)} ${cell('ours', 9)} ${cell('peer', 9)} ${cell('ratio', 7)} ${cell('spread (judged)', 17)} ${cell('target', 18)} ${cell('other load', 10)} result`;
  const lines = [
    `CPU: ${cpus()[0]?.model ?? 'unknown'}, ${cores} cores; node ${process.version}; ${describeLoad(runLoad)} over the whole run (the bench's own processes excluded)${process.env.LT_BENCH_QUICK === '1' ? '; --quick: short rounds, not the benches\' figures' : ''}`,
    '',
    header,
    '-'.repeat(header.length),
  ];
  const notes: string[] = [];
  for (const row of rows) {
    const load = row.load === undefined ? '?' : `${row.load.other.toFixed(1)}/${row.load.cores}`;
    if (row.result === undefined || row.judgement === undefined) {
      lines.push(`${cell(row.file, 60)} ${cell('', 9)} ${cell('', 9)} ${cell('', 9)} ${cell('', 7)} ${cell('', 17)} ${cell('', 18)} ${cell(load, 10)} ${verdictText(row)}`);
      continue;
    }
    const { result, judgement } = row;
    const spread = `${figure(judgement.spread.min)}–${figure(judgement.spread.max)}`;
    lines.push(
      `${cell(result.name, 60)} ${cell(result.unit, 9)} ${cell(figure(judgement.ours), 9)} ${cell(figure(judgement.peer), 9)} ${cell(`${figure(judgement.ratio)}x`, 7)} ${cell(spread, 17)} ${cell(result.target, 18)} ${cell(load, 10)} ${verdictText(row)}`,
    );
    const perRound = result.rounds.map((round) => `${figure(round.ours)}/${figure(round.peer)}${round.judged === undefined ? '' : ` (${figure(round.judged)})`}${round.conditions === false ? ' (condition missed)' : ''}`).join(', ');
    notes.push(
      `${row.file}: ${result.name}; target ${result.target}; judged figure median ${figure(judgement.judged)}, min–max ${spread}, interquartile ${figure(judgement.spread.q1)}–${figure(judgement.spread.q3)}; ` +
        `rounds (ours/peer): ${perRound}; ${describeLoad(row.load)}${row.load === undefined ? '' : ` (own ${row.load.own.toFixed(1)})`}${result.notes === undefined ? '' : `; ${result.notes}`}`,
    );
  }
  process.stdout.write(
    `${lines.join('\n')}\n\n` +
      'ours, peer, ratio: medians over the rounds (ratio: how many times better ours is, throughput ours/peer, latency peer/ours, per round). ' +
      'spread: min–max over the rounds of the figure the target reads (the ratio, or our figure). result: pass when every round meets the target, FAIL when none does, STRADDLES when some do (met/rounds). ' +
      `other load: cores other processes kept busy while the bench ran, of ${cores}.\n${notes.join('\n')}\n`,
  );
  if (rows.some((row) => row.verdict !== 'pass')) process.exitCode = 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
