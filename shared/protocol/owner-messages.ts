// Owner-signed messages (wire notes, "Owner-signed messages"): nonce ‖ u64 chain_id ‖ selector ‖ arguments,
// signed with the owner's personal-sign digest (spec 5.7). With a parallel nonce the u64 nonce is
// replaced by the u256 packed nonce and the signature is tagged TypedSecp256k1; the digest is the
// same personal-sign digest (our definition of the typed variant, docs/protocol.md).
import { type OwnerStyle, personalSignDigest, signatureToJson, type SignatureJson } from '../crypto/index';
import type { B256 } from '../encoding/b256';
import { bytesToPrefixedHex } from '../encoding/hex';
import { ByteWriter } from '../encoding/byte-writer';
import { identityToJson, type Identity } from '../encoding/identity';
import type { OwnerAction } from './actions';
import { ownerActionToCall, type CallMarket } from './action-calls';
import { ownerActionToJson, type ActionJson } from './action-json';
import { writeCallList, type ContractCall } from './call';
import { nonceJson, signatureVariantFor, writeNonce, type NonceChoice } from './nonce-choice';

export const OWNER_SELECTORS = {
  withdraw: 'withdraw',
  upgrade: 'set_proxy_target_with_signature',
  calls: 'call_contracts',
} as const;

export interface OwnerEnvelope {
  readonly nonce: NonceChoice;
  readonly chain_id: bigint;
}

export interface WithdrawArguments {
  /** A ledger destination: {Address} or {ContractId}. */
  readonly to: Identity;
  readonly amount: bigint;
  readonly asset_id: B256;
}

function header(envelope: OwnerEnvelope, selector: string): ByteWriter {
  const writer = new ByteWriter();
  writeNonce(writer, envelope.nonce);
  return writer.u64(envelope.chain_id).selector(selector);
}

/** nonce ‖ u64 chain_id ‖ "withdraw" ‖ Identity to ‖ u64 amount ‖ asset_id(32). */
export function withdrawMessage(envelope: OwnerEnvelope, withdraw: WithdrawArguments): Uint8Array {
  return header(envelope, OWNER_SELECTORS.withdraw).identity(withdraw.to).u64(withdraw.amount).b256(withdraw.asset_id).finish();
}

/**
 * nonce ‖ u64 chain_id ‖ "set_proxy_target_with_signature", and no arguments: the proxy takes the
 * new implementation from the trade-account oracle, not from the caller, so the signature only
 * authorises "move to the implementation the oracle publishes". The body's `implementation` names
 * it for the service, which refuses a value that differs from the oracle's.
 */
export function upgradeMessage(envelope: OwnerEnvelope): Uint8Array {
  return header(envelope, OWNER_SELECTORS.upgrade).finish();
}

/** nonce ‖ u64 chain_id ‖ "call_contracts" ‖ u64 n ‖ call…  (calls as in session actions). */
export function ownerCallsMessage(envelope: OwnerEnvelope, calls: readonly ContractCall[]): Uint8Array {
  const writer = header(envelope, OWNER_SELECTORS.calls);
  writeCallList(writer, calls);
  return writer.finish();
}

export function ownerDigest(message: Uint8Array, style: OwnerStyle): Uint8Array {
  return personalSignDigest(message, style);
}

type NonceMember = { nonce: string } | { parallel_nonce: string };

interface OwnerBodyBase {
  trade_account_id: string;
  signature: SignatureJson;
}

export type WithdrawBody = OwnerBodyBase & NonceMember & { to: ReturnType<typeof identityToJson>; asset_id: string; amount: string };
export type UpgradeBody = OwnerBodyBase & NonceMember & { implementation: string };

/** A call in a body: the same fields the message encodes. */
export interface OwnerCallJson {
  contract_id: string;
  method: string;
  amount: string;
  asset_id: string;
  gas: string;
  /** 0x-hex of the encoded arguments, or null. */
  call_data: string | null;
}

export type OwnerCallBody = OwnerBodyBase & NonceMember & { call: OwnerCallJson };
export type OwnerCallsBody = OwnerBodyBase & NonceMember & { calls: OwnerCallJson[] };
export interface OwnerActionGroupJson {
  market_id: string;
  actions: ActionJson[];
  turbo?: boolean;
}
export type OwnerActionsBody = OwnerBodyBase & NonceMember & { actions: OwnerActionGroupJson[] };

function base(tradeAccountId: B256, envelope: OwnerEnvelope, signature: Uint8Array): OwnerBodyBase & NonceMember {
  return { trade_account_id: tradeAccountId, signature: signatureToJson(signature, signatureVariantFor(envelope.nonce)), ...nonceJson(envelope.nonce) };
}

export function withdrawBody(tradeAccountId: B256, envelope: OwnerEnvelope, withdraw: WithdrawArguments, signature: Uint8Array): WithdrawBody {
  return { ...base(tradeAccountId, envelope, signature), to: identityToJson(withdraw.to), asset_id: withdraw.asset_id, amount: withdraw.amount.toString() };
}

export function upgradeBody(tradeAccountId: B256, envelope: OwnerEnvelope, implementation: B256, signature: Uint8Array): UpgradeBody {
  return { ...base(tradeAccountId, envelope, signature), implementation };
}

export function ownerCallToJson(call: ContractCall): OwnerCallJson {
  return {
    contract_id: call.contract_id,
    method: call.selector,
    amount: call.forwarded_amount.toString(),
    asset_id: call.forwarded_asset_id,
    gas: call.gas.toString(),
    call_data: call.call_data === null ? null : bytesToPrefixedHex(call.call_data),
  };
}

export function ownerCallBody(tradeAccountId: B256, envelope: OwnerEnvelope, call: ContractCall, signature: Uint8Array): OwnerCallBody {
  return { ...base(tradeAccountId, envelope, signature), call: ownerCallToJson(call) };
}

export function ownerCallsBody(tradeAccountId: B256, envelope: OwnerEnvelope, calls: readonly ContractCall[], signature: Uint8Array): OwnerCallsBody {
  return { ...base(tradeAccountId, envelope, signature), calls: calls.map(ownerCallToJson) };
}

export interface OwnerActionGroup {
  readonly market_id: B256;
  readonly market: CallMarket;
  readonly turbo?: boolean;
  readonly actions: readonly OwnerAction[];
}

/** The calls POST /v1/accounts/actions signs: its owner actions, group by group, as `call_contracts`. */
export function ownerActionCalls(groups: readonly OwnerActionGroup[]): ContractCall[] {
  return groups.flatMap((group) => group.actions.map((action) => ownerActionToCall(action, group.market)));
}

export function ownerActionsBody(tradeAccountId: B256, envelope: OwnerEnvelope, groups: readonly OwnerActionGroup[], signature: Uint8Array): OwnerActionsBody {
  return {
    ...base(tradeAccountId, envelope, signature),
    actions: groups.map((group) => ({
      market_id: group.market_id,
      actions: group.actions.map(ownerActionToJson),
      ...(group.turbo === undefined ? {} : { turbo: group.turbo }),
    })),
  };
}
