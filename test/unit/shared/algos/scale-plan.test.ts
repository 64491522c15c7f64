// A scale order's children: prices evenly spread and rounded in the trader's favour, sizes shaped
// and on the step adding up to exactly the total, and the plans that cannot be made refused with
// the field to change and the count that would fit.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planScale, type ScaleInput } from '../../../../shared/algos/scale-plan';
import { ALGO_PLAN_CODES } from '../../../../shared/algos/plan-codes';
import type { ScaleShape } from '../../../../shared/ipc/views/algos';
import type { Market } from '../../../../shared/market/market';
import { minimumOrderSize, sizeStep } from '../../../../shared/market/minimum-size';
import { priceTick } from '../../../../shared/market/tick';
import { checkOrder } from '../../../../shared/market/validate-order';
import { checkProperty } from '../../../support/property';
import { ethUsdc, ethUsdcSixDecimals } from '../../../support/shared/market/fixtures';

const ETH = 1_000_000_000n;
const USDC = 1_000_000_000n; // ethUsdc prices: 9 decimals
const flat: ScaleShape = { distribution: 'flat' };

function plan(input: Partial<ScaleInput>, market: Market = ethUsdc) {
  return planScale(market, { side: 'Buy', quantity: ETH, from: 3_000n * USDC, to: 2_990n * USDC, count: 4, shape: flat, ...input });
}

describe('scale plan', () => {
  it('spreads a buy evenly, rounds prices down to the tick and gives the step remainder to the last order, saying both', () => {
    const result = plan({ quantity: 1_001_000_000n });
    expect(result).toEqual({
      ok: true,
      value: {
        orders: [
          { price: 3_000_000_000_000n, quantity: 250_000_000n },
          { price: 2_996_660_000_000n, quantity: 250_000_000n },
          { price: 2_993_330_000_000n, quantity: 250_000_000n },
          { price: 2_990_000_000_000n, quantity: 251_000_000n },
        ],
        notes: [
          'Prices rounded down to the 0.01 USDC tick: no buy is above its evenly spaced price.',
          'Sizes rounded down to the 0.001 ETH step; 0.001 ETH added to the last order (at 2,990.00 USDC) so the orders add up to 1.001 ETH.',
        ],
      },
    });
  });

  it('rounds a sell up to the tick (never below the evenly spaced price); no notes when nothing was rounded', () => {
    const result = plan({ side: 'Sell', from: 3_000n * USDC, to: 3_010n * USDC, count: 4 });
    expect(result.ok && result.value.orders.map((order) => order.price)).toEqual([3_000_000_000_000n, 3_003_340_000_000n, 3_006_670_000_000n, 3_010_000_000_000n]);
    const exact = plan({ side: 'Sell', from: 3_000n * USDC, to: 3_010n * USDC, count: 5 });
    expect(exact.ok && exact.value.notes).toEqual([]);
  });

  it('shapes sizes: linear and geometric, increasing and decreasing; a decreasing shape gives the remainder to its first (largest) order', () => {
    const sizes = (shape: ScaleShape, quantity: bigint) => {
      const result = plan({ shape, quantity });
      return result.ok ? result.value.orders.map((order) => order.quantity) : result;
    };
    expect(sizes({ distribution: 'increasing', curve: 'linear', ratioBps: 0n }, ETH)).toEqual([100_000_000n, 200_000_000n, 300_000_000n, 400_000_000n]);
    expect(sizes({ distribution: 'decreasing', curve: 'linear', ratioBps: 0n }, ETH)).toEqual([400_000_000n, 300_000_000n, 200_000_000n, 100_000_000n]);
    expect(sizes({ distribution: 'increasing', curve: 'geometric', ratioBps: 20_000n }, 1_500_000_000n)).toEqual([100_000_000n, 200_000_000n, 400_000_000n, 800_000_000n]);
    const decreasing = plan({ shape: { distribution: 'decreasing', curve: 'geometric', ratioBps: 20_000n }, quantity: 1_502_000_000n });
    expect(decreasing.ok && decreasing.value.orders.map((order) => order.quantity)).toEqual([802_000_000n, 400_000_000n, 200_000_000n, 100_000_000n]);
    expect(decreasing.ok && decreasing.value.notes).toContain('Sizes rounded down to the 0.001 ETH step; 0.001 ETH added to the first order (at 3,000.00 USDC) so the orders add up to 1.502 ETH.');
  });

  it('refuses more orders than the total allows at the minimum, naming count and the largest count that fits', () => {
    const result = plan({ quantity: 3_000_000n, count: 5 });
    expect(result).toMatchObject({ ok: false, code: ALGO_PLAN_CODES.COUNT_TOO_LARGE, details: { field: 'count', largestCount: 3 } });
    expect(!result.ok && result.message).toBe('5 orders would make one of 0 ETH at 3,000.00 USDC, below the smallest order of 0.001 ETH there; at most 3 orders fit 0.003 ETH.');
    expect(plan({ quantity: 3_000_000n, count: 3 }).ok).toBe(true);
  });

  it('refuses a range with fewer ticks than orders, naming the largest count that fits', () => {
    expect(plan({ from: 3_000n * USDC, to: 3_000_020_000_000n, count: 5 })).toMatchObject({ ok: false, code: ALGO_PLAN_CODES.RANGE_TOO_NARROW, details: { field: 'count', largestCount: 3 } });
  });

  it('refuses a total below the smallest order, off the step, a bad count, a zero price and a ratio that does not grow', () => {
    const dear: Market = { ...ethUsdc, min_order: 30n * USDC }; // 30 USDC at 3,000: 0.01 ETH at least
    expect(plan({ quantity: 5_000_000n, count: 2 }, dear)).toMatchObject({ ok: false, code: ALGO_PLAN_CODES.QUANTITY_BELOW_MINIMUM, details: { field: 'quantity' } });
    expect(plan({ quantity: 1_000_500_000n })).toMatchObject({ ok: false, code: ALGO_PLAN_CODES.QUANTITY_OFF_STEP, details: { field: 'quantity' } });
    expect(plan({ count: 0 })).toMatchObject({ ok: false, code: ALGO_PLAN_CODES.INVALID_COUNT, details: { field: 'count' } });
    expect(plan({ count: 2.5 })).toMatchObject({ ok: false, code: ALGO_PLAN_CODES.INVALID_COUNT });
    expect(plan({ to: 0n })).toMatchObject({ ok: false, code: ALGO_PLAN_CODES.INVALID_PRICE, details: { field: 'to' } });
    expect(plan({ shape: { distribution: 'increasing', curve: 'geometric', ratioBps: 10_000n } })).toMatchObject({ ok: false, code: ALGO_PLAN_CODES.INVALID_RATIO, details: { field: 'ratioBps' } });
  });

  it('one order is the whole total at `from`', () => {
    expect(plan({ count: 1 })).toEqual({ ok: true, value: { orders: [{ price: 3_000n * USDC, quantity: ETH }], notes: [] } });
  });
});

// The ETH/USDT shape of the sandbox: prices to 0.001 make the size step coarser (0.001 ETH, not the quantity tick).
const ethUsdt: Market = { ...ethUsdcSixDecimals, base: { ...ethUsdcSixDecimals.base, max_precision: 4 }, quote: { ...ethUsdcSixDecimals.quote, symbol: 'USDT', max_precision: 3 }, min_order: 5_000_000n };
const markets = [ethUsdc, ethUsdcSixDecimals, ethUsdt];

const shapeArbitrary: fc.Arbitrary<ScaleShape> = fc.oneof(
  fc.constant<ScaleShape>(flat),
  fc.record({
    distribution: fc.constantFrom<'increasing' | 'decreasing'>('increasing', 'decreasing'),
    curve: fc.constantFrom<'linear' | 'geometric'>('linear', 'geometric'),
    ratioBps: fc.bigInt({ min: 10_001n, max: 30_000n }),
  }),
);

const inputArbitrary = fc.record({
  market: fc.constantFrom(...markets),
  side: fc.constantFrom<'Buy' | 'Sell'>('Buy', 'Sell'),
  fromTicks: fc.bigInt({ min: 1n, max: 500_000n }),
  toTicks: fc.bigInt({ min: 1n, max: 500_000n }),
  // Prices sometimes off the tick, to exercise the rounding.
  offTick: fc.bigInt({ min: 0n, max: 9n }),
  steps: fc.oneof(fc.bigInt({ min: 1n, max: 50n }), fc.bigInt({ min: 1n, max: 100_000n })),
  count: fc.integer({ min: 1, max: 40 }),
  shape: shapeArbitrary,
});

describe('scale plan properties', () => {
  it('every order is on the tick and the step, at least the minimum, inside the range, the sum exact and the shape monotone; a refusal names a count that fits', () => {
    checkProperty(
      fc.property(inputArbitrary, ({ market, side, fromTicks, toTicks, offTick, steps, count, shape }) => {
        const tick = priceTick(market);
        const step = sizeStep(market);
        const offset = (tick * offTick) / 10n;
        const input: ScaleInput = { side, quantity: steps * step, from: fromTicks * tick + offset, to: toTicks * tick, count, shape };
        const result = planScale(market, input);
        if (!result.ok) {
          expect(Object.values(ALGO_PLAN_CODES)).toContain(result.code);
          const largest = result.details?.largestCount;
          if (typeof largest === 'number') {
            expect(largest).toBeLessThan(count);
            // The count named fits on that account (another rule may still refuse it: a range too narrow does not know the sizes).
            const fewer = planScale(market, { ...input, count: largest });
            if (!fewer.ok) expect(fewer.code).not.toBe(result.code);
          }
          return;
        }
        const { orders } = result.value;
        expect(orders).toHaveLength(count);
        expect(orders.reduce((sum, order) => sum + order.quantity, 0n)).toBe(input.quantity);
        const low = input.from < input.to ? input.from : input.to;
        const high = input.from < input.to ? input.to : input.from;
        orders.forEach((order, index) => {
          expect(order.price % tick).toBe(0n);
          expect(order.quantity % step).toBe(0n);
          expect(order.quantity).toBeGreaterThanOrEqual(minimumOrderSize(market, order.price));
          expect(typeof checkOrder(market, side, order.price, order.quantity, { kind: 'Spot' })).toBe('bigint');
          // Never worse than the range for the trader, and never more than a tick outside it.
          if (side === 'Buy') expect(order.price <= high && order.price > low - tick).toBe(true);
          else expect(order.price >= low && order.price < high + tick).toBe(true);
          const previous = orders[index - 1];
          if (previous === undefined) return;
          expect(input.to > input.from ? order.price > previous.price : order.price < previous.price).toBe(true);
          if (shape.distribution === 'increasing') expect(order.quantity).toBeGreaterThanOrEqual(previous.quantity);
          if (shape.distribution === 'decreasing') expect(order.quantity).toBeLessThanOrEqual(previous.quantity);
          // Flat: equal, except the last order, which carries the step remainder.
          if (shape.distribution === 'flat' && index < count - 1) expect(order.quantity).toBe(previous.quantity);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('a flat plan fails exactly when count × the largest minimum exceeds the total', () => {
    checkProperty(
      fc.property(fc.constantFrom(...markets), fc.bigInt({ min: 1_000n, max: 400_000n }), fc.bigInt({ min: 1n, max: 60n }), fc.integer({ min: 1, max: 30 }), (market, priceTicks, steps, count) => {
        const tick = priceTick(market);
        const step = sizeStep(market);
        const price = priceTicks * tick;
        const result = planScale(market, { side: 'Buy', quantity: steps * step, from: price, to: price + BigInt(count) * tick, count, shape: flat });
        // Every price is at or above `price`, so its minimum is the largest (or equal).
        const units = steps / BigInt(count);
        const fits = units * step >= minimumOrderSize(market, price);
        expect(result.ok).toBe(fits);
      }),
      { numRuns: 300 },
    );
  });
});
