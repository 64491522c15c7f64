// An order's state comes from two places: the stream pushes each change, REST reads rebuild the
// open orders (start, reconnect, after each request). A read answered after the stream reported a
// fill (or a cancel) must not put the order back as it was: a ladder-click order the maker's take
// had filled would stay in Open orders, "0.0000 filled", past a page reload, until the trader's
// next request.
import { describe, expect, it } from 'vitest';
import { cancelledView, fillViews, olderOrderView, orderView, TradingService, type TradingServiceDeps } from '../../../../../main/services/trading/trading-service';
import { isFrozenRecord } from '../../../../../shared/frozen-record';
import type { Order } from '../../../../../shared/api/market-schemas';
import { fail, ok } from '../../../../../shared/result';
import { ChildOrders } from '../../../../../main/services/margin/child-orders';

const ACCOUNT = `0x${'22'.repeat(32)}`;
const MARKET = `0x${'a1'.repeat(32)}`;
const ORDER = `0x${'0d'.repeat(32)}`;

const order = (state: { filled?: bigint; close?: boolean; cancel?: boolean }): Order =>
  ({
    order_id: ORDER,
    side: 'Sell',
    order_type: { kind: 'PostOnly' },
    price: 3_003_100_000_000n,
    quantity: 1_100_000n,
    quantity_fill: state.filled ?? 0n,
    ...(state.close === undefined ? {} : { close: state.close }),
    ...(state.cancel === undefined ? {} : { cancel: state.cancel }),
    timestamp: 1_700_000_000n,
    fills: state.filled ? [{ order_id: `0x${'0e'.repeat(32)}`, quantity: state.filled, price: 3_003_100_000_000n, timestamp: 1_700_000_001n, fee: 0n }] : [],
  }) as unknown as Order;

function service(page: () => Order[], one: () => unknown = () => fail('TIMEOUT', 'no answer')) {
  const deps = {
    rest: {
      getOrders: async () => ok({ orders: page() }),
      getOrder: async () => one(),
      getBalance: async () => fail('TIMEOUT', 'not read here'),
    },
    markets: () => ({ markets: () => [{ market_id: MARKET }], turboMarkets: () => [], assets: () => [], market: () => fail('NOT_HERE', '') }),
    accounts: { accountRecord: () => ({ tradeAccountId: ACCOUNT }), setFunded: () => undefined },
    publishBalances: () => undefined,
    publishOrders: () => undefined,
    publishFill: () => undefined,
    log: () => undefined,
  } as unknown as TradingServiceDeps;
  return new TradingService(deps);
}

describe('trading account orders: stream and REST reads', () => {
  it('an order the stream reported filled stays filled when a read begun before the fill answers afterwards', async () => {
    let page: Order[] = [];
    const trading = service(() => page);
    trading.applyOrder(order({}), MARKET, false); // the placement's answer: open
    page = [order({})]; // the read of the open orders is answered by the exchange: still open…
    trading.applyOrder(order({ filled: 1_100_000n, close: true }), MARKET, false); // …the fill reaches the stream first
    await trading.refresh();
    expect(trading.snapshot().open).toEqual([]);
    expect(trading.snapshot().fills).toHaveLength(1);
  });

  it('a cancelled order does not reopen, a partial fill does not shrink; a newer state still applies', () => {
    const open = orderView(order({}), MARKET, false);
    const partial = orderView(order({ filled: 500_000n }), MARKET, false);
    const filled = orderView(order({ filled: 1_100_000n, close: true }), MARKET, false);
    const cancelled = orderView(order({ cancel: true }), MARKET, false);
    expect(olderOrderView(open, cancelled)).toBe(true);
    expect(olderOrderView(open, partial)).toBe(true);
    expect(olderOrderView(partial, filled)).toBe(true);
    expect(olderOrderView(partial, open)).toBe(false);
    expect(olderOrderView(filled, partial)).toBe(false);
    expect(olderOrderView(cancelled, open)).toBe(false);
    expect(olderOrderView(partial, partial)).toBe(false);
  });

  it('every order and fill view in the snapshot is a frozen record: each push reuses its text and the hub keeps it uncopied', () => {
    const trading = service(() => []);
    trading.applyOrder(order({ filled: 500_000n }), MARKET, false);
    const { open, fills } = trading.snapshot();
    expect(open).toHaveLength(1);
    expect(fills).toHaveLength(1);
    for (const view of [...open, ...fills]) expect(isFrozenRecord(view)).toBe(true);
    const view = orderView(order({}), MARKET, false);
    expect(isFrozenRecord(cancelledView(view))).toBe(true);
    expect(cancelledView(view).status).toBe('cancelled');
    expect(view.status).toBe('open');
    expect(fillViews(order({ filled: 1n }), view).every(isFrozenRecord)).toBe(true);
  });

  it('an order no read lists is not taken for cancelled on a read that got no answer, only when the exchange says so', async () => {
    let answer: unknown = fail('TIMEOUT', 'no answer');
    const trading = service(() => [], () => answer);
    trading.applyOrder(order({}), MARKET, false);
    await trading.refresh();
    expect(trading.snapshot().open.map((view) => view.orderId)).toEqual([ORDER]);
    answer = fail('REQUEST_REFUSED', 'code 2002: no such order');
    await trading.refresh();
    expect(trading.snapshot().open).toEqual([]);
  });

  it('a Turbo Account\'s order (the margin service follows it) does not reopen either', () => {
    const child = new ChildOrders({ account: ACCOUNT, turboMarket: () => undefined, collateralAssetId: () => null });
    child.apply(order({}), MARKET);
    child.apply(order({ filled: 1_100_000n, close: true }), MARKET);
    child.apply(order({}), MARKET, false); // a REST read of the open orders, answered late
    expect(child.open()).toEqual([]);
  });
});
