// The online terminal builds a request here: fields in, message and digest computed by
// shared/protocol, words computed from the fields, and the result verified as the signer will
// verify it, so a request that leaves the terminal is one the signer accepts.
import type { RandomBytes } from '../crypto/keys';
import type { B256 } from '../encoding/b256';
import { bytesToHex, bytesToPrefixedHex } from '../encoding/hex';
import type { ContractCall } from '../protocol/call';
import type { Identity } from '../encoding/identity';
import { personalSignDigest } from '../crypto/digest';
import { unpackParallelNonce } from '../nonce/parallel-packing';
import type { NonceChoice } from '../protocol/nonce-choice';
import { BugError, fail, ok, type Result } from '../result';
import { OFFLINE_CODES } from './codes';
import { describeRequestFields } from './describe';
import {
  parseOfflineRequest,
  REQUEST_VERSION,
  requestToJson,
  type OfflineNonce,
  type OfflineOwner,
  type OfflineParameter,
  type OfflineRequest,
  type OwnerCallEndpoint,
} from './request-format';
import { DEFAULT_REQUEST_LIFETIME_SECONDS, rebuildMessage, verifyParsedRequest, type VerifiedRequest } from './verify-request';

export interface RequestCommon {
  readonly network: string;
  readonly chain_id: bigint;
  readonly owner: OfflineOwner;
  readonly trade_account_id: B256;
  /** Unix seconds. */
  readonly nowSeconds: bigint;
  /** How long the person has to carry it across and back; 24 hours by default. */
  readonly lifetimeSeconds?: bigint;
  /** Source of the request id. */
  readonly random: RandomBytes;
}

export interface WithdrawRequestInput extends RequestCommon {
  /**
   * Sequential, or a parallel nonce issued with an expiry at least as long as the lifetime
   * (ParallelNonceAllocator with ttlSeconds = offlineNonceTtlSeconds(lifetimeSeconds)).
   */
  readonly nonce: NonceChoice;
  readonly to: Identity;
  readonly amount: bigint;
  readonly asset: { readonly id: B256; readonly symbol: string; readonly decimals: number };
}

export interface SessionRequestInput extends RequestCommon {
  /** The account's current sequential nonce (the session message has no parallel form). */
  readonly nonce: bigint;
  readonly session_address: B256;
  /** Unix seconds. */
  readonly expiry: bigint;
  readonly contract_ids: readonly B256[];
}

export interface OwnerCallRequestInput extends RequestCommon {
  /** Sequential, or a parallel nonce issued as for a withdrawal (offlineNonceTtlSeconds). */
  readonly nonce: NonceChoice;
  /** The owner method's name and parameters, as the online terminal's table decoded them (not signed). */
  readonly method: string;
  readonly parameters: readonly OfflineParameter[];
  readonly endpoint: OwnerCallEndpoint;
  /** For an upgrade: the implementation the body names. */
  readonly implementation: B256 | null;
  /** The calls the message signs; none for an upgrade. */
  readonly calls: readonly ContractCall[];
}

/**
 * How long a parallel nonce for an offline request must live: the request's lifetime plus an hour
 * of slack for the trip back and the submission, well inside the u32 expiry field. Pass it to
 * `new ParallelNonceAllocator(lane, { ttlSeconds })` for the lane that serves offline requests.
 */
export function offlineNonceTtlSeconds(lifetimeSeconds: bigint = DEFAULT_REQUEST_LIFETIME_SECONDS): bigint {
  return lifetimeSeconds + 3_600n;
}

/** The TTL for the default 24-hour lifetime: 25 hours. */
export const OFFLINE_NONCE_TTL_SECONDS = offlineNonceTtlSeconds();

function offlineNonce(choice: NonceChoice): Result<OfflineNonce> {
  if (choice.kind === 'sequential') return ok({ kind: 'sequential', value: choice.value });
  const fields = unpackParallelNonce(choice.value);
  if (!fields.ok) return fail(OFFLINE_CODES.MALFORMED_NONCE, fields.message, fields.details);
  return ok({ kind: 'parallel', value: choice.value, ...fields.value });
}

function requestId(random: RandomBytes): string {
  const bytes = random(16);
  if (bytes.length !== 16) throw new BugError(`random(16) returned ${bytes.length} bytes`);
  return bytesToHex(bytes);
}

/**
 * Shape-check the draft exactly as the signer will parse it (labels, ids, ranges), then compute
 * the three derived fields from the fields themselves and verify the result.
 */
function seal(draft: OfflineRequest, nowSeconds: bigint): Result<VerifiedRequest> {
  const shaped = parseOfflineRequest(requestToJson(draft));
  if (!shaped.ok) return shaped;
  let message: Uint8Array;
  try {
    message = rebuildMessage(shaped.value);
  } catch (error) {
    // A value out of its wire range: the verification names the field.
    if (!(error instanceof BugError)) throw error;
    return verifyParsedRequest(shaped.value, { nowSeconds });
  }
  const sealed: OfflineRequest = {
    ...shaped.value,
    message: bytesToPrefixedHex(message),
    digest: bytesToPrefixedHex(personalSignDigest(message, draft.owner.style)),
    description: describeRequestFields(shaped.value),
  };
  return verifyParsedRequest(sealed, { nowSeconds });
}

function commonFields(input: RequestCommon) {
  return {
    version: REQUEST_VERSION,
    request_id: requestId(input.random),
    network: input.network,
    chain_id: input.chain_id,
    owner: input.owner,
    trade_account_id: input.trade_account_id,
    created_at: input.nowSeconds,
    expires_at: input.nowSeconds + (input.lifetimeSeconds ?? DEFAULT_REQUEST_LIFETIME_SECONDS),
    // Placeholders of the right shape; seal() replaces all three.
    message: '0x00',
    digest: `0x${'00'.repeat(32)}`,
    description: 'pending',
  } as const;
}

/** A withdraw request, verified as the signer will verify it. */
export function buildWithdrawRequest(input: WithdrawRequestInput): Result<VerifiedRequest> {
  const nonce = offlineNonce(input.nonce);
  if (!nonce.ok) return nonce;
  return seal(
    {
      ...commonFields(input),
      kind: 'withdraw',
      nonce: nonce.value,
      withdraw: { to: input.to, amount: input.amount, asset_id: input.asset.id, asset_symbol: input.asset.symbol, asset_decimals: input.asset.decimals },
    },
    input.nowSeconds,
  );
}

/** A session request (PUT /v1/session), verified as the signer will verify it. */
export function buildSessionRequest(input: SessionRequestInput): Result<VerifiedRequest> {
  return seal(
    {
      ...commonFields(input),
      kind: 'session',
      nonce: { kind: 'sequential', value: input.nonce },
      session: { session_address: input.session_address, expiry: input.expiry, contract_ids: [...input.contract_ids] },
    },
    input.nowSeconds,
  );
}

/** An owner-call request (POST /v1/accounts/upgrade, call, calls or actions), verified as the signer will verify it. */
export function buildOwnerCallRequest(input: OwnerCallRequestInput): Result<VerifiedRequest> {
  const nonce = offlineNonce(input.nonce);
  if (!nonce.ok) return nonce;
  return seal(
    {
      ...commonFields(input),
      kind: 'owner-call',
      nonce: nonce.value,
      owner_call: {
        method: input.method,
        endpoint: input.endpoint,
        implementation: input.implementation,
        parameters: input.parameters.map((parameter) => ({ name: parameter.name, value: parameter.value })),
        calls: input.calls.map((call) => ({
          contract_id: call.contract_id,
          selector: call.selector,
          forwarded_amount: call.forwarded_amount,
          forwarded_asset_id: call.forwarded_asset_id,
          gas: call.gas,
          call_data: call.call_data === null ? null : bytesToPrefixedHex(call.call_data),
        })),
      },
    },
    input.nowSeconds,
  );
}
