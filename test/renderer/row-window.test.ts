import { describe, expect, it } from 'vitest';
import { rowWindow } from '../../renderer/src/lib/row-window';

describe('rowWindow (a long list draws the rows in view and an overscan around them)', () => {
  const base = { scrollTop: 0, viewport: 250, bodyTop: 30, rowHeight: 25, overscan: 40 };

  it('draws a short list whole, and nothing for an empty one', () => {
    expect(rowWindow({ ...base, count: 12 })).toEqual({ start: 0, end: 12 });
    expect(rowWindow({ ...base, count: 49 })).toEqual({ start: 0, end: 49 });
    expect(rowWindow({ ...base, count: 0 })).toEqual({ start: 0, end: 0 });
  });

  it('at the top of 450 rows: the rows in view (the header above them) and 40 more', () => {
    // Rows 0..8 are in view (220 px of rows under a 30 px header), 9 rounded up, then 40 more.
    expect(rowWindow({ ...base, count: 450 })).toEqual({ start: 0, end: 49 });
  });

  it('scrolled into the middle: 40 rows above the view and 40 below it', () => {
    // scrollTop 5030: row (5030 − 30) / 25 = 200 is the first in view; 210 the last partly.
    expect(rowWindow({ ...base, scrollTop: 5030, count: 450 })).toEqual({ start: 160, end: 250 });
  });

  it('scrolled to the bottom: ends at the last row', () => {
    const bottom = 30 + 450 * 25 - 250;
    expect(rowWindow({ ...base, scrollTop: bottom, count: 450 })).toEqual({ start: 400, end: 450 });
  });

  it('stays within the list when the list shrank under a scroll position (orders cancelled)', () => {
    expect(rowWindow({ ...base, scrollTop: 5030, count: 100 })).toEqual({ start: 100, end: 100 });
    expect(rowWindow({ ...base, scrollTop: 5030, count: 170 })).toEqual({ start: 160, end: 170 });
  });

  it('uses the estimated height before a row was measured, and a bad viewport draws only the overscan', () => {
    expect(rowWindow({ ...base, rowHeight: 0, scrollTop: 5030, count: 450 })).toEqual({ start: 160, end: 250 });
    expect(rowWindow({ ...base, viewport: -5, count: 450 })).toEqual({ start: 0, end: 40 });
  });
});
