// The signature object of request bodies: `{Secp256k1: "0x<128 hex>"}`, or the typed variant
// `{TypedSecp256k1: …}` that goes with a parallel nonce. The service also knows Secp256r1 and
// Ed25519 variants; this client neither makes nor accepts them.
import { bytesToPrefixedHex, hexToBytes } from '../encoding/hex';
import { BugError, fail, ok, type Result } from '../result';
import { showValue } from '../schema';
import { INVALID_SIGNATURE, SIGNATURE_LENGTH } from './signature';

export type SignatureVariant = 'Secp256k1' | 'TypedSecp256k1';

export type SignatureJson = { readonly Secp256k1: string } | { readonly TypedSecp256k1: string };

export interface ParsedSignature {
  readonly variant: SignatureVariant;
  readonly bytes: Uint8Array;
}

export function signatureToJson(signature: Uint8Array, variant: SignatureVariant): SignatureJson {
  if (signature.length !== SIGNATURE_LENGTH) throw new BugError(`signature must be 64 bytes, got ${signature.length}`);
  const text = bytesToPrefixedHex(signature);
  return variant === 'Secp256k1' ? { Secp256k1: text } : { TypedSecp256k1: text };
}

export function parseSignatureJson(value: unknown, field: string): Result<ParsedSignature> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail(INVALID_SIGNATURE, `${field}: expected {Secp256k1} or {TypedSecp256k1}, got ${showValue(value)}`, { field });
  }
  const keys = Object.keys(value);
  const variant = keys[0];
  if (keys.length !== 1 || (variant !== 'Secp256k1' && variant !== 'TypedSecp256k1')) {
    return fail(INVALID_SIGNATURE, `${field}: expected exactly one key, Secp256k1 or TypedSecp256k1, got ${showValue(value)}`, { field });
  }
  const bytes = hexToBytes((value as Record<string, unknown>)[variant], `${field}.${variant}`, { length: SIGNATURE_LENGTH });
  if (!bytes.ok) return fail(INVALID_SIGNATURE, bytes.message, { field: `${field}.${variant}` });
  return ok({ variant, bytes: bytes.value });
}
