import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bytesToHex, bytesToPrefixedHex, hexToBytes } from '../../../../shared/encoding/hex';
import { checkProperty } from '../../../support/property';

describe('hex', () => {
  it('round-trips any bytes', () => {
    checkProperty(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const parsed = hexToBytes(bytesToPrefixedHex(bytes), 'value');
        expect(parsed.ok && Buffer.from(parsed.value).equals(Buffer.from(bytes))).toBe(true);
        expect(bytesToHex(bytes)).toBe(Buffer.from(bytes).toString('hex'));
      }),
    );
  });

  it('accepts upper case digits', () => {
    expect(hexToBytes('0xABcd', 'value')).toEqual({ ok: true, value: new Uint8Array([0xab, 0xcd]) });
  });

  it.each([
    ['abcd', 'expected a 0x-prefixed hex string'],
    ['0xabc', 'odd number of digits'],
    ['0xzz', 'not a hex digit at position 0'],
    ['0x0g', 'not a hex digit at position 1'],
    [12, 'expected a hex string'],
  ])('refuses %j naming the field', (value, reason) => {
    const result = hexToBytes(value, 'order_id');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.code).toBe('INVALID_HEX');
      expect(result.message).toContain('order_id');
      expect(result.message).toContain(reason);
    }
  });

  it('applies the prefix rule and the length', () => {
    expect(hexToBytes('abcd', 'value', { prefix: 'optional' }).ok).toBe(true);
    expect(hexToBytes('0xabcd', 'value', { prefix: 'forbidden' }).ok).toBe(false);
    const short = hexToBytes('0xabcd', 'asset_id', { length: 32 });
    expect(!short.ok && short.message).toBe('asset_id: expected 32 bytes, got 2 in "0xabcd"');
  });
});
