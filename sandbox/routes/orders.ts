// Orders and an account's trades: /v1/orders, /v1/order, /v1/orders/book, /v1/orders/active,
// /v1/trades_by_account, /v1/trade_by_account, /v1/fee_for_trade.
import type { SandboxApp } from '../app-types';
import { ErrorCode, refusal, Refusal, show } from '../http/errors';
import { boolean, requiredB256 } from '../http/query';
import { json, refuse } from '../http/reply';
import { accountSelector, marketById, pageParams, paginate } from '../http/selectors';
import type { MarketState } from '../ledger/market';
import type { OrderRecord } from '../ledger/orders';
import { tradeId } from '../ledger/trades';
import { accountTradeView, marketOrderView } from '../views/orders';
import { triggerView } from '../views/triggers';

export const MAX_ORDERS_PAGE = 200;
const MAX_TRADES_PAGE = 50;

function ordersOf(market: MarketState, account: string): OrderRecord[] {
  return [...(market.ordersByAccount.get(account) ?? [])];
}

export function registerOrderRoutes(app: SandboxApp): void {
  const { router } = app;

  router.on('GET', '/v1/orders', (request) => {
    const { query } = request;
    const market = marketById(app, query);
    if (market instanceof Refusal) return refuse(market);
    const account = accountSelector(app, query);
    if (account instanceof Refusal) return refuse(account);
    const isOpen = boolean(query, 'is_open', false);
    if (isOpen instanceof Refusal) return refuse(isOpen);
    const page = pageParams(query, MAX_ORDERS_PAGE, 'start_order_id', true);
    if (page instanceof Refusal) return refuse(page);
    const candidates = ordersOf(market, account as string).filter((order) => !isOpen || !order.close);
    const orders = paginate(candidates, page, (order) => order.timestamp, (order) => order.id);
    return json({ identity: { ContractId: account }, market_id: market.config.market_id, orders: orders.map((order) => marketOrderView(market, order)) });
  });

  router.on('GET', '/v1/order', (request) => {
    const market = marketById(app, request.query);
    if (market instanceof Refusal) return refuse(market);
    const id = requiredB256(request.query, 'order_id');
    if (id instanceof Refusal) return refuse(id);
    const order = market.orders.get(id);
    if (order === undefined) return refuse(refusal(ErrorCode.ORDER_NOT_FOUND, `order_id: no order ${show(id)} on market ${market.config.market_id}`, 404));
    return json({ order: marketOrderView(market, order) });
  });

  // Open orders on the book: of one account when selected, else every resting order (capped).
  router.on('GET', '/v1/orders/book', (request) => {
    const market = marketById(app, request.query);
    if (market instanceof Refusal) return refuse(market);
    const account = accountSelector(app, request.query, false);
    if (account instanceof Refusal) return refuse(account);
    const open = account === undefined ? [...market.orders.values()].filter((order) => !order.close) : ordersOf(market, account).filter((order) => !order.close);
    return json({ market_id: market.config.market_id, orders: open.slice(0, MAX_ORDERS_PAGE).map((order) => marketOrderView(market, order)) });
  });

  // Active entries (wire notes): open orders with the pending legs bound to them, then pending
  // legs bound to no open order (standalone, or protecting a parent that has filled).
  router.on('GET', '/v1/orders/active', (request) => {
    const market = marketById(app, request.query);
    if (market instanceof Refusal) return refuse(market);
    const account = accountSelector(app, request.query);
    if (account instanceof Refusal) return refuse(account);
    const open = ordersOf(market, account as string).filter((order) => !order.close).slice(0, MAX_ORDERS_PAGE);
    const openIds = new Set<string>(open.map((order) => order.id));
    const legs = market.triggers.pendingOf(account as string);
    return json({
      market_id: market.config.market_id,
      entries: [
        ...open.map((order) => ({
          kind: 'order',
          order_id: order.id,
          triggers: legs.filter((record) => record.parentId === order.id).map((record) => triggerView(market, record)),
          order: marketOrderView(market, order),
        })),
        ...legs.filter((record) => record.parentId === undefined || !openIds.has(record.parentId)).map((record) => ({ kind: 'trigger', ...triggerView(market, record) })),
      ],
    });
  });

  router.on('GET', '/v1/trades_by_account', (request) => {
    const market = marketById(app, request.query);
    if (market instanceof Refusal) return refuse(market);
    const account = accountSelector(app, request.query);
    if (account instanceof Refusal) return refuse(account);
    const page = pageParams(request.query, MAX_TRADES_PAGE, 'start_trade_id', false);
    if (page instanceof Refusal) return refuse(page);
    const log = market.tradesByAccount.get(account as string)?.all() ?? [];
    const trades = paginate(log, page, (trade) => trade.timestamp, (trade) => tradeId(trade));
    return json({ market_id: market.config.market_id, trades: trades.map((trade) => accountTradeView(trade, account as string)) });
  });

  const oneTrade = (request: Parameters<Parameters<typeof router.on>[2]>[0]) => {
    const market = marketById(app, request.query);
    if (market instanceof Refusal) return market;
    const account = accountSelector(app, request.query);
    if (account instanceof Refusal) return account;
    const id = requiredB256(request.query, 'trade_id');
    if (id instanceof Refusal) return id;
    const trade = market.tradesByAccount.get(account as string)?.all().find((entry) => tradeId(entry) === id);
    if (trade === undefined) return refusal(ErrorCode.NOT_FOUND, `trade_id: no trade ${show(id)} of that account on market ${market.config.market_id}`, 404);
    return { market, account: account as string, trade };
  };

  router.on('GET', '/v1/trade_by_account', (request) => {
    const found = oneTrade(request);
    if (found instanceof Refusal) return refuse(found);
    return json({ market_id: found.market.config.market_id, trade: accountTradeView(found.trade, found.account) });
  });

  router.on('GET', '/v1/fee_for_trade', (request) => {
    const found = oneTrade(request);
    if (found instanceof Refusal) return refuse(found);
    const view = accountTradeView(found.trade, found.account);
    const config = found.market.config;
    return json({
      market_id: config.market_id,
      trade_id: tradeId(found.trade),
      role: view.role,
      fee: view.fee,
      asset_id: view.account_side === 'Buy' ? config.base.asset : config.quote.asset,
      fee_ppm: (view.role === 'maker' ? config.maker_fee : config.taker_fee).toString(),
    });
  });
}
