import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isWholeQuoteValue } from '../../../../shared/market/amounts';
import type { MarketRules } from '../../../../shared/market/market';
import { minimumOrderSize, sizeStep } from '../../../../shared/market/minimum-size';
import { priceTick } from '../../../../shared/market/tick';
import { checkOrder } from '../../../../shared/market/validate-order';
import { checkProperty } from '../../../support/property';

// The sandbox's ETH/USDC and ETH/USDT rows: base 9 decimals shown to 4, dust 0.001 ETH.
const ethUsdc: MarketRules = {
  base: { symbol: 'ETH', asset: '0x' as never, decimals: 9, max_precision: 4 },
  quote: { symbol: 'USDC', asset: '0x' as never, decimals: 6, max_precision: 2 },
  maker_fee: 100n, taker_fee: 250n, min_order: 1_000_000n, dust: 1_000_000n,
};
const ethUsdt: MarketRules = { ...ethUsdc, quote: { symbol: 'USDT', asset: '0x' as never, decimals: 6, max_precision: 3 }, min_order: 5_000_000n };

describe('the smallest order a book accepts', () => {
  it('is never below the dust threshold: 0.001 ETH on ETH/USDC at 3,000, not 0.0005', () => {
    // 1 USDC at 3,000 is 0.000334 ETH; the dust threshold 0.001 ETH is what decides.
    expect(minimumOrderSize(ethUsdc, 3_000_000_000n)).toBe(1_000_000n);
  });
  it('reaches min_order at the price, on the size step', () => {
    // 5 USDT at 3,001 is 0.001667 ETH; the step of ETH/USDT is 0.001 ETH (whole quote at every price).
    expect(sizeStep(ethUsdt)).toBe(1_000_000n);
    expect(minimumOrderSize(ethUsdt, 3_001_000_000n)).toBe(2_000_000n);
    expect(sizeStep(ethUsdc)).toBe(100_000n);
  });
  it('without a price: the step and the dust threshold only', () => {
    expect(minimumOrderSize(ethUsdc, null)).toBe(1_000_000n);
    expect(minimumOrderSize({ ...ethUsdc, dust: 0n }, null)).toBe(100_000n);
  });
  it('passes every rule of the book at the price, and one step less does not', () => {
    checkProperty(
      fc.property(fc.bigInt({ min: 1n, max: 10_000_000n }), fc.constantFrom(ethUsdc, ethUsdt), (ticks, market) => {
        const price = ticks * priceTick(market);
        const size = minimumOrderSize(market, price);
        expect(isWholeQuoteValue(market, price, size)).toBe(true);
        expect(typeof checkOrder(market, 'Buy', price, size, { kind: 'Spot' })).toBe('bigint');
        const less = size - sizeStep(market);
        if (less > 0n) expect(typeof checkOrder(market, 'Buy', price, less, { kind: 'Spot' })).not.toBe('bigint');
      }),
    );
  });
});
