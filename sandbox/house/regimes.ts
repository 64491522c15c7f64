// Scripted market regimes of the house maker: how its mid walks at each quote step, how often it
// quotes, how much the house takes and how deep it quotes. `normal` is the walk the maker always
// had (±0.1 % a step); the others let a trader or a test practise against a calm, a trending, a
// fast or a thin market. Every move is drawn from the sandbox's seeded random: a regime replays
// exactly from --seed.
import { FULL_PPM, type LadderShape } from './depth-profile';

export const MAKER_REGIMES = ['normal', 'quiet', 'trending-up', 'trending-down', 'fast', 'thin'] as const;
export type MakerRegimeName = (typeof MAKER_REGIMES)[number];

export interface Regime {
  /** A step's random move is uniform in ±noisePpm of the mid. */
  readonly noisePpm: number;
  /** Added to every step's move, in ppm of the mid (a trend). */
  readonly driftPpm: number;
  /** Time between quote steps, in ms. */
  readonly quoteIntervalMs: number;
  /** House takes per second are the --maker-rate times this. */
  readonly takeRateFactor: number;
  /** A house take is up to this many times the inside level's size (realistic book). */
  readonly takeSizeFactor: number;
  /** Share of the profile's levels quoted, in ppm (at least 3 levels). */
  readonly levelsPpm: bigint;
  /** Share of the profile's sizes quoted, in ppm. */
  readonly sizePpm: bigint;
}

export const REGIMES: Readonly<Record<MakerRegimeName, Regime>> = {
  normal: { noisePpm: 1000, driftPpm: 0, quoteIntervalMs: 2000, takeRateFactor: 1, takeSizeFactor: 1.5, levelsPpm: FULL_PPM, sizePpm: FULL_PPM },
  quiet: { noisePpm: 200, driftPpm: 0, quoteIntervalMs: 2000, takeRateFactor: 0.25, takeSizeFactor: 0.5, levelsPpm: FULL_PPM, sizePpm: FULL_PPM },
  // The drift outweighs the noise: every step moves the mid the trend's way, by 0.02 % to 0.08 %.
  'trending-up': { noisePpm: 300, driftPpm: 500, quoteIntervalMs: 2000, takeRateFactor: 1, takeSizeFactor: 1.5, levelsPpm: FULL_PPM, sizePpm: FULL_PPM },
  'trending-down': { noisePpm: 300, driftPpm: -500, quoteIntervalMs: 2000, takeRateFactor: 1, takeSizeFactor: 1.5, levelsPpm: FULL_PPM, sizePpm: FULL_PPM },
  fast: { noisePpm: 4000, driftPpm: 0, quoteIntervalMs: 500, takeRateFactor: 4, takeSizeFactor: 4, levelsPpm: FULL_PPM, sizePpm: FULL_PPM },
  thin: { noisePpm: 1000, driftPpm: 0, quoteIntervalMs: 2000, takeRateFactor: 0.5, takeSizeFactor: 1, levelsPpm: 150_000n, sizePpm: 100_000n },
};

/** A step's move in ppm of the mid from one uniform draw in [0, 1): the normal regime's is the maker's original walk. */
export function stepPpm(regime: Regime, draw: number): bigint {
  return BigInt(Math.round((draw - 0.5) * (2 * regime.noisePpm)) + regime.driftPpm);
}

/** The profile's shape as the regime quotes it (thin: fewer levels, smaller sizes). */
export function regimeShape(shape: LadderShape, regime: Regime): LadderShape {
  if (regime.levelsPpm === FULL_PPM && regime.sizePpm === FULL_PPM) return shape;
  const levels = Number((BigInt(shape.levels) * regime.levelsPpm) / FULL_PPM);
  return { ...shape, levels: Math.max(3, levels), insideValue: max1((shape.insideValue * regime.sizePpm) / FULL_PPM) };
}

function max1(value: bigint): bigint {
  return value < 1n ? 1n : value;
}
