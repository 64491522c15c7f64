// Margin reads (margin 4.1) and GET /v1/events (margin 6). Account-wide: `turbo` is ignored.
// Selectors and members the spec leaves open are ours (docs/sandbox.md).
import type { SandboxApp } from '../app-types';
import { ErrorCode, invalid, refusal, Refusal, show } from '../http/errors';
import { integer, optionalB256, optionalBigInt, optionalOwnerB256, requiredB256 } from '../http/query';
import { json, refuse, type Reply } from '../http/reply';
import type { ContractAccount } from '../ledger/accounts';
import { lentView, discountView, poolView, stateView, tierView } from '../margin/views';

export const MAX_EVENTS_PAGE = 500;
const MAX_ACTIVITY_PAGE = 500;
const EVENT_TYPES = ['SharedExecution', 'SharedTradePerformed', 'HouseOrderCreated', 'HouseOrderCompleted', 'SidecarChanged'];

function marginAccount(app: SandboxApp, query: URLSearchParams, name: string): ContractAccount | Refusal {
  const id = requiredB256(query, name);
  if (id instanceof Refusal) return id;
  const account = app.ledger.accounts.get(id);
  if (account === undefined || account.kind !== 'margin') return refusal(ErrorCode.ACCOUNT_NOT_FOUND, `${name}: ${show(id)} is not a registered margin account`, 404);
  return account;
}

export function registerMarginRoutes(app: SandboxApp): void {
  const { router } = app;

  router.on('GET', '/v1/margin/tiers', () => json({ tiers: app.margin.latestTiers().map((tier) => tierView(app.margin, tier)) }));

  // Selectors (ours): tier_id, version (needs tier_id), published_before / published_after (unix
  // seconds, inclusive), limit (1-500, default 500). Newest publication first.
  router.on('GET', '/v1/margin/tiers/history', (request) => {
    const { query } = request;
    const tierId = query.get('tier_id');
    if (tierId !== null && !/^\d{1,20}$/.test(tierId)) return refuse(invalid(`tier_id: expected a decimal tier id, got ${show(tierId)}`));
    const version = query.get('version') === null ? undefined : integer(query, 'version', { min: 1, max: 1_000_000 });
    if (version instanceof Refusal) return refuse(version);
    if (version !== undefined && tierId === null) return refuse(invalid('version: requires tier_id, got only version'));
    const before = optionalBigInt(query, 'published_before');
    if (before instanceof Refusal) return refuse(before);
    const after = optionalBigInt(query, 'published_after');
    if (after instanceof Refusal) return refuse(after);
    const limit = integer(query, 'limit', { min: 1, max: 500, fallback: 500 });
    if (limit instanceof Refusal) return refuse(limit);
    const tiers = app.margin
      .tierVersions()
      .filter((tier) => tierId === null || tier.tierId === tierId)
      .filter((tier) => version === undefined || tier.version === version)
      .filter((tier) => before === undefined || app.margin.publishedAt(tier) <= before)
      .filter((tier) => after === undefined || app.margin.publishedAt(tier) >= after)
      .sort((a, b) => Number(app.margin.publishedAt(b) - app.margin.publishedAt(a)) || b.version - a.version)
      .slice(0, limit);
    return json({ tiers: tiers.map((tier) => tierView(app.margin, tier)) });
  });

  router.on('GET', '/v1/margin/next-account', (request) => {
    const parentId = requiredB256(request.query, 'parent_contract');
    if (parentId instanceof Refusal) return refuse(parentId);
    const parent = app.ledger.accounts.get(parentId);
    if (parent === undefined || parent.kind !== 'trade') return refuse(refusal(ErrorCode.ACCOUNT_NOT_FOUND, 'Account not found', 404));
    // `index` (ours, optional): predict a later child so a session's signed scope can list it ahead.
    const next = app.margin.nextIndex(parent.id);
    const asked = optionalBigInt(request.query, 'index');
    if (asked instanceof Refusal) return refuse(asked);
    if (asked !== undefined && asked < next) return refuse(invalid(`index: children below ${next} are registered already, got ${asked}`));
    const index = asked ?? next;
    return json({
      contract_id: app.margin.childId(parent.id, index),
      index: index.toString(),
      // What registration binds (RegisterMarginAccount call data and the contract's configurables).
      configurables: {
        parent: { ContractId: parent.id },
        index: index.toString(),
        accounts_registry_id: app.network.accountsRegistryId,
        margin_pool_id: app.network.marginPoolId,
        collateral_asset_id: app.network.marginCollateralAssetId,
        implementation: app.network.tradeAccountImplementationId,
      },
    });
  });

  router.on('GET', '/v1/margin/state', (request) => {
    const child = marginAccount(app, request.query, 'account');
    if (child instanceof Refusal) return refuse(child);
    return json(stateView(app.margin, child));
  });

  router.on('GET', '/v1/margin/pool', () => json(poolView(app.margin)));

  router.on('GET', '/v1/margin/statistics', () => {
    const margin = app.margin;
    let legacy = 0;
    let turbo = 0;
    let frozen = 0;
    let liquidatable = 0;
    for (const [childId, session] of margin.sessions) {
      if (session.cohort === 'Legacy') legacy++;
      else turbo++;
      const child = app.ledger.accounts.get(childId);
      const risk = child === undefined ? undefined : margin.risk(child);
      if (risk?.ok === true && risk.value.health.frozen) frozen++;
      if (risk?.ok === true && risk.value.health.liquidatable) liquidatable++;
    }
    const ended = [...margin.history.values()].flat();
    return json({
      active_sessions: margin.sessions.size,
      active_legacy: legacy,
      active_turbo: turbo,
      frozen,
      liquidatable,
      closed_sessions: ended.filter((session) => session.status === 'Closed').length,
      liquidated_sessions: ended.filter((session) => session.status === 'Liquidated').length,
      expired_sessions: ended.filter((session) => session.status === 'Expired').length,
      lent: lentView(margin),
      bad_debt: margin.badDebt.toString(),
      pool_paused: margin.poolPaused,
    });
  });

  // Activity (ours): `account`, optional `after` (a sequence; entries strictly after it) and `count`.
  router.on('GET', '/v1/margin/activity', (request) => {
    const child = marginAccount(app, request.query, 'account');
    if (child instanceof Refusal) return refuse(child);
    const after = optionalBigInt(request.query, 'after');
    if (after instanceof Refusal) return refuse(after);
    const count = integer(request.query, 'count', { min: 1, max: MAX_ACTIVITY_PAGE, fallback: 100 });
    if (count instanceof Refusal) return refuse(count);
    const entries = (app.margin.activity.get(child.id) ?? []).filter((entry) => after === undefined || BigInt(entry.sequence) > after);
    return json({ account: child.id, activity: entries.slice(-count) });
  });

  router.on('GET', '/v1/margin/close-cleanups', (request) => {
    const child = marginAccount(app, request.query, 'account');
    if (child instanceof Refusal) return refuse(child);
    return json({ account: child.id, cleanups: app.margin.closeCleanups(child) });
  });

  router.on('GET', '/v1/margin/discount', (request) => {
    const user = optionalOwnerB256(request.query, 'user');
    if (user instanceof Refusal) return refuse(user);
    if (user === undefined) return refuse(invalid('user: required (the owner wallet), got nothing'));
    return json(discountView(app.margin, user));
  });

  router.on('GET', '/v1/events', (request) => eventsReply(app, request.query));
}

/**
 * GET /v1/events (ours): `market_id` (optional), `type` (comma list of event types), `after` (a
 * sequence; events strictly after it), `count` (1-500, default 100). Oldest first; the envelope
 * is `{events, next_after, latest}`: pass `next_after` back as `after` to page on.
 */
function eventsReply(app: SandboxApp, query: URLSearchParams): Reply {
  const marketId = optionalB256(query, 'market_id');
  if (marketId instanceof Refusal) return refuse(marketId);
  const types = query.get('type')?.split(',') ?? null;
  const unknown = types?.find((type) => !EVENT_TYPES.includes(type));
  if (unknown !== undefined) return refuse(invalid(`type: expected one of ${EVENT_TYPES.join(', ')}, got ${show(unknown)}`));
  const after = optionalBigInt(query, 'after');
  if (after instanceof Refusal) return refuse(after);
  const count = integer(query, 'count', { min: 1, max: MAX_EVENTS_PAGE, fallback: 100 });
  if (count instanceof Refusal) return refuse(count);
  const all = app.ledger.turboEvents.all();
  const events = all
    .filter((event) => after === undefined || BigInt(event.sequence as string) > after)
    .filter((event) => marketId === undefined || event.market_id === marketId)
    .filter((event) => types === null || types.includes(event.type as string))
    .slice(0, count);
  const last = events[events.length - 1];
  return json({ events, next_after: last === undefined ? (after?.toString() ?? null) : last.sequence, latest: (all[all.length - 1]?.sequence as string | undefined) ?? '0' });
}
