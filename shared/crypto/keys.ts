// secp256k1 keys. Randomness is a parameter so key generation is testable and the caller
// decides the source (main passes the platform CSPRNG).
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { hexToBytes } from '../encoding/hex';
import { BugError, fail, ok, type Result } from '../result';

/** Returns `length` bytes from a cryptographically secure source. */
export type RandomBytes = (length: number) => Uint8Array;

export const INVALID_PRIVATE_KEY = 'INVALID_PRIVATE_KEY';
export const INVALID_PUBLIC_KEY = 'INVALID_PUBLIC_KEY';

const MAXIMUM_ATTEMPTS = 64;

export function isValidPrivateKey(privateKey: Uint8Array): boolean {
  return privateKey.length === 32 && secp256k1.utils.isValidSecretKey(privateKey);
}

/**
 * A new private key: 32 random bytes, redrawn while they are not a valid scalar (zero or >= n).
 * Rejection keeps the distribution uniform; failing 64 draws in a row means a broken source.
 */
export function generatePrivateKey(random: RandomBytes): Uint8Array {
  for (let attempt = 0; attempt < MAXIMUM_ATTEMPTS; attempt++) {
    const candidate = random(32);
    if (candidate.length !== 32) throw new BugError(`random(32) returned ${candidate.length} bytes`);
    if (isValidPrivateKey(candidate)) return Uint8Array.from(candidate);
  }
  throw new BugError('the random source produced no valid secp256k1 scalar in 64 draws');
}

/** Parse a private key from hex (`0x` optional). */
export function parsePrivateKey(value: unknown, field: string): Result<Uint8Array> {
  const bytes = hexToBytes(value, field, { prefix: 'optional', length: 32 });
  if (!bytes.ok) return fail(INVALID_PRIVATE_KEY, bytes.message, { field });
  if (!isValidPrivateKey(bytes.value)) return fail(INVALID_PRIVATE_KEY, `${field}: not a valid secp256k1 private key (zero or not below the group order)`, { field });
  return ok(bytes.value);
}

/** The 65-byte uncompressed public key (0x04 ‖ x ‖ y). */
export function publicKeyOf(privateKey: Uint8Array): Uint8Array {
  if (!isValidPrivateKey(privateKey)) throw new BugError('publicKeyOf: invalid private key');
  return secp256k1.getPublicKey(privateKey, false);
}

/** Normalise a public key given compressed (33), uncompressed (65) or raw (64, no 0x04) to 65 bytes. */
export function normalisePublicKey(publicKey: Uint8Array): Result<Uint8Array> {
  try {
    const encoded = publicKey.length === 64 ? Uint8Array.from([4, ...publicKey]) : publicKey;
    return ok(secp256k1.Point.fromBytes(encoded).toBytes(false));
  } catch {
    return fail(INVALID_PUBLIC_KEY, `public key: not a point on secp256k1 (${publicKey.length} bytes)`);
  }
}
