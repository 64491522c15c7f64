import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { feeOwed, forwardedAmount, isWholeQuoteValue, lowerQuantityToWholeQuote, orderFee, quoteValue } from '../../../../shared/market/amounts';
import { quantityTick } from '../../../../shared/market/tick';
import { ethUsdc } from '../../../support/shared/market/fixtures';
import { checkProperty } from '../../../support/property';

describe('amounts', () => {
  it('forwards quote value for a buy and quantity for a sell', () => {
    // 0.5 ETH at 2000.25 USDC = 1000.125 USDC
    expect(forwardedAmount(ethUsdc, 'Buy', 2_000_250_000_000n, 500_000_000n)).toEqual({ asset: ethUsdc.quote.asset, amount: 1_000_125_000_000n });
    expect(forwardedAmount(ethUsdc, 'Sell', 2_000_250_000_000n, 500_000_000n)).toEqual({ asset: ethUsdc.base.asset, amount: 500_000_000n });
  });

  it('floors the quote value', () => {
    expect(quoteValue(ethUsdc, 3n, 1_000_000_001n)).toBe(3n);
  });

  it('detects a fractional price and lowers the quantity to the nearest valid one', () => {
    // Price 0.03 USDC (30_000_000 raw); quantity 0.001 ETH (1_000_000 raw): 3e13 / 1e9 = 30000, whole.
    expect(isWholeQuoteValue(ethUsdc, 30_000_000n, 1_000_000n)).toBe(true);
    const market = { ...ethUsdc, base: { ...ethUsdc.base, max_precision: 9 } };
    // 1.23 USDC * 0.000000007 ETH = 8.61 raw: fractional.
    expect(isWholeQuoteValue(market, 1_230_000_000n, 7n)).toBe(false);
    // step = 1e9 / gcd(1.23e9, 1e9) = 1e9 / 1e7 = 100 raw.
    expect(lowerQuantityToWholeQuote(market, 1_230_000_000n, 7n)).toBe(0n);
    expect(lowerQuantityToWholeQuote(market, 1_230_000_000n, 250n)).toBe(200n);
  });

  it('the lowered quantity is the largest valid one below the request', () => {
    checkProperty(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 13n }), fc.bigInt({ min: 0n, max: 10n ** 12n }), (price, quantity) => {
        const lowered = lowerQuantityToWholeQuote(ethUsdc, price, quantity);
        const tick = quantityTick(ethUsdc);
        expect(lowered <= quantity && lowered % tick === 0n && isWholeQuoteValue(ethUsdc, price, lowered)).toBe(true);
        // Nothing valid lies strictly between: check the next tick candidates up to the request.
        for (let candidate = lowered + tick; candidate <= quantity && candidate < lowered + 50n * tick; candidate += tick) {
          expect(isWholeQuoteValue(ethUsdc, price, candidate)).toBe(false);
        }
      }),
    );
  });

  it('rounds fees owed up', () => {
    expect(feeOwed(1_000_000n, 250n)).toBe(250n);
    expect(feeOwed(1n, 250n)).toBe(1n);
    expect(feeOwed(3_999n, 250n)).toBe(1n);
    expect(feeOwed(4_001n, 250n)).toBe(2n);
    expect(feeOwed(0n, 250n)).toBe(0n);
    expect(feeOwed(1_000n, 0n)).toBe(0n);
    expect(orderFee(ethUsdc, 2_000_000_000_000n, 1_000_000_000n, 'taker')).toBe(500_000_000n);
  });
});
