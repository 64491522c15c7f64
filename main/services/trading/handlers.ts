// Request handlers of trading on the trading account (orders, balances, history): each delegates to
// the active network's TradingService (trading-service.ts); inputs were parsed by the dispatcher.
import type { B256 } from '../../../shared/encoding/b256';
import { ok } from '../../../shared/result';
import { withRuntime, type CoreHandlers, type HandlerContext } from '../handler-context';

type TradingRequest = 'placeOrder' | 'cancelOrder' | 'cancelAllOrders' | 'moveOrder' | 'amendOrder' | 'settleBalance' | 'getOrders' | 'getBalances' | 'getOrderHistory' | 'getFills';

export function tradingHandlers(context: HandlerContext): CoreHandlers<TradingRequest> {
  return {
    placeOrder: (input) =>
      withRuntime(context, (current) =>
        current.trading.placeOrder({
          marketId: input.marketId,
          turbo: input.turbo ?? false,
          side: input.side,
          price: input.price,
          quantity: input.quantity,
          orderType: input.orderType,
          reduceOnly: input.reduceOnly,
        }),
      ),
    cancelOrder: ({ marketId, turbo, orderId }) => withRuntime(context, (current) => current.trading.cancelOrder(marketId, turbo ?? false, orderId as B256)),
    cancelAllOrders: ({ marketId }) => withRuntime(context, (current) => current.trading.cancelAll(marketId)),
    moveOrder: ({ marketId, turbo, orderId, price }) => withRuntime(context, (current) => current.trading.moveOrder(marketId, turbo ?? false, orderId as B256, price)),
    amendOrder: ({ marketId, turbo, orderId, price, quantity }) => withRuntime(context, (current) => current.trading.amendOrder(marketId, turbo ?? false, orderId as B256, { price, quantity })),
    settleBalance: ({ marketId, turbo }) => withRuntime(context, (current) => current.trading.settle(marketId, turbo ?? false)),
    getOrders: () => withRuntime(context, (current) => ok(current.trading.snapshot())),
    getBalances: () => withRuntime(context, (current) => ok(current.trading.balancesView())),
    getOrderHistory: ({ marketId, cursor }) => withRuntime(context, (current) => current.trading.orderHistory(marketId, cursor)),
    getFills: ({ marketId, cursor }) => withRuntime(context, (current) => current.trading.fillHistory(marketId, cursor)),
  };
}
