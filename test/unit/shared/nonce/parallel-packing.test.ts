import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { packParallelNonce, unpackParallelNonce, type ParallelNonceFields } from '../../../../shared/nonce/parallel-packing';
import { checkProperty } from '../../../support/property';

const fields = fc.record({
  lane: fc.integer({ min: 0, max: 4 }),
  expiry: fc.bigInt({ min: 0n, max: 0xffff_ffffn }),
  word_position: fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }),
  bit_position: fc.integer({ min: 0, max: 127 }),
});

describe('parallel nonce packing (spec 2.7)', () => {
  it('known answer: lane 1, expiry 1700000120, word 4, bit 5', () => {
    const packed = packParallelNonce({ lane: 1, expiry: 1_700_000_120n, word_position: 4n, bit_position: 5 });
    expect(packed.ok && packed.value.toString(16).padStart(64, '0')).toBe('00000000000000000000016553f1780000000000000000000000000000000405');
    expect(packed).toEqual({ ok: true, value: (1n << 168n) + (1_700_000_120n << 136n) + (4n << 8n) + 5n });
  });

  it('round-trips every valid field set', () => {
    checkProperty(
      fc.property(fields, (value: ParallelNonceFields) => {
        const packed = packParallelNonce(value);
        expect(packed.ok).toBe(true);
        if (packed.ok) {
          expect(packed.value >> 176n).toBe(0n);
          expect(unpackParallelNonce(packed.value)).toEqual({ ok: true, value });
        }
      }),
    );
  });

  it.each([
    ['lane 5', { lane: 5, expiry: 0n, word_position: 0n, bit_position: 0 }, 'lane'],
    ['bit 128', { lane: 0, expiry: 0n, word_position: 0n, bit_position: 128 }, 'bit_position'],
    ['expiry beyond u32', { lane: 0, expiry: 1n << 32n, word_position: 0n, bit_position: 0 }, 'expiry'],
    ['word beyond 128 bits', { lane: 0, expiry: 0n, word_position: 1n << 128n, bit_position: 0 }, 'word_position'],
  ])('refuses to pack %s', (_name, value, field) => {
    expect(packParallelNonce(value)).toMatchObject({ ok: false, code: 'INVALID_PARALLEL_NONCE', details: { field } });
  });

  it('refuses to unpack reserved bits, a lane above 4, a bit above 127', () => {
    expect(unpackParallelNonce(1n << 176n)).toMatchObject({ ok: false, code: 'INVALID_PARALLEL_NONCE' });
    expect(unpackParallelNonce(1n << 255n)).toMatchObject({ ok: false, code: 'INVALID_PARALLEL_NONCE' });
    expect(unpackParallelNonce(5n << 168n)).toMatchObject({ ok: false, code: 'INVALID_PARALLEL_NONCE' });
    expect(unpackParallelNonce(128n)).toMatchObject({ ok: false, code: 'INVALID_PARALLEL_NONCE' });
    expect(unpackParallelNonce(1n << 256n)).toMatchObject({ ok: false, code: 'INVALID_PARALLEL_NONCE' });
  });
});
