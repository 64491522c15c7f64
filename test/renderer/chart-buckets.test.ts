// The chart's weekly and monthly buckets against the spec's own words, not the sandbox's code:
//
// exchange-api 4.1: "`resolution` values: `1m`, `5m`, `15m`, `30m`, `1h`, `4h`, `12h`, `1d`, `1w`, `1M`."
// exchange-api 2.1: "| Bars `from` / `to` | Unix milliseconds. |"
// exchange-api 2.5: "Bars: OHLCV candles."
//
// The spec names a week and a month but shows no alignment. Its words make `1w` seven days and `1M`
// a month, which a fixed width cannot be: a month is 28 to 31 days, so `1M` is the calendar month,
// and the week is then the calendar week of the same calendar, from Monday 00:00 UTC (ISO 8601), not
// a multiple of 7 days since the epoch (a Thursday). Main folds trades into bars with this reading
// (test/unit/main/services/market-data/bars.test.ts); the chart must find the bar of a time, and
// the bar the present falls in, the same way, or a weekly chart ends on a Thursday no bar starts on.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { barOpenTime, chartTimeRange } from '../../renderer/src/features/chart/bars-model';
import { checkProperty } from '../support/property';

const DAY = 86_400_000;

describe('1w: the calendar week from Monday 00:00 UTC', () => {
  it('starts on the Monday before, across a month and a year', () => {
    // Friday 2026-11-27 → Monday 2026-11-23.
    expect(barOpenTime(Date.UTC(2026, 10, 27, 13, 47), '1w')).toBe(Date.UTC(2026, 10, 23));
    // Monday 00:00 is its own week's first millisecond; Sunday's last belongs to the week before.
    expect(barOpenTime(Date.UTC(2026, 10, 23), '1w')).toBe(Date.UTC(2026, 10, 23));
    expect(barOpenTime(Date.UTC(2026, 10, 29, 23, 59, 59, 999), '1w')).toBe(Date.UTC(2026, 10, 23));
    expect(barOpenTime(Date.UTC(2026, 10, 30), '1w')).toBe(Date.UTC(2026, 10, 30));
    // Tuesday 2026-12-01 → Monday 2026-11-30 (the week crosses the month).
    expect(barOpenTime(Date.UTC(2026, 11, 1, 8), '1w')).toBe(Date.UTC(2026, 10, 30));
    // Friday 2027-01-01 → Monday 2026-12-28 (the week crosses the year).
    expect(barOpenTime(Date.UTC(2027, 0, 1, 6), '1w')).toBe(Date.UTC(2026, 11, 28));
  });

  it('is not a multiple of seven days since the epoch (a Thursday)', () => {
    const start = barOpenTime(Date.UTC(2026, 10, 27), '1w');
    expect(start % (7 * DAY)).not.toBe(0);
    expect(new Date(start).getUTCDay()).toBe(1);
  });

  it('holds every time in the seven days from its Monday (property)', () => {
    checkProperty(
      fc.property(fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2100, 0, 1) }), (time) => {
        const start = barOpenTime(time, '1w');
        const date = new Date(start);
        expect(date.getUTCDay()).toBe(1);
        expect([date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds(), date.getUTCMilliseconds()]).toEqual([0, 0, 0, 0]);
        expect(start <= time && time < start + 7 * DAY).toBe(true);
      }),
    );
  });
});

describe('1M: the calendar month from the first, 00:00 UTC', () => {
  it('starts on the first whatever the month’s length', () => {
    expect(barOpenTime(Date.UTC(2026, 10, 27, 13), '1M')).toBe(Date.UTC(2026, 10, 1));
    // February of a common year (28 days) and of a leap year (29).
    expect(barOpenTime(Date.UTC(2026, 1, 28, 23, 59, 59, 999), '1M')).toBe(Date.UTC(2026, 1, 1));
    expect(barOpenTime(Date.UTC(2026, 2, 1), '1M')).toBe(Date.UTC(2026, 2, 1));
    expect(barOpenTime(Date.UTC(2028, 1, 29, 12), '1M')).toBe(Date.UTC(2028, 1, 1));
    // The 31st of a 31-day month, and the year's turn.
    expect(barOpenTime(Date.UTC(2026, 11, 31, 23, 59, 59, 999), '1M')).toBe(Date.UTC(2026, 11, 1));
    expect(barOpenTime(Date.UTC(2027, 0, 1), '1M')).toBe(Date.UTC(2027, 0, 1));
  });

  it('holds every time of its calendar month and no other (property)', () => {
    checkProperty(
      fc.property(fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2100, 0, 1) }), (time) => {
        const start = new Date(barOpenTime(time, '1M'));
        const at = new Date(time);
        expect([start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate(), start.getUTCHours(), start.getUTCMinutes(), start.getUTCSeconds(), start.getUTCMilliseconds()]).toEqual([at.getUTCFullYear(), at.getUTCMonth(), 1, 0, 0, 0, 0]);
      }),
    );
  });
});

describe('the bar the present falls in', () => {
  it('ends a weekly chart two bars after this Monday’s bar, not a Thursday', () => {
    const now = Date.UTC(2026, 10, 27, 9); // Friday
    const [, end] = chartTimeRange(Date.UTC(2026, 0, 5), Date.UTC(2026, 10, 16), now, '1w');
    expect(end).toBe(Date.UTC(2026, 10, 23) / 1000 + 2 * 7 * 86_400);
  });

  it('ends a monthly chart after this month’s bar, from the first', () => {
    const now = Date.UTC(2026, 10, 27, 9);
    const [, end] = chartTimeRange(Date.UTC(2024, 0, 1), Date.UTC(2026, 8, 1), now, '1M');
    expect(end).toBe(Date.UTC(2026, 10, 1) / 1000 + 2 * 31 * 86_400);
  });
});
