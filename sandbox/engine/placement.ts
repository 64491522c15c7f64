// Order types on top of the book (spec 2.4). Pure: it decides what an order does and drives
// the book; the ledger supplies the sink that moves money. Docs/sandbox.md states the rules.
//   Spot           match up to `price`, the remainder rests
//   Limit [p, t]   like Spot at p (a buy at min(price, p), a sell at max(price, p)); t is kept
//   PostOnly       reverts if any part would match, otherwise rests whole
//   FillOrKill     reverts unless the whole quantity matches now
//   Market         match up to `price` (the worst price the lock covers), remainder cancelled
//   BoundedMarket  match only at prices inside [min_price, max_price] (and within `price` for a
//                  buy, whose lock is priced at it), remainder cancelled
import type { OrderType, Side } from '../../shared/market/order-type';
import type { BookEntry, FillSink, TakerBounds } from './book';

/**
 * What placement needs of a venue: the canonical book itself, or the Turbo venue (takes from
 * shared quotes of the canonical book, rests on the Turbo book).
 */
export interface PlacementBook<O extends BookEntry> {
  wouldTake(side: Side, bounds: TakerBounds): boolean;
  available(side: Side, bounds: TakerBounds, needed: bigint): bigint;
  match(side: Side, quantity: bigint, bounds: TakerBounds, sink: FillSink<O>): bigint;
  rest(order: O): void;
}


export type RevertReason = 'PostOnlyWouldTake' | 'FillOrKillNotFilled';

export type Placement =
  | { readonly kind: 'revert'; readonly reason: RevertReason; readonly message: string }
  | {
      readonly kind: 'placed';
      readonly filled: bigint;
      /** True when the remainder now rests on the book. */
      readonly rested: boolean;
      /** Quantity neither filled nor resting: cancelled (Market types) or dropped as dust. */
      readonly dropped: bigint;
    };

/** The price an order rests and executes at, given its submitted price and type. */
export function bookPrice(side: Side, price: bigint, orderType: OrderType): bigint {
  if (orderType.kind !== 'Limit') return price;
  if (side === 'Buy') return orderType.price < price ? orderType.price : price;
  return orderType.price > price ? orderType.price : price;
}

export function takerBounds(side: Side, price: bigint, orderType: OrderType): TakerBounds {
  if (orderType.kind !== 'BoundedMarket') return { worst: price };
  if (side === 'Buy') return { worst: orderType.max_price < price ? orderType.max_price : price, best: orderType.min_price };
  return { worst: orderType.min_price > price ? orderType.min_price : price, best: orderType.max_price };
}

function restsRemainder(orderType: OrderType): boolean {
  return orderType.kind === 'Spot' || orderType.kind === 'Limit' || orderType.kind === 'PostOnly';
}

/** The revert an order type causes against the book as it is now, before anything moves. */
export function placementRevert<O extends BookEntry>(book: PlacementBook<O>, side: Side, price: bigint, quantity: bigint, orderType: OrderType): Placement | undefined {
  // Only these two types can revert here (no bounds built for the others).
  if (orderType.kind !== 'PostOnly' && orderType.kind !== 'FillOrKill') return undefined;
  const bounds = takerBounds(side, price, orderType);
  if (orderType.kind === 'PostOnly' && book.wouldTake(side, bounds)) {
    return { kind: 'revert', reason: 'PostOnlyWouldTake', message: `PostOnly order at ${price} would execute against the book` };
  }
  if (orderType.kind === 'FillOrKill' && book.available(side, bounds, quantity) < quantity) {
    return { kind: 'revert', reason: 'FillOrKillNotFilled', message: `FillOrKill order of ${quantity} at ${price} cannot fill entirely` };
  }
  return undefined;
}

/**
 * Place `order` (not yet on the book; `order.price` already is its book price and
 * `order.remaining` its full quantity). Fills go to `sink`; the caller settles the taker side.
 */
export function placeOrder<O extends BookEntry>(book: PlacementBook<O>, order: O, orderType: OrderType, dust: bigint, sink: FillSink<O>, prechecked = false): Placement {
  const quantity = order.remaining;
  // The ledger runs placementRevert itself before moving funds (prechecked): no second pass.
  const refused = prechecked ? undefined : placementRevert(book, order.side, order.price, quantity, orderType);
  if (refused) return refused;
  const bounds = takerBounds(order.side, order.price, orderType);
  const filled = orderType.kind === 'PostOnly' ? 0n : book.match(order.side, quantity, bounds, sink);
  const left = filled === quantity ? 0n : quantity - filled;
  order.remaining = left;
  if (left > 0n && restsRemainder(orderType) && left >= dust) {
    book.rest(order);
    return { kind: 'placed', filled, rested: true, dropped: 0n };
  }
  order.live = false;
  return { kind: 'placed', filled, rested: false, dropped: left };
}
