// Pagination of trades and orders as async iterators (spec 4.1): the next page starts at the last
// item of the previous one (`start_timestamp` with `start_trade_id` / `start_order_id`). Whether the
// service repeats the cursor item on the next page is not shown, so items already seen on the
// previous page are dropped. Iteration ends on a short page, a page with nothing new, a failure
// (yielded, then the iterator stops) or `maxPages`.
import type { Order, Trade } from '../../shared/api/market-schemas';
import { fail, ok, type Result } from '../../shared/result';
import { EXCHANGE_ERRORS } from './errors';
import { MAX_ORDERS_PAGE, MAX_TRADES_PAGE, type OrdersQuery, type TradesQuery } from './queries';
import type { ExchangeRestClient } from './rest-client';

export const DEFAULT_MAX_PAGES = 1_000;

export interface PageOptions {
  /** Stop after this many pages (a bound, so a misbehaving server cannot loop us forever). */
  readonly maxPages?: number;
}

interface PageSource<Item, Cursor> {
  readonly pageSize: number;
  fetch(cursor: Cursor | undefined): Promise<Result<readonly Item[]>>;
  idOf(item: Item): string;
  cursorOf(item: Item, index: number): Result<Cursor>;
}

async function* paginate<Item, Cursor>(source: PageSource<Item, Cursor>, options: PageOptions): AsyncGenerator<Result<Item[]>, void, undefined> {
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  let cursor: Cursor | undefined;
  let previous = new Set<string>();
  for (let page = 0; page < maxPages; page++) {
    const fetched = await source.fetch(cursor);
    if (!fetched.ok) {
      yield fetched;
      return;
    }
    const items = fetched.value;
    const fresh = items.filter((item) => !previous.has(source.idOf(item)));
    if (fresh.length > 0) yield ok(fresh);
    if (items.length < source.pageSize || fresh.length === 0) return;
    const last = items.length - 1;
    const next = source.cursorOf(items[last] as Item, last);
    if (!next.ok) {
      yield next;
      return;
    }
    cursor = next.value;
    previous = new Set(items.map((item) => source.idOf(item)));
  }
}

/** Pages of GET /v1/trades. `count` defaults to the page cap (50) so a short page means the end. */
export function tradePages(client: ExchangeRestClient, query: Omit<TradesQuery, 'start_timestamp' | 'start_trade_id'>, options: PageOptions = {}) {
  const count = query.count ?? MAX_TRADES_PAGE;
  return paginate<Trade, { start_timestamp: bigint; start_trade_id: string }>(
    {
      pageSize: count,
      fetch: async (cursor) => {
        const page = await client.getTrades({ ...query, count, ...cursor });
        return page.ok ? ok(page.value.trades) : page;
      },
      idOf: (trade) => trade.trade_id,
      cursorOf: (trade) => ok({ start_timestamp: trade.timestamp, start_trade_id: trade.trade_id }),
    },
    options,
  );
}

/** Pages of GET /v1/orders; both cursor fields are always sent together. */
export function orderPages(client: ExchangeRestClient, query: Omit<OrdersQuery, 'start_timestamp' | 'start_order_id'>, options: PageOptions = {}) {
  const count = query.count ?? MAX_ORDERS_PAGE;
  return paginate<Order, { start_timestamp: bigint; start_order_id: Order['order_id'] }>(
    {
      pageSize: count,
      fetch: async (cursor) => {
        const page = await client.getOrders({ ...query, count, ...cursor });
        return page.ok ? ok(page.value.orders) : page;
      },
      idOf: (order) => order.order_id,
      cursorOf: (order, index) =>
        order.timestamp === undefined
          ? fail(EXCHANGE_ERRORS.BAD_RESPONSE, `GET /v1/orders: orders[${index}].timestamp is missing, so the next page cannot be requested`, { field: `orders[${index}].timestamp` })
          : ok({ start_timestamp: order.timestamp, start_order_id: order.order_id }),
    },
    options,
  );
}
