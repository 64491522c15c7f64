// Every fill of one account on one book, read from its orders (GET /v1/orders, all orders, newest
// first, paged) and kept: a closed order never changes, so later reads stop at the first closed
// order already known and read again only the orders that were open. The first read goes to the
// end of the history; until it has, the book's position is not reported.
import type { Order } from '../../../shared/api/market-schemas';
import type { B256 } from '../../../shared/encoding/b256';
import type { AccountingFill } from '../../../shared/positions/accounting';
import { fail, ok, type Result } from '../../../shared/result';
import type { ExchangeRestClient } from '../../exchange/rest-client';

const PAGE = 200;
/** A book with more orders than this is refused rather than shown with a partial history. */
const MAX_PAGES = 100;

export type HistoryRest = Pick<ExchangeRestClient, 'getOrders' | 'getOrder'>;

function isClosed(order: Order): boolean {
  return order.close === true || order.cancel === true;
}

export interface OrderedFill extends AccountingFill {
  readonly timestamp: bigint;
  readonly orderTimestamp: bigint;
  readonly orderId: string;
  readonly index: number;
}

export class FillHistory {
  private readonly closed = new Map<string, Order>();
  private open = new Map<string, Order>();
  private complete = false;

  constructor(
    private readonly rest: HistoryRest,
    readonly account: B256,
    readonly marketId: B256,
    readonly turbo: boolean,
  ) {}

  /** Read what changed since the last read. */
  async refresh(): Promise<Result<void>> {
    const seenOpen = new Map<string, Order>();
    let cursor: { start_timestamp: bigint; start_order_id: B256 } | null = null;
    let reachedKnown = false;
    for (let page = 0; ; page++) {
      if (page >= MAX_PAGES) return fail('HISTORY_TOO_LONG', `more than ${MAX_PAGES * PAGE} orders on this book: the position is not computed from a partial history`);
      const answer = await this.rest.getOrders({
        market_id: this.marketId,
        contract: this.account,
        is_open: false,
        direction: 'desc',
        count: PAGE,
        ...(cursor ?? {}),
        ...(this.turbo ? { turbo: true } : {}),
      });
      if (!answer.ok) return answer;
      const orders = answer.value.orders;
      let fresh = 0;
      for (const order of orders) {
        if (cursor !== null && order.order_id === cursor.start_order_id) continue;
        fresh++;
        if (isClosed(order)) {
          if (this.complete && this.closed.has(order.order_id) && !this.open.has(order.order_id)) reachedKnown = true;
          this.closed.set(order.order_id, order);
        } else {
          seenOpen.set(order.order_id, order);
        }
      }
      const last = orders.at(-1);
      if (reachedKnown || orders.length < PAGE || fresh === 0 || last?.timestamp === undefined) break;
      cursor = { start_timestamp: last.timestamp, start_order_id: last.order_id };
    }
    // Orders open at the last read that this read did not reach: read each once.
    for (const orderId of this.open.keys()) {
      if (seenOpen.has(orderId) || this.closed.has(orderId)) continue;
      const one = await this.rest.getOrder({ market_id: this.marketId, order_id: orderId as B256, ...(this.turbo ? { turbo: true } : {}) });
      if (!one.ok) return one;
      if (isClosed(one.value.order)) this.closed.set(orderId, one.value.order);
      else seenOpen.set(orderId, one.value.order);
    }
    for (const orderId of seenOpen.keys()) this.closed.delete(orderId);
    this.open = seenOpen;
    this.complete = true;
    return ok(undefined);
  }

  get ready(): boolean {
    return this.complete;
  }

  /** Every fill, oldest first (fill time, then the order's time and id, then its place in the order). */
  fills(): OrderedFill[] {
    const fills: OrderedFill[] = [];
    for (const order of [...this.closed.values(), ...this.open.values()]) {
      for (const [index, fill] of (order.fills ?? []).entries()) {
        fills.push({
          side: order.side,
          price: fill.price,
          quantity: fill.quantity,
          fee: fill.fee,
          timestamp: fill.timestamp,
          orderTimestamp: order.timestamp ?? 0n,
          orderId: order.order_id,
          index,
        });
      }
    }
    return fills.sort(
      (left, right) =>
        compare(left.timestamp, right.timestamp) || compare(left.orderTimestamp, right.orderTimestamp) || left.orderId.localeCompare(right.orderId) || left.index - right.index,
    );
  }
}

function compare(left: bigint, right: bigint): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
