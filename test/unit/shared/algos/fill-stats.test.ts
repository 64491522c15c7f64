// An algorithm's average price and slippage, integer and rounded as each function says.
import { describe, expect, it } from 'vitest';
import { averagePrice, slippageBps } from '../../../../shared/algos/fill-stats';
import { ethUsdc } from '../../../support/shared/market/fixtures';

describe('fill statistics', () => {
  it('averages by volume, rounded to the nearest raw unit (a half up); null before a fill', () => {
    expect(averagePrice([], ethUsdc)).toBeNull();
    expect(averagePrice([{ price: 3_000n, quantity: 1n }, { price: 3_010n, quantity: 3n }], ethUsdc)).toBe(3_008n); // 3007.5
    expect(averagePrice([{ price: 10n, quantity: 2n }, { price: 11n, quantity: 1n }], ethUsdc)).toBe(10n); // 10.33
    expect(averagePrice([{ price: 10n, quantity: 1n }, { price: 11n, quantity: 2n }], ethUsdc)).toBe(11n); // 10.67
  });

  it('slippage is positive when worse for the trader, rounded up (never understated)', () => {
    expect(slippageBps('Buy', 3_003n, 3_000n)).toBe(10n);
    expect(slippageBps('Sell', 3_003n, 3_000n)).toBe(-10n);
    expect(slippageBps('Buy', 3_000_100n, 3_000_000n)).toBe(1n); // 0.33 bps worse
    expect(slippageBps('Buy', 2_999_900n, 3_000_000n)).toBe(0n); // 0.33 bps better
    expect(slippageBps('Sell', 2_999_000n, 3_000_000n)).toBe(4n); // 3.33 bps worse
    expect(slippageBps('Buy', 5n, 0n)).toBe(0n);
  });
});
