import { describe, expect, it } from 'vitest';
import { generatePrivateKey, parsePrivateKey, publicKeyOf } from '../../../../shared/crypto/keys';
import { BugError } from '../../../../shared/result';
import { curve, hex } from '../../../support/shared/crypto/independent';

const ORDER = BigInt(`0x${curve.n!.toString(16)}`);

describe('keys', () => {
  it('redraws random bytes that are not a valid scalar', () => {
    const draws = [new Uint8Array(32), Buffer.from(ORDER.toString(16), 'hex'), Buffer.from('11'.repeat(32), 'hex')];
    const key = generatePrivateKey(() => draws.shift()!);
    expect(hex(key)).toBe('11'.repeat(32));
    expect(draws).toHaveLength(0);
  });

  it('gives up on a broken source as a bug', () => {
    expect(() => generatePrivateKey(() => new Uint8Array(32))).toThrow(BugError);
    expect(() => generatePrivateKey(() => new Uint8Array(16))).toThrow(BugError);
  });

  it('derives the uncompressed public key (key 1 is the generator)', () => {
    const one = new Uint8Array(32);
    one[31] = 1;
    expect(hex(publicKeyOf(one))).toBe(`04${curve.g.getX().toString(16, 64)}${curve.g.getY().toString(16, 64)}`);
    expect(hex(publicKeyOf(one))).toBe(
      '0479be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8',
    );
  });

  it('parses a private key and refuses zero', () => {
    expect(parsePrivateKey(`0x${'11'.repeat(32)}`, 'key').ok).toBe(true);
    expect(parsePrivateKey('00'.repeat(32), 'key')).toMatchObject({ ok: false, code: 'INVALID_PRIVATE_KEY' });
    expect(parsePrivateKey('0x12', 'key')).toMatchObject({ ok: false, code: 'INVALID_PRIVATE_KEY' });
  });
});
