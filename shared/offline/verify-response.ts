// The online side, before it submits: the response must answer the pending request (same id,
// same hash of the request's canonical text), the request must still verify and be unexpired,
// and the signature must recover, in the owner's style over the personal-sign digest, to the
// owner. Only then is the body built, through shared/protocol.
import { verifySignature } from '../crypto/signature';
import { hexToBytes } from '../encoding/hex';
import { withdrawBody, type WithdrawBody } from '../protocol/owner-messages';
import { sessionBody, type SessionBody } from '../protocol/session';
import { BugError, fail, ok, type Result } from '../result';
import { OFFLINE_CODES } from './codes';
import type { OfflineRequest } from './request-format';
import { parseOfflineResponse, type OfflineResponse } from './response-format';
import { nonceChoiceOf, sessionGrantOf, verifyParsedRequest, type VerifiedRequest, type VerifyOptions } from './verify-request';

/**
 * For an owner call the body is left to the online terminal (`body: null`): the actions endpoint's
 * body names owner actions, which the signed calls do not give back, so main rebuilds it from its
 * own table and checks the rebuilt message equals the signed one (owner-requests.ts).
 */
export type OfflineRequestBody =
  | { readonly kind: 'withdraw'; readonly body: WithdrawBody }
  | { readonly kind: 'session'; readonly body: SessionBody }
  | { readonly kind: 'owner-call'; readonly body: null };

export interface AcceptedSignature {
  readonly verified: VerifiedRequest;
  readonly response: OfflineResponse;
  /** The 64 signature bytes (spec 5.4). */
  readonly signature: Uint8Array;
  /** The request body to submit (POST /v1/accounts/withdraw or PUT /v1/session; an owner call's is built by main). */
  readonly body: OfflineRequestBody;
}

/** The body of the request, signed. */
export function offlineRequestBody(request: OfflineRequest, signature: Uint8Array): OfflineRequestBody {
  if (request.kind === 'withdraw') {
    const { to, amount, asset_id } = request.withdraw;
    return { kind: 'withdraw', body: withdrawBody(request.trade_account_id, { nonce: nonceChoiceOf(request.nonce), chain_id: request.chain_id }, { to, amount, asset_id }, signature) };
  }
  if (request.kind === 'owner-call') return { kind: 'owner-call', body: null };
  return { kind: 'session', body: sessionBody(request.trade_account_id, sessionGrantOf(request), signature) };
}

/** Check a response against the request this terminal made and is waiting on. */
export function verifyOfflineResponse(pending: OfflineRequest, value: unknown, options: VerifyOptions): Result<AcceptedSignature> {
  const parsed = parseOfflineResponse(value);
  if (!parsed.ok) return parsed;
  const response = parsed.value;
  if (response.request_id !== pending.request_id) {
    return fail(
      OFFLINE_CODES.RESPONSE_MISMATCH,
      `response.request_id: this signature answers request ${response.request_id}, but the pending request is ${pending.request_id}`,
      { field: 'response.request_id' },
    );
  }
  const verified = verifyParsedRequest(pending, options);
  if (!verified.ok) return verified;
  if (response.request_hash !== verified.value.hash) {
    return fail(
      OFFLINE_CODES.RESPONSE_MISMATCH,
      `response.request_hash: the signer saw a request with hash ${response.request_hash}, but the pending request's hash is ` +
        `${verified.value.hash}: the request was altered on the way; do not submit`,
      { field: 'response.request_hash' },
    );
  }
  const owner = pending.owner.address;
  if (response.signer !== owner) {
    return fail(OFFLINE_CODES.WRONG_OWNER, `response.signer: signed by ${response.signer}, but the owner is ${owner}`, { field: 'response.signer' });
  }
  const signature = hexToBytes(response.signature, 'response.signature', { length: 64 });
  if (!signature.ok) throw new BugError(`a parsed signature is not 64 bytes of hex: ${signature.message}`);
  const check = verifySignature(signature.value, verified.value.digest, owner, pending.owner.style);
  if (!check.ok) {
    return fail(OFFLINE_CODES.SIGNATURE_INVALID, `response.signature: ${check.message} (over the ${pending.owner.style}-style digest ${pending.digest})`, {
      field: 'response.signature',
      reason: check.code,
    });
  }
  return ok({ verified: verified.value, response, signature: signature.value, body: offlineRequestBody(pending, signature.value) });
}
