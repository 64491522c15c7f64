// Margin and Turbo contract tests over HTTP and WebSocket only: requests built and signed with
// shared/protocol as a client would, responses parsed with shared/api's margin schemas.
// Bodies are checked against the schemas first; the assertions then read the raw JSON as
// loosely typed documents, so `any` is allowed in this file only.
/* eslint-disable @typescript-eslint/no-explicit-any */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marginPoolSchema, marginStateSchema, nextMarginAccountSchema, tiersResponseSchema, turboEventsResponseSchema, closeCleanupsResponseSchema } from '../../../shared/api/margin-schemas';
import type { B256 } from '../../../shared/encoding/b256';
import { contractIdentity } from '../../../shared/encoding/identity';
import { feeOwed } from '../../../shared/market/amounts';
import type { Market } from '../../../shared/market/market';
import type { SessionAction } from '../../../shared/protocol/actions';
import { parseWith } from '../../../shared/schema';
import { startSandbox, type RunningSandbox } from '../../../sandbox/server';
import { HOUR, order, SandboxClient, secondsFromNow, Trader } from '../../support/sandbox/client';
import { MarginSigner, readNetwork, type Network } from '../../support/sandbox/margin-client';
import { StreamClient } from '../../support/sandbox/stream-client';

const ETH = 1_000_000_000n;
const USDC = 1_000_000n;
const PRICE = (whole: bigint) => whole * USDC; // ETH/USDC book prices: raw USDC per whole ETH
const ORACLE = (whole: bigint) => whole * 10n ** 18n;

let sandbox: RunningSandbox;
let client: SandboxClient;
let net: Network;
let ethUsdc: Market;
let turboEth: Network['turbo'][number];
let house: Trader;
let parent: Trader;
let signer: MarginSigner;

function parsed<T>(schema: Parameters<typeof parseWith>[0], value: unknown): T {
  const result = parseWith(schema, value, 'body');
  if (!result.ok) throw new Error(result.message);
  return result.value as T;
}

async function nextChild(): Promise<{ contract_id: B256; index: bigint }> {
  const next = await client.get(`/v1/margin/next-account?parent_contract=${parent.accountId}`);
  return parsed(nextMarginAccountSchema, next.body);
}

async function state(child: B256): Promise<Record<string, any>> {
  const reply = await client.get(`/v1/margin/state?account=${child}`);
  expect(reply.status).toBe(200);
  parsed(marginStateSchema, reply.body);
  return reply.body as Record<string, any>;
}

async function usdcOf(account: B256): Promise<bigint> {
  const reply = await client.get<{ trading_account_balance: string }>(`/v1/balance?contract=${account}&asset_id=${net.collateral}`);
  return BigInt(reply.body.trading_account_balance);
}

async function control(path: string, body: unknown): Promise<Record<string, any>> {
  const reply = await client.request('POST', path, body);
  return { status: reply.status, ...(reply.body as object) };
}

async function sharedQuote(side: 'Buy' | 'Sell', price: bigint, quantity: bigint): Promise<B256> {
  const reply = await house.act(ethUsdc, [{ kind: 'CreateSharedOrder', side, price, quantity, order_type: { kind: 'PostOnly' } }]);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return ((reply.body.orders as { order_id: B256 }[])[0] as { order_id: B256 }).order_id;
}

async function register(): Promise<B256> {
  const next = await nextChild();
  const reply = await signer.parent([{ market: ethUsdc, actions: [{ kind: 'RegisterMarginAccount', margin_account_id: next.contract_id, index: next.index }] }], '/v1/margin/accounts');
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return next.contract_id;
}

const start = (child: B256, tier: bigint, amount: bigint, period: 'SixHours' | 'Day' | 'Week' | 'Month' = 'Week'): SessionAction => ({ kind: 'StartMarginSession', margin_account_id: child, tier_id: tier, amount, period });

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, makerProfile: 'thin-legacy', maker: false, rateLimits: false, control: true });
  client = new SandboxClient(sandbox.url);
  net = await readNetwork(client);
  ethUsdc = net.canonical.find((market) => market.base.symbol === 'ETH' && market.quote.asset === net.collateral) as Market;
  turboEth = net.turbo.find((market) => market.market_id === ethUsdc.market_id) as Network['turbo'][number];
  house = await Trader.create(client);
  await house.openSession([ethUsdc.contract_id], secondsFromNow(2n * HOUR));
  expect((await control('/control/turbo/house-role', { market_id: ethUsdc.market_id, account: house.accountId })).status).toBe(200);
  parent = await Trader.create(client);
  signer = new MarginSigner(parent, net);
});

afterAll(async () => {
  await sandbox.close();
});

async function openParentSession(extra: B256[]): Promise<void> {
  const predicted: B256[] = [];
  for (let index = 0n; index < 5n; index++) predicted.push((await client.get<{ contract_id: B256 }>(`/v1/margin/next-account?parent_contract=${parent.accountId}&index=${index}`)).body.contract_id);
  const reply = await parent.openSession([ethUsdc.contract_id, ...net.turbo.map((market) => market.contract_id), net.pool, net.registry, ...predicted, ...extra], secondsFromNow(365n * 24n * HOUR));
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
}

describe('margin reads', () => {
  it('publishes tiers of both cohorts with history, the pool, Turbo rows and events', async () => {
    const tiers = parsed<Record<string, any>[]>(tiersResponseSchema, (await client.get('/v1/margin/tiers')).body);
    const raw = (await client.get<{ tiers: Record<string, any>[] }>('/v1/margin/tiers')).body.tiers;
    expect(tiers.length).toBe(4);
    const legacy = raw.find((tier) => tier.tier_id === '1') as Record<string, any>;
    expect('turbo' in legacy).toBe(false);
    const onSale = raw.find((tier) => tier.tier_id === '2') as Record<string, any>;
    expect(onSale.turbo.max_rollovers).toBe(0);
    expect(new Set(onSale.turbo.max_loss_bps).size).toBe(1);
    const ladder = raw.find((tier) => tier.tier_id === '3') as Record<string, any>;
    expect(ladder.turbo.max_rollovers).toBeGreaterThan(0);
    expect(ladder.turbo.max_loss_bps).toEqual(['3000', '4000', '5000', '6000']);
    const open = raw.find((tier) => tier.tier_id === '4') as Record<string, any>;
    expect(open.duration).toBe('18446744073709551615');
    expect(open.turbo.term_seconds).toBe('18446744073709551615');
    const history = (await client.get<{ tiers: { tier_id: string; version: number }[] }>('/v1/margin/tiers/history?tier_id=2')).body.tiers;
    expect(history.map((tier) => tier.version)).toEqual([2, 1]);
    expect((await client.get('/v1/margin/tiers/history?version=1')).status).toBe(400);
    const pool = parsed<{ paused: boolean; inventory: Record<string, bigint> }>(marginPoolSchema, (await client.get('/v1/margin/pool')).body);
    expect(pool.paused).toBe(false);
    expect(pool.inventory[net.collateral]).toBeGreaterThan(0n);
    expect(turboEth.contract_id).not.toBe(ethUsdc.contract_id);
    expect(turboEth.canonical_contract_id).toBe(ethUsdc.contract_id);
    const events = parsed<{ type: string }[]>(turboEventsResponseSchema, (await client.get('/v1/events?type=SidecarChanged')).body);
    expect(events.length).toBe(net.turbo.length);
    expect((await client.get('/v1/margin/statistics')).body).toMatchObject({ active_sessions: 0 });
  });
});

describe('margin sessions over HTTP', () => {
  let legacyChild: B256;
  let prepaidChild: B256;
  let ladderChild: B256;

  it('refuses margin actions outside the session scope, then registers children', async () => {
    await parent.openSession([ethUsdc.contract_id], secondsFromNow(2n * HOUR));
    const next = await nextChild();
    const refused = await signer.parent([{ market: ethUsdc, actions: [{ kind: 'RegisterMarginAccount', margin_account_id: next.contract_id, index: next.index }] }], '/v1/margin/accounts');
    expect(refused.body).toMatchObject({ code: 4010 });
    expect(String(refused.body.message)).toContain('MarginAccountNotInSessionScope');
    await openParentSession([]);
    const wrongIndex = await signer.parent([{ market: ethUsdc, actions: [{ kind: 'RegisterMarginAccount', margin_account_id: next.contract_id, index: 7n }] }], '/v1/margin/accounts');
    expect(wrongIndex.body.reason).toBe('InvalidIndex');
    legacyChild = await register();
    prepaidChild = await register();
    ladderChild = await register();
    const listing = await client.get<{ trade_account_id: B256; margin_accounts: { trade_account_id: B256; index: string }[] }>(`/v1/accounts?owner=${parent.owner.address}`);
    expect(listing.body.trade_account_id).toBe(parent.accountId);
    expect(listing.body.margin_accounts.map((child) => child.trade_account_id)).toEqual([legacyChild, prepaidChild, ladderChild]);
  });

  it('opens a legacy session at the floor and refuses one unit below it', async () => {
    // required 1000 + discounted(open 5 + Day 3) = 1008 USDC (no discount).
    const below = await signer.parent([{ market: ethUsdc, actions: [start(legacyChild, 1n, 1008n * USDC - 1n, 'Day')] }]);
    expect(below.body.reason).toBe('OpeningAmountBelowFloor');
    const opened = await signer.parent([{ market: ethUsdc, actions: [start(legacyChild, 1n, 1008n * USDC, 'Day')] }]);
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    const view = await state(legacyChild);
    expect(view.session).toMatchObject({ cohort: 'Legacy', collateral: String(1008n * USDC), fees: String(8n * USDC), quote_drawn: '0' });
    expect(view.rollover).toBeUndefined();
    expect(view.risk_params.stress_band_bps[ethUsdc.base.asset]).toBe('1500');
  });

  it('opens a prepaid session only with the exact amount and period Week', async () => {
    // discounted(50) + discounted(5 + 10) = 65 USDC.
    for (const amount of [65n * USDC - 1n, 65n * USDC + 1n]) {
      const inexact = await signer.parent([{ market: ethUsdc, actions: [start(prepaidChild, 2n, amount)] }]);
      expect(inexact.body.reason).toBe('InexactOpeningAmount');
    }
    const day = await signer.parent([{ market: ethUsdc, actions: [start(prepaidChild, 2n, 65n * USDC, 'Day')] }]);
    expect(day.body.reason).toBe('PeriodNotAllowed');
    const before = await usdcOf(parent.accountId);
    const opened = await signer.parent([{ market: ethUsdc, actions: [start(prepaidChild, 2n, 65n * USDC)] }]);
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    expect(await usdcOf(parent.accountId)).toBe(before - 65n * USDC);
    const view = await state(prepaidChild);
    expect(view.session).toMatchObject({ cohort: 'Turbo', collateral: '0', fees: '0' });
    expect(view.tier.turbo.max_rollovers).toBe(0);
    expect(view.rollover).toBeUndefined();
  });

  it('draws, borrows, repays, returns, adds collateral and prolongs a legacy session, with a stream of totals', async () => {
    const stream = await StreamClient.open(sandbox.url);
    stream.send({ action: 'subscribe_margin', margin_account_id: legacyChild });
    const first = await stream.waitFor<{ state: Record<string, any> }>((message) => message.action === 'subscribe_margin');
    parsed(marginStateSchema, first.state);
    const sequential = await signer.child(legacyChild, [{ market: turboEth, turbo: true, actions: [{ kind: 'Draw', amount: 500n * USDC }] }], { kind: 'sequential', value: 0n });
    expect(sequential.body).toMatchObject({ code: 4011 });
    const one = await signer.child(legacyChild, [
      {
        market: turboEth,
        turbo: true,
        actions: [
          { kind: 'Draw', amount: 500n * USDC },
          { kind: 'Borrow', asset_id: ethUsdc.base.asset, amount: ETH / 10n },
          { kind: 'ReturnQuote', amount: 100n * USDC },
          { kind: 'AddCollateral', amount: 50n * USDC },
          { kind: 'ProlongSession', period: 'Day', times: 1n },
        ],
      },
    ]);
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    const update = await stream.waitFor<{ event: Record<string, any> }>((message) => message.action === 'subscribe_margin_update');
    expect(update.event).toMatchObject({ drawn_total: String(400n * USDC), collateral_total: String(1058n * USDC), fees_total: String(11n * USDC), debt_total: String(ETH / 10n), asset_id: ethUsdc.base.asset });
    expect(BigInt(update.event.sequence)).toBe(BigInt(first.state.sequence) + 1n);
    const two = await signer.child(legacyChild, [
      { market: turboEth, turbo: true, actions: [{ kind: 'Repay', asset_id: ethUsdc.base.asset, amount: ETH / 10n }, { kind: 'RepayFromCollateral', amount: 100n * USDC }, { kind: 'SetAutoProlong', period: 'Week' }] },
    ]);
    expect(two.status, JSON.stringify(two.body)).toBe(200);
    const next = await stream.waitFor<{ event: Record<string, any> }>((message) => message.action === 'subscribe_margin_update');
    expect(BigInt(next.event.sequence)).toBe(BigInt(update.event.sequence) + 1n);
    expect(next.event.drawn_total).toBe(String(300n * USDC));
    stream.close();
    const view = await state(legacyChild);
    expect(view.session).toMatchObject({ quote_drawn: String(300n * USDC), collateral: String(958n * USDC), fees: String(11n * USDC), auto_prolong: 'Week' });
    expect(BigInt(view.session.expires_at) - BigInt(view.session.opened_at)).toBe(3n * 86_400n);
    const collateralBorrow = await signer.child(legacyChild, [{ market: turboEth, turbo: true, actions: [{ kind: 'Borrow', asset_id: net.collateral, amount: 1n }] }]);
    expect(collateralBorrow.body.reason).toBe('CollateralNotBorrowable');
    const healthy = await control('/control/margin/liquidate', { account: legacyChild });
    expect(healthy.reason).toBe('NotLiquidatable');
  });

  it('fills a Turbo order against a shared quote, never a public order; refuses outstanding above L', async () => {
    const publicSeller = await Trader.create(client);
    await publicSeller.openSession([ethUsdc.contract_id], secondsFromNow(2n * HOUR));
    const cheaper = await publicSeller.act(ethUsdc, [order('Sell', PRICE(2990n), ETH)]);
    const publicId = ((cheaper.body.orders as { order_id: B256 }[])[0] as { order_id: B256 }).order_id;
    const shared = await sharedQuote('Sell', PRICE(3000n), ETH);
    const unbounded = await signer.child(prepaidChild, [{ market: turboEth, turbo: true, actions: [{ kind: 'Draw', amount: 10n * USDC }, order('Buy', PRICE(3000n), ETH / 100n, { kind: 'Market' })] }]);
    expect(unbounded.body, JSON.stringify(unbounded.body)).toMatchObject({ code: 7007 });
    const above = await signer.child(prepaidChild, [{ market: turboEth, turbo: true, actions: [{ kind: 'Draw', amount: 2001n * USDC }] }]);
    expect(above.body.reason).toBe('OutstandingAboveCreditLine');
    const bought = await signer.child(prepaidChild, [
      { market: turboEth, turbo: true, actions: [{ kind: 'Draw', amount: 1900n * USDC }, order('Buy', PRICE(3010n), (ETH * 6n) / 10n), { kind: 'SettleBalance', to: contractIdentity(prepaidChild) }] },
    ]);
    expect(bought.status, JSON.stringify(bought.body)).toBe(200);
    const turboOrder = (bought.body.orders as Record<string, any>[])[0] as Record<string, any>;
    expect(turboOrder).toMatchObject({ turbo: true, close: true, quantity_fill: String((ETH * 6n) / 10n) });
    // The Turbo taker bought: each fill's fee is on the base it received at the Turbo book's taker
    // rate, rounded up (a trade keeps its rates and reads its fees back: sandbox/ledger/trades.ts).
    const turboFills = turboOrder.fills as { quantity: string; fee: string }[];
    expect(turboFills.length).toBeGreaterThan(0);
    for (const fill of turboFills) expect(fill.fee).toBe(String(feeOwed(BigInt(fill.quantity), turboEth.taker_fee)));
    const trades = await client.get<{ trades: Record<string, any>[] }>(`/v1/trades?market_id=${ethUsdc.market_id}&turbo=true`);
    expect(trades.body.trades[0]).toMatchObject({ price: String(PRICE(3000n)), turbo: true, shared: { funding_source: { order_id: shared } } });
    const publicOrder = await client.get<{ order: { quantity_fill: string } }>(`/v1/order?market_id=${ethUsdc.market_id}&order_id=${publicId}`);
    expect(publicOrder.body.order.quantity_fill).toBe('0');
    const events = parsed<{ type: string }[]>(turboEventsResponseSchema, (await client.get(`/v1/events?market_id=${ethUsdc.market_id}`)).body);
    expect(events.map((event) => event.type)).toEqual(expect.arrayContaining(['HouseOrderCreated', 'SharedExecution', 'SharedTradePerformed']));
    // A resting Turbo order is never taken by a public taker.
    const resting = await signer.child(prepaidChild, [{ market: turboEth, turbo: true, actions: [order('Sell', PRICE(3500n), ETH / 10n)] }]);
    expect(resting.status, JSON.stringify(resting.body)).toBe(200);
    const restingId = ((resting.body.orders as { order_id: B256 }[])[0] as { order_id: B256 }).order_id;
    await publicSeller.act(ethUsdc, [order('Buy', PRICE(3590n), ETH / 10n)]);
    const still = await client.get<{ order: { quantity_fill: string; turbo: boolean } }>(`/v1/order?market_id=${ethUsdc.market_id}&order_id=${restingId}&turbo=true`);
    expect(still.body.order).toMatchObject({ quantity_fill: '0', turbo: true });
    const demand = await client.get<{ view: { sells: { price: string }[] } }>(`/v1/depth?market_id=${ethUsdc.market_id}&turbo=true&view=demand`);
    expect(demand.body.view.sells[0]?.price).toBe(String(PRICE(3500n)));
    const cancel = await signer.child(prepaidChild, [{ market: turboEth, turbo: true, actions: [{ kind: 'CancelOrder', order_id: restingId }, { kind: 'SettleBalance', to: contractIdentity(prepaidChild) }] }]);
    expect(cancel.status).toBe(200);
  });

  it('refuses risk-increasing batches while frozen, accepts risk-reducing ones, then liquidates and settles', async () => {
    await sharedQuote('Buy', PRICE(2900n), ETH);
    const moved = await control('/control/margin/oracle', { asset_id: ethUsdc.base.asset, price: ORACLE(2900n).toString() });
    expect(moved.status).toBe(200);
    const more = await signer.child(prepaidChild, [{ market: turboEth, turbo: true, actions: [{ kind: 'Draw', amount: 10n * USDC }] }]);
    expect(more.body.reason, JSON.stringify(more.body) + JSON.stringify((await state(prepaidChild)).session)).toBe('AccountFrozen');
    const sell = await signer.child(prepaidChild, [{ market: turboEth, turbo: true, actions: [order('Sell', PRICE(2900n), ETH / 10n)] }]);
    expect(sell.status, JSON.stringify(sell.body)).toBe(200);
    // The wall-time margin step is held: past more than one of its seconds the liquidatable
    // account still has its session, and the permissionless liquidator is the one to settle it.
    const badHold = await control('/control/margin/clock', { held: 'yes' });
    expect(badHold.status).toBe(400);
    expect(JSON.stringify(badHold)).toMatch(/held/);
    expect((await control('/control/margin/clock', { held: true })).status).toBe(200);
    expect((await control('/control/margin/oracle', { asset_id: ethUsdc.base.asset, price: ORACLE(1500n).toString(), tick: false })).status).toBe(200);
    await new Promise((done) => setTimeout(done, 1_500));
    expect((await state(prepaidChild)).session).not.toBeNull();
    const parentBefore = await usdcOf(parent.accountId);
    const liquidated = await control('/control/margin/liquidate', { account: prepaidChild });
    expect((await control('/control/margin/clock', { held: false })).status).toBe(200);
    expect(liquidated.status, JSON.stringify(liquidated)).toBe(200);
    const view = await state(prepaidChild);
    expect(view.session).toBeNull();
    expect(view.last_session.status).toBe('Liquidated');
    expect(await usdcOf(parent.accountId)).toBeGreaterThanOrEqual(parentBefore);
    const ledger = await client.get<{ invariant_problems: string[] }>('/control/ledger');
    expect(ledger.body.invariant_problems).toEqual([]);
    await control('/control/margin/oracle', { asset_id: ethUsdc.base.asset, price: ORACLE(3000n).toString() });
  });

  it('closes with the exact cleanups (a stale list reverts) and withdraws from the closed child', async () => {
    const rest = await signer.child(legacyChild, [{ market: turboEth, turbo: true, actions: [order('Buy', PRICE(2500n), ETH / 100n)] }]);
    expect(rest.status, JSON.stringify(rest.body)).toBe(200);
    const returned = await signer.child(legacyChild, [{ market: turboEth, turbo: true, actions: [{ kind: 'ReturnQuote', amount: 300n * USDC }] }]);
    expect(returned.status, JSON.stringify(returned.body)).toBe(200);
    const cleanups = parsed<{ order_book_id: B256; order_ids: B256[] }[]>(closeCleanupsResponseSchema, (await client.get(`/v1/margin/close-cleanups?account=${legacyChild}`)).body);
    expect(cleanups).toEqual([{ order_book_id: turboEth.contract_id, order_ids: [((rest.body.orders as { order_id: B256 }[])[0] as { order_id: B256 }).order_id] }]);
    const stale = await signer.parent([{ market: ethUsdc, actions: [{ kind: 'CloseMarginSession', margin_account_id: legacyChild, cleanups: [] }] }]);
    expect(stale.body.reason).toBe('StaleCleanups');
    const before = await usdcOf(parent.accountId);
    const closed = await signer.parent([{ market: ethUsdc, actions: [{ kind: 'CloseMarginSession', margin_account_id: legacyChild, cleanups }] }]);
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    // C - F = 958 - 11 = 947 USDC of posted collateral goes back to the parent.
    expect(await usdcOf(parent.accountId)).toBe(before + 947n * USDC);
    const left = await usdcOf(legacyChild);
    expect(left).toBe(50n * USDC);
    const withdrawn = await signer.parent([{ market: ethUsdc, actions: [{ kind: 'WithdrawFromMarginAccount', margin_account_id: legacyChild, asset_id: net.collateral, amount: left }] }]);
    expect(withdrawn.status, JSON.stringify(withdrawn.body)).toBe(200);
    expect(await usdcOf(legacyChild)).toBe(0n);
  });

  it('rolls a prepaid session over at the term deadline when the profit bar was earned, then expires it', async () => {
    // discounted(25) + discounted(2 + 3) = 30 USDC.
    const opened = await signer.parent([{ market: ethUsdc, actions: [start(ladderChild, 3n, 30n * USDC)] }]);
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    let view = await state(ladderChild);
    expect(view.rollover).toMatchObject({ anchor: String(2000n * USDC), withdrawn: '0', outside: '0', rollovers_used: 0, max_rollovers: 3, profit_required: String(100n * USDC), eligible_now: false });
    await sharedQuote('Sell', PRICE(3000n), ETH);
    const bought = await signer.child(ladderChild, [{ market: turboEth, turbo: true, actions: [{ kind: 'Draw', amount: 1600n * USDC }, order('Buy', PRICE(3000n), ETH / 2n), { kind: 'SettleBalance', to: contractIdentity(ladderChild) }] }]);
    expect(bought.status, JSON.stringify(bought.body)).toBe(200);
    await control('/control/margin/oracle', { asset_id: ethUsdc.base.asset, price: ORACLE(3300n).toString() });
    view = await state(ladderChild);
    expect(view.rollover.eligible_now).toBe(true);
    const anchor = view.rollover.anchor;
    await control('/control/clock/advance', { ms: 86_400_000 + 1000 });
    view = await state(ladderChild);
    expect(view.rollover.rollovers_used).toBe(1);
    expect(view.rollover.anchor).not.toBe(anchor);
    const newAnchor = view.rollover.anchor;
    const withdraw = await signer.child(ladderChild, [{ market: turboEth, turbo: true, actions: [{ kind: 'WithdrawFromMargin', asset_id: net.collateral, amount: 10n * USDC }] }]);
    expect(withdraw.status, JSON.stringify(withdraw.body)).toBe(200);
    view = await state(ladderChild);
    expect(view.rollover).toMatchObject({ anchor: newAnchor, withdrawn: String(10n * USDC) });
    await control('/control/clock/advance', { ms: 86_400_000 + 1000 });
    view = await state(ladderChild);
    expect(view.session).toBeNull();
    expect(view.last_session.status).toBe('Expired');
    expect((await client.get<{ invariant_problems: string[] }>('/control/ledger')).body.invariant_problems).toEqual([]);
    await control('/control/margin/oracle', { asset_id: ethUsdc.base.asset, price: ORACLE(3000n).toString() });
  });
});

describe('Turbo books', () => {
  it('refuses house actions on Turbo groups, non-positive bounds and callers without the role; pause and disconnect', async () => {
    const body = house.actionsBody(ethUsdc, [{ kind: 'ExecuteTurboOrders', source_order_id: `0x${'1'.repeat(64)}` as B256, max_base_quantity: 1n, max_fills: 1n }]) as { actions: Record<string, unknown>[] };
    (body.actions[0] as Record<string, unknown>).turbo = true;
    const refused = await client.request('POST', '/v1/session/actions', body, house.headers);
    expect(refused.body).toMatchObject({ code: 7005, message: 'House posts and selects its liquidity through the canonical book' });
    const zero = await house.act(ethUsdc, [{ kind: 'ExecuteTurboOrders', source_order_id: `0x${'1'.repeat(64)}` as B256, max_base_quantity: 1n, max_fills: 0n }]);
    expect(zero.body).toMatchObject({ code: 7006 });
    const stranger = await Trader.create(client);
    // The sandbox clock moved on (rollover test): session expiries count from it.
    const clock = await client.get<{ now_ms: number }>('/control/clock');
    await stranger.openSession([ethUsdc.contract_id], BigInt(Math.floor(clock.body.now_ms / 1000)) + 2n * HOUR);
    const noRole = await stranger.act(ethUsdc, [{ kind: 'CreateSharedOrder', side: 'Sell', price: PRICE(3000n), quantity: ETH, order_type: { kind: 'PostOnly' } }]);
    expect(noRole.body).toMatchObject({ code: 4012 });
    const child = await register();
    const opened = await signer.parent([{ market: ethUsdc, actions: [start(child, 4n, 100n * USDC)] }]);
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    expect((await state(child)).session.expires_at).toBe('18446744073709551615');
    await control('/control/turbo/state', { market_id: ethUsdc.market_id, paused: true });
    const paused = await signer.child(child, [{ market: turboEth, turbo: true, actions: [order('Buy', PRICE(2900n), ETH / 100n)] }]);
    expect(paused.body).toMatchObject({ code: 2004, message: `market with id ${ethUsdc.market_id} is paused` });
    expect((await client.get<{ markets: { paused: boolean }[] }>('/v1/markets?turbo=true')).body.markets[0]?.paused).toBe(true);
    await control('/control/turbo/state', { market_id: ethUsdc.market_id, paused: false, connected: false });
    const disconnected = await signer.child(child, [{ market: turboEth, turbo: true, actions: [order('Buy', PRICE(2900n), ETH / 100n)] }]);
    expect(disconnected.body).toMatchObject({ code: 2005, message: 'House book is disconnected' });
    await control('/control/turbo/state', { market_id: ethUsdc.market_id, connected: true });
  });

  it('streams Turbo trades with turbo, confirmed and indexed_height, and the resync error closes the subscription', async () => {
    const stream = await StreamClient.open(sandbox.url);
    stream.send({ action: 'subscribe_trades', market_id: ethUsdc.market_id, turbo: true });
    const first = await stream.waitFor((message) => message.action === 'subscribe_trades');
    expect(first).toMatchObject({ turbo: true, confirmed: true });
    expect(typeof first.indexed_height).toBe('string');
    stream.send({ action: 'subscribe_orders', identities: [{ ContractId: house.accountId }], turbo: true });
    expect(await stream.waitFor((message) => message.action === 'subscribe_orders')).toMatchObject({ turbo: true });
    const restarted = await control('/control/turbo/trades/restart', { market_id: ethUsdc.market_id });
    expect(restarted.notified).toBe(1);
    const error = await stream.waitFor((message) => message.action === 'error');
    expect(error).toMatchObject({ action: 'error', turbo: true, resync_required: true });
    expect(typeof error.message).toBe('string');
    stream.close();
  });
});
