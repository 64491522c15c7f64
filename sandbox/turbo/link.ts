// A Turbo order book paired with its canonical book (margin 2.5, 4.5). The Turbo book holds
// only resting Turbo orders; a Turbo order takes only from shared quotes resting on the
// canonical book (CreateSharedOrder), never from public orders, and public takers never see
// resting Turbo orders (they are not on the canonical book at all).
import type { FillSink, TakerBounds } from '../engine/book';
import type { PlacementBook } from '../engine/placement';
import type { MarketState } from '../ledger/market';
import type { OrderRecord } from '../ledger/orders';
import type { Side } from '../../shared/market/order-type';

export const isShared = (order: OrderRecord): boolean => order.shared === true;

export class TurboLink {
  /** Creates are refused while disconnected (margin 7: "House book is disconnected"). */
  connected = true;
  /** Trading accounts with the house role on this Turbo book (CreateSharedOrder, ExecuteTurboOrders). */
  readonly houseRoles = new Set<string>();

  constructor(
    readonly canonical: MarketState,
    readonly turbo: MarketState,
    /** When the Turbo book was attached (ms): bars before it are the canonical book's. */
    readonly attachedAtMs: number,
    /** Extra Turbo row members: bps a trigger may slip past its trigger price. */
    readonly triggerMaxSlippage: number,
  ) {}

  /** True if either book is paused (the Turbo row's `paused`). */
  get paused(): boolean {
    return this.canonical.paused || this.turbo.paused;
  }

  marketOf(order: OrderRecord): MarketState {
    return order.turbo === true ? this.turbo : this.canonical;
  }
}

/** The venue of a Turbo order: takes shared quotes of the canonical book, rests on the Turbo book. */
export class SharedVenue implements PlacementBook<OrderRecord> {
  constructor(private readonly link: TurboLink) {}

  wouldTake(side: Side, bounds: TakerBounds): boolean {
    return this.link.canonical.book.availableWhere(side, bounds, 1n, isShared) > 0n;
  }

  available(side: Side, bounds: TakerBounds, needed: bigint): bigint {
    return this.link.canonical.book.availableWhere(side, bounds, needed, isShared);
  }

  match(side: Side, quantity: bigint, bounds: TakerBounds, sink: FillSink<OrderRecord>): bigint {
    return this.link.canonical.book.matchWhere(side, quantity, bounds, sink, isShared);
  }

  rest(order: OrderRecord): void {
    this.link.turbo.book.rest(order);
  }
}
