// Margin (Turbo) accounts end to end: main's real services against an in-process sandbox with the
// control surface, driven through the contract's handlers exactly as the renderer calls them.
// A house account (granted the house role by control) posts the shared quotes Turbo orders fill
// against; the oracle is pinned through control so the figures are deterministic.
// - a prepaid child: registered (the session recreated to name it), a one-unit-off opening amount
//   refused and the exact one accepted, trading on the Turbo book as the child with the risk
//   report following (V and buy capacity), frozen by the oracle (a risk-increasing order refused
//   with the reason, a risk-reducing one accepted), liquidated and settled, reported;
// - a legacy child: opened, drawn, collateral added and repaid from, borrowed, repaid in kind and
//   bought out from collateral, withdrawn from, prolonged, traded, closed with the exact cleanup
//   list (after a close that said what remained), and withdrawn from (every asset) once closed.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchJson, type HttpFetch } from '../../../main/exchange/http';
import type { NetworkConfig } from '../../../main/services/network/networks';
import { systemClock } from '../../../main/services/system-clock';
import { createTerminal, type Terminal } from '../../../main/services/terminal';
import { startSandbox, type RunningSandbox } from '../../../sandbox/server';
import type { B256 } from '../../../shared/encoding/b256';
import type { BalanceView, FillNotice, MarginOverview, MarginRiskFrame, Notice, OrdersSnapshot } from '../../../shared/ipc/views';
import type { Market } from '../../../shared/market/market';
import { ok, type Result } from '../../../shared/result';
import { MemorySecretStore } from '../../support/memory-secret-store';
import { HOUR, SandboxClient, secondsFromNow, Trader } from '../../support/sandbox/client';

const caller = { windowId: 'w1', frameUrl: 'app://terminal/' };
const ETH = 1_000_000_000n;
const USDC = 1_000_000n;
const PRICE = (whole: bigint) => whole * USDC;
const ORACLE = (whole: bigint) => whole * 10n ** 18n;

function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return result.value;
}

async function until<T>(probe: () => T | undefined | null | false | Promise<T | undefined | null | false>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

let sandbox: RunningSandbox;
let client: SandboxClient;
let terminal: Terminal;
let house: Trader;
let ethUsdc: Market;
let ethAsset: B256;
let usdcAsset: B256;
const frames: MarginRiskFrame[] = [];
const notices: Notice[] = [];
const fillNotices: FillNotice[] = [];
let balances: readonly BalanceView[] = [];
const balancePushes: (readonly BalanceView[])[] = [];
const overviews: MarginOverview[] = [];
let orders: OrdersSnapshot = { open: [], fills: [] };

async function control(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const reply = await client.request('POST', path, body);
  return { status: reply.status, body: reply.body as Record<string, unknown> };
}

const houseQuotes: B256[] = [];

/** A shared quote of the house on the canonical ETH/USDC book (Turbo takers fill against it). */
async function sharedQuote(side: 'Buy' | 'Sell', price: bigint, quantity: bigint): Promise<void> {
  const reply = await house.act(ethUsdc, [{ kind: 'CreateSharedOrder', side, price, quantity, order_type: { kind: 'PostOnly' } }]);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  houseQuotes.push(((reply.body.orders as { order_id: B256 }[])[0] as { order_id: B256 }).order_id);
}

/** Take the house's quotes down (one by one: a cancel of a filled order reverts its batch). */
async function clearQuotes(): Promise<void> {
  for (const orderId of houseQuotes.splice(0)) await house.act(ethUsdc, [{ kind: 'CancelOrder', order_id: orderId }]);
}

async function oracle(whole: bigint, tick = true): Promise<void> {
  const reply = await control('/control/margin/oracle', { asset_id: ethAsset, price: ORACLE(whole).toString(), tick });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
}

const lastFrame = (account: string, predicate: (frame: MarginRiskFrame) => boolean = () => true) => [...frames].reverse().find((frame) => frame.marginAccountId === account && predicate(frame));

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, makerProfile: 'thin-legacy', control: true, maker: false, rateLimits: false });
  client = new SandboxClient(sandbox.url);
  const { markets } = await client.markets();
  ethUsdc = markets.find((market) => market.base.symbol === 'ETH' && market.quote.symbol === 'USDC') as Market;
  ethAsset = ethUsdc.base.asset;
  usdcAsset = ethUsdc.quote.asset;
  house = await Trader.create(client);
  expect((await house.openSession([ethUsdc.contract_id], secondsFromNow(2n * HOUR))).status).toBe(200);
  expect((await control('/control/turbo/house-role', { market_id: ethUsdc.market_id, account: house.accountId })).status).toBe(200);
  await oracle(3000n);

  const network: NetworkConfig = { id: 'devnet', name: 'Sandbox (in process)', kind: 'devnet', restUrl: sandbox.url, wsUrl: null, faucetUrl: sandbox.url, faucetNetwork: 'sandbox', production: false };
  terminal = createTerminal({
    clock: systemClock,
    host: 'browser',
    version: 'test',
    dataDir: mkdtempSync(join(tmpdir(), 'lt-margin-')),
    openKeychain: () => Promise.resolve(ok(new MemorySecretStore())),
    spawnSandbox: () => {
      throw new Error('this test runs its own sandbox');
    },
    networkOverride: network,
    random: (length) => new Uint8Array(randomBytes(length)),
    fetch: closeLies.fetch,
  });
  terminal.windows.attach('w1', {
    send: (stream, payload) => {
      if (stream === 'marginRisk') frames.push(payload as MarginRiskFrame);
      if (stream === 'notice') notices.push(payload as Notice);
      if (stream === 'marginOverview') overviews.push(payload as MarginOverview);
      if (stream === 'orders') orders = payload as OrdersSnapshot;
      if (stream === 'fill') fillNotices.push(payload as FillNotice);
      if (stream === 'balances') {
        balances = payload as BalanceView[];
        balancePushes.push(balances);
      }
    },
  });
  value(await terminal.start());
  const h = terminal.handlers;
  value(await h.createOwnerKey({ style: 'ledger' }, caller));
  value(await h.createTradeAccount({}, caller));
  value(await h.mintFromFaucet({}, caller));
  value(await h.whitelistAccount({}, caller));
  value(await h.createSession({ marketIds: [ethUsdc.market_id], hours: 48 }, caller));
});

/** A proxy's lie: it forwards a close (the sandbox executes it), then answers that it reverted. */
const closeLies: { revertNext: boolean; sent: number; fetch: HttpFetch } = {
  revertNext: false,
  sent: 0,
  fetch: async (request) => {
    const answer = await fetchJson(request);
    if (request.method !== 'POST' || !request.body?.includes('CloseMarginSession')) return answer;
    closeLies.sent++;
    if (!closeLies.revertNext) return answer;
    closeLies.revertNext = false;
    return ok({ status: 200, body: { message: 'Transaction reverted', reason: 'StaleCleanups', receipts: [] } });
  },
};

afterAll(async () => {
  await terminal?.stop();
  await sandbox?.close();
});

describe('a prepaid Turbo Account', () => {
  let child: B256;

  it('lists the tiers with exact opening amounts and says the session must be recreated to add a child', async () => {
    const overview = value(await terminal.handlers.getMarginOverview({}, caller));
    expect(overview.accounts).toEqual([]);
    expect(overview.nextAccount?.index).toBe(0n);
    expect(overview.scope.covered).toBe(false);
    expect(overview.scope.explanation).toMatch(/cannot be widened/);
    const prepaid = overview.tiers.find((tier) => tier.tierId === '2');
    expect(prepaid?.cohort).toBe('Turbo');
    // Week only: discounted(50) + discounted(5 + 10) with no discount = 65 USDC.
    expect(prepaid?.periods.filter((period) => period.allowed).map((period) => [period.period, period.amount])).toEqual([['Week', 65n * USDC]]);
    expect(prepaid?.periods.find((period) => period.period === 'Day')?.reason).toMatch(/only with Week/);
    expect(overview.tiers.find((tier) => tier.tierId === '4')).toMatchObject({ noExpiry: true });
    expect(overview.tiers.find((tier) => tier.tierId === '4')?.periods.find((period) => period.period === 'Week')?.termSeconds).toBeNull();
  });

  it('registers a child with the predicted id and index, recreating the session to name it', async () => {
    const before = value(await terminal.handlers.getMarginOverview({}, caller));
    const registered = value(await terminal.handlers.registerMarginAccount({}, caller));
    expect(registered.marginAccountId).toBe(before.nextAccount?.marginAccountId);
    expect(registered.index).toBe(0n);
    expect(registered.sessionRecreated).toBe(true);
    expect(registered.notes.join(' ')).toMatch(/recreated to add margin account/);
    child = registered.marginAccountId as B256;
    const after = value(await terminal.handlers.getMarginOverview({}, caller));
    expect(after.accounts.map((account) => account.marginAccountId)).toEqual([child]);
    expect(after.accounts[0]).toMatchObject({ hasSession: false, inSessionScope: true });
    expect(after.scope.covered).toBe(true);
  });

  it('refuses a one-unit-off prepaid amount and opens with the exact one', async () => {
    expect((await control('/control/margin/discount', { user: value(await terminal.handlers.getAccountState({}, caller)).activeOwner?.address, discount_bps: 100 })).status).toBe(200);
    const overview = value(await terminal.handlers.getMarginOverview({}, caller));
    const exact = overview.tiers.find((tier) => tier.tierId === '2')?.periods.find((period) => period.period === 'Week')?.amount;
    // Each leg discounted on its own: floor(50 × 0.99) + floor(15 × 0.99) = 49.5 + 14.85.
    expect(exact).toBe(64_350_000n);
    const off = await terminal.handlers.openMarginSession({ marginAccountId: child, tierId: '2', period: 'Week', amount: (exact as bigint) - 1n }, caller);
    expect(off).toMatchObject({ ok: false, code: 'MARGIN_INEXACT_OPENING_AMOUNT' });
    // In whole units, as the trader reads them, not raw units.
    expect(!off.ok && off.message).toMatch(/^amount: 64\.349999 USDC is not the exact opening amount 64\.35 USDC of prepaid tier 2 /);
    const day = await terminal.handlers.openMarginSession({ marginAccountId: child, tierId: '2', period: 'Day' }, caller);
    expect(day).toMatchObject({ ok: false, code: 'MARGIN_PERIOD_NOT_ALLOWED' });
    const opened = value(await terminal.handlers.openMarginSession({ marginAccountId: child, tierId: '2', period: 'Week', amount: exact as bigint }, caller));
    expect(opened.notes.join(' ')).toMatch(/forfeited/);
  });

  it('streams the risk of the child: cohort, L, V and buy capacity, with an expiry countdown input', async () => {
    value(await terminal.handlers.subscribeMarginRisk({ marginAccountId: child }, caller));
    const frame = await until(() => lastFrame(child, (candidate) => candidate.status === 'live' && candidate.risk !== null), 'a live risk frame');
    expect(frame.cohort).toBe('Turbo');
    expect(frame.noExpiry).toBe(false);
    expect(frame.expiresAt).toBeGreaterThan(BigInt(Math.floor(Date.now() / 1000)));
    expect(frame.risk).toMatchObject({ creditLine: 2000n * USDC, accountValue: 2000n * USDC, outstanding: 0n, buyCapacity: 2000n * USDC });
    expect(frame.risk?.health.rule).toBe('ANCHORED_FLOOR');
    expect(frame.risk?.health.threshold).toBe(1500n * USDC);
    expect(frame.frozen).toBe(false);
  });

  it('trades on the Turbo book as the child: a Market order is bounded and funded by a draw, and the risk follows', async () => {
    await sharedQuote('Sell', PRICE(3000n), ETH);
    value(await terminal.handlers.selectMarginAccount({ marginAccountId: child }, caller));
    const turbo = value(await terminal.handlers.getTurboMarkets({}, caller));
    expect(turbo.tradingAs).toBe(child);
    expect(turbo.markets.find((row) => row.marketId === ethUsdc.market_id)).toMatchObject({ hasTurboBook: true, tradable: true, connected: true, paused: false });
    expect(turbo.markets.find((row) => row.pair === 'ETH/USDT')).toMatchObject({ hasTurboBook: false, tradable: false, reason: expect.stringMatching(/has no Turbo order book/) as string });
    const check = value(await terminal.handlers.checkTurboOrder({ marketId: ethUsdc.market_id, side: 'Buy', orderKind: 'Market', price: PRICE(3000n), quantity: (ETH * 6n) / 10n }, caller));
    expect(check).toMatchObject({ allowed: true, tradingAs: child, orderType: { kind: 'BoundedMarket', maxPrice: PRICE(3030n), minPrice: 10_000n }, draw: 1818n * USDC });
    const before = lastFrame(child, (frame) => frame.risk !== null)?.risk;
    const placed = value(
      await terminal.handlers.placeOrder({ marketId: ethUsdc.market_id, turbo: true, side: 'Buy', orderType: { kind: 'Market' }, price: PRICE(3000n), quantity: (ETH * 6n) / 10n }, caller),
    );
    expect(placed.adjustments.join(' ')).toMatch(/BoundedMarket/);
    expect(placed.orders[0]).toMatchObject({ side: 'Buy', filled: (ETH * 6n) / 10n });
    const after = await until(() => lastFrame(child, (frame) => (frame.risk?.outstanding ?? 0n) === 1818n * USDC && frame.risk?.assets.some((asset) => asset.assetId === ethAsset && asset.position > 0n) === true), 'the risk after the fill');
    expect(after.risk?.quoteLockedByBuys).toBe(0n);
    expect(after.risk?.buyCapacity).toBeLessThan(before?.buyCapacity ?? 0n);
    expect(after.risk?.accountValue).not.toBe(before?.accountValue);
    // Fees are in the bought asset: V = 18 cash + 2000 - 1818 + mark(0.59982 ETH at the bid).
    expect(after.risk?.accountValue).toBeLessThan(2000n * USDC);
    const journal = value(await terminal.handlers.getJournal({ limit: 20 }, caller));
    expect(journal.some((entry) => entry.kind === 'signed' && /as margin account/.test(entry.description ?? '') && /lane/.test(entry.nonce ?? ''))).toBe(true);
  });

  it('announces a Turbo fill once, with the exchange\'s size and fee, and lists it in Fills and History with its book and account', async () => {
    // Counted twice, a 0.02 ETH order signed as the Turbo Account would be announced as "Buy 0.04 ETH
    // in 2 fills" with a doubled fee; it must appear in Fills and History.
    const quantity = (ETH * 2n) / 100n;
    const placed = value(await terminal.handlers.placeOrder({ marketId: ethUsdc.market_id, turbo: true, side: 'Buy', orderType: { kind: 'Market' }, price: PRICE(3000n), quantity }, caller));
    const orderId = placed.orders[0]?.orderId as string;
    expect(placed.orders[0]).toMatchObject({ filled: quantity });
    const exchangeOrder = (await client.request('GET', `/v1/order?market_id=${ethUsdc.market_id}&order_id=${orderId}&turbo=true`)).body as { order: { fills: { quantity: string; fee: string }[] } };
    expect(exchangeOrder.order.fills).toHaveLength(1);
    // A barrier on the trading account's own stream: a canonical order placed after the fill. Once
    // its frame is in, every frame sent before it (a duplicate of the Turbo fill included) is too.
    const bid = PRICE(2900n);
    const barrier = value(await terminal.handlers.placeOrder({ marketId: ethUsdc.market_id, side: 'Buy', orderType: { kind: 'PostOnly' }, price: bid, quantity: ETH / 100n }, caller));
    const barrierId = barrier.orders[0]?.orderId as string;
    await until(() => orders.open.some((order) => order.orderId === barrierId) && fillNotices.some((notice) => notice.fill.orderId === orderId), 'the barrier order and the Turbo fill');
    value(await terminal.handlers.cancelOrder({ marketId: ethUsdc.market_id, orderId: barrierId }, caller));
    const announced = fillNotices.filter((notice) => notice.fill.orderId === orderId);
    expect(announced).toHaveLength(1);
    expect(announced[0]?.fill.quantity).toBe(quantity);
    expect(announced[0]?.fill.fee).toBe(BigInt(exchangeOrder.order.fills[0]?.fee ?? '-1'));
    // The snapshot's recent fills hold it once too.
    expect(orders.fills.filter((fill) => fill.orderId === orderId)).toHaveLength(1);
    // Fills and History of the market list the Turbo Account's order, labelled with book and account.
    const fills = value(await terminal.handlers.getFills({ marketId: ethUsdc.market_id, turbo: true, cursor: null }, caller));
    const fillRows = fills.items.filter((fill) => fill.orderId === orderId);
    expect(fillRows).toHaveLength(1);
    expect(fillRows[0]).toMatchObject({ quantity, turbo: true, account: child });
    const history = value(await terminal.handlers.getOrderHistory({ marketId: ethUsdc.market_id, turbo: true, cursor: null }, caller));
    expect(history.items.filter((order) => order.orderId === orderId)).toEqual([expect.objectContaining({ turbo: true, account: child, filled: quantity, status: 'filled' })]);
    // The canonical view of the market lists it too (the panels show both books, labelled).
    const canonicalHistory = value(await terminal.handlers.getOrderHistory({ marketId: ethUsdc.market_id, cursor: null }, caller));
    expect(canonicalHistory.items.some((order) => order.orderId === orderId && order.turbo)).toBe(true);
    expect(canonicalHistory.items.some((order) => order.orderId === barrierId && !order.turbo)).toBe(true);
  });

  it('keeps the trading account\'s balances its own while a Turbo Account trades', async () => {
    // With a Turbo Account selected, the ticket on the canonical book must not show the Turbo
    // Account's balance as Available: its balance updates must not overwrite the trading account's.
    const tradeAccountId = value(await terminal.handlers.getAccountState({}, caller)).tradeAccount?.tradeAccountId as string;
    await sharedQuote('Sell', PRICE(3000n), ETH / 10n);
    const pushedBefore = balancePushes.length;
    value(await terminal.handlers.placeOrder({ marketId: ethUsdc.market_id, turbo: true, side: 'Buy', orderType: { kind: 'Market' }, price: PRICE(3000n), quantity: ETH / 100n }, caller));
    // A barrier on the trading account's stream (see above), then the exchange's truth.
    const barrier = value(await terminal.handlers.placeOrder({ marketId: ethUsdc.market_id, side: 'Buy', orderType: { kind: 'PostOnly' }, price: PRICE(2900n), quantity: ETH / 100n }, caller));
    const barrierId = barrier.orders[0]?.orderId as string;
    await until(() => orders.open.some((order) => order.orderId === barrierId), 'the barrier order');
    value(await terminal.handlers.cancelOrder({ marketId: ethUsdc.market_id, orderId: barrierId }, caller));
    const truth = async () => (await client.request('GET', `/v1/balance?contract=${tradeAccountId}&asset_id=${usdcAsset}`)).body as { total_unlocked: string; trading_account_balance: string };
    await until(async () => {
      const exchange = await truth();
      const shown = balances.find((balance) => balance.assetId === usdcAsset);
      return shown !== undefined && shown.unlocked === BigInt(exchange.total_unlocked) && shown.onAccount === BigInt(exchange.trading_account_balance);
    }, 'the trading account USDC balance as the exchange has it');
    // Every balance the windows were given meanwhile was the trading account's (thousands of USDC),
    // never the Turbo Account's few.
    const shownUsdc = balancePushes.slice(pushedBefore).map((pushed) => pushed.find((balance) => balance.assetId === usdcAsset)?.onAccount ?? 0n);
    expect(shownUsdc.length).toBeGreaterThan(0);
    for (const amount of shownUsdc) expect(amount).toBeGreaterThan(1000n * USDC);
  });

  it('freezes when the oracle falls: a risk-increasing order is refused with the reason, a risk-reducing one goes through', async () => {
    await oracle(2900n);
    const frozen = await until(() => lastFrame(child, (frame) => frame.frozen), 'the frozen frame');
    expect(frozen.risk?.health.distanceToFreeze).toBeLessThan(0n);
    expect(frozen.liquidatable).toBe(false);
    const buy = await terminal.handlers.placeOrder({ marketId: ethUsdc.market_id, turbo: true, side: 'Buy', orderType: { kind: 'Market' }, price: PRICE(2900n), quantity: ETH / 100n }, caller);
    expect(buy).toMatchObject({ ok: false, code: 'MARGIN_FROZEN' });
    expect(!buy.ok && buy.message).toMatch(/AccountFrozen/);
    const draw = await terminal.handlers.marginDraw({ marginAccountId: child, amount: 10n * USDC }, caller);
    expect(draw).toMatchObject({ ok: false, code: 'MARGIN_FROZEN' });
    await sharedQuote('Buy', PRICE(2900n), ETH);
    const sold = value(await terminal.handlers.placeOrder({ marketId: ethUsdc.market_id, turbo: true, side: 'Sell', orderType: { kind: 'Market' }, price: PRICE(2900n), quantity: ETH / 10n }, caller));
    expect(sold.orders[0]).toMatchObject({ side: 'Sell', filled: ETH / 10n });
  });

  it('is liquidated when V falls to the threshold, and the app reports the liquidation and its settlement', async () => {
    // The sandbox's wall-time margin step is held, so it cannot liquidate the account before the
    // app has shown it liquidatable (under load it used to win the race, and no such frame came).
    expect((await control('/control/margin/clock', { held: true })).status).toBe(200);
    try {
      await oracle(1500n, false);
      const liquidatable = await until(() => lastFrame(child, (frame) => frame.liquidatable), 'the liquidatable frame');
      expect(liquidatable.session).not.toBeNull();
      // The permissionless liquidator settles it.
      const liquidated = await control('/control/margin/liquidate', { account: child });
      expect(liquidated.status, JSON.stringify(liquidated.body)).toBe(200);
    } finally {
      expect((await control('/control/margin/clock', { held: false })).status).toBe(200);
    }
    const ended = await until(() => lastFrame(child, (frame) => frame.lastSession?.status === 'Liquidated' && frame.session === null), 'the settled frame');
    expect(ended.risk).toBeNull();
    expect(ended.lastSession?.collateralForfeited).toBe(0n);
    const notice = await until(() => notices.find((candidate) => candidate.level === 'error' && /was liquidated/.test(candidate.text)), 'the liquidation notice');
    // It says what went back to the trading account, in whole units, or that nothing did.
    const returned = ended.lastSession?.returnedToParent ?? [];
    expect(notice.text).toMatch(returned.length === 0 ? /; nothing was left to return to the trading account\.$/ : /; [\d.]+ [A-Z]+(, [\d.]+ [A-Z]+)* went back to the trading account\.$/);
    await oracle(3000n);
  });
});

describe('a legacy Turbo Account', () => {
  let child: B256;

  it('registers a second child (the session recreated again) and opens a legacy session', async () => {
    const registered = value(await terminal.handlers.registerMarginAccount({}, caller));
    expect(registered.index).toBe(1n);
    expect(registered.sessionRecreated).toBe(true);
    child = registered.marginAccountId as B256;
    const overview = value(await terminal.handlers.getMarginOverview({}, caller));
    const legacy = overview.tiers.find((tier) => tier.tierId === '1');
    // required_collateral 1000 (never discounted) + discounted(5 + 15) at 100 bps = 1019.8 USDC.
    const week = legacy?.periods.find((period) => period.period === 'Week');
    expect(week).toMatchObject({ allowed: true, amount: 1_019_800_000n });
    expect(legacy?.periods.filter((period) => period.allowed).map((period) => period.period)).toEqual(['SixHours', 'Day', 'Week', 'Month']);
    value(await terminal.handlers.openMarginSession({ marginAccountId: child, tierId: '1', period: 'Week' }, caller));
    value(await terminal.handlers.subscribeMarginRisk({ marginAccountId: child }, caller));
    const frame = await until(() => lastFrame(child, (candidate) => candidate.risk !== null), 'the legacy risk frame');
    expect(frame.cohort).toBe('Legacy');
    expect(frame.risk?.health.rule).toBe('LEGACY');
  });

  it('draws, posts and repays from collateral, borrows, repays in kind and from collateral, withdraws, prolongs and sets automatic prolongation', async () => {
    const h = terminal.handlers;
    value(await h.marginDraw({ marginAccountId: child, amount: 500n * USDC }, caller));
    await until(() => lastFrame(child, (frame) => frame.risk?.outstanding === 500n * USDC), 'the draw in the risk');
    const tooMuch = await h.marginDraw({ marginAccountId: child, amount: 10_000n * USDC }, caller);
    expect(tooMuch).toMatchObject({ ok: false, code: 'MARGIN_ABOVE_CREDIT_LINE' });
    const posted = lastFrame(child)?.session?.collateral ?? 0n;
    value(await h.marginAddCollateral({ marginAccountId: child, amount: 10n * USDC }, caller));
    await until(() => lastFrame(child)?.session?.collateral === posted + 10n * USDC, 'the added collateral');
    value(await h.marginRepayFromCollateral({ marginAccountId: child, amount: 10n * USDC }, caller));
    await until(() => lastFrame(child, (frame) => frame.risk?.outstanding === 490n * USDC && frame.session?.collateral === posted), 'the repay from collateral');
    value(await h.marginBorrow({ marginAccountId: child, assetId: ethAsset, amount: ETH / 10n }, caller));
    const borrowed = await until(() => lastFrame(child, (frame) => frame.risk?.assets.find((asset) => asset.assetId === ethAsset)?.debt === ETH / 10n), 'the borrow in the risk');
    expect(borrowed.risk?.inKindDebtValue).toBeGreaterThan(0n);
    const collateralBorrow = await h.marginBorrow({ marginAccountId: child, assetId: usdcAsset, amount: 1n }, caller);
    expect(!collateralBorrow.ok && collateralBorrow.message).toMatch(/cannot be borrowed in kind; use Draw/);
    value(await h.marginRepay({ marginAccountId: child, assetId: ethAsset, amount: ETH / 20n }, caller));
    value(await h.marginRepayBaseFromCollateral({ marginAccountId: child, assetId: ethAsset, amount: ETH / 20n }, caller));
    await until(() => lastFrame(child, (frame) => frame.risk?.assets.find((asset) => asset.assetId === ethAsset)?.debt === 0n), 'the repay in the risk');
    const beforeWithdraw = lastFrame(child)?.risk?.collateralHoldings ?? 0n;
    value(await h.marginWithdraw({ marginAccountId: child, assetId: usdcAsset, amount: 5n * USDC }, caller));
    await until(() => lastFrame(child, (frame) => frame.risk?.collateralHoldings === beforeWithdraw - 5n * USDC), 'the withdrawal to the trading account');
    const expiresBefore = lastFrame(child)?.expiresAt ?? 0n;
    value(await h.marginProlong({ marginAccountId: child, period: 'Day', times: 1n }, caller));
    await until(() => (lastFrame(child)?.expiresAt ?? 0n) === expiresBefore + 86_400n, 'the prolonged expiry');
    value(await h.marginSetAutoProlong({ marginAccountId: child, period: 'Day' }, caller));
    await until(() => lastFrame(child)?.session?.autoProlong === 'Day', 'automatic prolongation');
  });

  it('trades as the legacy child, then a close says exactly what remains, and a close with the cleanups succeeds (also when answered reverted after it executed)', async () => {
    const h = terminal.handlers;
    value(await h.selectMarginAccount({ marginAccountId: child }, caller));
    await clearQuotes();
    await sharedQuote('Sell', PRICE(3000n), ETH / 10n);
    value(await h.placeOrder({ marketId: ethUsdc.market_id, turbo: true, side: 'Buy', orderType: { kind: 'Spot' }, price: PRICE(3000n), quantity: ETH / 10n }, caller));
    await sharedQuote('Buy', PRICE(3500n), ETH);
    value(await h.placeOrder({ marketId: ethUsdc.market_id, turbo: true, side: 'Sell', orderType: { kind: 'Spot' }, price: PRICE(3500n), quantity: (ETH * 999n) / 10_000n }, caller));
    await until(() => lastFrame(child, (frame) => (frame.risk?.collateralHoldings ?? 0n) > 530n * USDC), 'the proceeds of the sale');
    // A resting buy below the market: it is in the cleanup list at the close.
    const resting = value(await h.placeOrder({ marketId: ethUsdc.market_id, turbo: true, side: 'Buy', orderType: { kind: 'Spot' }, price: PRICE(3000n), quantity: ETH / 100n }, caller));
    const restingId = resting.orders[0]?.orderId;
    await until(() => orders.open.some((order) => order.orderId === restingId), 'the resting order in the open orders');

    const blocked = value(await h.closeMarginSession({ marginAccountId: child, prepare: false }, caller));
    expect(blocked.closed).toBe(false);
    expect(blocked.steps.find((step) => step.step === 'return-quote')).toMatchObject({ state: 'remaining', detail: expect.stringMatching(/490 USDC of drawn quote remains/) as string });
    value(await h.marginReturnQuote({ marginAccountId: child, amount: 490n * USDC }, caller));
    await until(() => lastFrame(child, (frame) => frame.risk?.outstanding === 0n), 'the returned quote');

    // The exchange executes the close and answers that it reverted: the terminal looks at the
    // account before signing a second close, and finds it closed.
    const closesBefore = closeLies.sent;
    closeLies.revertNext = true;
    const closed = value(await h.closeMarginSession({ marginAccountId: child, prepare: false }, caller));
    expect(closeLies.sent - closesBefore).toBe(1);
    expect(closed.closed).toBe(true);
    expect(closed.cleanups).toEqual([{ orderBookId: expect.any(String) as string, orderIds: [restingId] }]);
    expect(closed.steps.map((step) => `${step.step}:${step.state}`)).toContain('close:done');
    await until(() => lastFrame(child, (frame) => frame.lastSession?.status === 'Closed'), 'the closed frame');
    await until(() => !orders.open.some((order) => order.orderId === restingId), 'the resting order gone from the open orders');
  });

  it('withdraws what the closed child holds to the trading account', async () => {
    const h = terminal.handlers;
    const overview = value(await h.getMarginOverview({}, caller));
    const holdings = overview.accounts.find((account) => account.marginAccountId === child)?.holdings ?? [];
    expect(holdings.find((holding) => holding.assetId === usdcAsset)?.amount).toBeGreaterThan(0n);
    expect(holdings.find((holding) => holding.assetId === ethAsset)?.amount).toBeGreaterThan(0n);
    const live = await h.marginDraw({ marginAccountId: child, amount: 1n }, caller);
    expect(live).toMatchObject({ ok: false, code: 'MARGIN_NO_SESSION' });
    const withdrawn = value(await h.withdrawFromMarginAccount({ marginAccountId: child }, caller));
    expect(withdrawn.description).toMatch(/USDC, .*ETH from margin account|ETH, .*USDC from margin account/);
    const after = value(await h.getMarginOverview({}, caller));
    expect(after.accounts.find((account) => account.marginAccountId === child)?.holdings).toEqual([]);
    const again = await h.withdrawFromMarginAccount({ marginAccountId: child }, caller);
    expect(again).toMatchObject({ ok: false, code: 'MARGIN_NOTHING_TO_DO' });
    const invariant = await client.get<{ invariant_problems: string[] }>('/control/ledger');
    expect(invariant.body.invariant_problems).toEqual([]);
  });
});

describe('a legacy Turbo Account flattened down to a remainder no order can sell', () => {
  let child: B256;

  it('flattens exactly the size its plan states, and the close offers the repay from collateral the remainder makes necessary', async () => {
    const h = terminal.handlers;
    child = value(await h.registerMarginAccount({}, caller)).marginAccountId as B256;
    value(await h.openMarginSession({ marginAccountId: child, tierId: '1', period: 'Week' }, caller));
    value(await h.selectMarginAccount({ marginAccountId: child }, caller));
    value(await h.subscribeMarginRisk({ marginAccountId: child }, caller));
    await until(() => lastFrame(child, (frame) => frame.risk !== null), 'the risk frame of the third child');
    await clearQuotes();
    // A buy funded by a draw pays its fee in ETH: the position is finer than the 0.0001 ETH step.
    await sharedQuote('Sell', PRICE(3000n), ETH / 10n);
    value(await h.placeOrder({ marketId: ethUsdc.market_id, turbo: true, side: 'Buy', orderType: { kind: 'Market' }, price: PRICE(3000n), quantity: ETH / 10n }, caller));
    await sharedQuote('Buy', PRICE(2500n), ETH);
    const step = 10n ** BigInt(ethUsdc.base.decimals - ethUsdc.base.max_precision);
    const position = await until(async () => {
      const view = value(await h.getPositions({}, caller));
      return view.positions.find((row) => row.account === child && row.turbo && row.size > 0n && row.mark !== null);
    }, 'the Turbo Account position');
    expect(position.size % step).not.toBe(0n);
    expect(position.close).toMatchObject({ side: 'Sell', quantity: position.size - (position.size % step), remainder: position.size % step, refusal: null });
    expect(position.close.remainderReason).toMatch(/below the 0\.0001 ETH size step: no order can close it$/);

    const report = value(await h.flattenPositions({ positions: [{ marketId: ethUsdc.market_id, turbo: true, account: child, quantity: position.close.quantity }] }, caller));
    expect(report.failed).toEqual([]);
    expect(report.placed[0]).toMatchObject({ quantity: position.close.quantity, remainder: position.close.remainder });
    // On the exchange the account holds exactly the remainder the plan stated.
    const held = await until(async () => {
      const state = await client.get<{ balances?: Record<string, { on_account?: string; received?: string }> }>(`/v1/margin/state?account=${child}`);
      const eth = state.body.balances?.[ethAsset];
      const total = BigInt(eth?.on_account ?? '0') + BigInt(eth?.received ?? '0');
      return total === position.close.remainder ? total : null;
    }, 'the remainder on the exchange');
    expect(held).toBe(position.close.remainder);
    const after = await until(async () => value(await h.getPositions({}, caller)).positions.find((row) => row.account === child && row.turbo && row.size === position.close.remainder && row.notClosable !== null), 'the remainder row');
    expect(after.close.quantity).toBe(0n);

    // The sale returned less quote than was drawn and the remainder cannot be sold: the close says
    // so and offers the repay from posted collateral that unblocks it.
    const blocked = value(await h.closeMarginSession({ marginAccountId: child, prepare: true }, caller));
    expect(blocked.closed).toBe(false);
    const returnStep = blocked.steps.find((step) => step.step === 'return-quote')!;
    expect(returnStep.state).toBe('remaining');
    expect(returnStep.detail).toMatch(/what else it holds no order can sell \([\d.]+ ETH is below the 0\.0001 ETH size step: no order can close it\): Repay [\d.]+ USDC of drawn quote from posted collateral \(offered here\)$/);
    expect(blocked.remedies).toHaveLength(1);
    const remedy = blocked.remedies[0]!;
    expect(remedy.kind).toBe('repayFromCollateral');
    value(await h.marginRepayFromCollateral({ marginAccountId: child, amount: remedy.amount }, caller));
    const closed = value(await h.closeMarginSession({ marginAccountId: child, prepare: true }, caller));
    expect(closed.closed).toBe(true);
    expect(closed.remedies).toEqual([]);
  }, 120_000);
});
