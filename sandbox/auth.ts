// Signature checks of signed requests, by recovery (spec 5.4-5.8): the 64-byte signature must
// recover, with low s, to the expected address. Any failure, including a wrong recovery bit or
// a digest hashed twice by the client, is code 4000.
import type { B256 } from '../shared/encoding/b256';
import { hexToBytes } from '../shared/encoding/hex';
import { verifySignature, type OwnerStyle, type SignatureVariant } from '../shared/crypto/index';
import { ErrorCode, refusal, type Refusal } from './http/errors';

/** A signature as shared/api's signatureSchema parses it. */
export interface SignatureInput {
  readonly variant: SignatureVariant;
  readonly hex: string;
}

export function checkSignature(signature: SignatureInput, expectedVariant: SignatureVariant, digest: Uint8Array, address: B256, style: OwnerStyle, who: string): Refusal | undefined {
  if (signature.variant !== expectedVariant) {
    const why = expectedVariant === 'TypedSecp256k1' ? 'a parallel nonce is signed with the typed variant' : 'a sequential nonce is signed with the plain variant';
    return refusal(ErrorCode.BAD_SIGNATURE, `signature: ${why} ${expectedVariant}, got ${signature.variant}`);
  }
  const bytes = hexToBytes(signature.hex, `signature.${signature.variant}`, { length: 64 });
  if (!bytes.ok) return refusal(ErrorCode.BAD_SIGNATURE, bytes.message);
  const verified = verifySignature(bytes.value, digest, address, style);
  if (!verified.ok) return refusal(ErrorCode.BAD_SIGNATURE, `signature: does not recover to the ${who} ${address} (${verified.message})`);
  return undefined;
}
