// One row of a benchmark's result, as every bench/*.bench.ts returns it and bench/run.ts prints and
// judges it: our figure against a peer measured in the same run.
export interface BenchResult {
  readonly name: string;
  readonly unit: string;
  readonly ours: number;
  readonly peer: number;
  readonly ratio: number;
  readonly target: string;
  readonly notes?: string;
  /** A benchmark that judges its own target (several conditions) says so here. */
  readonly pass?: boolean;
  readonly details?: Record<string, unknown>;
}
