import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseChainId, parseNonceDecimal, parseNonceHex, parseU256, parseU64, U64_MAX } from '../../../../shared/encoding/decimal';
import { checkProperty } from '../../../support/property';

describe('decimal strings', () => {
  it('round-trips every u64', () => {
    checkProperty(
      fc.property(fc.bigInt({ min: 0n, max: U64_MAX }), (value) => {
        expect(parseU64(value.toString(), 'price')).toEqual({ ok: true, value });
      }),
    );
  });

  it.each([
    ['', 'is empty'],
    [' 1', 'surrounding whitespace'],
    ['1 ', 'surrounding whitespace'],
    ['-1', 'is negative'],
    ['+1', "leading '+'"],
    ['1.0', 'decimal point'],
    ['1e9', 'exponent'],
    ['0x10', 'not a decimal integer'],
  ])('refuses %j with the reason and the field', (value, reason) => {
    const result = parseU64(value, 'quantity');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.code).toBe('INVALID_INTEGER');
      expect(result.message).toContain('quantity: ');
      expect(result.message).toContain(reason);
    }
  });

  it('refuses a number (money never travels as a JSON number)', () => {
    expect(parseU64(5, 'amount').ok).toBe(false);
  });

  it('refuses out of range values', () => {
    expect(parseU64('18446744073709551615', 'q')).toEqual({ ok: true, value: U64_MAX });
    const over = parseU64('18446744073709551616', 'q');
    expect(!over.ok && over.code).toBe('OUT_OF_RANGE');
    expect(parseU256((1n << 256n).toString(), 'parallel_nonce').ok).toBe(false);
    expect(parseU256(((1n << 256n) - 1n).toString(), 'parallel_nonce').ok).toBe(true);
  });

  it('reads both nonce forms', () => {
    expect(parseNonceDecimal('7')).toEqual({ ok: true, value: 7n });
    expect(parseNonceHex('0x0')).toEqual({ ok: true, value: 0n });
    expect(parseNonceHex('0x1f')).toEqual({ ok: true, value: 31n });
    expect(parseNonceHex('0xg').ok).toBe(false);
  });

  it('reads chain_id from hex, zero included', () => {
    expect(parseChainId('0x0')).toEqual({ ok: true, value: 0n });
    expect(parseChainId('0x00000000')).toEqual({ ok: true, value: 0n });
    expect(parseChainId('0x2a')).toEqual({ ok: true, value: 42n });
    expect(parseChainId('')).toMatchObject({ ok: false, code: 'INVALID_INTEGER' });
  });
});
