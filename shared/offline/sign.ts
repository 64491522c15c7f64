// The offline side: verify the request, check the key is the owner's, sign the digest rebuilt
// from the fields (never the digest written in the file), check the signature recovers to the
// owner, and answer. The caller owns the key bytes and wipes them; nothing here keeps a copy.
import { addressOf } from '../crypto/address';
import { publicKeyOf } from '../crypto/keys';
import { signDigest, verifySignature } from '../crypto/signature';
import { bytesToPrefixedHex } from '../encoding/hex';
import { BugError, fail, ok, type Result } from '../result';
import { OFFLINE_CODES } from './codes';
import { RESPONSE_VERSION, type OfflineResponse } from './response-format';
import type { VerifiedRequest } from './verify-request';

/** Refuse unless `signerAddress` (the key at hand, in the owner's style) is the request's owner. */
export function checkSignerIsOwner(verified: VerifiedRequest, signerAddress: string): Result<void> {
  const owner = verified.request.owner.address;
  if (signerAddress !== owner) {
    return fail(
      OFFLINE_CODES.WRONG_OWNER,
      `request.owner.address: the request is for owner ${owner}, but this key is ${signerAddress}; use that owner's keystore`,
      { field: 'request.owner.address', expected: owner, actual: signerAddress },
    );
  }
  return ok(undefined);
}

/** Sign a verified request with the owner's key. */
export function signVerifiedRequest(verified: VerifiedRequest, privateKey: Uint8Array): Result<OfflineResponse> {
  const { request } = verified;
  const signer = addressOf(publicKeyOf(privateKey), request.owner.style);
  const owner = checkSignerIsOwner(verified, signer);
  if (!owner.ok) return owner;
  const signature = signDigest(verified.digest, privateKey);
  // A signature that does not verify here would be refused by the service (code 4000); that is a
  // bug in this build, not something to hand to a person to carry across.
  const check = verifySignature(signature, verified.digest, request.owner.address, request.owner.style);
  if (!check.ok) throw new BugError(`the signature just made does not verify: ${check.message}`);
  return ok({ version: RESPONSE_VERSION, request_id: request.request_id, request_hash: verified.hash, signature: bytesToPrefixedHex(signature), signer });
}
