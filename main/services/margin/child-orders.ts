// The orders of one Turbo Account on Turbo books, followed like the trading account's own: from
// its `subscribe_orders` stream (turbo: true) and REST reads after a (re)connect. Also the
// resting-order sums the risk formulas take per base asset (docs/protocol.md (Margin) 5), kept
// until the orders change so a recompute does not rebuild them.
import type { Order } from '../../../shared/api/market-schemas';
import type { FillView, OrderView } from '../../../shared/ipc/views';
import type { RestingOrders } from '../../../shared/margin/index';
import { powerOfTen, type Market } from '../../../shared/market/market';
import { cancelledView, fillViews, olderOrderView, orderView } from '../trading/trading-service';

/** Closed orders kept for "already filled" answers and fill history; open ones are always kept. */
const MAX_CLOSED = 500;
const MAX_FILLS = 200;

interface Tracked {
  view: OrderView;
  fillsSeen: number;
}

export interface ChildOrdersDeps {
  /** The Turbo Account whose orders these are. */
  readonly account: string;
  /** The Turbo row of a market, when it has one. */
  readonly turboMarket: (marketId: string) => Market | undefined;
  /** The pool's collateral asset: only books quoted in it enter the resting sums. */
  readonly collateralAssetId: () => string | null;
  readonly onFill?: (fill: FillView, market: Market) => void;
}

export function isOpenView(view: OrderView): boolean {
  return view.status === 'open' || view.status === 'partially-filled';
}

export class ChildOrders {
  private readonly orders = new Map<string, Tracked>();
  private recentFills: FillView[] = [];
  private resting: Record<string, RestingOrders> | null = null;
  private closedCount = 0;

  constructor(private readonly deps: ChildOrdersDeps) {}

  /** An order as the stream or a REST read reports it. `announce`: new fills are notified. */
  apply(order: Order, marketId: string, announce = true): void {
    // A Turbo Account trades on Turbo books.
    const view = orderView(order, marketId, true, this.deps.account);
    const fills = order.fills ?? [];
    let tracked = this.orders.get(view.orderId);
    if (tracked === undefined) {
      tracked = { view, fillsSeen: announce ? 0 : fills.length };
      this.orders.set(view.orderId, tracked);
    } else {
      // A view older than the one held (a REST read answered after the stream's fill or cancel)
      // is ignored: an order never reopens and its filled quantity never shrinks.
      if (olderOrderView(view, tracked.view)) return;
      if (isOpenView(tracked.view) && !isOpenView(view)) this.closedCount++;
      tracked.view = view;
    }
    if (fills.length > tracked.fillsSeen) {
      const market = this.deps.turboMarket(view.marketId);
      for (const fillView of fillViews(order, view).slice(tracked.fillsSeen)) {
        this.recentFills = [fillView, ...this.recentFills].slice(0, MAX_FILLS);
        if (announce && market !== undefined) this.deps.onFill?.(fillView, market);
      }
      tracked.fillsSeen = fills.length;
    }
    this.resting = null;
    if (this.closedCount > MAX_CLOSED) this.dropClosed();
  }

  /** Mark an order closed without a read (a cancel the exchange accepted). */
  markCancelled(orderId: string): void {
    const tracked = this.orders.get(orderId);
    if (tracked === undefined || !isOpenView(tracked.view)) return;
    tracked.view = cancelledView(tracked.view);
    this.closedCount++;
    this.resting = null;
  }

  owns(orderId: string): boolean {
    return this.orders.has(orderId);
  }

  get(orderId: string): OrderView | undefined {
    return this.orders.get(orderId)?.view;
  }

  open(): OrderView[] {
    const open: OrderView[] = [];
    for (const tracked of this.orders.values()) if (isOpenView(tracked.view)) open.push(tracked.view);
    return open;
  }

  fills(): readonly FillView[] {
    return this.recentFills;
  }

  /** Orders held as open that a fresh read no longer lists (ids), to be read one by one. */
  missingFrom(openIds: ReadonlySet<string>): string[] {
    return [...this.orders.values()].filter((tracked) => isOpenView(tracked.view) && !openIds.has(tracked.view.orderId)).map((tracked) => tracked.view.orderId);
  }

  /** Per base asset: resting sell quantity and proceeds, resting buy quantity and locked quote. */
  restingOrders(): Readonly<Record<string, RestingOrders>> {
    if (this.resting !== null) return this.resting;
    const collateral = this.deps.collateralAssetId();
    const resting: Record<string, { sellQuantity: bigint; sellQuote: bigint; buyQuantity: bigint; buyQuote: bigint }> = {};
    for (const tracked of this.orders.values()) {
      const view = tracked.view;
      if (!isOpenView(view)) continue;
      const market = this.deps.turboMarket(view.marketId);
      if (market === undefined || market.quote.asset !== collateral) continue;
      const remaining = view.quantity - view.filled;
      if (remaining <= 0n) continue;
      const quote = (view.price * remaining) / powerOfTen(market.base.decimals);
      const entry = (resting[market.base.asset] ??= { sellQuantity: 0n, sellQuote: 0n, buyQuantity: 0n, buyQuote: 0n });
      if (view.side === 'Sell') {
        entry.sellQuantity += remaining;
        entry.sellQuote += quote;
      } else {
        entry.buyQuantity += remaining;
        entry.buyQuote += quote;
      }
    }
    this.resting = resting;
    return resting;
  }

  private dropClosed(): void {
    for (const [orderId, tracked] of this.orders) {
      if (this.closedCount <= MAX_CLOSED / 2) break;
      if (!isOpenView(tracked.view)) {
        this.orders.delete(orderId);
        this.closedCount--;
      }
    }
  }
}
