// PUT /v1/session (the owner delegates to a session key) and POST /v1/session/actions (the
// session key trades). Every check runs before anything changes, in the order the real
// service applies them; a refusal `{code, message}` leaves the nonce untouched.
import type { B256 } from '../../shared/encoding/b256';
import { identityToJson } from '../../shared/encoding/identity';
import { ownerStyleOf, sessionActionDigest } from '../../shared/crypto/index';
import type { SessionAction } from '../../shared/protocol/actions';
import { signatureVariantFor } from '../../shared/protocol/nonce-choice';
import { checkBatchLimits, groupsToCalls, sessionActionsMessage, type ActionGroup } from '../../shared/protocol/session-actions';
import { checkSessionGrant, sessionDigest, SESSION_CODES } from '../../shared/protocol/session';
import type { SandboxApp } from '../app';
import { checkSignature } from '../auth';
import { nowNanos, nowSeconds } from '../clock';
import { ErrorCode, invalid, refusal, Refusal, show, type ErrorCodeValue } from '../http/errors';
import { ownedAccount } from '../http/owner';
import { parseBody } from '../http/parse';
import { json, refuse, type Reply } from '../http/reply';
import type { ApiRequest } from '../http/request';
import type { ExecutableGroup } from '../ledger/execute';
import { executeBatch } from '../ledger/execute';
import { isRevert } from '../ledger/revert';
import { sessionActionsRequestSchema, sessionRequestSchema } from '../../shared/api/request-schemas';
import { consumeNonce, nonceProblem, revertReply } from '../signed';
import { marketOrderView } from '../views/orders';

/** Actions this network executes; trigger, house and margin actions are refused (7001) for now. */
const SUPPORTED_ACTIONS: ReadonlySet<string> = new Set(['CreateOrder', 'CancelOrder', 'SettleBalance', 'RegisterReferer']);

const BATCH_CODE_TO_ERROR: Readonly<Record<string, number>> = {
  NO_ACTIONS: ErrorCode.EMPTY_BATCH,
  EMPTY_GROUP: ErrorCode.EMPTY_BATCH,
  TOO_MANY_ACTIONS: ErrorCode.TOO_MANY_ACTIONS,
  TOO_MANY_MARKETS: ErrorCode.TOO_MANY_ACTIONS,
  TOO_MANY_VARIABLE_OUTPUTS: ErrorCode.VARIABLE_OUTPUTS,
};

export function registerSessionRoutes(app: SandboxApp): void {
  app.router.on('PUT', '/v1/session', (request) => putSession(app, request));
  app.router.on('POST', '/v1/session/actions', (request) => postActions(app, request));
}

function putSession(app: SandboxApp, request: ApiRequest): Reply {
  const body = parseBody(sessionRequestSchema, request.body);
  if (body instanceof Refusal) return refuse(body);
  if (!('Address' in body.session_id)) return refuse(invalid(`session_id: a session key is an {Address}, got ${show(body.session_id)}`));
  const account = ownedAccount(request, app.ledger.accounts, body.contract_id);
  if (account instanceof Refusal) return refuse(account);
  const nonce = nonceProblem(app, account, { kind: 'sequential', value: body.nonce });
  if (nonce) return refuse(nonce);
  const now = nowSeconds(app.clock);
  const grant = { nonce: body.nonce, chain_id: app.network.chainId, session_address: body.session_id.Address, expiry: body.expiry, contract_ids: body.contract_ids as B256[] };
  const grantCheck = checkSessionGrant(grant, now);
  if (!grantCheck.ok) {
    const code = grantCheck.code === SESSION_CODES.NO_CONTRACTS ? ErrorCode.INVALID_FIELD : ErrorCode.SESSION_EXPIRY;
    return refuse(refusal(code, `${grantCheck.details?.field ?? 'expiry'}: ${grantCheck.message}`));
  }
  const known = new Set<string>([...app.ledger.marketsByContract.keys(), app.network.accountsRegistryId]);
  const unknownContract = grant.contract_ids.find((id) => !known.has(id));
  if (unknownContract !== undefined) return refuse(invalid(`contract_ids: not an order book or registry of this network, got ${show(unknownContract)}`));
  const ownerAddress = 'Address' in account.owner ? account.owner.Address : account.owner.ContractId;
  const style = ownerStyleOf(ownerAddress);
  const bad = checkSignature(body.signature, 'Secp256k1', sessionDigest(grant, style), ownerAddress, style, 'owner');
  if (bad) return refuse(bad);
  const txId = app.nextTxId();
  // One live session per account: the new key replaces the old one at once.
  account.session = { sessionId: { Address: grant.session_address }, expiry: grant.expiry, contractIds: new Set(grant.contract_ids), txId };
  consumeNonce(app, account, { kind: 'sequential', value: body.nonce });
  return json({
    tx_id: txId,
    trade_account_id: account.id,
    contract_ids: [...grant.contract_ids],
    session_id: identityToJson({ Address: grant.session_address }),
    session_expiry: grant.expiry.toString(),
  });
}

function postActions(app: SandboxApp, request: ApiRequest): Reply {
  const body = parseBody(sessionActionsRequestSchema, request.body);
  if (body instanceof Refusal) return refuse(body);
  const account = ownedAccount(request, app.ledger.accounts, body.trade_account_id);
  if (account instanceof Refusal) return refuse(account);

  // Groups: known markets, known and supported actions.
  const groups: ActionGroup[] = [];
  const executable: ExecutableGroup[] = [];
  for (const [groupIndex, group] of body.actions.entries()) {
    const market = app.ledger.markets.get(group.market_id);
    if (market === undefined) return refuse(refusal(ErrorCode.MARKET_NOT_FOUND, `actions[${groupIndex}].market_id: no such market, got ${show(group.market_id)}`));
    if (group.turbo === true) return refuse(refusal(ErrorCode.MARKET_NOT_FOUND, `Market ${group.market_id} has no Turbo order book`));
    const actions: SessionAction[] = group.actions;
    const unsupported = actions.findIndex((action) => !SUPPORTED_ACTIONS.has(action.kind));
    if (unsupported >= 0) {
      return refuse(refusal(ErrorCode.UNKNOWN_ACTION, `actions[${groupIndex}].actions[${unsupported}]: action ${(actions[unsupported] as SessionAction).kind} is not supported on this network`));
    }
    groups.push({ market_id: group.market_id as B256, market: market.config, actions });
    executable.push({ market, actions });
  }
  const limits = checkBatchLimits(groups, body.variable_outputs);
  if (!limits.ok) return refuse(refusal((BATCH_CODE_TO_ERROR[limits.code] ?? ErrorCode.INVALID_FIELD) as ErrorCodeValue, limits.message));

  // Session: present, not expired, the signer, and every target in its scope.
  const session = account.session;
  if (session === null) return refuse(refusal(ErrorCode.NO_SESSION, `trade account ${account.id} has no session`));
  const now = nowSeconds(app.clock);
  if (session.expiry <= now) return refuse(refusal(ErrorCode.SESSION_EXPIRED, `session expired at ${session.expiry} (now ${now})`));
  const sessionAddress = 'Address' in session.sessionId ? session.sessionId.Address : session.sessionId.ContractId;
  if (body.session_id !== undefined && JSON.stringify(body.session_id) !== JSON.stringify(identityToJson(session.sessionId))) {
    return refuse(refusal(ErrorCode.NO_SESSION, `session_id: ${show(body.session_id)} is not the account's current session ${sessionAddress}`));
  }
  const calls = groupsToCalls(groups, { trade_account_id: account.id, accounts_registry_id: app.network.accountsRegistryId });
  if (!calls.ok) return refuse(invalid(calls.message));
  const outside = calls.value.find((call) => !session.contractIds.has(call.contract_id));
  if (outside !== undefined) return refuse(refusal(ErrorCode.OUT_OF_SESSION_SCOPE, `contract ${outside.contract_id} (${outside.selector}) is not in the session's scope`));

  const nonce = body.nonce_choice;
  const nonceRefusal = nonceProblem(app, account, nonce);
  if (nonceRefusal) return refuse(nonceRefusal);
  const digest = sessionActionDigest(sessionActionsMessage(nonce, calls.value));
  const bad = checkSignature(body.signature, signatureVariantFor(nonce), digest, sessionAddress, 'ledger', 'session key');
  if (bad) return refuse(bad);

  const txId = app.nextTxId();
  const outcome = executeBatch(app.ledger, account, executable, txId, nowNanos(app.clock));
  consumeNonce(app, account, nonce);
  if (isRevert(outcome)) return revertReply(outcome, txId, executable[0]?.market.config.contract_id ?? account.id);
  const reply: Record<string, unknown> = { tx_id: txId };
  if (body.collect_orders === true) {
    reply.orders = outcome.orders.map((order) => marketOrderView(app.ledger.markets.get(order.marketId) as NonNullable<ReturnType<typeof app.ledger.markets.get>>, order));
  }
  return json(reply);
}
