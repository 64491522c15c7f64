// Main signs orders with libsecp256k1 when its binary loads, and with shared/crypto otherwise. The two
// must be interchangeable to the byte: both are RFC 6979, low-s, recovery id in the top bit of
// byte 32. Anything else (no binary, a binding that answers differently or throws) keeps signing
// in JavaScript and says why.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chooseDigestSigner } from '../../../../main/platform/native-secp256k1';
import { addressOf } from '../../../../shared/crypto/address';
import { isValidPrivateKey, publicKeyOf } from '../../../../shared/crypto/keys';
import { recoverAddress, signDigest } from '../../../../shared/crypto/signature';
import { checkProperty } from '../../../support/property';

describe('the digest signer of main', () => {
  const chosen = chooseDigestSigner();

  it('is libsecp256k1 on this machine (its prebuilt binary ships in the package)', () => {
    expect(chosen).toMatchObject({ implementation: 'libsecp256k1', reason: null });
  });

  it('signs every key and digest to the same 64 bytes as shared/crypto, which recover to the signer', () => {
    checkProperty(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }).filter((key) => isValidPrivateKey(key)),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        (key, digest) => {
          const native = chosen.sign(digest, key);
          expect(Buffer.from(native).toString('hex')).toBe(Buffer.from(signDigest(digest, key)).toString('hex'));
          // recoverAddress refuses a high s (SIGNATURE_HIGH_S), so this also holds s low.
          expect(recoverAddress(native, digest, 'ledger')).toEqual({ ok: true, value: addressOf(publicKeyOf(key), 'ledger') });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses a digest that is not 32 bytes rather than signing it', () => {
    const key = new Uint8Array(32).fill(3);
    expect(() => chosen.sign(new Uint8Array(31), key)).toThrow(/32 bytes/);
  });

  it('falls back to shared/crypto, with the reason, when no binary loads', () => {
    const fallback = chooseDigestSigner(() => {
      throw new Error('No native build was found for platform=plan9 arch=mips');
    });
    expect(fallback.implementation).toBe('@noble/curves');
    expect(fallback.sign).toBe(signDigest);
    expect(fallback.reason).toMatch(/^no native secp256k1 for .*No native build was found/);
  });

  it('falls back when the binding signs a known answer differently, or throws', () => {
    const wrong = chooseDigestSigner(() => ({ ecdsaSign: () => ({ signature: new Uint8Array(64).fill(1), recid: 0 }) }));
    expect(wrong).toMatchObject({ implementation: '@noble/curves', reason: 'the native secp256k1 signed a known answer differently' });
    const throwing = chooseDigestSigner(() => ({
      ecdsaSign: () => {
        throw new Error('boom');
      },
    }));
    expect(throwing).toMatchObject({ implementation: '@noble/curves', reason: 'the native secp256k1 failed its self-check: boom' });
    expect(chooseDigestSigner(() => ({}))).toMatchObject({ implementation: '@noble/curves', reason: expect.stringContaining('the binding has no ecdsaSign') as string });
  });
});
