// The exchange's trigger object (GET /v1/orders/active, the order stream's `triggers`) as the
// contract's TriggerView, keeping the leg as signed when the exchange reported it (moving a leg
// rebuilds it). Members the exchange leaves out fall back to what the wire notes guarantee.
import type { ActiveTrigger } from '../../../shared/api/market-schemas';
import type { B256 } from '../../../shared/encoding/b256';
import type { TriggerRole, TriggerView } from '../../../shared/ipc/views';
import type { Side } from '../../../shared/market/order-type';
import type { TriggerLeg } from '../../../shared/protocol/trigger';
import { toMillis } from '../trading/trading-service';

export interface KnownTrigger {
  readonly view: TriggerView;
  /** The leg as signed; undefined when the exchange did not report its kind and size. */
  readonly leg: TriggerLeg | undefined;
  readonly expectedQuantity: bigint | null;
}

/** A closing leg in the trader's favour takes profit; against it, it stops a loss. */
export function triggerRole(side: Side, direction: 'rise' | 'fall' | null): TriggerRole {
  if (direction === null) return 'stop-loss';
  return (side === 'Sell') === (direction === 'rise') ? 'take-profit' : 'stop-loss';
}

export function knownTrigger(wire: ActiveTrigger, marketId: string, turbo: boolean, previous?: KnownTrigger): KnownTrigger {
  const kind = wire.order_type;
  const sizing = wire.quantity;
  const leg: TriggerLeg | undefined = kind !== undefined && sizing !== undefined ? { order_type: kind, quantity: sizing, trigger_price: wire.trigger_price, side: wire.side } : previous?.leg;
  const direction = wire.direction ?? previous?.view.direction ?? null;
  const parentFromSize = leg?.quantity.kind === 'ParentOrder' ? leg.quantity.parent_order_id : null;
  const view: TriggerView = {
    triggerId: wire.order_id,
    marketId: wire.market_id ?? marketId,
    turbo: wire.turbo ?? turbo,
    side: wire.side,
    triggerPrice: wire.trigger_price,
    kind: leg === undefined ? (previous?.view.kind ?? 'market') : leg.order_type.kind === 'Market' ? 'market' : leg.order_type.kind === 'Spot' ? 'limit' : 'bounded',
    limitPrice: leg?.order_type.kind === 'Spot' ? leg.order_type.price : null,
    maxPrice: leg?.order_type.kind === 'MarketBounded' ? leg.order_type.max_price : null,
    minPrice: leg?.order_type.kind === 'MarketBounded' ? leg.order_type.min_price : null,
    quantity: leg?.quantity.kind === 'Quantity' ? leg.quantity.quantity : null,
    parentOrderId: wire.parent_order_id ?? parentFromSize ?? previous?.view.parentOrderId ?? null,
    ocoId: wire.oco_order_id ?? previous?.view.ocoId ?? null,
    direction,
    role: triggerRole(wire.side, direction),
    state: wire.state ?? 'pending',
    armed: wire.armed ?? previous?.view.armed ?? true,
    locked: wire.locked ?? previous?.view.locked ?? 0n,
    firedOrderId: wire.fired_order_id ?? null,
    reason: wire.reason ?? null,
    time: wire.timestamp === undefined ? (previous?.view.time ?? 0) : toMillis(wire.timestamp),
  };
  return { view, leg, expectedQuantity: wire.expected_quantity ?? previous?.expectedQuantity ?? null };
}

export function parentOf(known: KnownTrigger): B256 | null {
  return known.view.parentOrderId as B256 | null;
}
