// Reads an amend needs before it signs: the pending trigger legs the exchange lists under one open
// order (GET /v1/orders/active of the account on that book), and the book's last trade price (a
// leg is judged against it: one exactly at it has no side of the market).
import type { ActiveTrigger } from '../../../shared/api/market-schemas';
import type { B256 } from '../../../shared/encoding/b256';
import type { Market } from '../../../shared/market/market';
import { fail, ok, type Result } from '../../../shared/result';
import type { ExchangeRestClient } from '../../exchange/rest-client';
import { pairName } from './order-intents';

/** The legs bound to `orderId`; refused (nothing is signed) when the exchange does not list it open or cannot be read. */
export async function boundLegs(rest: Pick<ExchangeRestClient, 'getActiveOrders'>, market: Market, turbo: boolean, account: B256, orderId: B256): Promise<Result<ActiveTrigger[]>> {
  const page = await rest.getActiveOrders({ market_id: market.market_id, contract: account, ...(turbo ? { turbo: true } : {}) });
  if (!page.ok) {
    return fail('AMEND_LEGS_UNKNOWN', `The trigger legs bound to order ${orderId} on ${pairName(market)}${turbo ? ' (Turbo book)' : ''} could not be read (${page.message}), so the amend could not carry them; nothing was signed.`, { field: 'orderId' });
  }
  const entry = page.value.entries.find((candidate) => candidate.kind === 'order' && candidate.order_id === orderId);
  if (entry === undefined || entry.kind !== 'order') return fail('ORDER_NOT_OPEN', `order ${orderId} is not open on the exchange`, { field: 'orderId' });
  return ok(entry.triggers.filter((leg) => (leg.state ?? 'pending') === 'pending'));
}

export async function lastTradePrice(rest: Pick<ExchangeRestClient, 'getTrades'>, market: Market, turbo: boolean): Promise<bigint | undefined> {
  const trades = await rest.getTrades({ market_id: market.market_id, direction: 'desc', count: 1, ...(turbo ? { turbo: true } : {}) });
  return trades.ok ? trades.value.trades[0]?.price : undefined;
}
