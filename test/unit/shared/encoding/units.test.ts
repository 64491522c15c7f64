import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatUnits, parseUnits } from '../../../../shared/encoding/units';
import { checkProperty } from '../../../support/property';

describe('display units', () => {
  it('formats exactly', () => {
    expect(formatUnits(1_500_000_000n, 9)).toBe('1.5');
    expect(formatUnits(1n, 9)).toBe('0.000000001');
    expect(formatUnits(0n, 9)).toBe('0');
    expect(formatUnits(1_000n, 0)).toBe('1000');
    expect(formatUnits(1_234_567_000_000_000n, 9, { minimumFractionDigits: 2, groupSeparator: ',' })).toBe('1,234,567.00');
    expect(formatUnits(-5n, 1)).toBe('-0.5');
  });

  it('parses what a trader types', () => {
    expect(parseUnits('1.5', 9, 'price')).toEqual({ ok: true, value: 1_500_000_000n });
    expect(parseUnits('.25', 2, 'price')).toEqual({ ok: true, value: 25n });
    expect(parseUnits('3.', 2, 'price')).toEqual({ ok: true, value: 300n });
    expect(parseUnits('1.500', 1, 'price')).toEqual({ ok: true, value: 15n });
  });

  it('refuses too many decimals with the reason', () => {
    const result = parseUnits('1.2345', 2, 'price');
    expect(result).toMatchObject({ ok: false, code: 'TOO_MANY_DECIMALS', message: 'price: "1.2345" has 4 decimal places; at most 2 are allowed' });
  });

  it.each(['', '.', '-1', '+1', '1e3', '1,000', ' 1', '1.2.3', 'abc'])('refuses %j', (text) => {
    expect(parseUnits(text, 9, 'quantity')).toMatchObject({ ok: false, code: 'INVALID_AMOUNT' });
  });

  it('refuses amounts above u64', () => {
    expect(parseUnits('18446744074', 9, 'quantity')).toMatchObject({ ok: false, code: 'AMOUNT_OUT_OF_RANGE' });
  });

  it('round-trips raw units', () => {
    checkProperty(
      fc.property(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), fc.integer({ min: 0, max: 18 }), (raw, decimals) => {
        expect(parseUnits(formatUnits(raw, decimals), decimals, 'x')).toEqual({ ok: true, value: raw });
      }),
    );
  });
});
