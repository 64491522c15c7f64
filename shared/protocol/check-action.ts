// Client-side pre-flight of an action in its group, before signing: the market rules for orders
// plus the structural rules the wire notes give for trigger legs and house actions. The encoder
// (action-calls.ts) does not run these, so the sandbox can rebuild any request it must refuse.
import { ZERO_B256 } from '../encoding/b256';
import { formatUnits } from '../encoding/units';
import { isWholeQuoteValue, quoteValue } from '../market/amounts';
import type { MarketRules } from '../market/market';
import { oppositeSide, type Side } from '../market/order-type';
import { isOnTick, priceTick, quantityTick } from '../market/tick';
import { ORDER_CODES, validateOrder } from '../market/validate-order';
import { fail, ok, type Result } from '../result';
import type { SessionAction } from './actions';
import { triggerForwarded, type CallMarket } from './action-calls';
import { slippageBounds, triggerDirection, triggerOrderPrice, triggerPrices, withinSlippage, type TriggerLeg } from './trigger';

export const ACTION_CODES = {
  TRIGGER_SAME_SIDE: 'TRIGGER_SAME_SIDE',
  TRIGGER_SIDE_MISMATCH: 'TRIGGER_SIDE_MISMATCH',
  QUANTITY_MUST_BE_PARENT_ORDER: 'QUANTITY_MUST_BE_PARENT_ORDER',
  TRIGGER_PARENT_MISMATCH: 'TRIGGER_PARENT_MISMATCH',
  TRIGGER_PARENT_REQUIRED: 'TRIGGER_PARENT_REQUIRED',
  TRIGGER_LOCK_ORDER: 'TRIGGER_LOCK_ORDER',
  TRIGGER_SLIPPAGE: 'TRIGGER_SLIPPAGE',
  TRIGGER_AT_MARKET: 'TRIGGER_AT_MARKET',
  HOUSE_ON_TURBO_BOOK: 'HOUSE_ON_TURBO_BOOK',
  HOUSE_ORDER_TYPE: 'HOUSE_ORDER_TYPE',
  INVALID_BOUND: 'INVALID_BOUND',
  ZERO_AMOUNT: 'ZERO_AMOUNT',
  MISSING_MARKET: 'MISSING_MARKET',
} as const;

export interface CheckActionContext {
  /** The group's market rules; book actions need them. A Turbo row carries trigger_max_slippage. */
  readonly market?: MarketRules & CallMarket & { readonly trigger_max_slippage?: bigint };
  /** The group targets the Turbo book. */
  readonly turbo?: boolean;
  /** The batch is signed as a margin (Turbo) account. */
  readonly marginAccount?: boolean;
  /** The side of the resting order a standalone leg binds to (`parent`), when the caller knows it. */
  readonly parentSide?: Side;
  /** The market's last trade price, when known: a leg exactly at it has no side and is refused. */
  readonly referencePrice?: bigint;
}

export interface TriggerLegRules {
  readonly marginAccount?: boolean;
  /** The Turbo row's trigger_max_slippage (bps); bounded legs must lie within it. */
  readonly maxSlippageBps?: bigint;
  readonly referencePrice?: bigint;
}

function showPrice(market: MarketRules, price: bigint): string {
  return `${formatUnits(price, market.quote.decimals)} ${market.quote.symbol}`;
}

function showQuantity(market: MarketRules, quantity: bigint): string {
  return `${formatUnits(quantity, market.base.decimals)} ${market.base.symbol}`;
}

/**
 * The rules a leg is judged by when it is created, shared by the client's pre-flight and the
 * sandbox: every price it is judged at (trigger, limit, bounds) above zero and on the tick, bounds
 * in order and (on a Turbo row) within trigger_max_slippage, no unbounded market leg on a margin
 * account, a trigger with a side of the market; an explicit quantity on the step, worth a whole
 * number of quote units at every one of those prices, not dust, and worth min_order at the price
 * of the order it becomes. A leg sized from its parent is checked for size when it fires.
 */
export function checkTriggerLeg(market: MarketRules, leg: TriggerLeg, rules: TriggerLegRules, label: string): Result<void> {
  if (rules.marginAccount === true && leg.order_type.kind === 'Market') {
    return fail(ORDER_CODES.UNBOUNDED_MARKET_ORDER, `${label}: a margin account cannot use an unbounded market leg; give it a slippage (a bounded leg).`, { field: label });
  }
  const tick = priceTick(market);
  for (const price of triggerPrices(leg)) {
    if (price === 0n) return fail(ORDER_CODES.ZERO_PRICE, `${label}: prices must be above zero.`, { field: label });
    if (!isOnTick(price, tick)) {
      return fail(ORDER_CODES.PRICE_PRECISION, `${label}: price ${showPrice(market, price)} is not on the price step of ${showPrice(market, tick)}.`, {
        field: label,
        value: price.toString(),
        tick: tick.toString(),
      });
    }
  }
  if (leg.order_type.kind === 'MarketBounded') {
    const { max_price: max, min_price: min } = leg.order_type;
    if (max < min) return fail(ORDER_CODES.BOUNDS, `${label}: the maximum price ${showPrice(market, max)} is below the minimum price ${showPrice(market, min)}.`, { field: label });
    if (rules.maxSlippageBps !== undefined && !withinSlippage(leg, rules.maxSlippageBps)) {
      const widest = slippageBounds(leg.trigger_price, rules.maxSlippageBps, 1n);
      return fail(
        ACTION_CODES.TRIGGER_SLIPPAGE,
        `${label}: the bounds ${showPrice(market, min)} to ${showPrice(market, max)} slip more than this book allows (${rules.maxSlippageBps} bps of the trigger price ${showPrice(market, leg.trigger_price)}: ${showPrice(market, widest.min_price)} to ${showPrice(market, widest.max_price)}).`,
        { field: label, max_slippage_bps: rules.maxSlippageBps.toString() },
      );
    }
  }
  if (rules.referencePrice !== undefined && triggerDirection(leg.trigger_price, rules.referencePrice) === undefined) {
    return fail(ACTION_CODES.TRIGGER_AT_MARKET, `${label}: the trigger price ${showPrice(market, leg.trigger_price)} is the last trade price; put it above or below the market.`, { field: label });
  }
  if (leg.quantity.kind === 'Quantity') {
    const quantity = leg.quantity.quantity;
    if (quantity === 0n) return fail(ORDER_CODES.ZERO_QUANTITY, `${label}: quantity must be above zero.`, { field: label });
    const step = quantityTick(market);
    if (!isOnTick(quantity, step)) {
      return fail(ORDER_CODES.QUANTITY_PRECISION, `${label}: quantity ${showQuantity(market, quantity)} is not on the quantity step of ${showQuantity(market, step)}.`, { field: label });
    }
    for (const price of triggerPrices(leg)) {
      if (!isWholeQuoteValue(market, price, quantity)) {
        return fail(ORDER_CODES.FRACTIONAL_PRICE, `${label}: ${showQuantity(market, quantity)} at ${showPrice(market, price)} is not worth a whole number of ${market.quote.symbol} units.`, {
          field: label,
        });
      }
    }
    if (quantity < market.dust) return fail(ORDER_CODES.DUST, `${label}: quantity ${showQuantity(market, quantity)} is below the dust threshold.`, { field: label });
    const value = quoteValue(market, triggerOrderPrice(leg), quantity);
    if (value < market.min_order) {
      return fail(ORDER_CODES.MIN_ORDER, `${label}: worth ${formatUnits(value, market.quote.decimals)} ${market.quote.symbol} when it fires, below the market minimum of ${formatUnits(market.min_order, market.quote.decimals)} ${market.quote.symbol}.`, {
        field: label,
      });
    }
  }
  return ok(undefined);
}

function legRules(context: CheckActionContext): TriggerLegRules {
  const slippage = context.turbo === true ? context.market?.trigger_max_slippage : undefined;
  return {
    ...(context.marginAccount === true ? { marginAccount: true } : {}),
    ...(slippage === undefined ? {} : { maxSlippageBps: slippage }),
    ...(context.referencePrice === undefined ? {} : { referencePrice: context.referencePrice }),
  };
}

/** A standalone leg: bound to `parent` when given (sized from it or explicitly), else explicit. */
function checkStandaloneLeg(leg: TriggerLeg, parent: { order_id: string } | undefined, context: CheckActionContext, label: string): Result<void> {
  if (leg.quantity.kind === 'ParentOrder') {
    if (parent === undefined) {
      return fail(ACTION_CODES.TRIGGER_PARENT_REQUIRED, `${label}: a leg sized from an order must name that order as its parent with its initial quantity (expected_quantity).`, { field: label });
    }
    if (leg.quantity.parent_order_id !== parent.order_id) {
      return fail(ACTION_CODES.TRIGGER_PARENT_MISMATCH, `${label}: the leg is sized from a different order than its parent.`, { field: label });
    }
  }
  if (parent !== undefined && context.parentSide !== undefined && leg.side === context.parentSide) {
    return fail(ACTION_CODES.TRIGGER_SAME_SIDE, `${label}: a protective leg closes the position, so it must be a ${oppositeSide(context.parentSide)}.`, { field: label });
  }
  return ok(undefined);
}

function needMarket(context: CheckActionContext, kind: string): Result<MarketRules & CallMarket> {
  return context.market ? ok(context.market) : fail(ACTION_CODES.MISSING_MARKET, `${kind} needs the market of its group.`);
}

/** Pre-flight one action; the first problem found is returned. */
export function checkAction(action: SessionAction, context: CheckActionContext): Result<void> {
  switch (action.kind) {
    case 'CreateOrder': {
      const market = needMarket(context, action.kind);
      if (!market.ok) return market;
      const order = validateOrder(market.value, action, { marginAccount: context.marginAccount === true });
      return order.ok ? ok(undefined) : order;
    }
    case 'CreateOrderWithTriggers': {
      const market = needMarket(context, action.kind);
      if (!market.ok) return market;
      const order = validateOrder(market.value, action, { marginAccount: context.marginAccount === true });
      if (!order.ok) return order;
      const legs = action.trigger_2 === undefined ? [action.trigger_1] : [action.trigger_1, action.trigger_2];
      for (const [index, leg] of legs.entries()) {
        const label = `trigger_${index + 1}`;
        if (leg.side !== oppositeSide(action.side)) {
          return fail(ACTION_CODES.TRIGGER_SAME_SIDE, `${label}: a protective leg closes the position, so it must be a ${oppositeSide(action.side)}.`, { field: label });
        }
        if (leg.quantity.kind !== 'ParentOrder' || leg.quantity.parent_order_id !== ZERO_B256) {
          return fail(
            ACTION_CODES.QUANTITY_MUST_BE_PARENT_ORDER,
            `${label}: a leg attached at placement takes the new order's size (ParentOrder with a zero id), not its own quantity.`,
            { field: label },
          );
        }
        const legCheck = checkTriggerLeg(market.value, leg, legRules(context), label);
        if (!legCheck.ok) return legCheck;
      }
      return ok(undefined);
    }
    case 'CreateTriggerOrder': {
      const market = needMarket(context, action.kind);
      if (!market.ok) return market;
      const bound = checkStandaloneLeg(action.args, action.parent, context, 'args');
      if (!bound.ok) return bound;
      return checkTriggerLeg(market.value, action.args, legRules(context), 'args');
    }
    case 'CreateTriggerOrders': {
      const market = needMarket(context, action.kind);
      if (!market.ok) return market;
      if (action.first.side !== action.second.side) {
        return fail(ACTION_CODES.TRIGGER_SIDE_MISMATCH, 'An OCO pair protects one position: both legs must be on the same side.', { field: 'second' });
      }
      for (const [label, leg] of [['first', action.first], ['second', action.second]] as const) {
        const bound = checkStandaloneLeg(leg, action.parent, context, label);
        if (!bound.ok) return bound;
        const legCheck = checkTriggerLeg(market.value, leg, legRules(context), label);
        if (!legCheck.ok) return legCheck;
      }
      if (triggerForwarded(market.value, action.second).amount > triggerForwarded(market.value, action.first).amount) {
        return fail(ACTION_CODES.TRIGGER_LOCK_ORDER, 'The first leg must be the one that locks more: its lock covers both legs.', { field: 'first' });
      }
      return ok(undefined);
    }
    case 'CreateSharedOrder':
    case 'ExecuteTurboOrders': {
      if (context.turbo === true) {
        return fail(ACTION_CODES.HOUSE_ON_TURBO_BOOK, 'House posts and selects its liquidity through the canonical book: send this on a group with turbo false.');
      }
      if (action.kind === 'ExecuteTurboOrders') {
        if (action.max_base_quantity <= 0n || action.max_fills <= 0n) return fail(ACTION_CODES.INVALID_BOUND, 'ExecuteTurboOrders bounds must be positive.', { field: 'max_fills' });
        return ok(undefined);
      }
      if (action.order_type.kind !== 'Spot' && action.order_type.kind !== 'PostOnly') {
        return fail(ACTION_CODES.HOUSE_ORDER_TYPE, 'A shared order is Spot or PostOnly.', { field: 'order_type' });
      }
      const market = needMarket(context, action.kind);
      if (!market.ok) return market;
      const order = validateOrder(market.value, action);
      return order.ok ? ok(undefined) : order;
    }
    case 'Draw':
    case 'ReturnQuote':
    case 'Borrow':
    case 'Repay':
    case 'RepayFromCollateral':
    case 'RepayBaseFromCollateral':
    case 'AddCollateral':
    case 'WithdrawFromMargin':
    case 'WithdrawFromMarginAccount':
    case 'StartMarginSession':
      return action.amount > 0n ? ok(undefined) : fail(ACTION_CODES.ZERO_AMOUNT, `${action.kind}: the amount must be above zero.`, { field: 'amount' });
    case 'ProlongSession':
      return action.times > 0n ? ok(undefined) : fail(ACTION_CODES.ZERO_AMOUNT, 'ProlongSession: times must be at least 1.', { field: 'times' });
    default:
      return ok(undefined);
  }
}
