// The soak's slopes: a flat noisy series does not grow, a steady climb does, a climb within its
// allowance does not, and points of the warm-up are left out.
import { describe, expect, it } from 'vitest';
import { trendOf } from '../../../bench/trend';

const series = (values: readonly number[], everyMinutes = 1) => values.map((value, index) => ({ minutes: index * everyMinutes, value }));

describe('soak trends', () => {
  it('a flat series with noise does not grow', () => {
    const trend = trendOf('heap', 'bytes', series([100, 103, 98, 101, 99, 102, 100, 98, 103, 100]), 0, 0.05);
    expect(trend.grows).toBe(false);
    expect(Math.abs(trend.perHour)).toBeLessThan(3 * trend.standardError + 1e-9);
  });

  it('a steady climb grows: slope per hour and as a share of the warm-up level', () => {
    const trend = trendOf('heap', 'bytes', series([100, 101, 102, 103, 104, 105]), 0, 0.05);
    expect(trend.perHour).toBeCloseTo(60);
    expect(trend.percentPerHour).toBeCloseTo(60);
    expect(trend.grows).toBe(true);
  });

  it('a climb within its allowance per hour does not grow', () => {
    const trend = trendOf('frames', 'ms', series([100, 100.01, 100.02, 100.03, 100.04]), 0, 0.2);
    expect(trend.percentPerHour).toBeCloseTo(0.6);
    expect(trend.grows).toBe(false);
  });

  it('leaves the warm-up out: a fall then flat is level', () => {
    const trend = trendOf('heap', 'bytes', series([50, 80, 100, 100, 100, 100, 100]), 2, 0.05);
    expect(trend.points).toBe(5);
    expect(trend.level).toBe(100);
    expect(trend.perHour).toBe(0);
    expect(trend.grows).toBe(false);
  });

  it('too few points after the warm-up judge nothing', () => {
    expect(trendOf('heap', 'bytes', series([1, 2, 3]), 1.5, 0.05).points).toBe(1);
    expect(Number.isNaN(trendOf('heap', 'bytes', series([1, 2, 3]), 1.5, 0.05).perHour)).toBe(true);
  });
});
