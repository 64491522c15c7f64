// The kill switch and cancel-all-in-a-market against a real sandbox, with trigger legs about: a
// stop on its own, a bracket whose entry filled (its legs stay pending and protect the position),
// a bracket that rests, a plain resting order and a stop on the Turbo book. Afterwards the
// exchange's own read (GET /v1/orders/active for the trading account, both books) lists nothing,
// and the report counts the orders and the legs cancelled and the signed batches.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CancelReport, Notice } from '../../../shared/ipc/views';
import type { Market } from '../../../shared/market/market';
import { caller, startOnboarded, until, value, type Harness } from '../../support/terminal-harness';

interface ActiveEntries {
  readonly entries: { readonly kind: string; readonly order_id: string; readonly triggers?: unknown[] }[];
}

describe('kill switch and cancel all take trigger legs too, against the sandbox', () => {
  let harness: Harness;
  let market: Market;
  let other: Market;
  let tradeAccountId: string;

  /** What the exchange lists as open or pending for the trading account on one book. */
  const active = async (book: Market, turbo: boolean): Promise<{ orders: string[]; legs: number }> => {
    const response = await fetch(`${harness.base()}/v1/orders/active?market_id=${book.market_id}&contract=${tradeAccountId}${turbo ? '&turbo=true' : ''}`);
    const body = (await response.json()) as ActiveEntries;
    const orders = body.entries.filter((entry) => entry.kind === 'order').map((entry) => entry.order_id);
    const legs = body.entries.reduce((count, entry) => count + (entry.kind === 'trigger' ? 1 : (entry.triggers?.length ?? 0)), 0);
    return { orders, legs };
  };

  /** A stop, two brackets (one filled, one resting) and a resting order on the canonical book; a stop on the Turbo book. */
  const placeEverything = async (book: Market): Promise<void> => {
    const h = harness.terminal.handlers;
    const { bid, ask } = await harness.insidePrices(book);
    const tick = harness.priceTick(book);
    const onTick = (price: bigint) => (price / tick) * tick;
    const below = onTick((bid * 80n) / 100n);
    const above = onTick((ask * 120n) / 100n);
    const size = harness.sizeFor(book, below);
    value(await h.placeStopOrder({ marketId: book.market_id, side: 'Sell', leg: { triggerPrice: below, execution: { kind: 'market' } }, size: { kind: 'quantity', quantity: size } }, caller));
    const legs = { takeProfit: { triggerPrice: above, execution: { kind: 'limit' as const, price: above } }, stopLoss: { triggerPrice: below, execution: { kind: 'slippage' as const, bps: 100 } } };
    // At the best offer: it fills against the house's quote, and its legs stay pending.
    const filled = value(await h.placeBracketOrder({ marketId: book.market_id, side: 'Buy', orderType: { kind: 'Spot' }, price: ask, quantity: harness.sizeFor(book, ask), ...legs }, caller));
    expect(filled.order?.filled).toBeGreaterThan(0n);
    const resting = await harness.restingBuy(book);
    value(await h.placeBracketOrder({ ...resting, ...legs }, caller));
    value(await h.placeOrder(await harness.restingBuy(book, 3n), caller));
    // The Turbo book has its own, higher minimum order.
    value(await h.placeStopOrder({ marketId: book.market_id, turbo: true, side: 'Sell', leg: { triggerPrice: below, execution: { kind: 'slippage', bps: 100 } }, size: { kind: 'quantity', quantity: 4n * size } }, caller));
    expect(await active(book, false)).toMatchObject({ legs: 5 });
    expect((await active(book, false)).orders.length).toBeGreaterThanOrEqual(1);
    expect(await active(book, true)).toMatchObject({ legs: 1 });
  };

  beforeAll(async () => {
    let markets: Market[];
    ({ harness, tradeAccountId, markets } = await startOnboarded());
    // A book that holds still between reading the best offer and buying at it.
    await harness.control('/control/maker', { pinned: true });
    const turbo = value(await harness.terminal.handlers.getTurboMarkets({}, caller));
    const withTurbo = markets.filter((candidate) => turbo.markets.some((row) => row.marketId === candidate.market_id && row.tradable));
    if (withTurbo.length < 2) throw new Error('the sandbox lists fewer than two markets with a Turbo book');
    [market, other] = withTurbo as [Market, Market];
  }, 120_000);

  afterAll(async () => {
    await harness?.stop();
  });

  it('cancel all in one market takes its orders and legs on both books and leaves the other market alone', async () => {
    const h = harness.terminal.handlers;
    await placeEverything(market);
    const kept = value(await h.placeStopOrder({ marketId: other.market_id, side: 'Sell', leg: { triggerPrice: ((await harness.insidePrices(other)).bid * 80n) / 100n / harness.priceTick(other) * harness.priceTick(other), execution: { kind: 'market' } }, size: { kind: 'quantity', quantity: harness.sizeFor(other, (await harness.insidePrices(other)).bid / 2n) } }, caller));
    const report: CancelReport = value(await h.cancelAllOrders({ marketId: market.market_id }, caller));
    expect(await active(market, false)).toEqual({ orders: [], legs: 0 });
    expect(await active(market, true)).toEqual({ orders: [], legs: 0 });
    expect(report.failed).toEqual([]);
    expect(report.triggersFailed).toEqual([]);
    expect(report.cancelled.length).toBe(report.requested);
    // Two resting orders (the resting bracket's entry and the plain order); six legs (the stop, two of the filled bracket, two of the resting one, the Turbo stop).
    expect(report.requested).toBe(2);
    expect(report.triggersRequested).toBe(6);
    expect(report.triggersCancelled).toHaveLength(6);
    // Eight cancels, the legs of the resting entry going with it: six actions, five to a batch.
    expect(report.batches).toBe(2);
    expect(await active(other, false)).toMatchObject({ legs: 1 });
    expect(kept.triggers).toHaveLength(1);
  }, 90_000);

  it('cancel one: the order goes and its legs with it, and the report names them', async () => {
    const h = harness.terminal.handlers;
    const { bid, ask } = await harness.insidePrices(market);
    const tick = harness.priceTick(market);
    const above = ((ask * 120n) / 100n / tick) * tick;
    const below = ((bid * 80n) / 100n / tick) * tick;
    const placed = value(await h.placeBracketOrder({ ...(await harness.restingBuy(market)), takeProfit: { triggerPrice: above, execution: { kind: 'market' } }, stopLoss: { triggerPrice: below, execution: { kind: 'market' } } }, caller));
    const orderId = placed.order!.orderId;
    await until(async () => value(await h.getTriggers({}, caller)).pending.filter((leg) => leg.parentOrderId === orderId).length === 2);
    const report = value(await h.cancelOrder({ marketId: market.market_id, orderId }, caller));
    expect(report).toMatchObject({ requested: 1, cancelled: [orderId], triggersRequested: 2 });
    expect([...report.triggersCancelled].sort()).toEqual(placed.triggers.map((leg) => leg.triggerId).sort());
    expect(await active(market, false)).toEqual({ orders: [], legs: 0 });
  }, 60_000);

  it('the kill switch leaves no order and no leg on any book, and says how many of each in how many batches', async () => {
    const h = harness.terminal.handlers;
    await placeEverything(market);
    const noticesBefore = harness.pushes.length;
    const report = value(await h.cancelAllOrders({}, caller));
    for (const book of [market, other]) {
      expect(await active(book, false)).toEqual({ orders: [], legs: 0 });
      expect(await active(book, true)).toEqual({ orders: [], legs: 0 });
    }
    expect(report).toMatchObject({ requested: 2, failed: [], triggersRequested: 7, triggersFailed: [] });
    expect(report.triggersCancelled).toHaveLength(7);
    const notice = await until(() => harness.pushes.slice(noticesBefore).find((push) => push.stream === 'notice' && (push.payload as Notice).text.startsWith('Cancelled'))?.payload as Notice | undefined);
    expect(notice.text).toBe(`Cancelled 2 of 2 open orders and 7 of 7 pending trigger legs in ${report.batches} signed batches`);
    expect(value(await h.getTriggers({}, caller)).pending).toEqual([]);
    expect(value(await h.getOrders({}, caller)).open).toEqual([]);
  }, 90_000);

  it('the kill switch pressed while an order request is in flight leaves nothing it placed', async () => {
    const h = harness.terminal.handlers;
    // The answer to the next order comes 1.5 s late: the sweep reads the books before the order is on them.
    await harness.control('/control/faults/delay', { count: 1, delay_ms: 1_500, method: 'POST', path_prefix: '/v1/session/actions' });
    const placing = h.placeOrder(await harness.restingBuy(market, 2n), caller);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const report = value(await h.cancelAllOrders({}, caller));
    const placed = await placing;
    expect(placed.ok, placed.ok ? '' : placed.message).toBe(true);
    const orderId = placed.ok ? placed.value.orders[0]!.orderId : '';
    // The second sweep, after the answer, took it.
    expect(report.cancelled).toContain(orderId);
    for (const book of [market, other]) expect(await active(book, false)).toEqual({ orders: [], legs: 0 });
  }, 90_000);
});
