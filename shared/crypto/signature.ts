// 64-byte recoverable signatures (spec 5.4): r ‖ s, s low, the recovery id in the top bit of byte 32.
// Low s always leaves that bit free (s < n/2 < 2^255). We sign a digest we computed ourselves with
// `prehash: false`: @noble/curves v2 would otherwise SHA-256 it again, and a double-hashed signature
// recovers to a different address (the service answers code 4000).
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesEqual } from '../encoding/hex';
import type { B256 } from '../encoding/b256';
import { BugError, fail, ok, type Result } from '../result';
import { addressOf, type OwnerStyle } from './address';
import { isValidPrivateKey } from './keys';

export const SIGNATURE_LENGTH = 64;
export const INVALID_SIGNATURE = 'INVALID_SIGNATURE';
export const SIGNATURE_HIGH_S = 'SIGNATURE_HIGH_S';
export const SIGNATURE_MISMATCH = 'SIGNATURE_MISMATCH';

const HALF_ORDER = secp256k1.Point.Fn.ORDER >> 1n;

// Every order is signed on the hot path: a window-8 table for the base point roughly halves the
// cost of a signature (noble's default window is smaller to spare memory on small devices).
secp256k1.Point.BASE.precompute(8);

function checkDigest(digest: Uint8Array): void {
  if (digest.length !== 32) throw new BugError(`a digest is 32 bytes, got ${digest.length}`);
}

/** Sign a 32-byte digest; returns r ‖ s with the recovery id folded into byte 32. */
export function signDigest(digest: Uint8Array, privateKey: Uint8Array): Uint8Array {
  checkDigest(digest);
  if (!isValidPrivateKey(privateKey)) throw new BugError('signDigest: invalid private key');
  const recovered = secp256k1.sign(digest, privateKey, { prehash: false, lowS: true, format: 'recovered' });
  const recovery = recovered[0]!;
  // Ids 2 and 3 mean r overflowed the order (probability about 2^-128); one bit cannot carry them.
  if (recovery > 1) throw new BugError(`recovery id ${recovery} cannot be encoded in one bit`);
  const signature = recovered.slice(1);
  signature[32] = (recovery << 7) | (signature[32]! & 0x7f);
  return signature;
}

export interface DecodedSignature {
  readonly r: bigint;
  readonly s: bigint;
  readonly recovery: 0 | 1;
}

function toBigInt(bytes: Uint8Array): bigint {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  return value;
}

/** Split a 64-byte signature into r, s and the recovery id; refuse a high s (malleable form). */
export function decodeSignature(signature: Uint8Array): Result<DecodedSignature> {
  if (signature.length !== SIGNATURE_LENGTH) return fail(INVALID_SIGNATURE, `signature: expected 64 bytes, got ${signature.length}`);
  const recovery = (signature[32]! >> 7) as 0 | 1;
  const sBytes = signature.slice(32);
  sBytes[0] = sBytes[0]! & 0x7f;
  const r = toBigInt(signature.subarray(0, 32));
  const s = toBigInt(sBytes);
  const order = secp256k1.Point.Fn.ORDER;
  if (r === 0n || r >= order || s === 0n) return fail(INVALID_SIGNATURE, 'signature: r or s is out of range');
  if (s > HALF_ORDER) return fail(SIGNATURE_HIGH_S, 'signature: s is in the upper half of the order (high-s signatures are refused)');
  return ok({ r, s, recovery });
}

/** Recover the 65-byte uncompressed public key that signed `digest`. */
export function recoverPublicKey(signature: Uint8Array, digest: Uint8Array): Result<Uint8Array> {
  checkDigest(digest);
  const decoded = decodeSignature(signature);
  if (!decoded.ok) return decoded;
  try {
    const point = new secp256k1.Signature(decoded.value.r, decoded.value.s, decoded.value.recovery).recoverPublicKey(digest);
    return ok(point.toBytes(false));
  } catch {
    return fail(INVALID_SIGNATURE, 'signature: no public key recovers from it');
  }
}

/** Recover the signer's address in the given style. */
export function recoverAddress(signature: Uint8Array, digest: Uint8Array, style: OwnerStyle): Result<B256> {
  const publicKey = recoverPublicKey(signature, digest);
  return publicKey.ok ? ok(addressOf(publicKey.value, style)) : publicKey;
}

/** Verify that `signature` over `digest` was made by the key behind `address` (in `style`). */
export function verifySignature(signature: Uint8Array, digest: Uint8Array, address: B256, style: OwnerStyle): Result<void> {
  const recovered = recoverAddress(signature, digest, style);
  if (!recovered.ok) return recovered;
  if (recovered.value !== address) {
    return fail(SIGNATURE_MISMATCH, `signature recovers to ${recovered.value}, not to the expected ${address}`, { expected: address, recovered: recovered.value });
  }
  return ok(undefined);
}

/** Verify against a known public key (for example a session key held by main). */
export function verifyWithPublicKey(signature: Uint8Array, digest: Uint8Array, publicKey: Uint8Array): boolean {
  const recovered = recoverPublicKey(signature, digest);
  return recovered.ok && bytesEqual(recovered.value, secp256k1.Point.fromBytes(publicKey).toBytes(false));
}
