// One row of a benchmark's result, as every bench/*.bench.ts returns it and bench/run.ts judges
// and prints it: the figures of each round, ours and the peer's measured in the same round
// (bench/rounds.ts interleaves them). The runner computes the medians, the ratio, the spread and
// the verdict (bench/judge.ts); a bench reports rounds, never a verdict of its own.
export interface BenchRound {
  /** Our figure in this round, in the row's unit. */
  readonly ours: number;
  /** The peer's figure in the same round (NaN when the row has no peer). */
  readonly peer: number;
  /**
   * The figure an absolute target reads when it is not `ours` (the order path judges its time
   * above this round's floor, and shows the absolute time as `ours`).
   */
  readonly judged?: number;
  /**
   * Conditions of the target that one figure cannot carry (the ladder: no frame missed by its own
   * work), held or not in this round. A round whose conditions fail misses the target.
   */
  readonly conditions?: boolean;
}

export interface BenchResult {
  readonly name: string;
  readonly unit: string;
  /** Which way is better: a rate is 'higher' (ratio ours/peer), a time is 'lower' (ratio peer/ours). */
  readonly better: 'higher' | 'lower';
  /**
   * `<op> <number> x …` judges the per-round ratio (how many times better ours is than the peer);
   * `<op> <number> …` without `x` judges the per-round figure (`judged`, else `ours`).
   */
  readonly target: string;
  /** At least five, each a measurement of ours and the peer interleaved (bench/rounds.ts). */
  readonly rounds: readonly BenchRound[];
  readonly notes?: string;
  readonly details?: Record<string, unknown>;
}
