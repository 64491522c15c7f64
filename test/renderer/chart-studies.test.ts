// The chart's studies in exact arithmetic: moving averages of the close and the session VWAP,
// rounded half away from zero to the market's shown precision. Known answers worked by hand, and
// properties against a rational reference (the mean and the weighted mean as fractions).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BarView } from '../../shared/ipc/views';
import { exponentialAverage, roundToStep, sessionStart, sessionVwap, shownStep, simpleAverage, studyValues, vwapSession } from '../../renderer/src/features/chart/studies';
import { parseAverageLength } from '../../shared/chart/chart-studies';
import { formatPrice } from '../../renderer/src/format/market-format';
import { checkProperty } from '../support/property';
import { ethUsdc, ethUsdt } from '../support/renderer/fixtures';

const USDC = 1_000_000n;
const ETH = 1_000_000_000n;
/** ETH/USDC shows 2 decimals of a 6-decimal quote: one cent is 10,000 raw. */
const CENT = 10_000n;

const bar = (time: number, close: bigint, volume = ETH, high = close, low = close): BarView => ({ time, open: close, high, low, close, volume });

describe('rounding to the shown precision', () => {
  it('rounds half away from zero onto the market step', () => {
    expect(shownStep(ethUsdc)).toBe(CENT);
    expect(shownStep(ethUsdt)).toBe(1_000n);
    expect(roundToStep(3_000_005_000n, 1n, CENT)).toBe(3_000_010_000n);
    expect(roundToStep(3_000_004_999n, 1n, CENT)).toBe(3_000_000_000n);
    expect(roundToStep(-15n, 1n, 10n)).toBe(-20n);
    expect(roundToStep(10n, 3n, 1n)).toBe(3n);
  });
});

describe('simple moving average', () => {
  it('is the mean of the last n closes, undefined before n bars', () => {
    // (3000 + 3001 + 3003.01) / 3 = 3001.336666… → 3,001.34
    const closes = [3000n * USDC, 3001n * USDC, 3003_010_000n, 2990n * USDC];
    const values = simpleAverage(closes, 3, CENT);
    expect(values.slice(0, 2)).toEqual([null, null]);
    expect(values[2]).toBe(3_001_340_000n);
    expect(formatPrice(ethUsdc, values[2]!)).toBe('3,001.34');
    // (3001 + 3003.01 + 2990) / 3 = 2998.0033… → 2,998.00
    expect(values[3]).toBe(2_998_000_000n);
  });

  it('equals the exact mean of the window rounded once (property)', () => {
    checkProperty(
      fc.property(fc.array(fc.bigInt({ min: 1n, max: 10n ** 15n }), { minLength: 1, maxLength: 60 }), fc.integer({ min: 2, max: 20 }), (closes, length) => {
        const values = simpleAverage(closes, length, CENT);
        closes.forEach((_, index) => {
          if (index < length - 1) return expect(values[index]).toBeNull();
          const window = closes.slice(index - length + 1, index + 1);
          const sum = window.reduce((total, close) => total + close, 0n);
          const value = values[index]!;
          // |value − sum / length| ≤ half a step, and value is on the step.
          expect(value % CENT).toBe(0n);
          const twice = (value * BigInt(length) - sum) * 2n;
          expect(twice <= CENT * BigInt(length) && twice >= -CENT * BigInt(length)).toBe(true);
        });
      }),
    );
  });
});

describe('exponential moving average', () => {
  it('seeds with the simple average and then weighs each close by 2 / (n + 1)', () => {
    // n = 3, weight 1/2: seed (10 + 20 + 30) / 3 = 20; then 20 + (40 − 20) / 2 = 30; 30 + (0 − 30) / 2 = 15.
    const values = exponentialAverage([10n * USDC, 20n * USDC, 30n * USDC, 40n * USDC, 0n], 3, CENT);
    expect(values).toEqual([null, null, 20n * USDC, 30n * USDC, 15n * USDC]);
  });

  it('keeps a fraction of a raw unit between bars (rounds only what is shown)', () => {
    // n = 2, weight 2/3: seed (0 + 1) / 2 = 0.5 raw; 0.5 + (1 − 0.5)·2/3 = 0.8333…; shown at step 1 → 1.
    const values = exponentialAverage([0n, 1n, 1n], 2, 1n);
    expect(values).toEqual([null, 1n, 1n]);
    // Rounded each bar to the raw unit it would read 1 then 1; to the cent it reads 0.00 (0.83 raw is far under a cent).
    expect(exponentialAverage([0n, 1n, 1n], 2, CENT)).toEqual([null, 0n, 0n]);
  });

  it('stays on a constant series and between the lowest and highest close (property)', () => {
    checkProperty(
      fc.property(fc.array(fc.bigInt({ min: 1n, max: 10n ** 15n }), { minLength: 2, maxLength: 80 }), fc.integer({ min: 2, max: 30 }), (closes, length) => {
        const values = exponentialAverage(closes, length, 1n);
        const low = closes.reduce((a, b) => (b < a ? b : a));
        const high = closes.reduce((a, b) => (b > a ? b : a));
        for (const value of values) if (value !== null) expect(value >= low && value <= high).toBe(true);
        const constant = exponentialAverage(closes.map(() => closes[0]!), length, 1n);
        for (const value of constant) if (value !== null) expect(value).toBe(closes[0]);
      }),
    );
  });
});

describe('session VWAP', () => {
  it('names its session: the UTC day below 1d, the UTC month on 1d, the UTC year on 1w and 1M', () => {
    expect(vwapSession('1m')).toBe('UTC day');
    expect(vwapSession('12h')).toBe('UTC day');
    expect(vwapSession('1d')).toBe('UTC month');
    expect(vwapSession('1w')).toBe('UTC year');
    expect(vwapSession('1M')).toBe('UTC year');
    expect(sessionStart(Date.UTC(2026, 10, 27, 23, 59, 59, 999), 'UTC day')).toBe(Date.UTC(2026, 10, 27));
    expect(sessionStart(Date.UTC(2026, 10, 27, 5), 'UTC month')).toBe(Date.UTC(2026, 10, 1));
    expect(sessionStart(Date.UTC(2026, 10, 27, 5), 'UTC year')).toBe(Date.UTC(2026, 0, 1));
  });

  it('weighs each bar’s typical price by its volume and starts again at 00:00 UTC', () => {
    const day = Date.UTC(2026, 10, 27);
    const bars = [
      // typical (3010 + 2990 + 3000) / 3 = 3000, 1 ETH
      bar(day + 60_000, 3000n * USDC, ETH, 3010n * USDC, 2990n * USDC),
      // typical 3003, 2 ETH → (3000·1 + 3003·2) / 3 = 3002
      bar(day + 120_000, 3003n * USDC, 2n * ETH),
      // the next UTC day: its own session, 0.5 ETH at 2,999.995 → rounds to 3,000.00
      bar(day + 86_400_000, 2_999_995_000n, ETH / 2n),
    ];
    expect(sessionVwap(bars, 'UTC day', CENT)).toEqual([3000n * USDC, 3002n * USDC, 3000n * USDC]);
    // One session over both days: (3000 + 6006 + 1499.9975) / 3.5 = 3001.71357… → 3,001.71
    expect(sessionVwap(bars, 'UTC month', CENT)[2]).toBe(3_001_710_000n);
  });

  it('lies between the session’s lowest low and highest high (property)', () => {
    const arbitraryBar = fc.record({ low: fc.bigInt({ min: 1n, max: 10n ** 12n }), spread: fc.bigInt({ min: 0n, max: 10n ** 10n }), at: fc.bigInt({ min: 0n, max: 100n }), volume: fc.bigInt({ min: 0n, max: 10n ** 12n }) });
    checkProperty(
      fc.property(fc.array(arbitraryBar, { minLength: 1, maxLength: 40 }), (drawn) => {
        const bars = drawn.map((one, index) => {
          const high = one.low + one.spread;
          const close = one.low + (one.spread * one.at) / 100n;
          return { time: Date.UTC(2026, 10, 27) + index * 60_000, open: close, high, low: one.low, close, volume: one.volume };
        });
        const values = sessionVwap(bars, 'UTC day', 1n);
        let low: bigint | null = null;
        let high: bigint | null = null;
        let volume = 0n;
        bars.forEach((one, index) => {
          low = low === null || one.low < low ? one.low : low;
          high = high === null || one.high > high ? one.high : high;
          volume += one.volume;
          if (volume === 0n) return expect(values[index]).toBeNull();
          expect(values[index]! >= low && values[index]! <= high).toBe(true);
        });
      }),
    );
  });
});

describe('the studies of a chart', () => {
  it('computes both averages as set and the VWAP of the resolution’s session, one value per bar', () => {
    const day = Date.UTC(2026, 10, 27);
    const bars = [1n, 2n, 3n, 4n].map((close, index) => bar(day + index * 60_000, (3000n + close) * USDC));
    const values = studyValues(ethUsdc, bars, '1m', [
      { kind: 'SMA', length: 2 },
      { kind: 'EMA', length: 3 },
    ]);
    expect(values.averages[0]).toEqual([null, 3_001_500_000n, 3_002_500_000n, 3_003_500_000n]);
    expect(values.averages[1]).toEqual([null, null, 3002n * USDC, 3003n * USDC]);
    expect(values.vwap).toEqual([3001n * USDC, 3_001_500_000n, 3002n * USDC, 3_002_500_000n]);
  });

  it('parses a typed length as whole bars within the bounds', () => {
    expect(parseAverageLength(' 20 ')).toEqual({ ok: true, value: 20 });
    expect(parseAverageLength('1')).toMatchObject({ ok: false, message: 'length must be 2 to 500 bars, got 1' });
    expect(parseAverageLength('501')).toMatchObject({ ok: false });
    expect(parseAverageLength('2.5')).toMatchObject({ ok: false, message: 'length must be a whole number of bars, got "2.5"' });
    expect(parseAverageLength('')).toMatchObject({ ok: false });
  });
});
