// The chart's studies from the venue's bars (the bars the candles are drawn from, at every
// resolution): two moving averages of the close and the session VWAP. Every value is exact
// arithmetic on the raw units (bigint) rounded half away from zero to the market's shown
// precision, so the legend's figures are what a pencil gives; the drawing converts them to floats.
// Pure: test/renderer/chart-studies.test.ts.
import type { BarView, Resolution } from '../../../../shared/ipc/views';
import type { MarketRules } from '../../../../shared/market/market';
import type { MovingAverageSetting } from '../../../../shared/chart/chart-studies';

/** Per bar (same order as the bars): each average's value and the VWAP, null where not yet defined. */
export interface StudyValues {
  readonly averages: readonly [readonly (bigint | null)[], readonly (bigint | null)[]];
  readonly vwap: readonly (bigint | null)[];
}

/**
 * Where a VWAP session starts, for a bar's open time (ms): the UTC day below `1d`; on `1d` bars the
 * UTC month, on `1w` and `1M` bars the UTC year (a session of one bar would just be its typical price).
 */
export type VwapSession = 'UTC day' | 'UTC month' | 'UTC year';

export function vwapSession(resolution: Resolution): VwapSession {
  if (resolution === '1d') return 'UTC month';
  if (resolution === '1w' || resolution === '1M') return 'UTC year';
  return 'UTC day';
}

export function sessionStart(time: number, session: VwapSession): number {
  const date = new Date(time);
  if (session === 'UTC year') return Date.UTC(date.getUTCFullYear(), 0, 1);
  if (session === 'UTC month') return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
}

/** The raw step of the market's shown price precision (quote.max_precision decimals). */
export function shownStep(market: MarketRules): bigint {
  const shown = Math.max(0, Math.min(market.quote.decimals, market.quote.max_precision));
  return 10n ** BigInt(market.quote.decimals - shown);
}

/** numerator / denominator (denominator > 0) rounded half away from zero to a multiple of `step`. */
export function roundToStep(numerator: bigint, denominator: bigint, step: bigint): bigint {
  const divisor = denominator * step;
  const magnitude = numerator < 0n ? -numerator : numerator;
  const quotient = (magnitude * 2n + divisor) / (divisor * 2n);
  return (numerator < 0n ? -quotient : quotient) * step;
}

/** Simple moving average of the close over `length` bars: the exact mean, rounded once. */
export function simpleAverage(closes: readonly bigint[], length: number, step: bigint): (bigint | null)[] {
  const values: (bigint | null)[] = [];
  let sum = 0n;
  for (let index = 0; index < closes.length; index++) {
    sum += closes[index]!;
    if (index >= length) sum -= closes[index - length]!;
    values.push(index >= length - 1 ? roundToStep(sum, BigInt(length), step) : null);
  }
  return values;
}

/**
 * Fixed point of the exponential average: 10^-18 of a raw unit. Each step rounds there (at most
 * half of it), so after the 5,000 bars a chart can hold the error is under 10^-14 of a raw unit:
 * it can change a shown figure only on an exact tie of the rounding.
 */
const EMA_SCALE = 10n ** 18n;

/**
 * Exponential moving average of the close, weight 2 / (length + 1), seeded with the simple
 * average of the first `length` closes (defined from that bar on, like the simple one).
 */
export function exponentialAverage(closes: readonly bigint[], length: number, step: bigint): (bigint | null)[] {
  const values: (bigint | null)[] = [];
  const weightDenominator = BigInt(length + 1);
  let seed = 0n;
  let average: bigint | null = null;
  for (let index = 0; index < closes.length; index++) {
    const close = closes[index]! * EMA_SCALE;
    if (average === null) {
      seed += close;
      if (index === length - 1) average = roundToStep(seed, BigInt(length), 1n);
    } else {
      average += roundToStep((close - average) * 2n, weightDenominator, 1n);
    }
    values.push(average === null ? null : roundToStep(average, EMA_SCALE, step));
  }
  return values;
}

/**
 * The session VWAP at each bar: Σ typical × volume / Σ volume over the bars of its session so far,
 * the typical price of a bar (high + low + close) / 3 (the venue gives bars, not each trade).
 * Null while the session has no volume.
 */
export function sessionVwap(bars: readonly BarView[], session: VwapSession, step: bigint): (bigint | null)[] {
  const values: (bigint | null)[] = [];
  let current: number | null = null;
  let weighted = 0n;
  let volume = 0n;
  for (const bar of bars) {
    const start = sessionStart(bar.time, session);
    if (start !== current) {
      current = start;
      weighted = 0n;
      volume = 0n;
    }
    weighted += (bar.high + bar.low + bar.close) * bar.volume;
    volume += bar.volume;
    values.push(volume > 0n ? roundToStep(weighted, volume * 3n, step) : null);
  }
  return values;
}

function average(closes: readonly bigint[], setting: MovingAverageSetting, step: bigint): (bigint | null)[] {
  return setting.kind === 'SMA' ? simpleAverage(closes, setting.length, step) : exponentialAverage(closes, setting.length, step);
}

export function studyValues(market: MarketRules, bars: readonly BarView[], resolution: Resolution, averages: readonly [MovingAverageSetting, MovingAverageSetting]): StudyValues {
  const step = shownStep(market);
  const closes = bars.map((bar) => bar.close);
  return { averages: [average(closes, averages[0], step), average(closes, averages[1], step)], vwap: sessionVwap(bars, vwapSession(resolution), step) };
}

/** A study's label in the legend: "EMA 20", "SMA 50". */
export function averageLabel(setting: MovingAverageSetting): string {
  return `${setting.kind} ${setting.length}`;
}
