// The chart's exact price axis: pixels to raw prices and back in bigint, a drag snapped onto the
// price step, and the axis labels (market decimals, thousands separators, 24-hour clock).
import { describe, expect, it } from 'vitest';
import {
  dragPrice,
  offsetOfPrice,
  priceAtOffset,
  priceAxisLabels,
  priceIncrements,
  priceScale,
  rawFromDrawing,
  snapToTick,
  timeAxisLabels,
} from '../../renderer/src/features/chart/chart-geometry';
import { ethUsdc } from '../support/renderer/fixtures';

const USDC = 1_000_000n;

describe('chart price scale in raw units', () => {
  // 3,000.00 at the top, 2,900.00 at the bottom, over 400 px: 0.25 USDC a pixel.
  const scale = priceScale(2900, 3000, 400, 6)!;

  it('reads uPlot float ends as exact raw units', () => {
    expect(scale).toEqual({ top: 3000n * USDC, bottom: 2900n * USDC, height: 400 });
    expect(rawFromDrawing(2999.99, 6)).toBe(2_999_990_000n);
    expect(rawFromDrawing(0.1 + 0.2, 6)).toBe(300_000n);
    expect(rawFromDrawing(-0.5, 6)).toBe(-500_000n);
    expect(rawFromDrawing(Number.NaN, 6)).toBeNull();
    expect(priceScale(null, 1, 100, 6)).toBeNull();
    expect(priceScale(2, 1, 100, 6)).toBeNull();
    expect(priceScale(1, 2, 0, 6)).toBeNull();
  });

  it('maps pixels to prices exactly, and prices back to the same pixels', () => {
    expect(priceAtOffset(scale, 0)).toBe(3000n * USDC);
    expect(priceAtOffset(scale, 400)).toBe(2900n * USDC);
    expect(priceAtOffset(scale, 1)).toBe(2_999_750_000n);
    // A fraction of a pixel (a pointer on a HiDPI screen) is kept to a thousandth.
    expect(priceAtOffset(scale, 0.5)).toBe(2_999_875_000n);
    // Rounded half away from zero at the raw unit: 100 USDC over 3 px.
    const thirds = priceScale(0, 100, 3, 6)!;
    expect(priceAtOffset(thirds, 1)).toBe(66_666_667n);
    for (const y of [0, 1, 37, 200, 399.5, 400]) expect(offsetOfPrice(scale, priceAtOffset(scale, y))).toBeCloseTo(y, 6);
    expect(offsetOfPrice(scale, 2950n * USDC)).toBe(200);
    // Prices off the visible range map off the plot (the label is then held at the edge).
    expect(offsetOfPrice(scale, 3100n * USDC)).toBe(-400);
  });

  it('keeps exact prices where a float would not: 18-decimal quotes at large values', () => {
    const wide = { top: 10n ** 24n + 10n ** 18n, bottom: 10n ** 24n, height: 1000 };
    // One pixel is 10^15 raw units exactly; floats cannot tell 10^24 + 10^15 from 10^24.
    expect(priceAtOffset(wide, 999)).toBe(10n ** 24n + 10n ** 15n);
  });

  it('snaps to the nearest tick, halves up, never below one tick', () => {
    const tick = 10_000n;
    expect(snapToTick(3_000_004_999n, tick)).toBe(3_000_000_000n);
    expect(snapToTick(3_000_005_000n, tick)).toBe(3_000_010_000n);
    expect(snapToTick(3_000_009_999n, tick)).toBe(3_000_010_000n);
    expect(snapToTick(3_000_000_000n, tick)).toBe(3_000_000_000n);
    expect(snapToTick(1n, tick)).toBe(tick);
    expect(snapToTick(-20_000n, tick)).toBe(tick);
  });

  it('moves a dragged line by what the pointer moved, onto the price step', () => {
    const from = 2_950_120_000n;
    // Grabbed at y = 200 (not where the line is: the label is a few px tall), moved 10 px down: -2.50 USDC.
    expect(dragPrice(ethUsdc, scale, from, 200, 210)).toBe(2_947_620_000n);
    // 1.3 px up: +0.325 USDC, snapped to 0.33 (step 0.01).
    expect(dragPrice(ethUsdc, scale, from, 200, 198.7)).toBe(2_950_450_000n);
    // Not moved: the same price (nothing is sent).
    expect(dragPrice(ethUsdc, scale, from, 200, 200)).toBe(from);
    // Far below zero: held at one step.
    expect(dragPrice(ethUsdc, scale, from, 0, 100_000)).toBe(10_000n);
    // Every result is on the step.
    for (let y = 0; y < 400; y += 7.3) expect(dragPrice(ethUsdc, scale, from, 13, y) % 10_000n).toBe(0n);
  });
});

describe('chart axes', () => {
  it('labels prices with the market decimals and thousands separators', () => {
    expect(priceAxisLabels(ethUsdc, [2990, 2995.5, 3000, 12_345.67])).toEqual(['2,990.00', '2,995.50', '3,000.00', '12,345.67']);
    expect(priceAxisLabels(ethUsdc, [0.1 + 0.2])).toEqual(['0.30']);
  });

  it('steps gridlines on whole price steps only', () => {
    const steps = priceIncrements(ethUsdc);
    expect(steps.slice(0, 4)).toEqual([0.01, 0.02, 0.025, 0.05]);
    expect(steps).toContain(1);
    expect(steps).toContain(25);
    expect(Math.min(...steps)).toBe(0.01);
  });

  it('labels time on a 24-hour clock, with the date where a day starts', () => {
    const at = (hours: number, minutes: number, day = 26) => new Date(2026, 10, day, hours, minutes).getTime() / 1000;
    expect(timeAxisLabels([at(13, 0), at(13, 30), at(14, 0), at(23, 30), at(0, 0, 27)])).toEqual(['26 Nov 13:00', '13:30', '14:00', '23:30', '27 Nov 00:00']);
    for (const label of timeAxisLabels([at(18, 0), at(19, 0)])) expect(label).not.toMatch(/am|pm/i);
    // Seconds only under a minute apart.
    expect(timeAxisLabels([at(13, 0), at(13, 0) + 15])).toEqual(['26 Nov 13:00:00', '13:00:15']);
    // Days apart: dates only, the year on the first.
    expect(timeAxisLabels([at(0, 0, 25), at(0, 0, 26)])).toEqual(['25 Nov 2026', '26 Nov']);
  });
});
