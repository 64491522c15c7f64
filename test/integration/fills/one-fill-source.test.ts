// Main's one fill source against the sandbox: positions computed from it equal what the
// exchange's own trades of the account give (GET /v1/trades_by_account, by the oracle's model);
// a fill made while the orders stream is down is in the store after the reconnect, and the store
// then equals the exchange's trades; fills reach positions without any read of an order history
// (every request main sends is counted through its HTTP client); with a position and a guard that
// reads it, an order on a book main keeps live takes its mark from that book, not a depth read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchJson, type HttpRequest } from '../../../main/exchange/http';
import type { Market } from '../../../shared/market/market';
import { caller, startOnboarded, until, value, type Harness } from '../../support/terminal-harness';
import { ledgerPosition, type LedgerFill } from '../../support/trader-session/ledger';
import type { WireAccountTrade } from '../../support/trader-session/truth';

describe.sequential('one fill source', () => {
  let harness: Harness;
  let market: Market;
  let tradeAccountId: string;
  const requests: string[] = [];

  const countingFetch = (request: HttpRequest) => {
    requests.push(`${request.method} ${new URL(request.url).pathname}${new URL(request.url).search}`);
    return fetchJson(request);
  };

  /** Every trade of the account on the book, oldest first, as the exchange lists them. */
  const exchangeTrades = async (): Promise<WireAccountTrade[]> => {
    const out: WireAccountTrade[] = [];
    let cursor = '';
    for (;;) {
      const body = (await (await fetch(`${harness.base()}/v1/trades_by_account?market_id=${market.market_id}&contract=${tradeAccountId}&direction=desc&count=50${cursor}`)).json()) as { trades: WireAccountTrade[] };
      const fresh = body.trades.filter((trade) => !cursor.endsWith(`=${trade.trade_id}`));
      out.push(...fresh);
      const last = body.trades.at(-1);
      if (body.trades.length < 50 || fresh.length === 0 || last === undefined) break;
      cursor = `&start_timestamp=${last.timestamp}&start_trade_id=${last.trade_id}`;
    }
    return out.reverse();
  };

  const exchangePosition = async () => {
    const placed = new Map<string, number>();
    const fills: LedgerFill[] = (await exchangeTrades()).map((trade) => {
      const order = trade.order_id.toLowerCase();
      const index = placed.get(order) ?? 0;
      placed.set(order, index + 1);
      return { side: trade.account_side as 'Buy' | 'Sell', price: BigInt(trade.price), quantity: BigInt(trade.quantity), fee: BigInt(trade.fee), timestamp: BigInt(trade.timestamp), orderId: order, index };
    });
    return ledgerPosition(fills, market.base.decimals);
  };

  const appPosition = async () => {
    const view = value(await harness.terminal.handlers.getPositions({}, caller));
    expect(view.problems).toEqual([]);
    return view.positions.find((row) => row.marketId === market.market_id && !row.turbo);
  };

  const store = () => harness.terminal.runtime()!.fills;

  beforeAll(async () => {
    ({ harness, tradeAccountId, market } = await startOnboarded({ fetch: countingFetch }));
    expect(await harness.control('/control/maker', { pinned: true })).toEqual({ pinned: true });
  }, 120_000);

  afterAll(async () => {
    await harness?.stop();
  });

  it('positions after fills equal what the exchange trades of the account give', async () => {
    const h = harness.terminal.handlers;
    const tick = harness.priceTick(market);
    for (let round = 0; round < 2; round++) {
      const inside = await harness.insidePrices(market);
      value(await h.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Spot' }, price: ((inside.ask * 102n) / 100n / tick) * tick, quantity: harness.sizeFor(market, inside.ask) * 2n }, caller));
    }
    const inside = await harness.insidePrices(market);
    value(await h.placeOrder({ marketId: market.market_id, side: 'Sell', orderType: { kind: 'Spot' }, price: ((inside.bid * 98n) / 100n / tick) * tick, quantity: harness.sizeFor(market, inside.bid) }, caller));
    value(await h.cancelAllOrders({}, caller));
    const want = await exchangePosition();
    const row = await until(async () => {
      const found = await appPosition();
      return found && found.fills === want.fills ? found : null;
    }, 20_000, 'every fill in positions');
    expect({ size: row.size, basis: row.basis, realized: row.realized, feesBase: row.feesBase, feesQuote: row.feesQuote }).toEqual({ size: want.size, basis: want.basis, realized: want.realized, feesBase: want.feesBase, feesQuote: want.feesQuote });
  });

  it('a fill on the orders stream reaches positions with no read of order history or trades', async () => {
    const h = harness.terminal.handlers;
    const before = (await appPosition())!;
    const order = await harness.restingBuy(market);
    const placed = value(await h.placeOrder(order, caller));
    const orderId = placed.orders[0]!.orderId;
    const from = requests.length;
    const readsFrom = store().tradeReads;
    await harness.control('/control/markets/price', { market_id: market.market_id, price: (order.price - harness.priceTick(market) * 10n).toString() });
    const after = await until(async () => {
      const row = await appPosition();
      return row && row.fills > before.fills ? row : null;
    }, 20_000, 'the stream fill in positions');
    expect(store().held(tradeAccountId, market.market_id, false)!.some((fill) => fill.orderId === orderId.toLowerCase())).toBe(true);
    const during = requests.slice(from);
    // The read of open orders after a request (is_open=true) may fall here; no history is read.
    expect(during.filter((line) => line.startsWith('GET /v1/orders?') && !line.includes('is_open=true'))).toEqual([]);
    expect(during.filter((line) => line.startsWith('GET /v1/trades_by_account'))).toEqual([]);
    expect(store().tradeReads).toBe(readsFrom);
    const want = await exchangePosition();
    expect({ size: after.size, realized: after.realized, fills: after.fills }).toEqual({ size: want.size, realized: want.realized, fills: want.fills });
  });

  it('after the orders stream drops and a fill is made meanwhile, the store equals the exchange trades of the account', async () => {
    const h = harness.terminal.handlers;
    const order = await harness.restingBuy(market);
    const placed = value(await h.placeOrder(order, caller));
    const orderId = placed.orders[0]!.orderId.toLowerCase();
    const readsFrom = store().tradeReads;
    await harness.control('/control/ws/close-all', {});
    await harness.control('/control/markets/price', { market_id: market.market_id, price: (order.price - harness.priceTick(market) * 10n).toString() });
    // The reconnect resyncs: the book's trades are read again (from the newest back to known ones).
    await until(() => store().tradeReads > readsFrom, 30_000, 'a read of the trades after the reconnect');
    const held = await until(async () => {
      const fills = await store().fills(tradeAccountId, market.market_id, false);
      return fills.ok && fills.value.some((fill) => fill.orderId === orderId) ? fills.value : null;
    }, 30_000, 'the fill made while down');
    const trades = await exchangeTrades();
    const key = (orderId: string, timestamp: bigint | string, price: bigint | string, quantity: bigint | string, fee: bigint | string) => `${orderId.toLowerCase()} ${timestamp} ${price} ${quantity} ${fee}`;
    expect(new Set(held.map((fill) => key(fill.orderId, fill.timestamp, fill.price, fill.quantity, fill.fee)))).toEqual(new Set(trades.map((trade) => key(trade.order_id, trade.timestamp, trade.price, trade.quantity, trade.fee))));
    expect(held).toHaveLength(trades.length);
    // Everything held is confirmed by the read, named by its trade id.
    expect(held.filter((fill) => fill.tradeId === null)).toEqual([]);
    const want = await exchangePosition();
    const row = (await appPosition())!;
    expect({ size: row.size, realized: row.realized, fills: row.fills }).toEqual({ size: want.size, realized: want.realized, fills: want.fills });
  });

  it('a guarded order on a book main keeps live reads no depth for the mark of the position', async () => {
    const h = harness.terminal.handlers;
    value(await h.subscribeBook({ marketId: market.market_id, precision: harness.priceTick(market), levels: 20 }, caller));
    const position = (await appPosition())!;
    expect(position.size).not.toBe(0n);
    value(await h.updateSettings({ maxPosition: { [market.market_id]: position.size * 10n }, dailyLossLimit: { [market.quote.asset]: 10n ** BigInt(market.quote.decimals) * 1_000_000n } }, caller));
    const order = await harness.restingBuy(market);
    const from = requests.length;
    const placed = value(await h.placeOrder(order, caller));
    const during = requests.slice(from);
    value(await h.cancelOrder({ marketId: market.market_id, orderId: placed.orders[0]!.orderId }, caller));
    expect(during.filter((line) => line.startsWith('GET /v1/depth'))).toEqual([]);
    expect(during.filter((line) => line.startsWith('POST /v1/session/actions'))).toHaveLength(1);
  });
});
