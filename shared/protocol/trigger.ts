// Trigger legs (take-profit, stop-loss, OCO), per the wire notes' "Trigger orders" section.
// In call data a leg is TriggerQuantity ‖ TriggerKind ‖ u64 trigger_price: the reverse of the JSON
// order. The side is not encoded: the contract reads it from the forwarded asset.
import type { B256 } from '../encoding/b256';
import type { ByteWriter } from '../encoding/byte-writer';
import type { OrderType, Side } from '../market/order-type';

export type TriggerKind =
  | { readonly kind: 'Market' }
  | { readonly kind: 'MarketBounded'; readonly max_price: bigint; readonly min_price: bigint }
  | { readonly kind: 'Spot'; readonly price: bigint };

export type TriggerQuantity = { readonly kind: 'Quantity'; readonly quantity: bigint } | { readonly kind: 'ParentOrder'; readonly parent_order_id: B256 };

export interface TriggerLeg {
  readonly order_type: TriggerKind;
  readonly quantity: TriggerQuantity;
  readonly trigger_price: bigint;
  /** The closing side of what the leg protects. */
  readonly side: Side;
}

/** A standalone leg bound to a resting order carries the parent's initial quantity. */
export interface TriggerParent {
  readonly order_id: B256;
  readonly expected_quantity: bigint;
}

export function writeTriggerQuantity(writer: ByteWriter, quantity: TriggerQuantity): void {
  if (quantity.kind === 'Quantity') writer.u64(0n).u64(quantity.quantity);
  else writer.u64(1n).b256(quantity.parent_order_id);
}

export function writeTriggerKind(writer: ByteWriter, kind: TriggerKind): void {
  switch (kind.kind) {
    case 'Market':
      writer.u64(0n);
      return;
    case 'MarketBounded':
      writer.u64(1n).u64(kind.max_price).u64(kind.min_price);
      return;
    case 'Spot':
      writer.u64(2n).u64(kind.price);
      return;
  }
}

export function writeTriggerLeg(writer: ByteWriter, leg: TriggerLeg): void {
  writeTriggerQuantity(writer, leg.quantity);
  writeTriggerKind(writer, leg.order_type);
  writer.u64(leg.trigger_price);
}

/** The price a leg locks funds at: a limit leg its price, a bounded leg its max, a market leg its trigger. */
export function triggerLockPrice(leg: TriggerLeg): bigint {
  switch (leg.order_type.kind) {
    case 'Spot':
      return leg.order_type.price;
    case 'MarketBounded':
      return leg.order_type.max_price;
    case 'Market':
      return leg.trigger_price;
  }
}

/** Every price the book judges a leg at (lock and trigger), for tick checks. */
export function triggerPrices(leg: TriggerLeg): bigint[] {
  const prices = [leg.trigger_price];
  if (leg.order_type.kind === 'Spot') prices.push(leg.order_type.price);
  if (leg.order_type.kind === 'MarketBounded') prices.push(leg.order_type.max_price, leg.order_type.min_price);
  return prices;
}

export type TriggerKindJson = 'Market' | { MarketBounded: { max_price: string; min_price: string } } | { Spot: { price: string } };
export type TriggerQuantityJson = { Quantity: { quantity: string } } | { ParentOrder: { parent_order_id: string } };

export interface TriggerLegJson {
  order_type: TriggerKindJson;
  quantity: TriggerQuantityJson;
  trigger_price: string;
  side: Side;
}

export function triggerLegToJson(leg: TriggerLeg): TriggerLegJson {
  const kind = leg.order_type;
  const orderType: TriggerKindJson =
    kind.kind === 'Market'
      ? 'Market'
      : kind.kind === 'MarketBounded'
        ? { MarketBounded: { max_price: kind.max_price.toString(), min_price: kind.min_price.toString() } }
        : { Spot: { price: kind.price.toString() } };
  const quantity: TriggerQuantityJson =
    leg.quantity.kind === 'Quantity' ? { Quantity: { quantity: leg.quantity.quantity.toString() } } : { ParentOrder: { parent_order_id: leg.quantity.parent_order_id } };
  return { order_type: orderType, quantity, trigger_price: leg.trigger_price.toString(), side: leg.side };
}

// ---- what a leg does once it fires (docs/protocol.md "Trigger orders") ---------------------------

/** The order type a fired leg becomes: Market, BoundedMarket {max, min}, or Spot (a limit). */
export function triggerOrderType(leg: TriggerLeg): OrderType {
  switch (leg.order_type.kind) {
    case 'Market':
      return { kind: 'Market' };
    case 'MarketBounded':
      return { kind: 'BoundedMarket', max_price: leg.order_type.max_price, min_price: leg.order_type.min_price };
    case 'Spot':
      return { kind: 'Spot' };
  }
}

/**
 * The price field of the order a fired leg becomes: its worst price. A buy is its lock price (what
 * its lock covers); a sell is the limit price, the bounded leg's minimum, or the market leg's
 * trigger price.
 */
export function triggerOrderPrice(leg: TriggerLeg): bigint {
  if (leg.side === 'Buy') return triggerLockPrice(leg);
  switch (leg.order_type.kind) {
    case 'Spot':
      return leg.order_type.price;
    case 'MarketBounded':
      return leg.order_type.min_price;
    case 'Market':
      return leg.trigger_price;
  }
}

/**
 * Which way the price must move for a leg to fire, fixed when the leg is created from the side of
 * the market it stands on: above the reference price it fires when a trade prints at or above it
 * (`rise`), below when a trade prints at or below it (`fall`). A leg exactly at the reference price
 * has no side (undefined): it is refused.
 */
export type TriggerDirection = 'rise' | 'fall';

export function triggerDirection(triggerPrice: bigint, reference: bigint): TriggerDirection | undefined {
  if (triggerPrice > reference) return 'rise';
  if (triggerPrice < reference) return 'fall';
  return undefined;
}

/** True when a trade at `price` reaches a leg of `direction` at `triggerPrice`. */
export function triggerReached(direction: TriggerDirection, triggerPrice: bigint, price: bigint): boolean {
  return direction === 'rise' ? price >= triggerPrice : price <= triggerPrice;
}

export const BASIS_POINTS = 10_000n;

/**
 * The widest bounds a bounded leg may have around its trigger price under a slippage of `bps`
 * basis points: max = floor(trigger × (10,000 + bps) / 10,000), min = ceil(trigger × (10,000 − bps)
 * / 10,000), then moved inward onto the price tick (max down, min up). A Turbo row's
 * trigger_max_slippage is this bound; the terminal turns a slippage into a leg's max/min with it.
 */
export function slippageBounds(triggerPrice: bigint, bps: bigint, tick: bigint): { max_price: bigint; min_price: bigint } {
  const upper = (triggerPrice * (BASIS_POINTS + bps)) / BASIS_POINTS;
  const lowerRaw = triggerPrice * (bps >= BASIS_POINTS ? 0n : BASIS_POINTS - bps);
  const lower = lowerRaw === 0n ? 0n : (lowerRaw + BASIS_POINTS - 1n) / BASIS_POINTS;
  const max = upper - (upper % tick);
  const min = lower % tick === 0n ? lower : lower + (tick - (lower % tick));
  return { max_price: max, min_price: min };
}

/** True when a bounded leg's bounds lie within `bps` of its trigger price (any other leg: true). */
export function withinSlippage(leg: TriggerLeg, bps: bigint): boolean {
  if (leg.order_type.kind !== 'MarketBounded') return true;
  const widest = slippageBounds(leg.trigger_price, bps, 1n);
  return leg.order_type.max_price <= widest.max_price && leg.order_type.min_price >= widest.min_price;
}
