// The control surface (only with --control; app.ts answers 404 otherwise): test hooks to move
// time, reset, drop WebSockets, inject faults, move a price and read the ledger. Every
// endpoint is listed in docs/sandbox.md.
import { z } from 'zod';
import type { SandboxApp } from '../app-types';
import { nowNanos } from '../clock';
import { ErrorCode, refusal, Refusal, show } from '../http/errors';
import { parseBody } from '../http/parse';
import { json, refuse } from '../http/reply';
import { identityToJson } from '../../shared/encoding/identity';
import { tradeThrough } from '../house/price';
import { isRevert } from '../ledger/revert';
import { amountSchema, b256Schema, u64Schema } from '../../shared/api/primitives';
import { nowSeconds } from '../clock';
import { isRevert as isReverted } from '../ledger/revert';
import { accountBalanceView } from '../views/accounts';
import { marketOrderView } from '../views/orders';
import { InsideWatches } from '../control/inside-watch';
import { MAKER_PROFILES } from '../house/depth-profile';
import { MAKER_REGIMES } from '../house/regimes';

const advanceSchema = z.strictObject({ ms: z.number().int().min(0).max(10 * 365 * 86_400_000) });
const faultBase = {
  count: z.number().int().min(1).max(10_000),
  method: z.enum(['GET', 'POST', 'PUT', 'DELETE']).optional(),
  path_prefix: z.string().startsWith('/').max(200).optional(),
};
const delaySchema = z.strictObject({ ...faultBase, delay_ms: z.number().int().min(0).max(60_000) });
const failSchema = z.strictObject({ ...faultBase, status: z.number().int().min(500).max(599) });
const dropSchema = z.strictObject(faultBase);
const stallSchema = z.strictObject({ ms: z.number().int().min(1).max(120_000) });
const priceSchema = z.strictObject({ market_id: b256Schema, price: u64Schema });
const makerSchema = z
  .strictObject({ pinned: z.boolean().optional(), profile: z.enum(MAKER_PROFILES).optional(), regime: z.enum(MAKER_REGIMES).optional(), clock_driven: z.boolean().optional() })
  .refine((body) => Object.keys(body).length > 0, { message: 'expected at least one of pinned, profile, regime, clock_driven' });
const insideWatchSchema = z.strictObject({ market_id: b256Schema });
const watchIdSchema = z.strictObject({ watch_id: z.string().min(1).max(40) });
const oracleSchema = z.strictObject({ asset_id: b256Schema, price: amountSchema.optional(), stale: z.boolean().optional(), follow: z.literal(true).optional(), tick: z.boolean().optional() });
const accountSchema = z.strictObject({ account: b256Schema });
const marginClockSchema = z.strictObject({ held: z.boolean() });
const houseRoleSchema = z.strictObject({ market_id: b256Schema, account: b256Schema, granted: z.boolean().default(true) });
const turboStateSchema = z.strictObject({ market_id: b256Schema, paused: z.boolean().optional(), canonical_paused: z.boolean().optional(), connected: z.boolean().optional() });
const marketSchema = z.strictObject({ market_id: b256Schema, message: z.string().max(200).optional() });
const poolSchema = z.strictObject({ paused: z.boolean() });
const discountSchema = z.strictObject({ user: b256Schema, discount_bps: z.number().int().min(0).max(10_000) });
const publishSchema = z.strictObject({ tier_id: z.string().regex(/^\d{1,20}$/), open_fee: amountSchema.optional(), required_collateral: amountSchema.optional() });

export function registerControlRoutes(app: SandboxApp): void {
  const { router } = app;

  router.on('POST', '/control/clock/advance', (request) => {
    const body = parseBody(advanceSchema, request.body);
    if (body instanceof Refusal) return refuse(body);
    app.clock.advance(body.ms);
    // The maker's quote steps (depth profiles) and margin expiry, rollover and liquidation follow
    // the clock at once, not at the next wall tick.
    app.maker.advanceClock(body.ms);
    const margin = app.marginTick();
    return json({ now_ms: app.clock.now(), margin });
  });

  router.on('GET', '/control/clock', () => json({ now_ms: app.clock.now() }));

  router.on('POST', '/control/reset', () => {
    app.reset();
    return json({ reset: true });
  });

  router.on('POST', '/control/ws/close-all', () => json({ closed: app.streams.closeAll() }));

  router.on('POST', '/control/ws/stall', (request) => {
    const body = parseBody(stallSchema, request.body);
    if (body instanceof Refusal) return refuse(body);
    return json({ stalled: app.streams.stallAll(body.ms) });
  });

  router.on('POST', '/control/faults/delay', (request) => {
    const body = parseBody(delaySchema, request.body);
    if (body instanceof Refusal) return refuse(body);
    return addFault(app, { kind: 'delay', remaining: body.count, method: body.method, pathPrefix: body.path_prefix, delayMs: body.delay_ms });
  });
  router.on('POST', '/control/faults/fail', (request) => {
    const body = parseBody(failSchema, request.body);
    if (body instanceof Refusal) return refuse(body);
    return addFault(app, { kind: 'fail', remaining: body.count, method: body.method, pathPrefix: body.path_prefix, status: body.status });
  });
  router.on('POST', '/control/faults/drop', (request) => {
    const body = parseBody(dropSchema, request.body);
    if (body instanceof Refusal) return refuse(body);
    return addFault(app, { kind: 'drop', remaining: body.count, method: body.method, pathPrefix: body.path_prefix });
  });
  router.on('POST', '/control/faults/clear', () => {
    app.faults.clear();
    return json({ cleared: true });
  });
  router.on('GET', '/control/faults', () => json({ faults: app.faults.list() }));

  router.on('POST', '/control/markets/price', (request) => {
    const body = parseBody(priceSchema, request.body);
    if (body instanceof Refusal) return refuse(body);
    const market = app.ledger.markets.get(body.market_id);
    if (market === undefined) return refuse(refusal(ErrorCode.MARKET_NOT_FOUND, `market_id: no such market, got ${show(body.market_id)}`, 404));
    if (body.price === 0n) return refuse(refusal(ErrorCode.INVALID_FIELD, 'price: must be above zero, got "0"'));
    const outcome = tradeThrough(app.ledger, app.house, market, body.price, app.nextTxId(), nowNanos(app.clock));
    if (isRevert(outcome)) return json({ message: outcome.message, reason: outcome.reason }, 400);
    app.maker.setMid(market.config.market_id, market.lastPrice ?? body.price);
    return json({ market_id: body.market_id, last_price: (market.lastPrice ?? 0n).toString() });
  });

  // A pinned maker posts a fresh full set of quotes on every book at once and keeps quoting the
  // same prices and sizes (no walk, no house takes), so what a test trades against is known rather
  // than the luck of the timers, and comes back after the test takes it. The profile (how deep)
  // and the regime (how the mid moves) change the same way: at once, on every book.
  router.on('POST', '/control/maker', (request) => {
    const body = parseBody(makerSchema, request.body);
    if (body instanceof Refusal) return refuse(body);
    app.maker.stop();
    if (body.pinned !== undefined) app.maker.pin(body.pinned);
    app.maker.configure({ profile: body.profile, regime: body.regime, clockDriven: body.clock_driven });
    if (app.maker.state.pinned || app.options.maker) app.maker.start();
    // The answer names what was set, as it was asked.
    return json(body);
  });

  router.on('GET', '/control/maker', () => {
    const { profile, regime, pinned, clockDriven, running } = app.maker.state;
    return json({ profile, regime, pinned, clock_driven: clockDriven, running });
  });

  registerMarginControl(app);

  router.on('GET', '/control/ledger', () => {
    const ledger = app.ledger;
    const holdings = ledger.holdings();
    return json({
      accounts: [...ledger.accounts.values()].map((account) => ({
        trade_account_id: account.id,
        owner: identityToJson(account.owner),
        nonce: account.nonce.toString(),
        whitelisted: account.whitelisted,
        house: account.house,
        implementation: account.implementation,
        referer: account.referer === null ? null : identityToJson(account.referer),
        session: account.session === null ? null : { session_id: identityToJson(account.session.sessionId), expiry: account.session.expiry.toString(), contract_ids: [...account.session.contractIds] },
        balances: Object.fromEntries(app.network.assets.map((asset) => [asset.id, accountBalanceView(ledger, account, asset.id)])),
      })),
      markets: [...ledger.markets.values()].map((market) => ({
        market_id: market.config.market_id,
        name: market.config.name,
        fees_base: market.feesBase.toString(),
        fees_quote: market.feesQuote.toString(),
        last_price: market.lastPrice?.toString() ?? null,
        open_orders: [...market.orders.values()].filter((order) => !order.close).length,
      })),
      minted: Object.fromEntries([...ledger.minted].map(([asset, amount]) => [asset, amount.toString()])),
      held_plus_fees: Object.fromEntries([...holdings].map(([asset, amount]) => [asset, amount.toString()])),
      invariant_problems: [...ledger.checkInvariants(), ...marginInvariantProblems(app)],
    });
  });

  router.on('GET', '/control/ledger/orders', (request) => {
    const id = request.query.get('market_id');
    const market = id === null ? undefined : app.ledger.markets.get(id);
    if (market === undefined) return refuse(refusal(ErrorCode.MARKET_NOT_FOUND, `market_id: no such market, got ${show(id)}`, 404));
    return json({ market_id: market.config.market_id, orders: [...market.orders.values()].map((order) => marketOrderView(market, order)) });
  });

  registerInsideWatches(app);
}

/** Watches of a book's inside: every committed state's best bid and ask, their extremes read at the end (control/inside-watch.ts). */
function registerInsideWatches(app: SandboxApp): void {
  const watches = new InsideWatches();
  app.onChange((_changes, current) => watches.observe(current.ledger));
  app.onReset(() => watches.clear());
  const text = (value: bigint | null) => (value === null ? null : value.toString());

  app.router.on('POST', '/control/markets/inside-watch', (request) => {
    const body = parseBody(insideWatchSchema, request.body);
    if (body instanceof Refusal) return refuse(body);
    const id = watches.start(app.ledger, body.market_id);
    if (id === undefined) return refuse(refusal(ErrorCode.MARKET_NOT_FOUND, `market_id: no such market, got ${show(body.market_id)}`, 404));
    return json({ watch_id: id });
  });

  app.router.on('GET', '/control/markets/inside-watch', (request) => {
    const id = request.query.get('watch_id');
    const watch = id === null ? undefined : watches.read(id);
    if (watch === undefined) return refuse(refusal(ErrorCode.INVALID_FIELD, `watch_id: no such watch, got ${show(id)}`, 404));
    return json({ market_id: watch.marketId, min_bid: text(watch.minBid), max_bid: text(watch.maxBid), min_ask: text(watch.minAsk), max_ask: text(watch.maxAsk), changes: watch.changes });
  });

  app.router.on('POST', '/control/markets/inside-watch/stop', (request) => {
    const body = parseBody(watchIdSchema, request.body);
    if (body instanceof Refusal) return refuse(body);
    return json({ stopped: watches.stop(body.watch_id) });
  });
}

function addFault(app: SandboxApp, rule: Parameters<SandboxApp['faults']['add']>[0]) {
  if (!app.faults.add(rule)) return refuse(refusal(ErrorCode.INVALID_FIELD, 'faults: too many pending rules (64); clear them first'));
  return json({ added: { ...rule } });
}

/**
 * The pool's own invariant on top of the ledger's (held + fees == minted): per asset, what the
 * pool holds plus what it lent (drawn quote, in-kind debts) equals what it was funded with, moved
 * by settlements (bought, sold, bad debt); and custody holds exactly C - F of every live session.
 */
export function marginInvariantProblems(app: SandboxApp): string[] {
  const margin = app.margin;
  const problems: string[] = [];
  const pool = margin.pool();
  const lent = new Map<string, bigint>();
  let custody = 0n;
  for (const session of margin.sessions.values()) {
    lent.set(margin.config.collateralAssetId, (lent.get(margin.config.collateralAssetId) ?? 0n) + session.quoteDrawn);
    for (const [asset, amount] of session.debts) lent.set(asset, (lent.get(asset) ?? 0n) + amount);
    custody += session.collateral - session.fees;
  }
  for (const asset of margin.config.poolFunding.keys()) {
    const held = pool.get(asset) + (lent.get(asset) ?? 0n);
    if (held !== margin.expected.get(asset)) problems.push(`margin pool asset ${asset}: inventory + lent ${held} != expected ${margin.expected.get(asset)}`);
  }
  const inCustody = margin.custody().get(margin.config.collateralAssetId);
  if (inCustody !== custody) problems.push(`margin custody ${inCustody} != sum of C - F ${custody}`);
  return problems;
}

function registerMarginControl(app: SandboxApp): void {
  const { router } = app;
  const link = (marketId: string) => app.ledger.turbo.get(marketId);
  const noTurbo = (marketId: string) => refuse(refusal(ErrorCode.MARKET_NOT_FOUND, `Market ${marketId} has no Turbo order book`, 404));

  // Move an oracle price (mid on the 1e18 scale; pinned until `follow`), its stale flag, then
  // run the margin clock step (liquidations) unless `tick` is false.
  router.on('POST', '/control/margin/oracle', (request) => {
    const body = parseBody(oracleSchema, request.body);
    if (body instanceof Refusal) return refuse(body);
    const margin = app.margin;
    const changed = margin.oracle.set(body.asset_id, { mid: body.price, stale: body.stale, ...(body.follow === true ? { pinned: false } : {}) }, nowSeconds(app.clock));
    if (!changed) return refuse(refusal(ErrorCode.ASSET_NOT_FOUND, `asset_id: the oracle does not price ${show(body.asset_id)}`, 404));
    for (const child of margin.sessions.keys()) app.ledger.changes.marginActivity(child, { kind: 'Prices', details: { assets: body.asset_id } });
    app.ledger.publish();
    const price = margin.oracle.price(body.asset_id);
    const settled = body.tick === false ? [] : app.marginTick();
    return json({ asset_id: body.asset_id, bid: price?.bid.toString(), ask: price?.ask.toString(), stale: price?.stale, margin: settled });
  });

  // The permissionless liquidator: settles the account when V <= threshold, else the revert.
  router.on('POST', '/control/margin/liquidate', (request) => {
    const body = parseBody(accountSchema, request.body);
    if (body instanceof Refusal) return refuse(body);
    const child = app.ledger.accounts.get(body.account);
    if (child === undefined || child.kind !== 'margin') return refuse(refusal(ErrorCode.ACCOUNT_NOT_FOUND, `account: ${show(body.account)} is not a margin account`, 404));
    const txId = app.nextTxId();
    const outcome = app.ledger.transact(() => app.margin.liquidate(child, { account: child, txId, timestamp: nowNanos(app.clock) }));
    if (isReverted(outcome)) return json({ message: outcome.message, reason: outcome.reason, tx_id: txId }, 400);
    return json({ liquidated: body.account, tx_id: txId, settlement: app.margin.history.get(child.id)?.at(-1)?.settlement ?? null });
  });

  router.on('POST', '/control/margin/tick', () => json({ margin: app.marginTick() }));

  // Hold the wall-time margin step (a test that must see a state before the clock acts on it, such
  // as an account that is liquidatable but not yet liquidated); explicit steps still run. A reset releases it.
  router.on('POST', '/control/margin/clock', (request) => {
    const body = parseBody(marginClockSchema, request.body);
    if (body instanceof Refusal) return refuse(body);
    app.holdMarginClock(body.held);
    return json({ held: body.held });
  });

  router.on('POST', '/control/margin/pool', (request) => {
    const body = parseBody(poolSchema, request.body);
    if (body instanceof Refusal) return refuse(body);
    app.margin.poolPaused = body.paused;
    for (const child of app.margin.sessions.keys()) app.ledger.changes.marginActivity(child, { kind: body.paused ? 'PoolPaused' : 'PoolUnpaused' });
    app.ledger.publish();
    return json({ paused: app.margin.poolPaused });
  });

  router.on('POST', '/control/margin/discount', (request) => {
    const body = parseBody(discountSchema, request.body);
    if (body instanceof Refusal) return refuse(body);
    app.margin.discounts.set(body.user, BigInt(body.discount_bps));
    return json({ user: body.user, discount_bps: String(body.discount_bps) });
  });

  // Publish a new version of a tier (new sessions take it; live sessions keep theirs).
  router.on('POST', '/control/margin/tiers/publish', (request) => {
    const body = parseBody(publishSchema, request.body);
    if (body instanceof Refusal) return refuse(body);
    const margin = app.margin;
    const latest = margin.latestTiers().find((tier) => tier.tierId === body.tier_id);
    if (latest === undefined) return refuse(refusal(ErrorCode.INVALID_FIELD, `tier_id: no tier ${show(body.tier_id)}`, 404));
    const next = {
      ...latest,
      version: latest.version + 1,
      // Published now: the offset from the start is negative once the clock moved on.
      publishedSecondsAgo: margin.publishedAt({ ...latest, publishedSecondsAgo: 0n }) - nowSeconds(app.clock),
      ...(body.open_fee === undefined ? {} : { openFee: body.open_fee }),
      ...(body.required_collateral === undefined ? {} : { requiredCollateral: body.required_collateral }),
    };
    margin.published.push(next);
    for (const child of margin.sessions.keys()) app.ledger.changes.marginActivity(child, { kind: 'TierPublished', details: { tier_id: next.tierId, version: String(next.version) } });
    app.ledger.publish();
    return json({ tier_id: next.tierId, version: next.version });
  });

  router.on('POST', '/control/turbo/house-role', (request) => {
    const body = parseBody(houseRoleSchema, request.body);
    if (body instanceof Refusal) return refuse(body);
    const pair = link(body.market_id);
    if (pair === undefined) return noTurbo(body.market_id);
    if (body.granted) pair.houseRoles.add(body.account);
    else pair.houseRoles.delete(body.account);
    return json({ market_id: body.market_id, account: body.account, granted: body.granted });
  });

  // Pause or unpause either book, connect or disconnect the Turbo book (SidecarChanged is logged).
  router.on('POST', '/control/turbo/state', (request) => {
    const body = parseBody(turboStateSchema, request.body);
    if (body instanceof Refusal) return refuse(body);
    const pair = link(body.market_id);
    if (pair === undefined) return noTurbo(body.market_id);
    if (body.paused !== undefined) pair.turbo.paused = body.paused;
    if (body.canonical_paused !== undefined) pair.canonical.paused = body.canonical_paused;
    if (body.connected !== undefined && body.connected !== pair.connected) {
      pair.connected = body.connected;
      const contract = pair.turbo.config.contract_id;
      app.ledger.logTurboEvent({ type: 'SidecarChanged', market_id: body.market_id, previous: body.connected ? null : contract, current: body.connected ? contract : null, timestamp: nowNanos(app.clock).toString() });
    }
    return json({ market_id: body.market_id, paused: pair.paused, turbo_paused: pair.turbo.paused, canonical_paused: pair.canonical.paused, connected: pair.connected });
  });

  // The Turbo trade stream restarts: subscribers get the resync error and lose the subscription.
  router.on('POST', '/control/turbo/trades/restart', (request) => {
    const body = parseBody(marketSchema, request.body);
    if (body instanceof Refusal) return refuse(body);
    if (link(body.market_id) === undefined) return noTurbo(body.market_id);
    return json({ market_id: body.market_id, notified: app.streams.restartTurboTrades(body.market_id, body.message ?? 'Turbo trade stream restarted; resubscribe') });
  });
}
