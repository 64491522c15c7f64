// The maximum number of orders per minute against the real sandbox: with a limit of 3, two new
// orders and an amend (its replacement is an order) fill the minute; the next order and the next
// amend are refused with GUARD_ORDER_RATE naming the count and the limit, and nothing of them
// reaches the exchange (nonce and book unchanged, the amended order resting as it was). A cancel is
// not an order: it still goes through.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Market } from '../../../../../shared/market/market';
import { caller, startOnboarded, value, type Harness } from '../../../../support/terminal-harness';

describe('the maximum orders per minute', () => {
  let harness: Harness;
  let market: Market;
  let tradeAccountId: string;

  beforeAll(async () => {
    ({ harness, market, tradeAccountId } = await startOnboarded());
  }, 120_000);

  afterAll(async () => {
    await harness?.stop();
  });

  const nonce = async () => (await harness.ledgerAccount(tradeAccountId))?.nonce;
  const ownOrders = async () => (await harness.ledgerOrders(market.market_id)).filter((order) => order.owner?.ContractId === tradeAccountId);

  it('refuses the order past the limit, an amend included, with the count and the limit, and sends nothing', async () => {
    const h = harness.terminal.handlers;
    value(await h.updateSettings({ maxOrdersPerMinute: 3 }, caller));
    const tick = harness.priceTick(market);
    const first = value(await h.placeOrder(await harness.restingBuy(market), caller)).orders[0]!;
    value(await h.placeOrder(await harness.restingBuy(market, 2n), caller));
    const amended = value(await h.amendOrder({ marketId: market.market_id, orderId: first.orderId, price: first.price - tick }, caller)).orders[0]!;
    const before = { nonce: await nonce(), orders: await ownOrders() };

    const fourth = await h.placeOrder(await harness.restingBuy(market, 4n), caller);
    expect(fourth.ok ? 'placed' : fourth.code).toBe('GUARD_ORDER_RATE');
    if (fourth.ok) return;
    expect(fourth.message).toMatch(/^3 orders in the last minute and 1 more would pass your maximum of 3 orders per minute \(Settings\)\. Nothing was signed/);
    expect(fourth.details).toMatchObject({ value: '4', maximum: '3' });

    const amend = await h.amendOrder({ marketId: market.market_id, orderId: amended.orderId, price: amended.price - tick }, caller);
    expect(amend.ok ? 'amended' : amend.code).toBe('GUARD_ORDER_RATE');

    // Nothing reached the exchange: no nonce consumed, the book of the account as it was.
    expect(await nonce()).toBe(before.nonce);
    const after = await ownOrders();
    expect(after.map((order) => [order.order_id, order.price, order.cancel === true])).toEqual(before.orders.map((order) => [order.order_id, order.price, order.cancel === true]));

    // A cancel creates no order: it passes.
    const cancelled = await h.cancelOrder({ marketId: market.market_id, orderId: amended.orderId }, caller);
    expect(cancelled.ok ? 'cancelled' : `${cancelled.code}: ${cancelled.message}`).toBe('cancelled');
  }, 120_000);
});
