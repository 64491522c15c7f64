// An iceberg's next visible slice: the visible size on the step, or the whole remainder when what
// would be left could not be an order of its own.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nextIcebergSlice } from '../../../../shared/algos/iceberg-plan';
import { minimumOrderSize, sizeStep } from '../../../../shared/market/minimum-size';
import { checkProperty } from '../../../support/property';
import { ethUsdc } from '../../../support/shared/market/fixtures';

const step = sizeStep(ethUsdc); // 0.001 ETH; the minimum without a price is 0.001 ETH (dust)

describe('iceberg slice', () => {
  it('shows the visible size while enough remains', () => {
    expect(nextIcebergSlice(ethUsdc, { visible: 100_000_000n, remaining: 1_000_000_000n })).toBe(100_000_000n);
  });

  it('takes all of the remainder when it is not more than the visible size, or when what would be left is below the minimum', () => {
    expect(nextIcebergSlice(ethUsdc, { visible: 100_000_000n, remaining: 60_000_000n })).toBe(60_000_000n);
    // 1 USDC at 0.5 USDC is 2 ETH: a slice of 1 ETH out of 2.5 would leave 1.5, too small to place.
    expect(nextIcebergSlice(ethUsdc, { visible: 1_000_000_000n, remaining: 2_500_000_000n, price: 500_000_000n })).toBe(2_500_000_000n);
    expect(nextIcebergSlice(ethUsdc, { visible: 1_000_000_000n, remaining: 2_500_000_000n })).toBe(1_000_000_000n);
  });

  it('floors the visible size to the step and raises it to the minimum; nothing when nothing remains', () => {
    expect(nextIcebergSlice(ethUsdc, { visible: 100_500_000n, remaining: 1_000_000_000n })).toBe(100_000_000n);
    expect(nextIcebergSlice(ethUsdc, { visible: 1_000_000n, remaining: 10_000_000_000n, price: 500_000_000n })).toBe(2_000_000_000n);
    expect(nextIcebergSlice(ethUsdc, { visible: 100_000_000n, remaining: 0n })).toBe(0n);
  });

  it('property: slicing a total on the step ends exactly at the total, every slice on the step and at least the minimum', () => {
    checkProperty(
      fc.property(fc.bigInt({ min: 1n, max: 5_000n }), fc.bigInt({ min: 1n, max: 500n }), fc.option(fc.bigInt({ min: 1n, max: 10_000_000n }), { nil: null }), (totalSteps, visibleSteps, priceTicks) => {
        const price = priceTicks === null ? null : priceTicks * 10_000_000n;
        const minimum = minimumOrderSize(ethUsdc, price);
        const total = totalSteps * step < minimum ? minimum : totalSteps * step;
        let remaining = total;
        let slices = 0;
        while (remaining > 0n) {
          const slice = nextIcebergSlice(ethUsdc, { visible: visibleSteps * step, remaining, price });
          expect(slice % step).toBe(0n);
          expect(slice).toBeGreaterThanOrEqual(minimum);
          expect(slice).toBeLessThanOrEqual(remaining);
          remaining -= slice;
          slices += 1;
          expect(slices).toBeLessThanOrEqual(5_001);
        }
        expect(remaining).toBe(0n);
      }),
      { numRuns: 300 },
    );
  });
});
