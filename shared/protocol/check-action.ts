// Client-side pre-flight of an action in its group, before signing: the market rules for orders
// plus the structural rules the wire notes give for trigger legs and house actions. The encoder
// (action-calls.ts) does not run these, so the sandbox can rebuild any request it must refuse.
import { ZERO_B256 } from '../encoding/b256';
import { isWholeQuoteValue } from '../market/amounts';
import type { MarketRules } from '../market/market';
import { oppositeSide } from '../market/order-type';
import { isOnTick, priceTick, quantityTick } from '../market/tick';
import { ORDER_CODES, validateOrder } from '../market/validate-order';
import { fail, ok, type Result } from '../result';
import type { SessionAction } from './actions';
import { triggerForwarded, type CallMarket } from './action-calls';
import { triggerLockPrice, triggerPrices, type TriggerLeg } from './trigger';

export const ACTION_CODES = {
  TRIGGER_SAME_SIDE: 'TRIGGER_SAME_SIDE',
  TRIGGER_SIDE_MISMATCH: 'TRIGGER_SIDE_MISMATCH',
  QUANTITY_MUST_BE_PARENT_ORDER: 'QUANTITY_MUST_BE_PARENT_ORDER',
  TRIGGER_PARENT_MISMATCH: 'TRIGGER_PARENT_MISMATCH',
  TRIGGER_LOCK_ORDER: 'TRIGGER_LOCK_ORDER',
  HOUSE_ON_TURBO_BOOK: 'HOUSE_ON_TURBO_BOOK',
  HOUSE_ORDER_TYPE: 'HOUSE_ORDER_TYPE',
  INVALID_BOUND: 'INVALID_BOUND',
  ZERO_AMOUNT: 'ZERO_AMOUNT',
  MISSING_MARKET: 'MISSING_MARKET',
} as const;

export interface CheckActionContext {
  /** The group's market rules; book actions need them. */
  readonly market?: MarketRules & CallMarket;
  /** The group targets the Turbo book. */
  readonly turbo?: boolean;
  /** The batch is signed as a margin (Turbo) account. */
  readonly marginAccount?: boolean;
}

function checkLeg(market: MarketRules & CallMarket, leg: TriggerLeg, context: CheckActionContext, label: string): Result<void> {
  if (context.marginAccount === true && leg.order_type.kind === 'Market') {
    return fail(ORDER_CODES.UNBOUNDED_MARKET_ORDER, `${label}: a margin account cannot use an unbounded market leg; use a bounded one.`, { field: label });
  }
  const tick = priceTick(market);
  for (const price of triggerPrices(leg)) {
    if (price === 0n) return fail(ORDER_CODES.ZERO_PRICE, `${label}: prices must be above zero.`, { field: label });
    if (!isOnTick(price, tick)) return fail(ORDER_CODES.PRICE_PRECISION, `${label}: price ${price} is not on the price step ${tick}.`, { field: label });
  }
  if (leg.order_type.kind === 'MarketBounded' && leg.order_type.max_price < leg.order_type.min_price) {
    return fail(ORDER_CODES.BOUNDS, `${label}: the maximum price is below the minimum price.`, { field: label });
  }
  if (leg.quantity.kind === 'Quantity') {
    const quantity = leg.quantity.quantity;
    if (quantity === 0n) return fail(ORDER_CODES.ZERO_QUANTITY, `${label}: quantity must be above zero.`, { field: label });
    if (!isOnTick(quantity, quantityTick(market))) return fail(ORDER_CODES.QUANTITY_PRECISION, `${label}: quantity ${quantity} is not on the quantity step.`, { field: label });
    for (const price of [triggerLockPrice(leg), leg.trigger_price]) {
      if (!isWholeQuoteValue(market, price, quantity)) {
        return fail(ORDER_CODES.FRACTIONAL_PRICE, `${label}: quantity ${quantity} at price ${price} is not a whole number of quote units.`, { field: label });
      }
    }
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
        const legCheck = checkLeg(market.value, leg, context, label);
        if (!legCheck.ok) return legCheck;
      }
      return ok(undefined);
    }
    case 'CreateTriggerOrder': {
      const market = needMarket(context, action.kind);
      if (!market.ok) return market;
      if (action.args.quantity.kind === 'ParentOrder' && action.parent !== undefined && action.args.quantity.parent_order_id !== action.parent.order_id) {
        return fail(ACTION_CODES.TRIGGER_PARENT_MISMATCH, 'args: the leg is sized from a different order than its parent.', { field: 'args' });
      }
      return checkLeg(market.value, action.args, context, 'args');
    }
    case 'CreateTriggerOrders': {
      const market = needMarket(context, action.kind);
      if (!market.ok) return market;
      if (action.first.side !== action.second.side) {
        return fail(ACTION_CODES.TRIGGER_SIDE_MISMATCH, 'An OCO pair protects one position: both legs must be on the same side.', { field: 'second' });
      }
      for (const [label, leg] of [['first', action.first], ['second', action.second]] as const) {
        const legCheck = checkLeg(market.value, leg, context, label);
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
