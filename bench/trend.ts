// The soak's judgement of a series sampled over a long run: a least-squares line through the points
// after the warm-up, its slope per hour with its standard error, and as a percentage of the level
// at the end of the warm-up. Growth is a slope that is positive, more than three standard errors
// from zero (a trend, not noise) and above the series' allowance per hour.

export interface Point {
  readonly minutes: number;
  readonly value: number;
}

export interface Trend {
  readonly name: string;
  readonly unit: string;
  readonly points: number;
  /** The level at the end of the warm-up (the first point after it). */
  readonly level: number;
  readonly last: number;
  readonly perHour: number;
  readonly percentPerHour: number;
  readonly standardError: number;
  readonly grows: boolean;
}

/** Least squares through the points after the warm-up: slope per hour, its standard error, and whether that is growth. */
export function trendOf(name: string, unit: string, series: readonly Point[], warmupMinutes: number, allowance: number): Trend {
  const points = series.filter((point) => point.minutes >= warmupMinutes);
  const n = points.length;
  const level = points[0]?.value ?? Number.NaN;
  const last = points.at(-1)?.value ?? Number.NaN;
  if (n < 3) return { name, unit, points: n, level, last, perHour: Number.NaN, percentPerHour: Number.NaN, standardError: Number.NaN, grows: false };
  const meanX = points.reduce((sum, point) => sum + point.minutes, 0) / n;
  const meanY = points.reduce((sum, point) => sum + point.value, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (const point of points) {
    sxx += (point.minutes - meanX) ** 2;
    sxy += (point.minutes - meanX) * (point.value - meanY);
  }
  const slope = sxx === 0 ? 0 : sxy / sxx; // per minute
  const residual = points.reduce((sum, point) => sum + (point.value - (meanY + slope * (point.minutes - meanX))) ** 2, 0);
  const standardError = sxx === 0 ? 0 : Math.sqrt(residual / (n - 2) / sxx) * 60;
  const perHour = slope * 60;
  const percentPerHour = level === 0 ? (perHour > 0 ? Number.POSITIVE_INFINITY : 0) : (perHour / level) * 100;
  const grows = perHour > 0 && perHour > 3 * standardError && percentPerHour > allowance * 100;
  return { name, unit, points: n, level, last, perHour, percentPerHour, standardError, grows };
}
