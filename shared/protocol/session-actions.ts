// POST /v1/session/actions: the signed message and the request body, built from market groups.
// Message (wire notes): sequential `u64 nonce ‖ u64 n ‖ call…`, parallel `u256 parallel_nonce ‖ u64 n ‖ call…`;
// no chain id and no function name. Digest: SHA-256, signed by the session key.
import { sessionActionDigest, signatureToJson, type SignatureJson } from '../crypto/index';
import type { B256 } from '../encoding/b256';
import { ByteWriter } from '../encoding/byte-writer';
import { contractIdentity, identityToJson, type Identity } from '../encoding/identity';
import { fail, ok, type Result } from '../result';
import { createsOrder, type SessionAction } from './actions';
import { actionToCall, type CallMarket, type CallTargets } from './action-calls';
import { sessionActionToJson, type ActionJson } from './action-json';
import { writeCallList, type ContractCall } from './call';
import { nonceJson, signatureVariantFor, writeNonce, type NonceChoice } from './nonce-choice';

export const MAX_ACTIONS_PER_BATCH = 5;
export const MAX_GROUPS_PER_BATCH = 5;
export const MAX_VARIABLE_OUTPUTS = 10;

export const BATCH_CODES = {
  NO_ACTIONS: 'NO_ACTIONS',
  EMPTY_GROUP: 'EMPTY_GROUP',
  TOO_MANY_ACTIONS: 'TOO_MANY_ACTIONS',
  TOO_MANY_MARKETS: 'TOO_MANY_MARKETS',
  TOO_MANY_VARIABLE_OUTPUTS: 'TOO_MANY_VARIABLE_OUTPUTS',
} as const;

export interface ActionGroup {
  readonly market_id: B256;
  /** The book the group's actions target (the Turbo row for a Turbo group); margin-only groups may omit it. */
  readonly market?: CallMarket;
  /** Present in the body only when set: true selects the Turbo book. */
  readonly turbo?: boolean;
  readonly actions: readonly SessionAction[];
}

export interface SessionActionsRequest {
  /** The signing account: the parent, or the Turbo Account for its own trading and credit actions. */
  readonly trade_account_id: B256;
  /** The session key's identity ({Address: SHA-256 of its public key}). */
  readonly session_id: Identity;
  readonly nonce: NonceChoice;
  readonly groups: readonly ActionGroup[];
  readonly targets?: Omit<CallTargets, 'trade_account_id'>;
  /** Prepend SettleBalance (to the trading account) to each group that creates orders. Default true. */
  readonly settle_before_orders?: boolean;
  readonly collect_orders?: boolean;
  readonly estimate_gas_usage?: boolean;
  readonly min_gas_limit?: bigint;
  readonly variable_outputs?: number;
}

export interface PreparedSessionActions {
  readonly request: SessionActionsRequest;
  /** The groups as sent, SettleBalance included. */
  readonly groups: readonly ActionGroup[];
  readonly calls: readonly ContractCall[];
  readonly message: Uint8Array;
  /** SHA-256 of the message: what the session key signs. */
  readonly digest: Uint8Array;
}

export interface ActionGroupJson {
  market_id: string;
  actions: ActionJson[];
  turbo?: boolean;
}

export type SessionActionsBody = {
  actions: ActionGroupJson[];
  signature: SignatureJson;
  trade_account_id: string;
  session_id: ReturnType<typeof identityToJson>;
  collect_orders?: boolean;
  estimate_gas_usage?: boolean;
  min_gas_limit?: string;
  variable_outputs?: number;
} & ({ nonce: string } | { parallel_nonce: string });

/** The signed bytes of a batch of calls. */
export function sessionActionsMessage(nonce: NonceChoice, calls: readonly ContractCall[]): Uint8Array {
  const writer = new ByteWriter(128 + calls.length * 256);
  writeNonce(writer, nonce);
  writeCallList(writer, calls);
  return writer.finish();
}

/** Groups with SettleBalance put first in each group that creates orders (unless already there). */
export function withSettleBeforeOrders(groups: readonly ActionGroup[], tradeAccountId: B256): ActionGroup[] {
  return groups.map((group) => {
    if (!group.actions.some(createsOrder) || group.actions[0]?.kind === 'SettleBalance') return group;
    return { ...group, actions: [{ kind: 'SettleBalance', to: contractIdentity(tradeAccountId) }, ...group.actions] };
  });
}

/** The calls of the groups in order. */
export function groupsToCalls(groups: readonly ActionGroup[], targets: CallTargets): Result<ContractCall[]> {
  const calls: ContractCall[] = [];
  for (const [groupIndex, group] of groups.entries()) {
    for (const [actionIndex, action] of group.actions.entries()) {
      const call = actionToCall(action, group.market, targets);
      if (!call.ok) return fail(call.code, `actions[${groupIndex}].actions[${actionIndex}]: ${call.message}`, call.details);
      calls.push(call.value);
    }
  }
  return ok(calls);
}

/** Check the batch limits (spec 4.2 and 8): at most 5 actions in at most 5 groups, variable_outputs at most 10. */
export function checkBatchLimits(groups: readonly ActionGroup[], variableOutputs?: number): Result<void> {
  const total = groups.reduce((sum, group) => sum + group.actions.length, 0);
  if (total === 0) return fail(BATCH_CODES.NO_ACTIONS, 'The batch has no actions.');
  const empty = groups.findIndex((group) => group.actions.length === 0);
  if (empty >= 0) return fail(BATCH_CODES.EMPTY_GROUP, `actions[${empty}] has no actions.`, { field: `actions[${empty}]` });
  if (groups.length > MAX_GROUPS_PER_BATCH) {
    return fail(BATCH_CODES.TOO_MANY_MARKETS, `A batch may touch at most ${MAX_GROUPS_PER_BATCH} markets; this one has ${groups.length}.`);
  }
  if (total > MAX_ACTIONS_PER_BATCH) {
    return fail(
      BATCH_CODES.TOO_MANY_ACTIONS,
      `A batch may hold at most ${MAX_ACTIONS_PER_BATCH} actions, SettleBalance included; this one has ${total}.`,
      { total },
    );
  }
  if (variableOutputs !== undefined && (!Number.isInteger(variableOutputs) || variableOutputs < 0 || variableOutputs > MAX_VARIABLE_OUTPUTS)) {
    return fail(BATCH_CODES.TOO_MANY_VARIABLE_OUTPUTS, `variable_outputs must be an integer from 0 to ${MAX_VARIABLE_OUTPUTS}, got ${variableOutputs}.`, { field: 'variable_outputs' });
  }
  return ok(undefined);
}

/** The groups as they will be signed: settle first (by default), within the batch limits. */
export function batchGroups(request: SessionActionsRequest): Result<ActionGroup[]> {
  const groups = request.settle_before_orders === false ? [...request.groups] : withSettleBeforeOrders(request.groups, request.trade_account_id);
  const limits = checkBatchLimits(groups, request.variable_outputs);
  if (!limits.ok) return limits;
  return ok(groups);
}

/** Encode the calls and the message of groups from `batchGroups(request)`, and their digest. */
export function encodeSessionActions(request: SessionActionsRequest, groups: ActionGroup[]): Result<PreparedSessionActions> {
  const calls = groupsToCalls(groups, { ...request.targets, trade_account_id: request.trade_account_id });
  if (!calls.ok) return calls;
  const message = sessionActionsMessage(request.nonce, calls.value);
  return ok({ request, groups, calls: calls.value, message, digest: sessionActionDigest(message) });
}

/** Build the batch: settle first (by default), check the limits, encode the calls and the message. */
export function prepareSessionActions(request: SessionActionsRequest): Result<PreparedSessionActions> {
  const groups = batchGroups(request);
  return groups.ok ? encodeSessionActions(request, groups.value) : groups;
}

export function groupsToJson(groups: readonly ActionGroup[]): ActionGroupJson[] {
  return groups.map((group) => ({
    market_id: group.market_id,
    actions: group.actions.map(sessionActionToJson),
    ...(group.turbo === undefined ? {} : { turbo: group.turbo }),
  }));
}

/**
 * The request body, given the session key's 64-byte signature over `prepared.digest`. `actions`
 * is `groupsToJson(prepared.groups)`, passed in by a caller that has it already.
 */
export function sessionActionsBody(prepared: PreparedSessionActions, signature: Uint8Array, actions: ActionGroupJson[] = groupsToJson(prepared.groups)): SessionActionsBody {
  const { request } = prepared;
  return {
    actions,
    signature: signatureToJson(signature, signatureVariantFor(request.nonce)),
    ...nonceJson(request.nonce),
    trade_account_id: request.trade_account_id,
    session_id: identityToJson(request.session_id),
    ...(request.collect_orders === undefined ? {} : { collect_orders: request.collect_orders }),
    ...(request.estimate_gas_usage === undefined ? {} : { estimate_gas_usage: request.estimate_gas_usage }),
    ...(request.min_gas_limit === undefined ? {} : { min_gas_limit: request.min_gas_limit.toString() }),
    ...(request.variable_outputs === undefined ? {} : { variable_outputs: request.variable_outputs }),
  };
}
