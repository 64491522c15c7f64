// The wire's decimal conversion: its digit-by-digit path for short decimals accepts and refuses
// exactly what the unsigned-decimal pattern with BigInt's parser does, at every length and bound.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalValue, u64Schema } from '../../../../shared/api/primitives';
import { U64_MAX } from '../../../../shared/encoding/decimal';
import { checkProperty } from '../../../support/property';

/** The definition: an unsigned decimal integer (digits only, at least one) no larger than `max`. */
function reference(text: string, max: bigint): bigint | null {
  if (!/^[0-9]+$/.test(text)) return null;
  const value = BigInt(text);
  return value > max ? null : value;
}

const alphabet = ['0', '1', '5', '9', '/', ':', '-', '+', ' ', '.', 'e', 'x', '\n', '٣', '０', '\u0000'];

describe('decimalValue', () => {
  it('reads the short and long decimals, refuses what is not one', () => {
    expect(decimalValue('0', U64_MAX)).toBe(0n);
    expect(decimalValue('007', U64_MAX)).toBe(7n);
    expect(decimalValue('999999999999999', U64_MAX)).toBe(999_999_999_999_999n);
    expect(decimalValue('9007199254740993', U64_MAX)).toBe(9_007_199_254_740_993n);
    expect(decimalValue(U64_MAX.toString(), U64_MAX)).toBe(U64_MAX);
    expect(decimalValue((U64_MAX + 1n).toString(), U64_MAX)).toBeNull();
    expect(decimalValue('101', 100n)).toBeNull();
    for (const bad of ['', ' 1', '1 ', '1\n', '-1', '+1', '1.0', '1e3', '0x10', '١', '１', '12a']) expect(decimalValue(bad, U64_MAX), JSON.stringify(bad)).toBeNull();
  });

  it('agrees with the pattern and BigInt on any string and bound', () => {
    checkProperty(
      fc.property(
        fc.oneof(fc.array(fc.constantFrom(...alphabet), { maxLength: 24 }).map((chars) => chars.join('')), fc.bigInt({ min: 0n, max: 10n ** 22n }).map(String), fc.string({ maxLength: 18 })),
        fc.oneof(fc.constant(U64_MAX), fc.bigInt({ min: 0n, max: 10n ** 20n })),
        (text, max) => {
          expect(decimalValue(text, max)).toBe(reference(text, max));
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it('the schema names the problem of a refused short decimal', () => {
    expect(u64Schema.safeParse('12a').success).toBe(false);
    expect(u64Schema.safeParse('123').data).toBe(123n);
  });
});
