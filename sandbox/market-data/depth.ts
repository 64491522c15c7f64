// Depth views of a book. Grouping rule (docs/sandbox.md): `precision` is a power of ten in raw
// quote units; a bid level is floored to a multiple of it and an ask level ceiled, so a
// grouped bid never shows better than a real bid nor an ask better than a real ask, and
// grouped levels never cross. Quantities of levels that group together are summed.
import type { Side } from '../../shared/market/order-type';
import { OrderBook } from '../engine/book';
import type { MarketState } from '../ledger/market';
import type { OrderRecord } from '../ledger/orders';
import { isShared, type TurboLink } from '../turbo/link';

export interface DepthLevel {
  readonly price: bigint;
  readonly quantity: bigint;
}

export interface DepthView {
  readonly buys: DepthLevel[];
  readonly sells: DepthLevel[];
}

export function groupPrice(side: Side, price: bigint, precision: bigint): bigint {
  if (precision <= 1n) return price;
  const floor = (price / precision) * precision;
  return side === 'Buy' || floor === price ? floor : floor + precision;
}

function sideLevels(market: MarketState, side: Side, precision: bigint, depth: number, only?: (order: OrderRecord) => boolean): DepthLevel[] {
  const levels: DepthLevel[] = [];
  for (const level of market.book.levels(side)) {
    let total = level.total;
    if (only !== undefined) {
      total = 0n;
      for (const order of OrderBook.liveOrders(level)) if (only(order)) total += order.remaining;
      if (total === 0n) continue;
    }
    const price = groupPrice(side, level.price, precision);
    const last = levels[levels.length - 1];
    if (last !== undefined && last.price === price) levels[levels.length - 1] = { price, quantity: last.quantity + total };
    else {
      if (levels.length === depth) break;
      levels.push({ price, quantity: total });
    }
  }
  return levels;
}

/** Level 2: aggregated levels, best first, at most `depth` per side (of `only` orders when given). */
export function depthView(market: MarketState, precision: bigint, depth: number, only?: (order: OrderRecord) => boolean): DepthView {
  return { buys: sideLevels(market, 'Buy', precision, depth, only), sells: sideLevels(market, 'Sell', precision, depth, only) };
}

/** The two Turbo depth views (docs/sandbox.md): what a Turbo taker can hit, and what Turbo traders rest. */
export type TurboView = 'executable' | 'demand';

export function turboDepthView(link: TurboLink, view: TurboView, precision: bigint, depth: number): DepthView {
  return view === 'executable' ? depthView(link.canonical, precision, depth, isShared) : depthView(link.turbo, precision, depth);
}

export interface DepthOrder {
  readonly order_id: string;
  readonly price: bigint;
  readonly quantity: bigint;
}

/** Level 3: every resting order, best price first, oldest first inside a price; `depth` orders per side. */
export function fullDepth(market: MarketState, depth: number): { buys: DepthOrder[]; sells: DepthOrder[] } {
  const collect = (side: Side): DepthOrder[] => {
    const out: DepthOrder[] = [];
    for (const level of market.book.levels(side)) {
      for (const order of OrderBook.liveOrders(level)) {
        if (out.length === depth) return out;
        out.push({ order_id: order.id, price: order.price, quantity: order.remaining });
      }
    }
    return out;
  };
  return { buys: collect('Buy'), sells: collect('Sell') };
}

export function levelsJson(levels: readonly DepthLevel[]): { price: string; quantity: string }[] {
  return levels.map((level) => ({ price: level.price.toString(), quantity: level.quantity.toString() }));
}
