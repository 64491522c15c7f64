// The request an online terminal exports for an owner-signed message (withdraw, session, owner call), carried
// to the offline signer as a file or an animated QR. Version 1, JSON, canonical (canonical-json.ts).
// Parsing is strict: an unknown key, a missing key, uppercase hex or a non-canonical integer is
// refused with the field named, so one request has one text and one hash.
// This module only checks shape; verify-request.ts rebuilds and compares the bytes.
import { z } from 'zod';
import type { OwnerStyle } from '../crypto/address';
import type { B256 } from '../encoding/b256';
import { identityToJson, type Identity } from '../encoding/identity';
import { fail, ok, type Result } from '../result';
import { parseWith, showValue } from '../schema';
import { canonicalHash, type CanonicalValue } from './canonical-json';
import { OFFLINE_CODES } from './codes';

export const REQUEST_FORMAT = 'ledger-terminal/offline-request';
export const REQUEST_VERSION = 1;

export type OfflineRequestKind = 'withdraw' | 'session' | 'owner-call';

/** The owner endpoints beyond withdraw (spec 4.2): POST /v1/accounts/{upgrade,call,calls,actions}. */
export type OwnerCallEndpoint = 'upgrade' | 'call' | 'calls' | 'actions';

export interface OfflineOwner {
  readonly address: B256;
  readonly style: OwnerStyle;
}

export type OfflineNonce =
  | { readonly kind: 'sequential'; readonly value: bigint }
  | {
      readonly kind: 'parallel';
      /** The packed u256 (spec 2.7), what the message and the body carry. */
      readonly value: bigint;
      /** Unpacked for the person reading it; must equal the packed value's fields. */
      readonly lane: number;
      readonly word_position: bigint;
      readonly bit_position: number;
      /** Unix seconds; the ledger refuses the nonce after it. */
      readonly expiry: bigint;
    };

export interface OfflineWithdraw {
  readonly to: Identity;
  /** Raw units of the asset. */
  readonly amount: bigint;
  readonly asset_id: B256;
  /** Display label supplied by the online machine; not signed (see checkAssetLabels). */
  readonly asset_symbol: string;
  readonly asset_decimals: number;
}

export interface OfflineSession {
  /** Ledger-style address of the session key. */
  readonly session_address: B256;
  /** Unix seconds. */
  readonly expiry: bigint;
  readonly contract_ids: readonly B256[];
}

/** One contract call as the owner message encodes it (shared/protocol/call.ts). */
export interface OfflineContractCall {
  readonly contract_id: B256;
  /** The function name, as the message carries it. */
  readonly selector: string;
  /** Raw units of forwarded_asset_id sent with the call. */
  readonly forwarded_amount: bigint;
  readonly forwarded_asset_id: B256;
  readonly gas: bigint;
  /** 0x-hex of the encoded arguments, or null for none. */
  readonly call_data: string | null;
}

export interface OfflineParameter {
  readonly name: string;
  readonly value: string;
}

export interface OfflineOwnerCall {
  /** The owner method of the online terminal's table (main/services/custody/owner-methods.ts); not signed. */
  readonly method: string;
  readonly endpoint: OwnerCallEndpoint;
  /**
   * For `upgrade` only: the implementation the body names. Not signed: the upgrade message has no
   * argument, and the exchange accepts only the implementation its oracle publishes.
   */
  readonly implementation: B256 | null;
  /** The method's parameters as the online terminal decoded them; not signed (the calls are). */
  readonly parameters: readonly OfflineParameter[];
  /** The calls the message signs (`call_contracts`); empty for `upgrade`. */
  readonly calls: readonly OfflineContractCall[];
}

interface OfflineRequestBase {
  readonly version: typeof REQUEST_VERSION;
  /** 16 random bytes, 32 lowercase hex digits. */
  readonly request_id: string;
  readonly network: string;
  readonly chain_id: bigint;
  readonly owner: OfflineOwner;
  readonly trade_account_id: B256;
  /** What the request does, in words; rebuilt from the fields and compared. */
  readonly description: string;
  readonly nonce: OfflineNonce;
  /** 0x-hex of the exact message bytes. */
  readonly message: string;
  /** 0x-hex of the 32-byte personal-sign digest the owner signs. */
  readonly digest: string;
  /** Unix seconds. */
  readonly created_at: bigint;
  /** Unix seconds; both machines refuse the request from this moment. */
  readonly expires_at: bigint;
}

export interface OfflineWithdrawRequest extends OfflineRequestBase {
  readonly kind: 'withdraw';
  readonly withdraw: OfflineWithdraw;
}

export interface OfflineSessionRequest extends OfflineRequestBase {
  readonly kind: 'session';
  readonly session: OfflineSession;
}

export interface OfflineOwnerCallRequest extends OfflineRequestBase {
  readonly kind: 'owner-call';
  readonly owner_call: OfflineOwnerCall;
}

export type OfflineRequest = OfflineWithdrawRequest | OfflineSessionRequest | OfflineOwnerCallRequest;

// ---- JSON schema (strict). Integers are canonical decimal strings: no sign, no leading zero.

export const LIMITS = {
  /** Contract ids a session request may name; far above what a terminal uses, bounds the QR size. */
  maxContractIds: 64,
  maxDescriptionLength: 2_000,
  maxSymbolLength: 16,
  maxDecimals: 30,
  /** Calls one owner-call request may sign; the terminal's methods sign one or two. */
  maxCalls: 10,
  /** Bytes of encoded arguments per call. */
  maxCallDataBytes: 4_096,
  maxParameters: 8,
  maxParameterLength: 200,
} as const;

const decimalText = z.string().regex(/^(0|[1-9][0-9]*)$/, 'expected a decimal integer string without sign or leading zeros');
const b256Text = z.string().regex(/^0x[0-9a-f]{64}$/, 'expected 0x followed by 64 lowercase hex digits');
const hexText = z.string().regex(/^0x([0-9a-f]{2})+$/, 'expected 0x followed by an even number of lowercase hex digits');
// Printable ASCII only in every free-text field: a control character or an escape sequence in a
// label could rewrite what the signer's terminal shows (terminal injection), and look-alike
// Unicode could pass for a familiar symbol.
const printable = (max: number) => z.string().min(1).max(max).regex(/^[\x20-\x7e]*$/, 'expected printable ASCII only');

export const REQUEST_ID_PATTERN = /^[0-9a-f]{32}$/;

const ownerSchema = z.strictObject({ address: b256Text, style: z.enum(['ledger', 'evm']) });

const identitySchema = z.union([z.strictObject({ Address: b256Text }), z.strictObject({ ContractId: b256Text })]);

const nonceSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('sequential'), value: decimalText }),
  z.strictObject({
    kind: z.literal('parallel'),
    value: decimalText,
    lane: z.number().int().min(0).max(255),
    word_position: decimalText,
    bit_position: z.number().int().min(0).max(255),
    expiry: decimalText,
  }),
]);

const baseShape = {
  format: z.literal(REQUEST_FORMAT),
  version: z.literal(REQUEST_VERSION),
  request_id: z.string().regex(REQUEST_ID_PATTERN, 'expected 32 lowercase hex digits'),
  network: z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'expected a network id of lowercase letters, digits, ".", "_" or "-"'),
  chain_id: decimalText,
  owner: ownerSchema,
  trade_account_id: b256Text,
  description: printable(LIMITS.maxDescriptionLength),
  nonce: nonceSchema,
  message: hexText,
  digest: z.string().regex(/^0x[0-9a-f]{64}$/, 'expected 0x followed by 64 lowercase hex digits (32 bytes)'),
  created_at: decimalText,
  expires_at: decimalText,
};

const withdrawSchema = z.strictObject({
  to: identitySchema,
  amount: decimalText,
  asset_id: b256Text,
  asset_symbol: z.string().regex(/^[A-Za-z0-9._-]{1,16}$/, 'expected 1 to 16 letters, digits, ".", "_" or "-"'),
  asset_decimals: z.number().int().min(0).max(LIMITS.maxDecimals),
});

const sessionSchema = z.strictObject({
  session_address: b256Text,
  expiry: decimalText,
  contract_ids: z.array(b256Text).min(1).max(LIMITS.maxContractIds),
});

const callSchema = z.strictObject({
  contract_id: b256Text,
  selector: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'expected a function name: 1 to 64 letters, digits or "_", not starting with a digit'),
  amount: decimalText,
  asset_id: b256Text,
  gas: decimalText,
  call_data: z
    .string()
    .max(2 + 2 * LIMITS.maxCallDataBytes, `expected at most ${LIMITS.maxCallDataBytes} bytes of call data`)
    .regex(/^0x([0-9a-f]{2})+$/, 'expected 0x followed by an even number of lowercase hex digits')
    .nullable(),
});

const ownerCallSchema = z.strictObject({
  method: z.string().regex(/^[A-Za-z]{1,40}$/, 'expected a method name of 1 to 40 letters'),
  endpoint: z.enum(['upgrade', 'call', 'calls', 'actions']),
  implementation: b256Text.nullable(),
  parameters: z
    .array(z.strictObject({ name: z.string().regex(/^[A-Za-z]{1,40}$/, 'expected a parameter name of 1 to 40 letters'), value: printable(LIMITS.maxParameterLength) }))
    .max(LIMITS.maxParameters),
  calls: z.array(callSchema).max(LIMITS.maxCalls),
});

export const requestJsonSchema = z.discriminatedUnion('kind', [
  z.strictObject({ ...baseShape, kind: z.literal('withdraw'), withdraw: withdrawSchema }),
  z.strictObject({ ...baseShape, kind: z.literal('session'), session: sessionSchema }),
  z.strictObject({ ...baseShape, kind: z.literal('owner-call'), owner_call: ownerCallSchema }),
]);

export type OfflineRequestJson = z.output<typeof requestJsonSchema>;

/**
 * Refuse a document that is not ours, or a version we do not know, before the field-by-field parse:
 * a newer request may carry fields this signer would not show, and signing what is not shown is
 * exactly what this format exists to prevent.
 */
export function checkFormatAndVersion(value: unknown, format: string, version: number, root: string): Result<void> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail(OFFLINE_CODES.UNKNOWN_FORMAT, `${root}: expected a JSON object, got ${showValue(value)}`, { field: root });
  }
  const record = value as Record<string, unknown>;
  if (record.format !== format) {
    return fail(OFFLINE_CODES.UNKNOWN_FORMAT, `${root}.format: expected ${JSON.stringify(format)}, got ${showValue(record.format)}`, { field: `${root}.format` });
  }
  if (record.version !== version) {
    return fail(
      OFFLINE_CODES.UNKNOWN_VERSION,
      `${root}.version: version ${showValue(record.version)} is not supported; this build understands version ${version} only`,
      { field: `${root}.version` },
    );
  }
  return ok(undefined);
}

function nonceFromJson(json: OfflineRequestJson['nonce']): OfflineNonce {
  if (json.kind === 'sequential') return { kind: 'sequential', value: BigInt(json.value) };
  return {
    kind: 'parallel',
    value: BigInt(json.value),
    lane: json.lane,
    word_position: BigInt(json.word_position),
    bit_position: json.bit_position,
    expiry: BigInt(json.expiry),
  };
}

function identityFromJson(json: { Address: string } | { ContractId: string }): Identity {
  return 'Address' in json ? { Address: json.Address as B256 } : { ContractId: json.ContractId as B256 };
}

/** Strict parse of a request document (shape only; see verifyOfflineRequest for the checks). */
export function parseOfflineRequest(value: unknown, root = 'request'): Result<OfflineRequest> {
  const header = checkFormatAndVersion(value, REQUEST_FORMAT, REQUEST_VERSION, root);
  if (!header.ok) return header;
  const parsed = parseWith(requestJsonSchema, value, root, OFFLINE_CODES.MALFORMED);
  if (!parsed.ok) return parsed;
  const json = parsed.value;
  const base = {
    version: REQUEST_VERSION,
    request_id: json.request_id,
    network: json.network,
    chain_id: BigInt(json.chain_id),
    owner: { address: json.owner.address as B256, style: json.owner.style },
    trade_account_id: json.trade_account_id as B256,
    description: json.description,
    nonce: nonceFromJson(json.nonce),
    message: json.message,
    digest: json.digest,
    created_at: BigInt(json.created_at),
    expires_at: BigInt(json.expires_at),
  } as const;
  if (json.kind === 'withdraw') {
    const withdraw = json.withdraw;
    return ok({
      ...base,
      kind: 'withdraw',
      withdraw: {
        to: identityFromJson(withdraw.to),
        amount: BigInt(withdraw.amount),
        asset_id: withdraw.asset_id as B256,
        asset_symbol: withdraw.asset_symbol,
        asset_decimals: withdraw.asset_decimals,
      },
    });
  }
  if (json.kind === 'owner-call') {
    const call = json.owner_call;
    return ok({
      ...base,
      kind: 'owner-call',
      owner_call: {
        method: call.method,
        endpoint: call.endpoint,
        implementation: call.implementation as B256 | null,
        parameters: call.parameters.map((entry) => ({ name: entry.name, value: entry.value })),
        calls: call.calls.map((entry) => ({
          contract_id: entry.contract_id as B256,
          selector: entry.selector,
          forwarded_amount: BigInt(entry.amount),
          forwarded_asset_id: entry.asset_id as B256,
          gas: BigInt(entry.gas),
          call_data: entry.call_data,
        })),
      },
    });
  }
  const session = json.session;
  return ok({
    ...base,
    kind: 'session',
    session: { session_address: session.session_address as B256, expiry: BigInt(session.expiry), contract_ids: session.contract_ids as B256[] },
  });
}

function nonceToJson(nonce: OfflineNonce): CanonicalValue {
  if (nonce.kind === 'sequential') return { kind: 'sequential', value: nonce.value.toString() };
  return {
    kind: 'parallel',
    value: nonce.value.toString(),
    lane: nonce.lane,
    word_position: nonce.word_position.toString(),
    bit_position: nonce.bit_position,
    expiry: nonce.expiry.toString(),
  };
}

/** The JSON document of a request (serialise with canonicalJson or prettyCanonicalJson). */
export function requestToJson(request: OfflineRequest): CanonicalValue {
  const base: Record<string, CanonicalValue> = {
    format: REQUEST_FORMAT,
    version: REQUEST_VERSION,
    request_id: request.request_id,
    kind: request.kind,
    network: request.network,
    chain_id: request.chain_id.toString(),
    owner: { address: request.owner.address, style: request.owner.style },
    trade_account_id: request.trade_account_id,
    description: request.description,
    nonce: nonceToJson(request.nonce),
    message: request.message,
    digest: request.digest,
    created_at: request.created_at.toString(),
    expires_at: request.expires_at.toString(),
  };
  if (request.kind === 'withdraw') {
    const withdraw = request.withdraw;
    base.withdraw = {
      to: identityToJson(withdraw.to),
      amount: withdraw.amount.toString(),
      asset_id: withdraw.asset_id,
      asset_symbol: withdraw.asset_symbol,
      asset_decimals: withdraw.asset_decimals,
    };
  } else if (request.kind === 'session') {
    const session = request.session;
    base.session = { session_address: session.session_address, expiry: session.expiry.toString(), contract_ids: [...session.contract_ids] };
  } else {
    const call = request.owner_call;
    base.owner_call = {
      method: call.method,
      endpoint: call.endpoint,
      implementation: call.implementation,
      parameters: call.parameters.map((entry) => ({ name: entry.name, value: entry.value })),
      calls: call.calls.map((entry) => ({
        contract_id: entry.contract_id,
        selector: entry.selector,
        amount: entry.forwarded_amount.toString(),
        asset_id: entry.forwarded_asset_id,
        gas: entry.gas.toString(),
        call_data: entry.call_data,
      })),
    };
  }
  return base;
}

/** SHA-256 of the canonical text of the request: what a response names to say "I signed this one". */
export function requestHash(request: OfflineRequest): string {
  return canonicalHash(requestToJson(request));
}
