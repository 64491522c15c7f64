// PUT /v1/session (the owner delegates to a session key) and POST /v1/session/actions (the
// session key trades). Every check runs before anything changes, in the order the real
// service applies them; a refusal `{code, message}` leaves the nonce untouched.
import type { B256 } from '../../shared/encoding/b256';
import { identityToJson } from '../../shared/encoding/identity';
import { ownerStyleOf, sessionActionDigest } from '../../shared/crypto/index';
import { SESSION_ACTION_KINDS, type SessionAction } from '../../shared/protocol/actions';
import type { ContractAccount } from '../ledger/accounts';
import { signatureVariantFor } from '../../shared/protocol/nonce-choice';
import { checkBatchLimits, groupsToCalls, sessionActionsMessage, type ActionGroup } from '../../shared/protocol/session-actions';
import { checkSessionGrant, sessionDigest, SESSION_CODES } from '../../shared/protocol/session';
import type { SandboxApp } from '../app-types';
import { checkSignature } from '../auth';
import { nowNanos, nowSeconds } from '../clock';
import { ErrorCode, invalid, refusal, Refusal, show, type ErrorCodeValue } from '../http/errors';
import { ownedAccount } from '../http/owner';
import { parseBody } from '../http/parse';
import { json, refuse, type Reply } from '../http/reply';
import type { ApiRequest } from '../http/request';
import type { ExecutableGroup } from '../ledger/execute';
import type { MarketState } from '../ledger/market';
import type { TurboLink } from '../turbo/link';
import { executeBatch } from '../ledger/execute';
import { isRevert } from '../ledger/revert';
import { sessionActionsRequestSchema, sessionRequestSchema } from '../../shared/api/request-schemas';
import { consumeNonce, nonceProblem, revertReply } from '../signed';
import { marketOrderView } from '../views/orders';
import { triggerView } from '../views/triggers';
import type { TriggerLeg } from '../../shared/protocol/trigger';

/** The trigger legs an action creates. */
function legsOf(action: SessionAction): TriggerLeg[] {
  switch (action.kind) {
    case 'CreateOrderWithTriggers':
      return action.trigger_2 === undefined ? [action.trigger_1] : [action.trigger_1, action.trigger_2];
    case 'CreateTriggerOrder':
      return [action.args];
    case 'CreateTriggerOrders':
      return [action.first, action.second];
    default:
      return [];
  }
}

/** The margin actions a Turbo Account sends (they target the pool). */
export const MARGIN_ACCOUNT_ACTIONS = ['Draw', 'ReturnQuote', 'Borrow', 'Repay', 'RepayFromCollateral', 'RepayBaseFromCollateral', 'AddCollateral', 'WithdrawFromMargin', 'ProlongSession', 'SetAutoProlong'] as const;

const BATCH_CODE_TO_ERROR: Readonly<Record<string, number>> = {
  NO_ACTIONS: ErrorCode.EMPTY_BATCH,
  EMPTY_GROUP: ErrorCode.EMPTY_BATCH,
  TOO_MANY_ACTIONS: ErrorCode.TOO_MANY_ACTIONS,
  TOO_MANY_MARKETS: ErrorCode.TOO_MANY_ACTIONS,
  TOO_MANY_VARIABLE_OUTPUTS: ErrorCode.VARIABLE_OUTPUTS,
};

/** Actions of POST /v1/session/actions: every kind but registration (POST /v1/margin/accounts only). */
const SUPPORTED_ACTIONS: ReadonlySet<string> = new Set(SESSION_ACTION_KINDS.filter((kind) => kind !== 'RegisterMarginAccount'));
const PARENT_ACTIONS: ReadonlySet<string> = new Set(['StartMarginSession', 'CloseMarginSession', 'WithdrawFromMarginAccount', 'RegisterMarginAccount']);
const CHILD_ONLY_ACTIONS: ReadonlySet<string> = new Set(MARGIN_ACCOUNT_ACTIONS);
const HOUSE_ACTIONS: ReadonlySet<string> = new Set(['CreateSharedOrder', 'ExecuteTurboOrders']);
const CREATES: ReadonlySet<string> = new Set(['CreateOrder', 'CreateSharedOrder', 'CreateOrderWithTriggers', 'CreateTriggerOrder', 'CreateTriggerOrders']);

export function registerSessionRoutes(app: SandboxApp): void {
  app.router.on('PUT', '/v1/session', (request) => putSession(app, request));
  app.router.on('POST', '/v1/session/actions', (request) => postActions(app, request, false));
  // Registration uses the same signed envelope with RegisterMarginAccount (margin 4.2).
  app.router.on('POST', '/v1/margin/accounts', (request) => postActions(app, request, true));
}


/** How many not-yet-registered children a session may list ahead (next-account with `index`). */
export const PREDICTED_CHILDREN = 16;

/** Children a session of `account` may name: registered ones, and the next few predicted ids. */
function knownChildIds(app: SandboxApp, account: ContractAccount): string[] {
  const registered = (app.margin.children.get(account.id) ?? []).map((child) => child.id);
  const next = app.margin.nextIndex(account.id);
  const predicted = Array.from({ length: PREDICTED_CHILDREN }, (_, offset) => app.margin.childId(account.id, next + BigInt(offset)));
  return [...registered, ...predicted];
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
  // Books (canonical and Turbo), the registry, the margin pool and this account's children.
  const known = new Set<string>([...app.ledger.marketsByContract.keys(), app.network.accountsRegistryId, app.network.marginPoolId, ...knownChildIds(app, account)]);
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

function postActions(app: SandboxApp, request: ApiRequest, registration: boolean): Reply {
  const body = parseBody(sessionActionsRequestSchema, request.body);
  if (body instanceof Refusal) return refuse(body);
  const account = ownedAccount(request, app.ledger.accounts, body.trade_account_id, (candidate) => app.ledger.ownerWalletOf(candidate));
  if (account instanceof Refusal) return refuse(account);
  const isChild = account.kind === 'margin';

  // Groups: known markets (and Turbo books), known and supported actions, who may send what.
  const groups: ActionGroup[] = [];
  const executable: ExecutableGroup[] = [];
  let marginInvolved = false;
  const marginChildren = new Set<string>(isChild ? [account.id] : []);
  for (const [groupIndex, group] of body.actions.entries()) {
    const canonical = app.ledger.markets.get(group.market_id);
    if (canonical === undefined) return refuse(refusal(ErrorCode.MARKET_NOT_FOUND, `actions[${groupIndex}].market_id: no such market, got ${show(group.market_id)}`));
    const link = app.ledger.turbo.get(group.market_id);
    const turbo = group.turbo === true;
    if (turbo && link === undefined) return refuse(refusal(ErrorCode.MARKET_NOT_FOUND, `Market ${group.market_id} has no Turbo order book`));
    const market = turbo && link !== undefined ? link.turbo : canonical;
    const actions: SessionAction[] = group.actions;
    for (const [actionIndex, action] of actions.entries()) {
      const where = `actions[${groupIndex}].actions[${actionIndex}]`;
      const problem = actionProblem(app, account, action, { registration, turbo, market, link, where });
      if (problem) return refuse(problem);
      if (action.kind === 'RegisterMarginAccount' || PARENT_ACTIONS.has(action.kind)) {
        marginInvolved = true;
        marginChildren.add((action as { margin_account_id: string }).margin_account_id);
      }
      if (CHILD_ONLY_ACTIONS.has(action.kind)) marginInvolved = true;
    }
    groups.push({ market_id: group.market_id as B256, market: market.config, ...(turbo ? { turbo: true } : {}), actions });
    executable.push({ market, link, turbo, actions });
  }
  if (isChild) marginInvolved = true;
  const limits = checkBatchLimits(groups, body.variable_outputs);
  if (!limits.ok) return refuse(refusal((BATCH_CODE_TO_ERROR[limits.code] ?? ErrorCode.INVALID_FIELD) as ErrorCodeValue, limits.message));

  // Session: a margin child acts under its parent's session (margin 5.2).
  const sessionHolder = isChild ? app.ledger.accounts.get(account.margin?.parent ?? '') : account;
  const session = sessionHolder?.session ?? null;
  if (session === null) return refuse(refusal(ErrorCode.NO_SESSION, `trade account ${sessionHolder?.id ?? account.id} has no session`));
  const now = nowSeconds(app.clock);
  if (session.expiry <= now) return refuse(refusal(ErrorCode.SESSION_EXPIRED, `session expired at ${session.expiry} (now ${now})`));
  const sessionAddress = 'Address' in session.sessionId ? session.sessionId.Address : session.sessionId.ContractId;
  if (body.session_id !== undefined && JSON.stringify(body.session_id) !== JSON.stringify(identityToJson(session.sessionId))) {
    return refuse(refusal(ErrorCode.NO_SESSION, `session_id: ${show(body.session_id)} is not the account's current session ${sessionAddress}`));
  }
  if (marginInvolved) {
    // The scope is signed and cannot be widened: without the pool, the registry and the child
    // the session can do nothing with a Turbo Account (wire notes).
    const missing = [app.network.marginPoolId, app.network.accountsRegistryId, ...marginChildren].filter((id) => !session.contractIds.has(id));
    if (missing.length > 0) return refuse(refusal(ErrorCode.MARGIN_NOT_IN_SCOPE, `MarginAccountNotInSessionScope: the session of ${sessionHolder?.id ?? account.id} does not list ${missing.join(', ')}`));
  }
  const calls = groupsToCalls(groups, {
    trade_account_id: account.id,
    accounts_registry_id: app.network.accountsRegistryId,
    margin_pool_id: app.network.marginPoolId,
    margin_collateral_asset_id: app.network.marginCollateralAssetId,
  });
  if (!calls.ok) return refuse(invalid(calls.message));
  const outside = calls.value.find((call) => !session.contractIds.has(call.contract_id));
  if (outside !== undefined) return refuse(refusal(ErrorCode.OUT_OF_SESSION_SCOPE, `contract ${outside.contract_id} (${outside.selector}) is not in the session's scope`));

  const nonce = body.nonce_choice;
  if (isChild && nonce.kind !== 'parallel') {
    return refuse(refusal(ErrorCode.PARALLEL_NONCE_REQUIRED, `margin account ${account.id} accepts only parallel nonces; got a sequential nonce`));
  }
  const nonceRefusal = nonceProblem(app, account, nonce);
  if (nonceRefusal) return refuse(nonceRefusal);
  const digest = sessionActionDigest(sessionActionsMessage(nonce, calls.value));
  const bad = checkSignature(body.signature, signatureVariantFor(nonce), digest, sessionAddress, 'ledger', 'session key');
  if (bad) return refuse(bad);

  const txId = app.nextTxId();
  const outcome = executeBatch(app.ledger, account, executable, txId, nowNanos(app.clock), app.margin);
  consumeNonce(app, account, nonce);
  if (isRevert(outcome)) return revertReply(outcome, txId, executable[0]?.market.config.contract_id ?? account.id);
  const reply: Record<string, unknown> = { tx_id: txId };
  if (body.collect_orders === true) {
    reply.orders = outcome.orders.map((order) => marketOrderView(app.ledger.marketOf(order) ?? (app.ledger.markets.get(order.marketId) as MarketState), order));
    if (outcome.triggers.length > 0) reply.triggers = outcome.triggers.map((record) => triggerView(app.ledger.marketOf(record) ?? (app.ledger.markets.get(record.marketId) as MarketState), record));
  }
  return json(reply);
}

interface GroupContext {
  readonly registration: boolean;
  readonly turbo: boolean;
  readonly market: MarketState;
  readonly link: TurboLink | undefined;
  readonly where: string;
}

/** Pre-flight refusals of one action (nothing changes, no nonce is used). Margin texts are margin 7's. */
function actionProblem(app: SandboxApp, account: ContractAccount, action: SessionAction, group: GroupContext): Refusal | undefined {
  const { where, market, link } = group;
  if (group.registration !== (action.kind === 'RegisterMarginAccount')) {
    return refusal(
      ErrorCode.UNKNOWN_ACTION,
      group.registration ? `${where}: POST /v1/margin/accounts takes RegisterMarginAccount only, got ${action.kind}` : `${where}: RegisterMarginAccount is sent to POST /v1/margin/accounts`,
    );
  }
  if (!group.registration && !SUPPORTED_ACTIONS.has(action.kind)) return refusal(ErrorCode.UNKNOWN_ACTION, `${where}: action ${action.kind} is not supported on this network`);
  const isChild = account.kind === 'margin';
  if (PARENT_ACTIONS.has(action.kind) && isChild) return refusal(ErrorCode.UNKNOWN_ACTION, `${where}: ${action.kind} is a parent action; send it with the parent as trade_account_id`);
  if (CHILD_ONLY_ACTIONS.has(action.kind) && !isChild) return refusal(ErrorCode.UNKNOWN_ACTION, `${where}: ${action.kind} is a Turbo Account action; send it with the margin account as trade_account_id`);
  if (HOUSE_ACTIONS.has(action.kind)) {
    if (group.turbo) return refusal(ErrorCode.HOUSE_ON_TURBO_BOOK, 'House posts and selects its liquidity through the canonical book');
    if (action.kind === 'ExecuteTurboOrders') {
      if (action.max_base_quantity <= 0n || action.max_fills <= 0n) {
        return refusal(ErrorCode.INVALID_BOUND, `${where}: ExecuteTurboOrders bounds must be positive, got max_base_quantity ${action.max_base_quantity} and max_fills ${action.max_fills}`);
      }
      if (link === undefined) return refusal(ErrorCode.MARKET_NOT_FOUND, `Market ${market.config.market_id} has no Turbo order book`);
    }
    if (link !== undefined && !link.houseRoles.has(account.id)) {
      return refusal(ErrorCode.HOUSE_ROLE_REQUIRED, `${where}: ${action.kind} requires the house role on the Turbo book ${link.turbo.config.contract_id}; trade account ${account.id} does not have it`);
    }
  }
  if (CREATES.has(action.kind)) {
    if (group.turbo && link !== undefined) {
      if (link.paused) return refusal(ErrorCode.MARKET_PAUSED, `market with id ${market.config.market_id} is paused`);
      if (!link.connected) return refusal(ErrorCode.HOUSE_BOOK_DISCONNECTED, 'House book is disconnected');
    } else if (market.paused) return refusal(ErrorCode.MARKET_PAUSED, `market with id ${market.config.market_id} is paused`);
    if (isChild && (action.kind === 'CreateOrder' || action.kind === 'CreateOrderWithTriggers') && action.order_type.kind === 'Market') {
      return refusal(ErrorCode.UNBOUNDED_MARKET_ORDER, `${where}: an unbounded Market order on a Turbo Account is rejected: the pool funds an order at its worst-case price; use BoundedMarket`);
    }
    const unbounded = isChild ? legsOf(action).findIndex((leg) => leg.order_type.kind === 'Market') : -1;
    if (unbounded >= 0) {
      return refusal(ErrorCode.UNBOUNDED_MARKET_ORDER, `${where}: an unbounded Market trigger leg on a Turbo Account is rejected: the pool funds an order at its worst-case price; use a MarketBounded leg`);
    }
  }
  void app;
  return undefined;
}
