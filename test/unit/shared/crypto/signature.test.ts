import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { addressOf, ledgerAddress } from '../../../../shared/crypto/address';
import { personalSignDigest, sessionActionDigest } from '../../../../shared/crypto/digest';
import { isValidPrivateKey, publicKeyOf } from '../../../../shared/crypto/keys';
import { decodeSignature, recoverAddress, signDigest, verifySignature } from '../../../../shared/crypto/signature';
import { ascii, curve, ellipticSignDigest, hex, nodeSha256 } from '../../../support/shared/crypto/independent';
import { checkProperty } from '../../../support/property';

const key = Buffer.from('c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721', 'hex');
const address = ledgerAddress(publicKeyOf(key));
const digest = nodeSha256(ascii('session actions vector'));
const ORDER = BigInt(`0x${curve.n!.toString(16)}`);

const privateKeys = fc.uint8Array({ minLength: 32, maxLength: 32 }).filter(isValidPrivateKey);

describe('signatures', () => {
  it('known answer: r ‖ s with the recovery id in the top bit of byte 32, equal to elliptic', () => {
    const signature = signDigest(digest, key);
    expect(hex(signature)).toBe(
      'd54eac56c04984a1e892221bf0c2528b607dfd099c00a4cde450a8775e5e5e584a6ace5229a8884ea733b702e06d96a06b078e2f86d5899ba9e75274806f268e',
    );
    expect(hex(signature)).toBe(hex(ellipticSignDigest(digest, key)));
    expect(recoverAddress(signature, digest, 'ledger')).toEqual({ ok: true, value: address });
  });

  it('sign then recover gives the signer, for both owner styles (property)', () => {
    checkProperty(
      fc.property(privateKeys, fc.uint8Array({ maxLength: 200 }), fc.constantFrom('ledger' as const, 'evm' as const), (privateKey, message, style) => {
        const messageDigest = personalSignDigest(message, style);
        const signature = signDigest(messageDigest, privateKey);
        const expected = addressOf(publicKeyOf(privateKey), style);
        expect(verifySignature(signature, messageDigest, expected, style)).toEqual({ ok: true, value: undefined });
        expect(signature[32]! >> 7).toBe(ellipticSignDigest(messageDigest, privateKey)[32]! >> 7);
      }),
      { numRuns: 60 },
    );
  });

  it('a double-hashed signature does not recover to the signer', () => {
    // noble v2 hashes by default: this is the bug the protocol code must not have.
    const doubleHashed = secp256k1.sign(digest, key, { format: 'recovered' });
    const folded = doubleHashed.slice(1);
    folded[32] = (doubleHashed[0]! << 7) | (folded[32]! & 0x7f);
    const result = verifySignature(folded, digest, address, 'ledger');
    expect(result).toMatchObject({ ok: false, code: 'SIGNATURE_MISMATCH' });
    expect(hex(folded)).not.toBe(hex(signDigest(digest, key)));
  });

  it('a wrong recovery bit does not recover to the signer', () => {
    const signature = signDigest(digest, key);
    signature[32] = signature[32]! ^ 0x80;
    expect(verifySignature(signature, digest, address, 'ledger')).toMatchObject({ ok: false, code: 'SIGNATURE_MISMATCH' });
  });

  it('a signature over another message does not verify', () => {
    const other = sessionActionDigest(ascii('another message'));
    expect(verifySignature(signDigest(other, key), digest, address, 'ledger').ok).toBe(false);
  });

  it('refuses an s above half the order', () => {
    // The folded format masks the top bit, so only s in (n/2, 2^255) can be represented as high.
    const signature = Buffer.from(signDigest(digest, key));
    const high = Buffer.concat([signature.subarray(0, 32), Buffer.from(((ORDER >> 1n) + 1n).toString(16).padStart(64, '0'), 'hex')]);
    expect(decodeSignature(high)).toMatchObject({ ok: false, code: 'SIGNATURE_HIGH_S' });
    expect(verifySignature(high, digest, address, 'ledger')).toMatchObject({ ok: false, code: 'SIGNATURE_HIGH_S' });
  });

  it('the high-s twin of a valid signature does not verify', () => {
    const signature = Buffer.from(signDigest(digest, key));
    const recovery = signature[32]! >> 7;
    signature[32] = signature[32]! & 0x7f;
    const s = BigInt(`0x${signature.subarray(32).toString('hex')}`);
    const twin = Buffer.concat([signature.subarray(0, 32), Buffer.from((ORDER - s).toString(16).padStart(64, '0'), 'hex')]);
    // A signer that skips normalisation would OR the flipped recovery id into an already high byte.
    twin[32] = twin[32]! | ((recovery ^ 1) << 7);
    expect(verifySignature(twin, digest, address, 'ledger').ok).toBe(false);
  });

  it('refuses malformed signatures as data', () => {
    expect(decodeSignature(new Uint8Array(63))).toMatchObject({ ok: false, code: 'INVALID_SIGNATURE' });
    expect(decodeSignature(new Uint8Array(64))).toMatchObject({ ok: false, code: 'INVALID_SIGNATURE' });
  });
});
