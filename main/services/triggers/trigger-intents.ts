// Turning a trader's trigger intents into legs and actions. Pure: no I/O, no clock. A price off the
// step is refused, never moved (checkAction names it); a slippage becomes a bounded leg's max and
// min moved inward onto the step, and the trader is told the bounds; an explicit quantity is
// floored to the step and lowered to a whole quote value at every price of its legs, and the
// trader is told. docs/protocol.md "Trigger orders".
import type { B256 } from '../../../shared/encoding/b256';
import { formatUnits } from '../../../shared/encoding/units';
import { isWholeQuoteValue, lowerQuantityToWholeQuote } from '../../../shared/market/amounts';
import type { Market } from '../../../shared/market/market';
import type { Side } from '../../../shared/market/order-type';
import { priceTick, truncateQuantity } from '../../../shared/market/tick';
import { triggerForwarded } from '../../../shared/protocol/action-calls';
import { slippageBounds, triggerPrices, type TriggerKind, type TriggerLeg, type TriggerQuantity } from '../../../shared/protocol/trigger';
import { fail, ok, type Result } from '../../../shared/result';
import { TRIGGER_CODES } from './codes';

export type LegExecution = { readonly kind: 'market' } | { readonly kind: 'limit'; readonly price: bigint } | { readonly kind: 'slippage'; readonly bps: number };

export interface LegIntent {
  readonly triggerPrice: bigint;
  readonly execution: LegExecution;
}

function showPrice(market: Market, price: bigint): string {
  return `${formatUnits(price, market.quote.decimals)} ${market.quote.symbol}`;
}

function showQuantity(market: Market, quantity: bigint): string {
  return `${formatUnits(quantity, market.base.decimals)} ${market.base.symbol}`;
}

/** The leg kind an execution names; a slippage becomes bounds around the trigger price on the step. */
export function legKind(market: Market, intent: LegIntent, label: string): Result<{ kind: TriggerKind; adjustments: string[] }> {
  const execution = intent.execution;
  if (execution.kind === 'market') return ok({ kind: { kind: 'Market' }, adjustments: [] });
  if (execution.kind === 'limit') return ok({ kind: { kind: 'Spot', price: execution.price }, adjustments: [] });
  const bounds = slippageBounds(intent.triggerPrice, BigInt(execution.bps), priceTick(market));
  if (bounds.min_price <= 0n) {
    return fail(TRIGGER_CODES.SLIPPAGE_TOO_WIDE, `${label}: a slippage of ${execution.bps} bps leaves no minimum price above zero at ${showPrice(market, intent.triggerPrice)}.`, { field: label });
  }
  return ok({
    kind: { kind: 'MarketBounded', max_price: bounds.max_price, min_price: bounds.min_price },
    adjustments: [`${label}: a slippage of ${execution.bps} bps executes between ${showPrice(market, bounds.min_price)} and ${showPrice(market, bounds.max_price)} (on the price step).`],
  });
}

export function buildLeg(market: Market, side: Side, intent: LegIntent, quantity: TriggerQuantity, label: string): Result<{ leg: TriggerLeg; adjustments: string[] }> {
  const kind = legKind(market, intent, label);
  if (!kind.ok) return kind;
  return ok({ leg: { order_type: kind.value.kind, quantity, trigger_price: intent.triggerPrice, side }, adjustments: kind.value.adjustments });
}

/**
 * An explicit size for legs: floored to the quantity step, then lowered until it is worth a whole
 * number of quote units at every price the legs are judged at. The changes are described.
 */
export function explicitQuantity(market: Market, requested: bigint, legs: readonly Pick<TriggerLeg, 'order_type' | 'trigger_price'>[]): { quantity: bigint; adjustments: string[] } {
  const adjustments: string[] = [];
  const floored = truncateQuantity(market, requested);
  let quantity = floored.value;
  if (floored.changed) adjustments.push(`Quantity floored from ${showQuantity(market, requested)} to ${showQuantity(market, quantity)} (the market's step).`);
  // Off-step prices are left for the pre-flight to refuse by name; lowering for them would only hide it.
  const tick = priceTick(market);
  const prices = legs.flatMap((leg) => triggerPrices({ ...leg, quantity: { kind: 'Quantity', quantity }, side: 'Sell' })).filter((price) => price > 0n && price % tick === 0n);
  const before = quantity;
  // Lowering to one price's step may break another's; a common multiple is a fixed point.
  for (let round = 0; round < 8 && prices.some((price) => !isWholeQuoteValue(market, price, quantity)); round++) {
    for (const price of prices) quantity = lowerQuantityToWholeQuote(market, price, quantity);
  }
  if (quantity !== before) {
    adjustments.push(`Quantity lowered from ${showQuantity(market, before)} to ${showQuantity(market, quantity)} so the legs are worth a whole number of ${market.quote.symbol} units at each of their prices.`);
  }
  return { quantity, adjustments };
}

/** An OCO pair in the order the wire needs: the leg that locks more first (its lock covers both). */
export function orderPairByLock(market: Market, first: TriggerLeg, second: TriggerLeg): [TriggerLeg, TriggerLeg] {
  return triggerForwarded(market, second).amount > triggerForwarded(market, first).amount ? [second, first] : [first, second];
}

/** A leg moved to a new trigger price: a limit keeps its distance (unless given), bounds keep theirs. */
export function movedLeg(market: Market, leg: TriggerLeg, triggerPrice: bigint, limitPrice: bigint | undefined): Result<TriggerLeg> {
  const delta = triggerPrice - leg.trigger_price;
  switch (leg.order_type.kind) {
    case 'Market':
      return ok({ ...leg, trigger_price: triggerPrice });
    case 'Spot': {
      const price = limitPrice ?? leg.order_type.price + delta;
      if (price <= 0n) return fail(TRIGGER_CODES.INVALID_MOVE, `The limit price would fall to ${showPrice(market, price)}; give a limit price.`, { field: 'limitPrice' });
      return ok({ ...leg, order_type: { kind: 'Spot', price }, trigger_price: triggerPrice });
    }
    case 'MarketBounded': {
      if (limitPrice !== undefined) return fail(TRIGGER_CODES.INVALID_MOVE, 'limitPrice: this leg has no limit price (it executes between bounds that move with its trigger).', { field: 'limitPrice' });
      const min = leg.order_type.min_price + delta;
      if (min <= 0n) return fail(TRIGGER_CODES.INVALID_MOVE, `The minimum price would fall to ${showPrice(market, min)}.`, { field: 'triggerPrice' });
      return ok({ ...leg, order_type: { kind: 'MarketBounded', max_price: leg.order_type.max_price + delta, min_price: min }, trigger_price: triggerPrice });
    }
  }
}

/** "Sell stop-loss at 2,900 (bounded 2,871 to 2,929)" for the journal and notices. */
export function describeLeg(market: Market, leg: TriggerLeg, role: string): string {
  const kind = leg.order_type;
  const execution =
    kind.kind === 'Market' ? 'market' : kind.kind === 'Spot' ? `limit ${showPrice(market, kind.price)}` : `bounded ${showPrice(market, kind.min_price)} to ${showPrice(market, kind.max_price)}`;
  const size = leg.quantity.kind === 'Quantity' ? ` ${showQuantity(market, leg.quantity.quantity)}` : ' (sized from its order)';
  return `${leg.side} ${role}${size} at ${showPrice(market, leg.trigger_price)}, ${execution}`;
}

/** A leg sized from `orderId`. */
export function fromParent(orderId: B256): TriggerQuantity {
  return { kind: 'ParentOrder', parent_order_id: orderId };
}
