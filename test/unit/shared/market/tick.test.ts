import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { assetTick, priceTick, quantityTick, truncatePrice, truncateQuantity } from '../../../../shared/market/tick';
import { ethUsdc } from '../../../support/shared/market/fixtures';
import { checkProperty } from '../../../support/property';

describe('ticks', () => {
  it('derives the tick from decimals and max_precision', () => {
    expect(priceTick(ethUsdc)).toBe(10_000_000n);
    expect(quantityTick(ethUsdc)).toBe(1_000_000n);
  });

  it('has no tick when max_precision reaches or exceeds decimals', () => {
    expect(assetTick({ ...ethUsdc.base, max_precision: 9 })).toBe(1n);
    expect(assetTick({ ...ethUsdc.base, max_precision: 12 })).toBe(1n);
  });

  it('floors both price and quantity and says so', () => {
    expect(truncatePrice(ethUsdc, 101_239_999_999n)).toEqual({ value: 101_230_000_000n, changed: true });
    expect(truncatePrice(ethUsdc, 101_230_000_000n)).toEqual({ value: 101_230_000_000n, changed: false });
    // Never rounds a quantity up: 0.0019999 ETH becomes 0.001, not 0.002.
    expect(truncateQuantity(ethUsdc, 1_999_900n)).toEqual({ value: 1_000_000n, changed: true });
  });

  it('truncation is idempotent and never increases', () => {
    checkProperty(
      fc.property(fc.bigInt({ min: 0n, max: 1n << 64n }), (value) => {
        const once = truncateQuantity(ethUsdc, value);
        expect(once.value <= value).toBe(true);
        expect(value - once.value < quantityTick(ethUsdc)).toBe(true);
        expect(truncateQuantity(ethUsdc, once.value)).toEqual({ value: once.value, changed: false });
      }),
    );
  });
});
