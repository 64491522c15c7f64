// Amend against a real sandbox: a resting order's price or quantity changes as cancel and create in
// ONE signed batch (one transaction: the cancel of the old order and the creation of the new one
// carry the same tx id, the account nonce moves by one), the new order id comes back, the market
// rules apply to the replacement, and an order that is not open is refused by name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Market } from '../../../shared/market/market';
import { caller, startOnboarded, value, type Harness } from '../../support/terminal-harness';

interface RawOrder {
  order_id: string;
  price: string;
  quantity: string;
  cancel?: boolean;
  close?: boolean;
  history?: { type: string; status: string; tx_id?: string }[];
}

describe('amend a resting order, against the sandbox', () => {
  let harness: Harness;
  let market: Market;
  let tradeAccountId: string;

  const ledgerOrder = async (orderId: string) => (await harness.ledgerOrders(market.market_id)).find((order) => order.order_id === orderId) as unknown as RawOrder | undefined;
  const nonce = async () => BigInt((await harness.ledgerAccount(tradeAccountId))!.nonce);

  beforeAll(async () => {
    ({ harness, tradeAccountId, market } = await startOnboarded());
  }, 120_000);

  afterAll(async () => {
    await harness?.stop();
  });

  it('moves the price and then the quantity, each in one signed batch, and returns the new order id', async () => {
    const h = harness.terminal.handlers;
    const resting = await harness.restingBuy(market);
    const placed = value(await h.placeOrder(resting, caller));
    const oldId = placed.orders[0]!.orderId;
    const tick = harness.priceTick(market);
    const journalBefore = value(await h.getJournal({ limit: 50 }, caller)).filter((entry) => entry.kind === 'signed').length;
    const nonceBefore = await nonce();

    const newPrice = resting.price - 2n * tick;
    const amended = value(await h.amendOrder({ marketId: market.market_id, orderId: oldId, price: newPrice }, caller));
    expect(amended.replacedOrderId).toBe(oldId);
    const newId = amended.orders[0]!.orderId;
    expect(newId).toMatch(/^0x[0-9a-f]{64}$/);
    expect(newId).not.toBe(oldId);
    expect(amended.orders[0]!.price).toBe(newPrice);
    expect(amended.orders[0]!.quantity).toBe(resting.quantity);

    // One transaction: the old order's cancel and the new order's creation carry one tx id.
    const oldOrder = (await ledgerOrder(oldId))!;
    const newOrder = (await ledgerOrder(newId))!;
    expect(oldOrder.cancel).toBe(true);
    expect(newOrder.cancel ?? false).toBe(false);
    expect(BigInt(newOrder.price)).toBe(newPrice);
    const cancelTx = oldOrder.history?.at(-1)?.tx_id;
    expect(cancelTx).toBeTruthy();
    expect(newOrder.history?.[0]?.tx_id).toBe(cancelTx);
    expect(await nonce()).toBe(nonceBefore + 1n);
    const journal = value(await h.getJournal({ limit: 50 }, caller)).filter((entry) => entry.kind === 'signed');
    expect(journal.length).toBe(journalBefore + 1);
    expect(journal.some((entry) => (entry.description ?? '').startsWith('Amend Buy') && (entry.description ?? '').includes(oldId))).toBe(true);

    // The quantity alone: the price stays.
    const step = 10n ** BigInt(market.base.decimals - market.base.max_precision);
    const bigger = resting.quantity + 3n * step;
    const second = value(await h.amendOrder({ marketId: market.market_id, orderId: newId, quantity: bigger }, caller));
    expect(second.replacedOrderId).toBe(newId);
    expect(second.orders[0]!.quantity).toBe(bigger);
    expect(second.orders[0]!.price).toBe(newPrice);
    expect((await ledgerOrder(newId))!.cancel).toBe(true);
    const open = value(await h.getOrders({}, caller)).open.map((order) => order.orderId);
    expect(open).toContain(second.orders[0]!.orderId);
    expect(open).not.toContain(oldId);
    expect(open).not.toContain(newId);
  }, 60_000);

  it('applies the market rules to the replacement and refuses what is not open, changing nothing', async () => {
    const h = harness.terminal.handlers;
    const resting = await harness.restingBuy(market);
    const orderId = value(await h.placeOrder(resting, caller)).orders[0]!.orderId;
    const nonceBefore = await nonce();
    const step = 10n ** BigInt(market.base.decimals - market.base.max_precision);
    const tooSmall = await h.amendOrder({ marketId: market.market_id, orderId, quantity: step }, caller);
    expect(tooSmall.ok).toBe(false);
    if (!tooSmall.ok) expect(tooSmall.message).toMatch(/below the market/i);
    const same = await h.amendOrder({ marketId: market.market_id, orderId, price: resting.price }, caller);
    expect(same.ok ? 'ok' : same.code).toBe('NOTHING_TO_AMEND');
    value(await h.cancelOrder({ marketId: market.market_id, orderId }, caller));
    const gone = await h.amendOrder({ marketId: market.market_id, orderId, price: resting.price - harness.priceTick(market) }, caller);
    expect(gone.ok ? 'ok' : gone.code).toBe('ORDER_NOT_OPEN');
    // Only the cancel was signed.
    expect(await nonce()).toBe(nonceBefore + 1n);
  }, 60_000);
});
