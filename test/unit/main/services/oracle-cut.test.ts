// The trader-session oracle holds a margin figure shown in display decimals to the exchange's raw
// figure cut toward zero: never shown better than it is, never a different amount.
import { describe, expect, it } from 'vitest';
import { shownCutEquals } from '../../../support/trader-session/oracle';

describe('oracle: a figure shown in display decimals', () => {
  it('equals the raw figure cut to the decimals shown', () => {
    expect(shownCutEquals('0.00 USDC', 0n, 6, 'USDC')).toBe(true);
    expect(shownCutEquals('1,234.56 USDC', 1_234_569_999n, 6, 'USDC')).toBe(true);
    expect(shownCutEquals('1,234.567 USDC', 1_234_567_000n, 6, 'USDC')).toBe(true);
    expect(shownCutEquals('-3.10 USDC', -3_109_000n, 6, 'USDC')).toBe(true);
  });
  it('refuses a rounded-up, different, wrong-asset or over-precise figure', () => {
    expect(shownCutEquals('1,234.57 USDC', 1_234_569_999n, 6, 'USDC')).toBe(false);
    expect(shownCutEquals('1,234.56 USDT', 1_234_560_000n, 6, 'USDC')).toBe(false);
    expect(shownCutEquals('0.0000001 USDC', 0n, 6, 'USDC')).toBe(false);
    expect(shownCutEquals(null, 0n, 6, 'USDC')).toBe(false);
    expect(shownCutEquals('12.00 USDC', 11_990_000n, 6, 'USDC')).toBe(false);
  });
});
