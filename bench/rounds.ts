// Interleaved rounds, the one method every bench measures with: in each round every contender
// (ours, the peer, and any figure shown beside them) runs once, the order rotating round by round
// so none always goes first (with two: ours, peer; peer, ours; …). A burst of other work on the
// machine then falls on both sides of a round, and the ratio of each round compares two
// measurements of the same moments. bench/judge.ts judges the median and the spread of the rounds.

/** The rounds every bench runs at least (bench/judge.ts refuses a row with fewer). */
export const ROUNDS = 5;

/**
 * `npm run bench -- --quick` (LT_BENCH_QUICK=1): the same rounds, each far shorter, to check the
 * mechanics; its figures are not the benches' figures.
 */
export function quick(): boolean {
  return process.env.LT_BENCH_QUICK === '1';
}

/** A bench's per-round size: `full` normally, `short` under --quick. */
export function sized(full: number, short: number): number {
  return quick() ? short : full;
}

/** The order of the contenders in round `round`: rotated by one each round. */
export function roundOrder<K extends string>(names: readonly K[], round: number): K[] {
  const start = round % Math.max(1, names.length);
  return [...names.slice(start), ...names.slice(0, start)];
}

/** `rounds` rounds of every contender, interleaved; each contender's figures in round order. */
export function interleave<K extends string, T>(rounds: number, contenders: Record<K, (round: number) => T>): Record<K, T[]> {
  const names = Object.keys(contenders) as K[];
  const figures = Object.fromEntries(names.map((name) => [name, [] as T[]])) as Record<K, T[]>;
  for (let round = 0; round < rounds; round++) {
    for (const name of roundOrder(names, round)) figures[name].push(contenders[name](round));
  }
  return figures;
}

/** The same for contenders that measure asynchronously (pages in a browser). */
export async function interleaveAsync<K extends string, T>(rounds: number, contenders: Record<K, (round: number) => Promise<T>>): Promise<Record<K, T[]>> {
  const names = Object.keys(contenders) as K[];
  const figures = Object.fromEntries(names.map((name) => [name, [] as T[]])) as Record<K, T[]>;
  for (let round = 0; round < rounds; round++) {
    for (const name of roundOrder(names, round)) figures[name].push(await contenders[name](round));
  }
  return figures;
}

/** Pair two contenders' figures round by round into rows' rounds. */
export function paired<T>(ours: readonly T[], peer: readonly T[], figure: (side: T) => number): { ours: number; peer: number }[] {
  return ours.map((mine, index) => ({ ours: figure(mine), peer: figure(peer[index] as T) }));
}
