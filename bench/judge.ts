// How bench/run.ts judges a row from its rounds: the median of each figure, the spread (min–max
// and the interquartile range) of the figure the target reads, and the verdict. A row passes when
// every round meets its target (the whole spread is on the right side), fails when none does, and
// STRADDLES when its spread crosses the target: then the figure depends on the run, and the row
// says so instead of passing or failing on luck. The load of the machine never excuses a miss.
import type { BenchResult, BenchRound } from './result';

/** Fewer rounds than this cannot show a spread worth judging: the row is an error. */
export const MIN_ROUNDS = 5;

export type Verdict = 'pass' | 'FAIL' | 'STRADDLES' | 'ERROR';

type Operator = '<' | '<=' | '>' | '>=';

export interface Target {
  readonly operator: Operator;
  readonly bound: number;
  /** True when the bound is on the ratio to the peer (`… x`), false when on the figure itself. */
  readonly ratio: boolean;
}

export interface Spread {
  readonly min: number;
  readonly max: number;
  /** First and third quartiles (interpolated). */
  readonly q1: number;
  readonly q3: number;
}

export interface Judgement {
  readonly ours: number;
  readonly peer: number;
  readonly ratio: number;
  /** The median of the figure the target reads (the ratio, or `judged`/`ours`). */
  readonly judged: number;
  readonly spread: Spread;
  /** Rounds that met the target, of all rounds. */
  readonly met: number;
  readonly rounds: number;
  readonly verdict: Verdict;
  /** Why the verdict is ERROR. */
  readonly problem?: string;
}

const OPERATORS: Record<string, Operator> = { '<': '<', '<=': '<=', '≤': '<=', '>': '>', '>=': '>=', '≥': '>=' };

/** `<op> <number>[x] …`: with `x` (or `×`) the bound applies to the ratio, otherwise to the figure. */
export function parseTarget(target: string): Target | null {
  const match = /(>=|<=|≥|≤|>|<)\s*([0-9][0-9_,.]*)\s*(x|×)?/.exec(target);
  if (match === null) return null;
  const operator = OPERATORS[match[1] ?? ''];
  const bound = Number((match[2] ?? '').replace(/[_,]/g, ''));
  if (operator === undefined || !Number.isFinite(bound)) return null;
  return { operator, bound, ratio: match[3] !== undefined };
}

/** A target judged on the ratio to the peer (`… x …`), as opposed to an absolute figure. */
export function isRatioTarget(target: string): boolean {
  return parseTarget(target)?.ratio ?? false;
}

export function meets(value: number, target: Target): boolean {
  if (!Number.isFinite(value)) return false;
  switch (target.operator) {
    case '<':
      return value < target.bound;
    case '<=':
      return value <= target.bound;
    case '>':
      return value > target.bound;
    case '>=':
      return value >= target.bound;
  }
}

/** The quantile at `fraction` (0..1) with linear interpolation between neighbours; NaN when empty. */
export function quantile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const position = (sorted.length - 1) * fraction;
  const below = Math.floor(position);
  const above = Math.ceil(position);
  const low = sorted[below] as number;
  const high = sorted[above] as number;
  return low + (high - low) * (position - below);
}

export const median = (values: readonly number[]): number => quantile(values, 0.5);

export function spreadOf(values: readonly number[]): Spread {
  if (values.length === 0) return { min: Number.NaN, max: Number.NaN, q1: Number.NaN, q3: Number.NaN };
  return { min: Math.min(...values), max: Math.max(...values), q1: quantile(values, 0.25), q3: quantile(values, 0.75) };
}

/** How many times better ours is than the peer in one round: a rate ours/peer, a time peer/ours. */
export function roundRatio(round: BenchRound, better: BenchResult['better']): number {
  return better === 'higher' ? round.ours / round.peer : round.peer / round.ours;
}

/** The verdict from how many rounds met the target. */
export function verdictOf(met: number, rounds: number): Exclude<Verdict, 'ERROR'> {
  if (met === rounds) return 'pass';
  if (met === 0) return 'FAIL';
  return 'STRADDLES';
}

export function judge(result: BenchResult): Judgement {
  const rounds = result.rounds;
  const ratios = rounds.map((round) => roundRatio(round, result.better));
  const target = parseTarget(result.target);
  const figures = rounds.map((round, index) => (target?.ratio === true ? (ratios[index] as number) : (round.judged ?? round.ours)));
  const met = target === null ? 0 : rounds.filter((round, index) => meets(figures[index] as number, target) && round.conditions !== false).length;
  const base = {
    ours: median(rounds.map((round) => round.ours)),
    peer: median(rounds.map((round) => round.peer)),
    ratio: median(ratios),
    judged: median(figures),
    spread: spreadOf(figures),
    met,
    rounds: rounds.length,
  };
  const problem =
    rounds.length < MIN_ROUNDS
      ? `${rounds.length} rounds, at least ${MIN_ROUNDS} are needed`
      : target === null
        ? `the target "${result.target}" cannot be read`
        : figures.some((figure) => !Number.isFinite(figure))
          ? `a round has no ${target.ratio ? 'ratio' : 'figure'} (${figures.join(', ')})`
          : undefined;
  if (problem !== undefined) return { ...base, verdict: 'ERROR', problem };
  return { ...base, verdict: verdictOf(met, rounds.length) };
}
