// Both machines run this on every request: the offline signer before it shows or signs anything,
// the online terminal before it accepts a signature for it. The message bytes and digest are
// rebuilt from the fields with shared/protocol (never taken from the file), so a request whose
// stated bytes, digest or words were altered is refused instead of signed.
import { ownerStyleOf } from '../crypto/address';
import { personalSignDigest } from '../crypto/digest';
import { U256_MAX, U64_MAX } from '../encoding/decimal';
import { bytesToPrefixedHex, hexToBytes } from '../encoding/hex';
import { unpackParallelNonce } from '../nonce/parallel-packing';
import { parallelNonce, sequentialNonce, type NonceChoice } from '../protocol/nonce-choice';
import type { ContractCall } from '../protocol/call';
import { ownerCallsMessage, upgradeMessage, withdrawMessage } from '../protocol/owner-messages';
import { checkSessionGrant, MINIMUM_SESSION_SECONDS, sessionMessage, type SessionGrant } from '../protocol/session';
import { BugError, fail, ok, type Result } from '../result';
import { OFFLINE_CODES } from './codes';
import { describeRequestFields, formatUnixSeconds } from './describe';
import { parseOfflineRequest, requestHash, type OfflineContractCall, type OfflineNonce, type OfflineOwnerCallRequest, type OfflineRequest, type OfflineSessionRequest } from './request-format';

/** A person carries the request across; a day is the default lifetime (see build-request.ts). */
export const DEFAULT_REQUEST_LIFETIME_SECONDS = 24n * 3_600n;
/** A longer-lived request is a signed instruction lying around; a week is the ceiling. */
export const MAXIMUM_REQUEST_LIFETIME_SECONDS = 7n * 24n * 3_600n;
/** The two machines' clocks may disagree a little; an air-gapped clock often drifts. */
export const DEFAULT_CLOCK_SKEW_SECONDS = 300n;

export interface VerifyOptions {
  /** This machine's time, unix seconds. */
  readonly nowSeconds: bigint;
  readonly clockSkewSeconds?: bigint;
  readonly maximumLifetimeSeconds?: bigint;
}

export interface VerifiedRequest {
  readonly request: OfflineRequest;
  /** requestHash(request). */
  readonly hash: string;
  /** The rebuilt message and digest (equal to the stated ones). */
  readonly message: Uint8Array;
  readonly digest: Uint8Array;
  /** Things a person should know that do not make the request invalid. */
  readonly warnings: readonly string[];
}

/** The nonce as shared/protocol takes it. */
export function nonceChoiceOf(nonce: OfflineNonce): NonceChoice {
  return nonce.kind === 'sequential' ? sequentialNonce(nonce.value) : parallelNonce(nonce.value);
}

/** The session grant a session request signs. */
export function sessionGrantOf(request: OfflineSessionRequest): SessionGrant {
  return {
    nonce: request.nonce.value,
    chain_id: request.chain_id,
    session_address: request.session.session_address,
    expiry: request.session.expiry,
    contract_ids: request.session.contract_ids,
  };
}

/** A call of an owner-call request as shared/protocol takes it. */
export function contractCallOf(call: OfflineContractCall): ContractCall {
  let data: Uint8Array | null = null;
  if (call.call_data !== null) {
    const bytes = hexToBytes(call.call_data, 'call_data');
    // The schema admits only 0x and whole bytes of lowercase hex.
    if (!bytes.ok) throw new BugError(`a parsed call_data is not hex: ${bytes.message}`);
    data = bytes.value;
  }
  return { contract_id: call.contract_id, selector: call.selector, forwarded_amount: call.forwarded_amount, forwarded_asset_id: call.forwarded_asset_id, gas: call.gas, call_data: data };
}

/** The calls an owner-call request signs, as shared/protocol takes them. */
export function contractCallsOf(request: OfflineOwnerCallRequest): ContractCall[] {
  return request.owner_call.calls.map(contractCallOf);
}

/** The message bytes the fields imply, built by shared/protocol (the only encoder). */
export function rebuildMessage(request: OfflineRequest): Uint8Array {
  const envelope = { nonce: nonceChoiceOf(request.nonce), chain_id: request.chain_id };
  if (request.kind === 'withdraw') {
    const { to, amount, asset_id } = request.withdraw;
    return withdrawMessage(envelope, { to, amount, asset_id });
  }
  if (request.kind === 'owner-call') {
    // Rebuilt from the calls alone: the method name and parameters are the online terminal's words.
    return request.owner_call.endpoint === 'upgrade' ? upgradeMessage(envelope) : ownerCallsMessage(envelope, contractCallsOf(request));
  }
  return sessionMessage(sessionGrantOf(request));
}

function checkRanges(request: OfflineRequest): Result<void> {
  const u64Fields: [string, bigint][] = [['request.chain_id', request.chain_id]];
  if (request.nonce.kind === 'sequential') u64Fields.push(['request.nonce.value', request.nonce.value]);
  if (request.kind === 'withdraw') u64Fields.push(['request.withdraw.amount', request.withdraw.amount]);
  else if (request.kind === 'session') u64Fields.push(['request.session.expiry', request.session.expiry]);
  else {
    request.owner_call.calls.forEach((call, index) => {
      u64Fields.push([`request.owner_call.calls[${index}].amount`, call.forwarded_amount], [`request.owner_call.calls[${index}].gas`, call.gas]);
    });
  }
  for (const [field, value] of u64Fields) {
    if (value > U64_MAX) return fail(OFFLINE_CODES.MALFORMED, `${field}: ${value} does not fit in 64 bits (largest ${U64_MAX})`, { field });
  }
  if (request.nonce.kind === 'parallel' && request.nonce.value > U256_MAX) {
    return fail(OFFLINE_CODES.MALFORMED_NONCE, `request.nonce.value: ${request.nonce.value} does not fit in 256 bits`, { field: 'request.nonce.value' });
  }
  return ok(undefined);
}

function checkNonce(request: OfflineRequest): Result<void> {
  const nonce = request.nonce;
  if (request.kind === 'session' && nonce.kind !== 'sequential') {
    return fail(
      OFFLINE_CODES.MALFORMED_NONCE,
      `request.nonce.kind: a session message carries the account's sequential nonce (spec 5.6), got "${nonce.kind}"`,
      { field: 'request.nonce.kind' },
    );
  }
  if (nonce.kind === 'sequential') return ok(undefined);
  const unpacked = unpackParallelNonce(nonce.value);
  if (!unpacked.ok) return fail(OFFLINE_CODES.MALFORMED_NONCE, `request.nonce.value: ${unpacked.message}`, { field: 'request.nonce.value' });
  const fields = unpacked.value;
  const compared: [string, string, string][] = [
    ['lane', String(nonce.lane), String(fields.lane)],
    ['word_position', nonce.word_position.toString(), fields.word_position.toString()],
    ['bit_position', String(nonce.bit_position), String(fields.bit_position)],
    ['expiry', nonce.expiry.toString(), fields.expiry.toString()],
  ];
  for (const [name, stated, packed] of compared) {
    if (stated !== packed) {
      return fail(
        OFFLINE_CODES.MALFORMED_NONCE,
        `request.nonce.${name}: stated ${stated}, but the packed nonce ${nonce.value} holds ${packed}`,
        { field: `request.nonce.${name}` },
      );
    }
  }
  return ok(undefined);
}

function firstDifference(left: string, right: string): number {
  let index = 0;
  while (index < left.length && index < right.length && left[index] === right[index]) index++;
  return index;
}

function checkIntegrity(request: OfflineRequest): Result<{ message: Uint8Array; digest: Uint8Array }> {
  const message = rebuildMessage(request);
  const messageHex = bytesToPrefixedHex(message);
  if (messageHex !== request.message) {
    const byte = Math.floor((firstDifference(messageHex, request.message) - 2) / 2);
    return fail(
      OFFLINE_CODES.MESSAGE_MISMATCH,
      `request.message: the stated bytes differ from the bytes rebuilt from the fields (first difference at byte ${byte}; ` +
        `stated ${(request.message.length - 2) / 2} bytes, rebuilt ${message.length}): the request was altered after it was made; do not sign it`,
      { field: 'request.message', byte },
    );
  }
  const digest = personalSignDigest(message, request.owner.style);
  const digestHex = bytesToPrefixedHex(digest);
  if (digestHex !== request.digest) {
    return fail(
      OFFLINE_CODES.DIGEST_MISMATCH,
      `request.digest: stated ${request.digest}, but the ${request.owner.style}-style personal-sign digest of the message is ${digestHex}: ` +
        'the request was altered after it was made; do not sign it',
      { field: 'request.digest' },
    );
  }
  const description = describeRequestFields(request);
  if (description !== request.description) {
    return fail(
      OFFLINE_CODES.DESCRIPTION_MISMATCH,
      `request.description: stated ${JSON.stringify(request.description)}, but the fields say ${JSON.stringify(description)}: ` +
        'the words were altered after the request was made; do not sign it',
      { field: 'request.description' },
    );
  }
  return ok({ message, digest });
}

function checkTime(request: OfflineRequest, options: VerifyOptions): Result<void> {
  const now = options.nowSeconds;
  const skew = options.clockSkewSeconds ?? DEFAULT_CLOCK_SKEW_SECONDS;
  const maximum = options.maximumLifetimeSeconds ?? MAXIMUM_REQUEST_LIFETIME_SECONDS;
  const { created_at: created, expires_at: expires } = request;
  if (expires <= created) {
    return fail(OFFLINE_CODES.BAD_LIFETIME, `request.expires_at: ${expires} is not after created_at ${created}`, { field: 'request.expires_at' });
  }
  if (expires - created > maximum) {
    return fail(
      OFFLINE_CODES.BAD_LIFETIME,
      `request.expires_at: the request would live ${expires - created} seconds, more than the ${maximum} allowed`,
      { field: 'request.expires_at' },
    );
  }
  if (created > now + skew) {
    return fail(
      OFFLINE_CODES.NOT_YET_VALID,
      `request.created_at: ${formatUnixSeconds(created)} (${created}) is ${created - now} seconds ahead of this machine's clock ` +
        `(${formatUnixSeconds(now)}); check the clocks of both machines`,
      { field: 'request.created_at' },
    );
  }
  if (now >= expires) {
    return fail(
      OFFLINE_CODES.EXPIRED,
      `request.expires_at: the request expired at ${formatUnixSeconds(expires)} (${expires}), ${now - expires} seconds ago; ` +
        'make a fresh request on the online terminal',
      { field: 'request.expires_at' },
    );
  }
  if (request.nonce.kind === 'parallel' && request.nonce.expiry < expires) {
    return fail(
      OFFLINE_CODES.NONCE_EXPIRY,
      `request.nonce.expiry: the parallel nonce is unusable after ${formatUnixSeconds(request.nonce.expiry)} (${request.nonce.expiry}), ` +
        `before the request expires at ${expires}; the online terminal must issue it with a longer expiry`,
      { field: 'request.nonce.expiry' },
    );
  }
  return ok(undefined);
}

/** The shape each endpoint's body needs: upgrade signs no call, call exactly one, calls and actions at least one. */
function checkOwnerCall(request: OfflineOwnerCallRequest): Result<void> {
  const { endpoint, implementation, calls, parameters } = request.owner_call;
  const refuse = (field: string, message: string) => fail(OFFLINE_CODES.INVALID_FIELD, `request.owner_call.${field}: ${message}`, { field: `request.owner_call.${field}` });
  if (endpoint === 'upgrade') {
    if (implementation === null) return refuse('implementation', 'an upgrade names the implementation the exchange publishes');
    if (calls.length > 0) return refuse('calls', `an upgrade signs no call, got ${calls.length}`);
  } else {
    if (implementation !== null) return refuse('implementation', `only an upgrade names an implementation, not ${endpoint}`);
    if (calls.length === 0) return refuse('calls', `POST /v1/accounts/${endpoint} signs at least one call`);
    if (endpoint === 'call' && calls.length !== 1) return refuse('calls', `POST /v1/accounts/call signs exactly one call, got ${calls.length}`);
  }
  const names = new Set<string>();
  for (const [index, parameter] of parameters.entries()) {
    if (names.has(parameter.name)) return refuse(`parameters[${index}].name`, `${parameter.name} is stated twice`);
    names.add(parameter.name);
  }
  return ok(undefined);
}

function checkKind(request: OfflineRequest, now: bigint): Result<void> {
  if (request.kind === 'owner-call') return checkOwnerCall(request);
  if (request.kind === 'withdraw') {
    if (request.withdraw.amount === 0n) {
      return fail(OFFLINE_CODES.INVALID_FIELD, 'request.withdraw.amount: a withdrawal of 0 raw units does nothing', { field: 'request.withdraw.amount' });
    }
    return ok(undefined);
  }
  const checked = checkSessionGrant(sessionGrantOf(request), now);
  if (!checked.ok) return fail(OFFLINE_CODES.INVALID_FIELD, `request.session: ${checked.message}`, { field: 'request.session', reason: checked.code });
  return ok(undefined);
}

function warningsFor(request: OfflineRequest): string[] {
  const warnings: string[] = [];
  if (request.nonce.kind === 'sequential') {
    warnings.push(
      `Sequential nonce ${request.nonce.value}: on the ledger this signature stays usable until the account's nonce moves past ` +
        `${request.nonce.value}; the expiry above is enforced only by the two terminals.`,
    );
  }
  if (request.kind === 'owner-call') {
    warnings.push('The method name and parameters are stated by the online terminal and are not signed; the calls are what is signed: read them.');
    if (request.owner_call.endpoint === 'upgrade') {
      warnings.push('An upgrade signature carries no implementation: the exchange moves the account to the implementation its oracle publishes, whatever the request names.');
    }
    const forwarding = request.owner_call.calls.findIndex((call) => call.forwarded_amount > 0n);
    if (forwarding >= 0) warnings.push(`Call ${forwarding + 1} forwards funds from the trading account: check its amount and asset.`);
  }
  if (request.kind === 'session' && request.session.expiry < request.expires_at + MINIMUM_SESSION_SECONDS) {
    warnings.push('The session expiry is less than one hour after the request expires: submitted late, the service would refuse it.');
  }
  return warnings;
}

/**
 * Check a parsed request: owner style, nonce, the rebuilt message, digest and words, its times,
 * and what the service would refuse. Returns the rebuilt bytes for signing or verification.
 */
export function verifyParsedRequest(request: OfflineRequest, options: VerifyOptions): Result<VerifiedRequest> {
  const impliedStyle = ownerStyleOf(request.owner.address);
  if (impliedStyle !== request.owner.style) {
    return fail(
      OFFLINE_CODES.STYLE_MISMATCH,
      `request.owner.style: stated "${request.owner.style}", but the service treats ${request.owner.address} as ${impliedStyle}-style ` +
        '(an address whose first 12 bytes are zero is EVM-style)',
      { field: 'request.owner.style' },
    );
  }
  const ranges = checkRanges(request);
  if (!ranges.ok) return ranges;
  const nonce = checkNonce(request);
  if (!nonce.ok) return nonce;
  const integrity = checkIntegrity(request);
  if (!integrity.ok) return integrity;
  const time = checkTime(request, options);
  if (!time.ok) return time;
  const kind = checkKind(request, options.nowSeconds);
  if (!kind.ok) return kind;
  return ok({ request, hash: requestHash(request), message: integrity.value.message, digest: integrity.value.digest, warnings: warningsFor(request) });
}

/** Parse then verify a request document. */
export function verifyOfflineRequest(value: unknown, options: VerifyOptions): Result<VerifiedRequest> {
  const parsed = parseOfflineRequest(value);
  return parsed.ok ? verifyParsedRequest(parsed.value, options) : parsed;
}
