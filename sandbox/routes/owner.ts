// Owner-signed endpoints: withdraw, upgrade, call(s) and the owner actions (SettleBalance,
// Whitelist). Each message is rebuilt with shared/protocol's owner messages and verified by
// recovery against the account's owner (both owner styles). A sequential or a parallel nonce
// (typed signature variant) is accepted everywhere the spec allows it.
import type { B256 } from '../../shared/encoding/b256';
import { hexToBytes } from '../../shared/encoding/hex';
import { contractIdentity, identitiesEqual, identityValue, type Identity } from '../../shared/encoding/identity';
import { ownerStyleOf } from '../../shared/crypto/index';
import type { OwnerAction } from '../../shared/protocol/actions';
import { makeCall, type ContractCall } from '../../shared/protocol/call';
import { signatureVariantFor, type NonceChoice } from '../../shared/protocol/nonce-choice';
import { ownerActionCalls, ownerCallsMessage, ownerDigest, upgradeMessage, withdrawMessage, type OwnerActionGroup } from '../../shared/protocol/owner-messages';
import type { z } from 'zod';
import type { SandboxApp } from '../app-types';
import { nowNanos } from '../clock';
import { ErrorCode, invalid, refusal, Refusal, show } from '../http/errors';
import { ownedAccount } from '../http/owner';
import { parseBody } from '../http/parse';
import { json, refuse, type Reply } from '../http/reply';
import type { ApiRequest } from '../http/request';
import type { ContractAccount } from '../ledger/accounts';
import { isRevert, revert, type Revert } from '../ledger/revert';
import { b256Argument, identityArgument } from '../protocol/call-data';
import {
  ownerActionsRequestSchema,
  ownerCallRequestSchema,
  ownerCallsRequestSchema,
  upgradeRequestSchema,
  withdrawRequestSchema,
  type OwnerCallRequest,
} from '../../shared/api/request-schemas';
import { checkSignature, type SignatureInput } from '../auth';
import { consumeNonce, nonceProblem, revertReply } from '../signed';

interface OwnerEnvelopeBody {
  readonly trade_account_id: string;
  readonly signature: SignatureInput;
  readonly nonce_choice: NonceChoice;
}

/** A batch of owner calls or actions holds at most this many, like a session batch. */
const MAX_OWNER_CALLS = 5;

interface Authorised {
  readonly account: ContractAccount;
  readonly nonce: NonceChoice;
}

/** Header, account, owner, nonce and signature of an owner message; nothing changes. */
function authorise(app: SandboxApp, request: ApiRequest, body: OwnerEnvelopeBody, message: (nonce: NonceChoice) => Uint8Array): Authorised | Refusal {
  const account = ownedAccount(request, app.ledger.accounts, body.trade_account_id);
  if (account instanceof Refusal) return account;
  const nonce = body.nonce_choice;
  const stale = nonceProblem(app, account, nonce);
  if (stale) return stale;
  const ownerAddress = identityValue(account.owner);
  const style = ownerStyleOf(ownerAddress);
  const bad = checkSignature(body.signature, signatureVariantFor(nonce), ownerDigest(message(nonce), style), ownerAddress, style, 'owner');
  return bad ?? { account, nonce };
}

/** Run the owner's transaction, consume the nonce (also on revert) and shape the reply. */
function submit(app: SandboxApp, authorised: Authorised, target: string, apply: (txId: string) => Revert | undefined): Reply {
  const txId = app.nextTxId();
  const outcome = app.ledger.transact(() => apply(txId));
  consumeNonce(app, authorised.account, authorised.nonce);
  return isRevert(outcome) ? revertReply(outcome, txId, target) : json({ tx_id: txId });
}

export function registerOwnerRoutes(app: SandboxApp): void {
  const { router, network } = app;
  const envelope = (nonce: NonceChoice) => ({ nonce, chain_id: network.chainId });

  router.on('POST', '/v1/accounts/withdraw', (request) => {
    const body = parseBody(withdrawRequestSchema, request.body);
    if (body instanceof Refusal) return refuse(body);
    const args = { to: body.to as Identity, amount: body.amount, asset_id: body.asset_id };
    if (!network.assets.some((asset) => asset.id === args.asset_id)) return refuse(refusal(ErrorCode.ASSET_NOT_FOUND, `asset_id: no such asset on this network, got ${show(args.asset_id)}`));
    if (args.amount === 0n) return refuse(invalid('amount: must be above zero, got "0"'));
    const authorised = authorise(app, request, body, (nonce) => withdrawMessage(envelope(nonce), args));
    if (authorised instanceof Refusal) return refuse(authorised);
    const { account } = authorised;
    return submit(app, authorised, account.id, () => {
      const held = account.balances.get(args.asset_id);
      if (held < args.amount) return revert('InsufficientBalance', `trade account ${account.id} holds ${held} of ${args.asset_id}, withdrawal asks ${args.amount}`);
      if (identitiesEqual(args.to, contractIdentity(account.id))) return revert('InvalidDestination', 'withdraw: the destination is the trade account itself');
      account.balances.add(args.asset_id, -args.amount);
      // Into a margin child: the value arrived from outside, not earned (its PnL basis rises).
      app.margin.receive(identityValue(args.to), () => app.ledger.holder(args.to).add(args.asset_id, args.amount));
      app.ledger.changes.balances.add(account.id);
      const destination = identityValue(args.to);
      if (app.ledger.accounts.has(destination)) app.ledger.changes.balances.add(destination);
      return undefined;
    });
  });

  router.on('POST', '/v1/accounts/upgrade', (request) => {
    const body = parseBody(upgradeRequestSchema, request.body);
    if (body instanceof Refusal) return refuse(body);
    if (body.implementation !== network.oracleImplementationId) {
      return refuse(invalid(`implementation: the trade-account oracle publishes ${network.oracleImplementationId}, got ${show(body.implementation)}`));
    }
    const authorised = authorise(app, request, body, (nonce) => upgradeMessage(envelope(nonce)));
    if (authorised instanceof Refusal) return refuse(authorised);
    const { account } = authorised;
    return submit(app, authorised, account.id, () => {
      const previous = account.implementation;
      account.implementation = network.oracleImplementationId;
      app.ledger.journal.record(() => {
        account.implementation = previous;
      });
      return undefined;
    });
  });

  const callRoute = (schema: z.ZodType, callsOf: (body: never) => readonly OwnerCallRequest[]) => (request: ApiRequest) => {
    const body = parseBody(schema, request.body) as OwnerEnvelopeBody | Refusal;
    if (body instanceof Refusal) return refuse(body);
    const inputs = callsOf(body as never);
    if (inputs.length === 0 || inputs.length > MAX_OWNER_CALLS) return refuse(invalid(`calls: expected 1 to ${MAX_OWNER_CALLS} calls, got ${inputs.length}`));
    const contractCalls = toContractCalls(inputs);
    if (contractCalls instanceof Refusal) return refuse(contractCalls);
    const authorised = authorise(app, request, body, (nonce) => ownerCallsMessage(envelope(nonce), contractCalls));
    if (authorised instanceof Refusal) return refuse(authorised);
    return submit(app, authorised, contractCalls[0]?.contract_id ?? authorised.account.id, (txId) => {
      for (const call of contractCalls) {
        const outcome = executeOwnerCall(app, authorised.account, call, txId);
        if (outcome) return outcome;
      }
      return undefined;
    });
  };
  router.on('POST', '/v1/accounts/call', callRoute(ownerCallRequestSchema, (body: { call: OwnerCallRequest }) => [body.call]));
  router.on('POST', '/v1/accounts/calls', callRoute(ownerCallsRequestSchema, (body: { calls: OwnerCallRequest[] }) => body.calls));

  router.on('POST', '/v1/accounts/actions', (request) => {
    const body = parseBody(ownerActionsRequestSchema, request.body);
    if (body instanceof Refusal) return refuse(body);
    const groups: OwnerActionGroup[] = [];
    for (const [groupIndex, group] of body.actions.entries()) {
      const market = app.ledger.markets.get(group.market_id);
      if (market === undefined) return refuse(refusal(ErrorCode.MARKET_NOT_FOUND, `actions[${groupIndex}].market_id: no such market, got ${show(group.market_id)}`));
      if (group.turbo === true) return refuse(refusal(ErrorCode.MARKET_NOT_FOUND, `Market ${group.market_id} has no Turbo order book`));
      const actions: OwnerAction[] = group.actions;
      if (actions.length === 0 || actions.length > MAX_OWNER_CALLS) return refuse(invalid(`actions[${groupIndex}].actions: expected 1 to ${MAX_OWNER_CALLS} actions, got ${actions.length}`));
      groups.push({ market_id: group.market_id, market: market.config, actions });
    }
    const calls = ownerActionCalls(groups);
    const authorised = authorise(app, request, body, (nonce) => ownerCallsMessage(envelope(nonce), calls));
    if (authorised instanceof Refusal) return refuse(authorised);
    return submit(app, authorised, groups[0]?.market.contract_id ?? authorised.account.id, (txId) => {
      for (const call of calls) {
        const outcome = executeOwnerCall(app, authorised.account, call, txId);
        if (outcome) return outcome;
      }
      return undefined;
    });
  });
}

function toContractCalls(inputs: readonly OwnerCallRequest[]): ContractCall[] | Refusal {
  const calls: ContractCall[] = [];
  for (const [index, input] of inputs.entries()) {
    let data: Uint8Array | null = null;
    if (input.call_data !== null) {
      const bytes = hexToBytes(input.call_data, `calls[${index}].call_data`);
      if (!bytes.ok) return invalid(bytes.message);
      data = bytes.value;
    }
    const call = makeCall(input.contract_id as B256, input.method, data, { amount: input.amount, asset: input.asset_id as B256 });
    calls.push({ ...call, gas: input.gas });
  }
  return calls;
}

/**
 * The owner calls the sandbox executes (inside the open transaction): settle_balance,
 * cancel_order and whitelist_account on a book, register_referer on the accounts registry.
 * Any other call reverts with UnsupportedCall, as a call to a missing entry point would.
 */
function executeOwnerCall(app: SandboxApp, account: ContractAccount, call: ContractCall, txId: string): Revert | undefined {
  const context = { account, txId, timestamp: nowNanos(app.clock) };
  if (call.forwarded_amount !== 0n) return revert('UnsupportedCall', `${call.selector}: forwards ${call.forwarded_amount}; owner calls here forward nothing`);
  const market = app.ledger.marketsByContract.get(call.contract_id);
  if (market !== undefined) {
    switch (call.selector) {
      case 'settle_balance': {
        const to = identityArgument(call.call_data);
        return to === undefined ? revert('InvalidArguments', 'settle_balance: expected an Identity') : market.settle(context, to);
      }
      case 'cancel_order': {
        const orderId = b256Argument(call.call_data);
        if (orderId === undefined) return revert('InvalidArguments', 'cancel_order: expected an order id');
        const cancelled = market.cancelOrder(context, orderId);
        return isRevert(cancelled) ? cancelled : undefined;
      }
      case 'whitelist_account': {
        const target = identityArgument(call.call_data);
        if (target === undefined || !identitiesEqual(target, contractIdentity(account.id))) return revert('Unauthorized', 'whitelist_account: an owner whitelists its own trade account only');
        if (!account.whitelisted) {
          account.whitelisted = true;
          app.ledger.journal.record(() => {
            account.whitelisted = false;
          });
        }
        return undefined;
      }
      default:
        return revert('UnsupportedCall', `${call.selector} is not an entry point of order book ${call.contract_id}`);
    }
  }
  if (call.contract_id === app.network.accountsRegistryId && call.selector === 'register_referer') {
    const referer = identityArgument(call.call_data);
    if (referer === undefined) return revert('InvalidArguments', 'register_referer: expected an Identity');
    if (account.referer !== null) return revert('RefererAlreadyRegistered', `trade account ${account.id} already has a referer`);
    account.referer = referer;
    app.ledger.journal.record(() => {
      account.referer = null;
    });
    return undefined;
  }
  return revert('UnsupportedCall', `${call.selector} on ${call.contract_id} is not supported by this network`);
}
