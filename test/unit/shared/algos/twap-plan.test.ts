// A TWAP's schedule: even slices one interval apart, fewer (spread over the same duration) when even
// slices would fall below the smallest order, and jitter that keeps the offsets ascending within the
// duration and the sizes on the step, above the minimum and adding up to exactly the total.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALGO_PLAN_CODES } from '../../../../shared/algos/plan-codes';
import { seededRandom } from '../../../../shared/algos/seeded-random';
import { MAX_TWAP_SLICES, planTwap, type TwapInput } from '../../../../shared/algos/twap-plan';
import type { Market } from '../../../../shared/market/market';
import { minimumOrderSize, sizeStep } from '../../../../shared/market/minimum-size';
import { priceTick } from '../../../../shared/market/tick';
import { checkProperty } from '../../../support/property';
import { ethUsdc, ethUsdcSixDecimals } from '../../../support/shared/market/fixtures';

const ETH = 1_000_000_000n;
const never = () => {
  throw new Error('no jitter asked: the schedule must not draw');
};

function plan(input: Partial<TwapInput>, random: () => number = never, market: Market = ethUsdc) {
  return planTwap(market, { quantity: ETH, durationMs: 60_000, intervalMs: 10_000, sizeJitterBps: 0n, timeJitterBps: 0n, ...input }, random);
}

describe('TWAP plan', () => {
  it('cuts the total into even slices one interval apart, the step remainder spread one step each through the schedule, said', () => {
    expect(plan({})).toEqual({
      ok: true,
      value: {
        slices: [0, 10_000, 20_000, 30_000, 40_000, 50_000].map((offsetMs, index) => ({ offsetMs, quantity: [1, 2, 4, 5].includes(index) ? 167_000_000n : 166_000_000n })),
        notes: ['Slices on the 0.001 ETH step: 4 of 6 are 0.167 ETH and the others 0.166 ETH, so they add up to 1 ETH.'],
      },
    });
  });

  it('a duration that is not a whole number of intervals still starts a slice in the last part', () => {
    const result = plan({ quantity: 3_000_000n, durationMs: 25_000 });
    expect(result.ok && result.value.slices.map((slice) => slice.offsetMs)).toEqual([0, 10_000, 20_000]);
  });

  it('takes fewer slices, spread over the whole duration, when even slices would be below the minimum, and says so', () => {
    const result = plan({ quantity: 3_000_000n });
    expect(result).toEqual({
      ok: true,
      value: {
        slices: [0, 20_000, 40_000].map((offsetMs) => ({ offsetMs, quantity: 1_000_000n })),
        notes: ['3 slices instead of 6, one every 20 s: each slice must be at least the smallest order of 0.001 ETH.'],
      },
    });
    // At the arrival price the minimum order value decides: 1 USDC at 0.5 USDC is 2 ETH.
    const dear = plan({ quantity: 5n * ETH, referencePrice: 500_000_000n });
    expect(dear.ok && dear.value.slices.map((slice) => slice.quantity)).toEqual([2_500_000_000n, 2_500_000_000n]);
  });

  it('refuses what cannot run, naming the field', () => {
    expect(plan({ quantity: 500_000n })).toMatchObject({ ok: false, code: ALGO_PLAN_CODES.QUANTITY_OFF_STEP, details: { field: 'quantity' } });
    expect(plan({ quantity: 1_000_000n, referencePrice: 500_000_000n })).toMatchObject({ ok: false, code: ALGO_PLAN_CODES.QUANTITY_BELOW_MINIMUM, details: { field: 'quantity' } });
    expect(plan({ durationMs: 0 })).toMatchObject({ ok: false, code: ALGO_PLAN_CODES.INVALID_SCHEDULE, details: { field: 'durationMs' } });
    expect(plan({ intervalMs: 999 })).toMatchObject({ ok: false, code: ALGO_PLAN_CODES.INVALID_SCHEDULE, details: { field: 'intervalMs' } });
    expect(plan({ durationMs: 1_000 * (MAX_TWAP_SLICES + 1), intervalMs: 1_000 })).toMatchObject({ ok: false, code: ALGO_PLAN_CODES.TOO_MANY_SLICES, details: { field: 'intervalMs' } });
    expect(plan({ sizeJitterBps: 10_001n })).toMatchObject({ ok: false, code: ALGO_PLAN_CODES.INVALID_JITTER, details: { field: 'sizeJitterBps' } });
    expect(plan({ timeJitterBps: -1n })).toMatchObject({ ok: false, code: ALGO_PLAN_CODES.INVALID_JITTER, details: { field: 'timeJitterBps' } });
  });

  it('jitters within the bounds it states, and the same seed gives the same schedule', () => {
    const input = { sizeJitterBps: 2_000n, timeJitterBps: 2_000n };
    const first = plan(input, seededRandom(7));
    expect(first).toEqual(plan(input, seededRandom(7)));
    expect(first.ok && first.value.notes).toEqual([
      'Slices on the 0.001 ETH step: 4 of 6 are 0.167 ETH and the others 0.166 ETH, so they add up to 1 ETH.',
      'Slice sizes vary at random by up to 0.033 ETH; the total stays 1 ETH.',
      'Slice times vary at random by up to 2 s.',
    ]);
    // A generator at its extremes stays in range.
    for (const edge of [0, 0.999_999_999_999]) {
      const result = plan(input, () => edge);
      expect(result.ok && result.value.slices.reduce((sum, slice) => sum + slice.quantity, 0n)).toBe(ETH);
    }
  });
});

const ethUsdt: Market = { ...ethUsdcSixDecimals, base: { ...ethUsdcSixDecimals.base, max_precision: 4 }, quote: { ...ethUsdcSixDecimals.quote, symbol: 'USDT', max_precision: 3 }, min_order: 5_000_000n };

describe('TWAP plan properties', () => {
  it('offsets ascend within the duration, sizes are on the step, at least the minimum, within the jitter and sum exactly', () => {
    checkProperty(
      fc.property(
        fc.record({
          market: fc.constantFrom(ethUsdc, ethUsdcSixDecimals, ethUsdt),
          steps: fc.oneof(fc.bigInt({ min: 1n, max: 40n }), fc.bigInt({ min: 1n, max: 1_000_000n })),
          durationMs: fc.integer({ min: 1, max: 3_600_000 }),
          intervalMs: fc.integer({ min: 1_000, max: 600_000 }),
          sizeJitterBps: fc.bigInt({ min: 0n, max: 10_000n }),
          timeJitterBps: fc.bigInt({ min: 0n, max: 10_000n }),
          priceTicks: fc.option(fc.bigInt({ min: 1n, max: 1_000_000n }), { nil: null }),
          seed: fc.integer(),
        }),
        ({ market, steps, durationMs, intervalMs, sizeJitterBps, timeJitterBps, priceTicks, seed }) => {
          const step = sizeStep(market);
          const referencePrice = priceTicks === null ? null : priceTicks * priceTick(market);
          const input: TwapInput = { quantity: steps * step, durationMs, intervalMs, sizeJitterBps, timeJitterBps, referencePrice };
          const result = planTwap(market, input, seededRandom(seed));
          const minimum = minimumOrderSize(market, referencePrice);
          const asked = Math.ceil(durationMs / intervalMs);
          if (!result.ok) {
            expect([ALGO_PLAN_CODES.QUANTITY_BELOW_MINIMUM, ALGO_PLAN_CODES.TOO_MANY_SLICES]).toContain(result.code);
            if (result.code === ALGO_PLAN_CODES.QUANTITY_BELOW_MINIMUM) expect(input.quantity).toBeLessThan(minimum);
            else expect(asked).toBeGreaterThan(MAX_TWAP_SLICES);
            return;
          }
          const { slices } = result.value;
          expect(slices.length).toBeGreaterThanOrEqual(1);
          expect(slices.length).toBeLessThanOrEqual(asked);
          // Fewer than asked only when one more slice could not all be at the minimum.
          if (slices.length < asked) expect(BigInt(slices.length + 1) * minimum).toBeGreaterThan(input.quantity);
          expect(slices.reduce((sum, slice) => sum + slice.quantity, 0n)).toBe(input.quantity);
          const interval = slices.length === asked ? intervalMs : Math.floor(durationMs / slices.length);
          const even = ((input.quantity / step / BigInt(slices.length)) * step);
          const sizeSwing = ((even / step) * sizeJitterBps) / 10_000n * step;
          const timeSwing = Math.max(Number((BigInt(interval) * timeJitterBps) / 10_000n), 0);
          slices.forEach((slice, index) => {
            expect(slice.quantity % step).toBe(0n);
            expect(slice.quantity).toBeGreaterThanOrEqual(minimum);
            // Before jitter: the even slice, one step more on the slices the remainder is spread over.
            const remainder = input.quantity / step - (even / step) * BigInt(slices.length);
            const count = BigInt(slices.length);
            const unjittered = even + (((BigInt(index) + 1n) * remainder) / count > (BigInt(index) * remainder) / count ? step : 0n);
            const moved = slice.quantity - unjittered;
            expect(moved <= sizeSwing && moved >= -sizeSwing).toBe(true);
            expect(slice.offsetMs).toBeGreaterThanOrEqual(0);
            expect(slice.offsetMs).toBeLessThanOrEqual(durationMs);
            expect(Number.isSafeInteger(slice.offsetMs)).toBe(true);
            expect(Math.abs(slice.offsetMs - index * interval)).toBeLessThanOrEqual(timeSwing);
            const previous = slices[index - 1];
            if (previous !== undefined) expect(slice.offsetMs).toBeGreaterThan(previous.offsetMs);
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});
