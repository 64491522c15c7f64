// A signed request carries either the account's sequential nonce (u64, field `nonce`) or a packed
// parallel nonce (u256, field `parallel_nonce`, typed signature variant).
import type { SignatureVariant } from '../crypto/index';
import type { ByteWriter } from '../encoding/byte-writer';

export type NonceChoice = { readonly kind: 'sequential'; readonly value: bigint } | { readonly kind: 'parallel'; readonly value: bigint };

export function sequentialNonce(value: bigint): NonceChoice {
  return { kind: 'sequential', value };
}

export function parallelNonce(value: bigint): NonceChoice {
  return { kind: 'parallel', value };
}

/** u64 for a sequential nonce, u256 for a parallel one. */
export function writeNonce(writer: ByteWriter, nonce: NonceChoice): void {
  if (nonce.kind === 'sequential') writer.u64(nonce.value);
  else writer.u256(nonce.value);
}

/** The signature tag that goes with the nonce kind. */
export function signatureVariantFor(nonce: NonceChoice): SignatureVariant {
  return nonce.kind === 'sequential' ? 'Secp256k1' : 'TypedSecp256k1';
}

/** The body member carrying the nonce: `{nonce}` or `{parallel_nonce}`, decimal strings. */
export function nonceJson(nonce: NonceChoice): { nonce: string } | { parallel_nonce: string } {
  return nonce.kind === 'sequential' ? { nonce: nonce.value.toString() } : { parallel_nonce: nonce.value.toString() };
}
