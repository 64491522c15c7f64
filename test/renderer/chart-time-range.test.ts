// The chart's time axis runs to the present: a book with no trade for half an hour (a Turbo book
// just attached) must not show its axis ending at its last bar, as if that were now.
import { describe, expect, it } from 'vitest';
import { chartTimeRange } from '../../renderer/src/features/chart/bars-model';

const MINUTE = 60;
const at = (hh: number, mm: number, ss = 0) => Date.UTC(2026, 10, 26, hh, mm, ss);

describe('the chart time range', () => {
  it('ends two bars after the bar the current time falls in when the last trade is older', () => {
    const [, end] = chartTimeRange(at(6, 20), at(6, 58), at(7, 30, 42), '1m');
    expect(end).toBe(at(7, 30) / 1000 + 2 * MINUTE);
  });

  it('ends two bars after the last bar while trades are current (the same as before)', () => {
    const [start, end] = chartTimeRange(at(6, 0), at(7, 30), at(7, 30, 10), '1m');
    expect(end).toBe(at(7, 30) / 1000 + 2 * MINUTE);
    expect(end - start).toBe(90 * MINUTE);
  });

  it('at least forty bars wide', () => {
    const [start, end] = chartTimeRange(at(7, 29), at(7, 30), at(7, 30, 5), '1m');
    expect(end - start).toBe(40 * MINUTE);
  });
});
