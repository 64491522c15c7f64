// The per-market exposure guards against the real sandbox: an order above the maximum notional,
// and one that with the account's resting orders on its side could pass the maximum position, are
// refused with the guard's code before a nonce is taken: nothing reaches the exchange. Raising a
// cap needs the trusted confirmation; lowering one applies at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Market } from '../../../../../shared/market/market';
import { quoteValue } from '../../../../../shared/market/amounts';
import { caller, startOnboarded, until, value, type Harness } from '../../../../support/terminal-harness';

describe('exposure guards (maximum notional, maximum position) before signing', () => {
  let harness: Harness;
  let markets: Market[];
  let tradeAccountId: string;

  beforeAll(async () => {
    const onboarded = await startOnboarded();
    ({ harness, tradeAccountId, markets } = onboarded);
  }, 120_000);

  afterAll(async () => {
    await harness?.stop();
  });

  const nonce = async () => (await harness.ledgerAccount(tradeAccountId))?.nonce;
  const ownOrders = async (market: Market) => (await harness.ledgerOrders(market.market_id)).filter((order) => order.owner?.ContractId === tradeAccountId && order.cancel !== true);

  it('refuses an order above the maximum notional with GUARD_MAX_NOTIONAL, nothing signed, and asks for the confirmation to raise the cap', async () => {
    const h = harness.terminal.handlers;
    const market = markets[0]!;
    const order = await harness.restingBuy(market);
    const notional = quoteValue(market, order.price, order.quantity);
    value(await h.updateSettings({ maxOrderNotional: { [market.market_id]: notional } }, caller));
    const before = { nonce: await nonce(), orders: (await ownOrders(market)).length };
    const above = await h.placeOrder({ ...order, quantity: order.quantity * 2n }, caller);
    expect(above.ok).toBe(false);
    if (above.ok) return;
    expect(above.code).toBe('GUARD_MAX_NOTIONAL');
    expect(above.message).toMatch(/above your maximum order notional of .* Nothing was signed/);
    expect(above.details).toMatchObject({ maximum: notional.toString() });
    expect(await nonce()).toBe(before.nonce);
    expect((await ownOrders(market)).length).toBe(before.orders);
    const raised = await h.updateSettings({ maxOrderNotional: { [market.market_id]: notional * 3n } }, caller);
    expect(raised.ok ? 'applied' : raised.code).toBe('CONFIRMATION_REQUIRED');
    const removed = await h.updateSettings({ maxOrderNotional: {} }, caller);
    expect(removed.ok ? 'applied' : removed.code).toBe('CONFIRMATION_REQUIRED');
    // At the cap the same order is signed.
    const placed = value(await h.placeOrder(order, caller));
    value(await h.cancelOrder({ marketId: market.market_id, orderId: placed.orders[0]!.orderId }, caller));
  }, 90_000);

  it('counts the resting buys toward the maximum position and refuses the buy that could pass it, with GUARD_MAX_POSITION and nothing signed', async () => {
    const h = harness.terminal.handlers;
    const market = markets[1] ?? markets[0]!;
    const order = await harness.restingBuy(market);
    value(await h.updateSettings({ maxPosition: { [market.market_id]: order.quantity * 2n } }, caller));
    const resting = value(await h.placeOrder(order, caller));
    const orderId = resting.orders[0]!.orderId;
    await until(async () => value(await h.getOrders({}, caller)).open.some((view) => view.orderId === orderId), 20_000, 'the resting buy in Open orders');
    const before = { nonce: await nonce(), orders: (await ownOrders(market)).length };
    const refused = await h.placeOrder({ ...order, quantity: order.quantity * 2n }, caller);
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.code).toBe('GUARD_MAX_POSITION');
    expect(refused.message).toMatch(/in resting buys/);
    expect(refused.details).toMatchObject({ maximum: (order.quantity * 2n).toString() });
    expect(await nonce()).toBe(before.nonce);
    expect((await ownOrders(market)).length).toBe(before.orders);
    // One more of the same size reaches the cap exactly and is signed.
    const second = value(await h.placeOrder(order, caller));
    for (const id of [orderId, second.orders[0]!.orderId]) value(await h.cancelOrder({ marketId: market.market_id, orderId: id }, caller));
    const raised = await h.updateSettings({ maxPosition: { [market.market_id]: order.quantity * 5n } }, caller);
    expect(raised.ok ? 'applied' : raised.code).toBe('CONFIRMATION_REQUIRED');
    const lowered = value(await h.updateSettings({ maxPosition: { [market.market_id]: order.quantity } }, caller));
    expect(lowered.maxPosition[market.market_id]).toBe(order.quantity);
  }, 90_000);
});
