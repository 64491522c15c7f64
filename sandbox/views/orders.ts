// Order and trade bodies (spec 2.4, 2.5): money as decimal strings, timestamps in ns strings,
// order types in their wire JSON (shared/protocol), the owner as {ContractId: account}.
import { orderTypeToJson } from '../../shared/protocol/order-args';
import type { MarketState } from '../ledger/market';
import { filledQuantity, filledQuote, isCancelled, orderFills, orderHistory, type OrderRecord } from '../ledger/orders';
import { tradeId, tradeMakerFee, tradeTakerFee, tradeTotal, type Trade } from '../ledger/trades';

export function orderView(order: OrderRecord, baseScale: bigint): Record<string, unknown> {
  const quantityFill = filledQuantity(order);
  return {
    order_id: order.id,
    owner: { ContractId: order.account },
    side: order.side,
    order_type: orderTypeToJson(order.orderType),
    market_id: order.marketId,
    quantity: order.quantity.toString(),
    quantity_fill: quantityFill.toString(),
    price: order.price.toString(),
    price_fill: quantityFill === 0n ? '0' : ((filledQuote(order) * baseScale) / quantityFill).toString(),
    timestamp: order.timestamp.toString(),
    close: order.close,
    partially_filled: quantityFill > 0n && quantityFill < order.quantity,
    cancel: isCancelled(order),
    history: orderHistory(order).map((entry) => ({ ...entry })),
    fills: orderFills(order).map((fill) => ({
      order_id: fill.order_id,
      quantity: fill.quantity.toString(),
      price: fill.price.toString(),
      timestamp: fill.timestamp.toString(),
      fee: fill.fee.toString(),
    })),
    ...(order.turbo === true ? { turbo: true } : {}),
  };
}

export function marketOrderView(market: MarketState, order: OrderRecord): Record<string, unknown> {
  return orderView(order, 10n ** BigInt(market.config.base.decimals));
}

export function tradeView(trade: Trade): Record<string, unknown> {
  return {
    trade_id: tradeId(trade),
    side: trade.side,
    price: trade.price.toString(),
    quantity: trade.quantity.toString(),
    total: tradeTotal(trade).toString(),
    timestamp: trade.timestamp.toString(),
    ...(trade.sharedSourceOrderId === undefined ? {} : { shared: { funding_source: { order_id: trade.sharedSourceOrderId } } }),
    ...(trade.turbo === true ? { turbo: true } : {}),
  };
}

/** A trade as one account saw it (trades_by_account): its role, its side and its fee. */
export function accountTradeView(trade: Trade, account: string): Record<string, unknown> {
  const maker = trade.makerAccount === account;
  const role = maker ? 'maker' : 'taker';
  const takerSide = trade.side;
  const side = maker ? (takerSide === 'Buy' ? 'Sell' : 'Buy') : takerSide;
  return {
    ...tradeView(trade),
    market_id: trade.marketId,
    role,
    account_side: side,
    order_id: maker ? trade.makerOrderId : trade.takerOrderId,
    fee: (maker ? tradeMakerFee(trade) : tradeTakerFee(trade)).toString(),
    fee_asset_side: side === 'Buy' ? 'base' : 'quote',
    tx_id: trade.txId,
  };
}
