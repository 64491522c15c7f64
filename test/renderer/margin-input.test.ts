// The margin forms' amounts are checked before any confirmation, each refusal naming the field, the
// value and the reason (not a number, negative, too many decimals, above what is available with
// that figure).
import { describe, expect, it } from 'vitest';
import { checkAmount, checkCount } from '../../renderer/src/features/margin/margin-input';

const usdc = { symbol: 'USDC', decimals: 6 };
const USDC = 1_000_000n;

describe('margin amounts', () => {
  it('parses an amount exactly, with or without thousands separators', () => {
    expect(checkAmount('12.5', 'Amount', usdc)).toEqual({ ok: true, value: 12_500_000n });
    expect(checkAmount(' 1,234.56 ', 'Amount', usdc)).toEqual({ ok: true, value: 1_234_560_000n });
  });

  it('refuses what is not a number, negative, zero or finer than the asset, naming field and value', () => {
    expect(checkAmount('abc', 'Amount', usdc)).toEqual({ ok: false, message: 'Amount: "abc" is not a number; enter digits with at most one "." (for example 12.5).' });
    expect(checkAmount('-5', 'Extra collateral', usdc, { optional: true })).toEqual({ ok: false, message: 'Extra collateral: "-5" is negative; enter an amount of USDC above zero.' });
    expect(checkAmount('0', 'Amount', usdc)).toEqual({ ok: false, message: 'Amount: "0" is zero; enter an amount of USDC above zero.' });
    expect(checkAmount('1.1234567', 'Amount', usdc)).toEqual({ ok: false, message: 'Amount: "1.1234567" has more decimals than USDC has (6).' });
    expect(checkAmount('1e5', 'Amount', usdc).ok).toBe(false);
  });

  it('refuses an amount above the balance or limit the form knows, with that figure', () => {
    expect(checkAmount('99,999,999,999', 'Amount', usdc, { limit: { amount: 1_500n * USDC, where: 'on the Turbo Account' } })).toEqual({
      ok: false,
      message: 'Amount: 99,999,999,999 USDC is above the 1,500 USDC available on the Turbo Account.',
    });
    expect(checkAmount('1500', 'Amount', usdc, { limit: { amount: 1_500n * USDC, where: 'on the Turbo Account' } })).toEqual({ ok: true, value: 1_500n * USDC });
  });

  it('asks for a required amount and takes an empty optional one as zero', () => {
    expect(checkAmount('', 'Amount', usdc)).toEqual({ ok: false, message: 'Amount: enter an amount of USDC.' });
    expect(checkAmount('  ', 'Extra collateral', usdc, { optional: true })).toEqual({ ok: true, value: 0n });
  });

  it('checks a count', () => {
    expect(checkCount('3', 'Times', 1000)).toEqual({ ok: true, value: 3n });
    expect(checkCount('0', 'Times', 1000)).toEqual({ ok: false, message: 'Times: 0 is not between 1 and 1000.' });
    expect(checkCount('x', 'Times', 1000)).toEqual({ ok: false, message: 'Times: "x" is not a whole number from 1 to 1000.' });
  });
});
