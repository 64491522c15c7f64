// Trigger orders over HTTP and WebSocket only, signed with shared/protocol as a client would:
// every trigger action, the refusals (pre-flight codes and on-chain reverts), GET /v1/orders/active,
// the order stream's `triggers`, and legs fired by moving the price through the control surface.
// Bodies are read as loose JSON (checked against shared/api's schemas where one exists).
/* eslint-disable @typescript-eslint/no-explicit-any */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeOrdersResponseSchema } from '../../../shared/api/market-schemas';
import { serverMessageSchema } from '../../../shared/api/websocket-schemas';
import { ZERO_B256, type B256 } from '../../../shared/encoding/b256';
import type { Market } from '../../../shared/market/market';
import type { SessionAction } from '../../../shared/protocol/actions';
import type { TriggerLeg } from '../../../shared/protocol/trigger';
import { parseWith } from '../../../shared/schema';
import { startSandbox, type RunningSandbox } from '../../../sandbox/server';
import { HOUR, order, SandboxClient, secondsFromNow, Trader } from '../../support/sandbox/client';
import { MarginSigner, readNetwork, type Network } from '../../support/sandbox/margin-client';
import { StreamClient } from '../../support/sandbox/stream-client';

const ETH = 1_000_000_000n;
const USDC = 1_000_000n;
const PRICE = (whole: bigint) => whole * USDC;

let sandbox: RunningSandbox;
let client: SandboxClient;
let net: Network;
let ethUsdc: Market;
let maker: Trader;

type Json = Record<string, any>;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, makerProfile: 'thin-legacy', maker: false, rateLimits: false, control: true });
  client = new SandboxClient(sandbox.url);
  net = await readNetwork(client);
  ethUsdc = net.canonical.find((market) => market.base.symbol === 'ETH' && market.quote.asset === net.collateral) as Market;
  maker = await trader();
});

afterAll(async () => {
  await sandbox.close();
});

async function trader(): Promise<Trader> {
  const created = await Trader.create(client);
  const opened = await created.openSession([ethUsdc.contract_id], secondsFromNow(2n * HOUR));
  expect(opened.status, JSON.stringify(opened.body)).toBe(200);
  return created;
}

/** Trade through the book to `price`; legs it reaches fire before the answer, so the last price may be theirs. */
async function movePrice(price: bigint, last: bigint = price): Promise<void> {
  const moved = await client.request('POST', '/control/markets/price', { market_id: ethUsdc.market_id, price: price.toString() });
  expect(moved.body, JSON.stringify(moved.body)).toMatchObject({ last_price: last.toString() });
}

async function active(account: B256): Promise<Json[]> {
  const reply = await client.get<{ entries: Json[] }>(`/v1/orders/active?market_id=${ethUsdc.market_id}&contract=${account}`);
  expect(reply.status).toBe(200);
  const parsed = parseWith(activeOrdersResponseSchema, reply.body, 'active');
  expect(parsed.ok, parsed.ok ? '' : parsed.message).toBe(true);
  return reply.body.entries;
}

async function invariants(): Promise<string[]> {
  return (await client.get<{ invariant_problems: string[] }>('/control/ledger')).body.invariant_problems;
}

async function ordersStream(account: Trader): Promise<StreamClient> {
  const stream = await StreamClient.open(sandbox.url);
  stream.send({ action: 'subscribe_orders', identities: [{ ContractId: account.accountId }] });
  const first = await stream.waitFor((message) => message.action === 'subscribe_orders');
  expect(first.triggers).toBeDefined();
  return stream;
}

/** The next order-stream message that carries a leg matching `predicate`. */
function triggerUpdate(stream: StreamClient, predicate: (leg: Json) => boolean): Promise<Json> {
  return stream.waitFor((message) => message.action === 'subscribe_orders' && Array.isArray(message.triggers) && (message.triggers as Json[]).some(predicate));
}

const sellStop = (trigger: bigint, slip: bigint, quantity?: bigint): TriggerLeg => ({
  order_type: { kind: 'MarketBounded', max_price: trigger + slip, min_price: trigger - slip },
  quantity: quantity === undefined ? { kind: 'ParentOrder', parent_order_id: ZERO_B256 } : { kind: 'Quantity', quantity },
  trigger_price: trigger,
  side: 'Sell',
});

describe('trigger actions', () => {
  it('CreateTriggerOrder rests with its escrow, is listed and streamed, and is cancelled with CancelTriggerOrder', async () => {
    await movePrice(PRICE(3000n));
    const alice = await trader();
    const stream = await ordersStream(alice);
    const leg: TriggerLeg = { order_type: { kind: 'Spot', price: PRICE(2890n) }, quantity: { kind: 'Quantity', quantity: ETH / 4n }, trigger_price: PRICE(2900n), side: 'Sell' };
    const created = await alice.act(ethUsdc, [{ kind: 'CreateTriggerOrder', args: leg }]);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.orders).toEqual([]);
    const view = (created.body.triggers as Json[])[0] as Json;
    expect(view).toMatchObject({
      market_id: ethUsdc.market_id,
      side: 'Sell',
      trigger_price: String(PRICE(2900n)),
      order_type: { Spot: { price: String(PRICE(2890n)) } },
      quantity: { Quantity: { quantity: String(ETH / 4n) } },
      state: 'pending',
      armed: true,
      direction: 'fall',
      parent_order_id: null,
      oco_order_id: null,
      locked: String(ETH / 4n),
      fired_order_id: null,
      reason: null,
    });
    const streamed = await triggerUpdate(stream, (entry) => entry.order_id === view.order_id);
    expect(parseWith(serverMessageSchema, streamed, 'stream').ok).toBe(true);
    expect((await active(alice.accountId)).find((entry) => entry.order_id === view.order_id)).toMatchObject({ kind: 'trigger', side: 'Sell', trigger_price: String(PRICE(2900n)) });
    const balance = await client.get<{ order_books: Record<string, { locked: string }> }>(`/v1/balance?contract=${alice.accountId}&asset_id=${ethUsdc.base.asset}`);
    expect(balance.body.order_books[ethUsdc.market_id]?.locked).toBe(String(ETH / 4n));

    const cancelled = await alice.act(ethUsdc, [{ kind: 'CancelTriggerOrder', order_id: view.order_id }]);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    const gone = await triggerUpdate(stream, (entry) => entry.order_id === view.order_id && entry.state === 'cancelled');
    expect((gone.triggers as Json[])[0]).toMatchObject({ reason: 'Cancelled', locked: '0' });
    expect(await active(alice.accountId)).toEqual([]);
    const again = await alice.act(ethUsdc, [{ kind: 'CancelTriggerOrder', order_id: view.order_id }]);
    expect(again.body.reason).toBe('OrderNotFound');
    stream.close();
    expect(await invariants()).toEqual([]);
  });

  it('a bracket fired by POST /control/markets/price: the take-profit fills and the stop-loss is cancelled', async () => {
    await movePrice(PRICE(3000n));
    const alice = await trader();
    const stream = await ordersStream(alice);
    expect((await maker.act(ethUsdc, [order('Sell', PRICE(3000n), ETH)])).status).toBe(200);
    const entry: SessionAction = {
      kind: 'CreateOrderWithTriggers',
      side: 'Buy',
      price: PRICE(3000n),
      quantity: ETH / 2n,
      order_type: { kind: 'Spot' },
      trigger_1: sellStop(PRICE(3100n), PRICE(30n)),
      trigger_2: sellStop(PRICE(2900n), PRICE(30n)),
    };
    const placed = await alice.act(ethUsdc, [alice.settle(), entry]);
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const parent = (placed.body.orders as Json[])[0] as Json;
    expect(parent).toMatchObject({ quantity_fill: String(ETH / 2n), close: true });
    const [takeProfit, stopLoss] = placed.body.triggers as Json[];
    expect(takeProfit).toMatchObject({ parent_order_id: parent.order_id, expected_quantity: String(ETH / 2n), oco_order_id: stopLoss?.order_id, direction: 'rise', armed: true, locked: '0' });
    expect(takeProfit?.quantity).toEqual({ ParentOrder: { parent_order_id: parent.order_id } });
    expect(stopLoss).toMatchObject({ direction: 'fall', oco_order_id: takeProfit?.order_id });
    // The parent filled and closed: its legs are listed on their own, naming it.
    expect((await active(alice.accountId)).map((item) => [item.kind, item.parent_order_id])).toEqual([
      ['trigger', parent.order_id],
      ['trigger', parent.order_id],
    ]);

    // A bid inside the take-profit's bounds; the sweep to 3100 does not touch bids.
    expect((await maker.act(ethUsdc, [order('Buy', PRICE(3090n), 5n * ETH)])).status).toBe(200);
    // The sweep prints 3100; the take-profit then sells at the bid, which is the last trade.
    await movePrice(PRICE(3100n), PRICE(3090n));
    const fired = await triggerUpdate(stream, (leg) => leg.order_id === takeProfit?.order_id && leg.state === 'fired');
    const legs = fired.triggers as Json[];
    const firedLeg = legs.find((leg) => leg.order_id === takeProfit?.order_id) as Json;
    expect(legs.find((leg) => leg.order_id === stopLoss?.order_id)).toMatchObject({ state: 'cancelled', reason: 'OcoSiblingFired' });
    // The order it became, in the same message, filled at the bid.
    const result = (fired.orders as Json[]).find((item) => item.order_id === firedLeg.fired_order_id) as Json;
    expect(result).toMatchObject({ side: 'Sell', order_type: { BoundedMarket: { max_price: String(PRICE(3130n)), min_price: String(PRICE(3070n)) } }, quantity_fill: String(ETH / 2n) });
    expect(result.fills[0]).toMatchObject({ price: String(PRICE(3090n)) });
    const read = await client.get<{ order: Json }>(`/v1/order?market_id=${ethUsdc.market_id}&order_id=${firedLeg.fired_order_id as string}`);
    expect(read.body.order).toMatchObject({ price_fill: String(PRICE(3090n)), close: true });
    expect(await active(alice.accountId)).toEqual([]);
    stream.close();
    expect(await invariants()).toEqual([]);
  });

  it('legs of a resting, unfilled parent stay dormant when the price crosses them and are cancelled with it', async () => {
    await movePrice(PRICE(3000n));
    const alice = await trader();
    const placed = await alice.act(ethUsdc, [alice.settle(), { kind: 'CreateOrderWithTriggers', side: 'Buy', price: PRICE(2950n), quantity: ETH / 2n, order_type: { kind: 'Spot' }, trigger_1: sellStop(PRICE(3050n), PRICE(10n)) }]);
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const parent = (placed.body.orders as Json[])[0] as Json;
    const [nested] = await active(alice.accountId);
    expect(nested).toMatchObject({ kind: 'order', order_id: parent.order_id });
    expect(nested?.triggers[0]).toMatchObject({ armed: false, state: 'pending' });
    await movePrice(PRICE(3060n));
    expect((await active(alice.accountId))[0]?.triggers[0]).toMatchObject({ state: 'pending', armed: false });
    const stream = await ordersStream(alice);
    expect((await alice.act(ethUsdc, [{ kind: 'CancelOrder', order_id: parent.order_id }])).status).toBe(200);
    const gone = await triggerUpdate(stream, (leg) => leg.state === 'cancelled');
    expect((gone.triggers as Json[])[0]).toMatchObject({ reason: 'ParentCancelled' });
    stream.close();
  });

  it('an OCO pair (CreateTriggerOrders) and a market leg fire on a trade at the trigger, through the same order engine', async () => {
    await movePrice(PRICE(3000n));
    const alice = await trader();
    // Buy legs locking quote: a stop at 3050 (market: IOC at 3050) and a take-profit at 2950 (limit 2955).
    const stop: TriggerLeg = { order_type: { kind: 'Market' }, quantity: { kind: 'Quantity', quantity: ETH / 10n }, trigger_price: PRICE(3050n), side: 'Buy' };
    const profit: TriggerLeg = { order_type: { kind: 'Spot', price: PRICE(2955n) }, quantity: { kind: 'Quantity', quantity: ETH / 10n }, trigger_price: PRICE(2950n), side: 'Buy' };
    const wrongOrder = await alice.act(ethUsdc, [{ kind: 'CreateTriggerOrders', first: profit, second: stop }]);
    expect(wrongOrder.body.reason).toBe('TriggerLockOrder');
    const pair = await alice.act(ethUsdc, [{ kind: 'CreateTriggerOrders', first: stop, second: profit }]);
    expect(pair.status, JSON.stringify(pair.body)).toBe(200);
    const [first, second] = pair.body.triggers as Json[];
    expect(first).toMatchObject({ locked: String(305n * USDC), oco_order_id: second?.order_id });
    expect(second).toMatchObject({ locked: '0' });
    // Rest liquidity at 3050 and buy through every ask up to it, so a trade prints at 3050: the
    // market leg (a Market order at its trigger price) then buys from what is left at 3050.
    expect((await maker.act(ethUsdc, [order('Sell', PRICE(3050n), 5n * ETH)])).status).toBe(200);
    const stream = await ordersStream(alice);
    expect((await maker.act(ethUsdc, [order('Buy', PRICE(3050n), ETH)])).status).toBe(200);
    const fired = await triggerUpdate(stream, (leg) => leg.order_id === first?.order_id && leg.state === 'fired');
    expect((fired.triggers as Json[]).find((leg) => leg.order_id === second?.order_id)).toMatchObject({ state: 'cancelled', reason: 'OcoSiblingFired' });
    expect((fired.orders as Json[])[0]).toMatchObject({ order_type: 'Market', price: String(PRICE(3050n)), quantity_fill: String(ETH / 10n) });
    stream.close();
    expect(await invariants()).toEqual([]);
  });

  it('a standalone leg bound to a resting order checks expected_quantity and the side', async () => {
    await movePrice(PRICE(3000n));
    const alice = await trader();
    const resting = await alice.act(ethUsdc, [alice.settle(), order('Buy', PRICE(2950n), ETH / 2n)]);
    const parentId = ((resting.body.orders as Json[])[0] as Json).order_id as B256;
    const leg = (side: 'Buy' | 'Sell'): TriggerLeg => ({ ...sellStop(PRICE(2900n), PRICE(10n)), side, quantity: { kind: 'ParentOrder', parent_order_id: parentId } });
    const mismatch = await alice.act(ethUsdc, [{ kind: 'CreateTriggerOrder', args: leg('Sell'), parent: { order_id: parentId, expected_quantity: ETH } }]);
    expect(mismatch.body.reason).toBe('ExpectedQuantityMismatch');
    const sameSide = await alice.act(ethUsdc, [{ kind: 'CreateTriggerOrder', args: leg('Buy'), parent: { order_id: parentId, expected_quantity: ETH / 2n } }]);
    expect(sameSide.body.reason).toBe('TriggerSameSide');
    const bound = await alice.act(ethUsdc, [{ kind: 'CreateTriggerOrder', args: leg('Sell'), parent: { order_id: parentId, expected_quantity: ETH / 2n } }]);
    expect(bound.status, JSON.stringify(bound.body)).toBe(200);
    const [entry] = await active(alice.accountId);
    expect(entry).toMatchObject({ kind: 'order', order_id: parentId });
    expect(entry?.triggers[0]).toMatchObject({ parent_order_id: parentId, expected_quantity: String(ETH / 2n), locked: '0', armed: false });
  });

  it('refuses what the book refuses: explicit attached sizes, same-side legs, off-tick and fractional prices, a trigger at the last price, missing funds', async () => {
    await movePrice(PRICE(3000n));
    const alice = await trader();
    const entry = (trigger: TriggerLeg): SessionAction => ({ kind: 'CreateOrderWithTriggers', side: 'Buy', price: PRICE(2950n), quantity: ETH / 2n, order_type: { kind: 'Spot' }, trigger_1: trigger });
    const reasons = async (action: SessionAction, market: Market = ethUsdc): Promise<unknown> => (await alice.act(market, [action])).body.reason;
    expect(await reasons(entry(sellStop(PRICE(2900n), PRICE(10n), ETH / 2n)))).toBe('QuantityMustBeParentOrder');
    expect(await reasons(entry({ ...sellStop(PRICE(2900n), PRICE(10n)), side: 'Buy' }))).toBe('TriggerSameSide');
    expect(await reasons(entry(sellStop(PRICE(2900n) + 1n, PRICE(10n))))).toBe('PricePrecision');
    expect(await reasons(entry({ ...sellStop(PRICE(2900n), PRICE(10n)), order_type: { kind: 'MarketBounded', max_price: PRICE(2910n), min_price: PRICE(2890n) + 1n } }))).toBe('PricePrecision');
    expect(await reasons(entry(sellStop(PRICE(3000n), PRICE(10n))))).toBe('TriggerAtMarket');
    expect(await reasons({ kind: 'CreateTriggerOrder', args: sellStop(PRICE(2900n), PRICE(10n), 1_000n * ETH) })).toBe('InsufficientBalance');
    expect(await reasons({ kind: 'CreateTriggerOrder', args: { ...sellStop(PRICE(2900n), PRICE(10n)), quantity: { kind: 'ParentOrder', parent_order_id: `0x${'ab'.repeat(32)}` as B256 } } })).toBe('ParentOrderRequired');
    // ETH/USDT: 0.0001 ETH at 3000.001 USDT is not a whole number of USDT units.
    const ethUsdt = net.canonical.find((market) => market.base.symbol === 'ETH' && market.quote.symbol === 'USDT') as Market;
    const usdt = await Trader.create(client);
    await usdt.openSession([ethUsdt.contract_id], secondsFromNow(2n * HOUR));
    const fractional: TriggerLeg = { order_type: { kind: 'Spot', price: 2_950_000_000n }, quantity: { kind: 'Quantity', quantity: 100_000n }, trigger_price: 2_950_001_000n, side: 'Sell' };
    expect((await usdt.act(ethUsdt, [{ kind: 'CreateTriggerOrder', args: fractional }])).body.reason).toBe('FractionalPrice');
    expect(await invariants()).toEqual([]);
  });
});

describe('the other refusals of trigger actions', () => {
  it('refuses an OCO on two sides, a leg sized from another order, unknown or unfilled parents, bad bounds, small sizes, a book without a price, a book that needs a whitelist', async () => {
    await movePrice(PRICE(3000n));
    const alice = await trader();
    const reason = async (action: SessionAction, market: Market = ethUsdc, as: Trader = alice): Promise<unknown> => (await as.act(market, [action])).body.reason;
    const explicit = (leg: TriggerLeg, quantity = ETH / 10n): TriggerLeg => ({ ...leg, quantity: { kind: 'Quantity', quantity } });
    const stop = sellStop(PRICE(2900n), PRICE(10n));
    expect(await reason({ kind: 'CreateTriggerOrders', first: explicit(stop), second: { ...explicit(stop), side: 'Buy', trigger_price: PRICE(2950n), order_type: { kind: 'MarketBounded', max_price: PRICE(2960n), min_price: PRICE(2940n) } } })).toBe(
      'TriggerSideMismatch',
    );
    const resting = await alice.act(ethUsdc, [alice.settle(), order('Buy', PRICE(2950n), ETH / 2n)]);
    const parentId = ((resting.body.orders as Json[])[0] as Json).order_id as B256;
    const unknown = `0x${'ab'.repeat(32)}` as B256;
    expect(await reason({ kind: 'CreateTriggerOrder', args: { ...stop, quantity: { kind: 'ParentOrder', parent_order_id: unknown } }, parent: { order_id: parentId, expected_quantity: ETH / 2n } })).toBe('TriggerParentMismatch');
    expect(await reason({ kind: 'CreateTriggerOrder', args: { ...stop, quantity: { kind: 'ParentOrder', parent_order_id: unknown } }, parent: { order_id: unknown, expected_quantity: ETH / 2n } })).toBe('ParentOrderNotFound');
    expect((await alice.act(ethUsdc, [{ kind: 'CancelOrder', order_id: parentId }])).status).toBe(200);
    expect(await reason({ kind: 'CreateTriggerOrder', args: { ...stop, quantity: { kind: 'ParentOrder', parent_order_id: parentId } }, parent: { order_id: parentId, expected_quantity: ETH / 2n } })).toBe('ParentOrderClosed');
    expect(await reason({ kind: 'CreateTriggerOrder', args: explicit({ ...stop, order_type: { kind: 'MarketBounded', max_price: PRICE(2890n), min_price: PRICE(2910n) } }) })).toBe('InvalidBounds');
    // 0.0001 ETH is on the step but below the 0.001 ETH dust threshold; 0.001 ETH at 0.5 USDC is below the 1 USDC minimum.
    expect(await reason({ kind: 'CreateTriggerOrder', args: explicit(stop, 100_000n) })).toBe('DustOrder');
    expect(await reason({ kind: 'CreateTriggerOrder', args: explicit({ ...stop, trigger_price: PRICE(1n) / 2n, order_type: { kind: 'Spot', price: PRICE(1n) / 2n } }, 1_000_000n) })).toBe('OrderBelowMinimum');
    // BTC/USDC has had no trade and no quote in this sandbox: a trigger has no side of the market.
    const btc = net.canonical.find((market) => market.base.symbol === 'BTC') as Market;
    const bob = await Trader.create(client);
    await bob.openSession([btc.contract_id, net.canonical.find((market) => market.base.symbol === 'FUEL')!.contract_id], secondsFromNow(2n * HOUR));
    const btcLeg: TriggerLeg = { order_type: { kind: 'Spot', price: 60_000n * 1_000_000n }, quantity: { kind: 'Quantity', quantity: 100_000n }, trigger_price: 59_000n * 1_000_000n, side: 'Sell' };
    expect(await reason({ kind: 'CreateTriggerOrder', args: btcLeg }, btc, bob)).toBe('NoReferencePrice');
    // FUEL/USDC requires a whitelisted account.
    const fuel = net.canonical.find((market) => market.base.symbol === 'FUEL') as Market;
    const fuelLeg: TriggerLeg = { order_type: { kind: 'Spot', price: 19_000n }, quantity: { kind: 'Quantity', quantity: 100n * 1_000_000_000n }, trigger_price: 19_000n, side: 'Sell' };
    expect(await reason({ kind: 'CreateTriggerOrder', args: fuelLeg }, fuel, bob)).toBe('TraderNotWhiteListed');
    expect(await invariants()).toEqual([]);
  });
});

describe('trigger legs on a Turbo Account', () => {
  it('refuses unbounded market legs before submission (7007) and bounded legs beyond trigger_max_slippage', async () => {
    const parent = await Trader.create(client);
    const signer = new MarginSigner(parent, net);
    const turboEth = net.turbo.find((market) => market.market_id === ethUsdc.market_id) as Network['turbo'][number];
    const next = (await client.get<{ contract_id: B256; index: string }>(`/v1/margin/next-account?parent_contract=${parent.accountId}`)).body;
    const opened = await parent.openSession([ethUsdc.contract_id, turboEth.contract_id, net.pool, net.registry, next.contract_id], secondsFromNow(24n * HOUR));
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    const registered = await signer.parent([{ market: ethUsdc, actions: [{ kind: 'RegisterMarginAccount', margin_account_id: next.contract_id, index: BigInt(next.index) }] }], '/v1/margin/accounts');
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    // Tier 2 (prepaid, on sale): 65 USDC for a Week.
    const started = await signer.parent([{ market: ethUsdc, actions: [{ kind: 'StartMarginSession', margin_account_id: next.contract_id, tier_id: 2n, amount: 65n * USDC, period: 'Week' }] }]);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const child = next.contract_id;
    const unbounded: TriggerLeg = { order_type: { kind: 'Market' }, quantity: { kind: 'Quantity', quantity: ETH / 100n }, trigger_price: PRICE(3100n), side: 'Buy' };
    const refused = await signer.child(child, [{ market: turboEth, turbo: true, actions: [{ kind: 'Draw', amount: 100n * USDC }, { kind: 'CreateTriggerOrder', args: unbounded }] }]);
    expect(refused.body, JSON.stringify(refused.body)).toMatchObject({ code: 7007 });
    const attachedUnbounded = await signer.child(child, [
      { market: turboEth, turbo: true, actions: [{ kind: 'CreateOrderWithTriggers', side: 'Buy', price: PRICE(2950n), quantity: ETH / 100n, order_type: { kind: 'Spot' }, trigger_1: { ...sellStop(PRICE(2900n), 0n), order_type: { kind: 'Market' } } }] },
    ]);
    expect(attachedUnbounded.body).toMatchObject({ code: 7007 });
    // 200 bps? ETH's Turbo book allows 150 bps: 3100 ± 46.5.
    const wide: TriggerLeg = { ...unbounded, order_type: { kind: 'MarketBounded', max_price: PRICE(3150n), min_price: PRICE(3090n) } };
    const slipped = await signer.child(child, [{ market: turboEth, turbo: true, actions: [{ kind: 'Draw', amount: 100n * USDC }, { kind: 'CreateTriggerOrder', args: wide }] }]);
    expect(slipped.body.reason).toBe('TriggerSlippageExceeded');
    const narrow: TriggerLeg = { ...unbounded, order_type: { kind: 'MarketBounded', max_price: PRICE(3140n), min_price: PRICE(3090n) } };
    const accepted = await signer.child(child, [{ market: turboEth, turbo: true, actions: [{ kind: 'Draw', amount: 100n * USDC }, { kind: 'CreateTriggerOrder', args: narrow }] }]);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect((accepted.body.triggers as Json[])[0]).toMatchObject({ turbo: true, state: 'pending', locked: String(3140n * USDC / 100n) });
    // The close cleanups list the pending leg, so a clean close cancels it.
    const cleanups = await client.get<{ cleanups: { order_ids: string[] }[] }>(`/v1/margin/close-cleanups?account=${child}`);
    expect(cleanups.body.cleanups[0]?.order_ids).toContain((accepted.body.triggers as Json[])[0]?.order_id);
    expect(await invariants()).toEqual([]);
  });
});
