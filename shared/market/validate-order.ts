// Pre-flight order checks with stable codes, run before anything is signed. They mirror what the
// book refuses on chain (PricePrecision, FractionalPrice, min_order, ...) so a trader learns why
// before paying for a revert. Messages use display units; details carry raw values for logs.
import { U64_MAX } from '../encoding/decimal';
import { formatUnits } from '../encoding/units';
import { fail, ok, type Failure, type Result } from '../result';
import { lowerQuantityToWholeQuote, type Forwarded } from './amounts';
import { powerOfTen, type Market, type MarketRules } from './market';
import type { OrderIntent, OrderType, Side } from './order-type';
import { isOnTick, priceTick, quantityTick } from './tick';

export const ORDER_CODES = {
  ZERO_QUANTITY: 'ZERO_QUANTITY',
  ZERO_PRICE: 'ZERO_PRICE',
  PRICE_PRECISION: 'PRICE_PRECISION',
  QUANTITY_PRECISION: 'QUANTITY_PRECISION',
  BOUNDS: 'BOUNDS',
  FRACTIONAL_PRICE: 'FRACTIONAL_PRICE',
  MIN_ORDER: 'MIN_ORDER',
  DUST: 'DUST',
  AMOUNT_TOO_LARGE: 'AMOUNT_TOO_LARGE',
  UNBOUNDED_MARKET_ORDER: 'UNBOUNDED_MARKET_ORDER',
  MARKET_PAUSED: 'MARKET_PAUSED',
  MARKET_DISCONNECTED: 'MARKET_DISCONNECTED',
} as const;

export interface ValidatedOrder {
  readonly forwarded: Forwarded;
  /** floor(price * quantity / 10^base.decimals), in quote raw units. */
  readonly quote_value: bigint;
}

export interface ValidateOrderContext {
  /** The order is placed by a margin (Turbo) account: market orders must be bounded. */
  readonly marginAccount?: boolean;
}

type MarketForValidation = MarketRules & Partial<Pick<Market, 'turbo' | 'paused' | 'connected'>>;

function showPrice(market: MarketRules, price: bigint): string {
  return `${formatUnits(price, market.quote.decimals)} ${market.quote.symbol}`;
}

function showQuantity(market: MarketRules, quantity: bigint): string {
  return `${formatUnits(quantity, market.base.decimals)} ${market.base.symbol}`;
}

/** No context (one object, not a new `{}` per order). */
const NO_CONTEXT: ValidateOrderContext = Object.freeze({});

/** The passing result of a check (one object: a check runs on every order the sandbox places). */
const PASSED: Result<void> = Object.freeze(ok(undefined));

function checkPriceOnTick(market: MarketRules, price: bigint, field: string): Result<void> {
  const tick = priceTick(market);
  if (price === 0n) return fail(ORDER_CODES.ZERO_PRICE, `${field} must be above zero.`, { field });
  if (isOnTick(price, tick)) return PASSED;
  return fail(
    ORDER_CODES.PRICE_PRECISION,
    `${field} ${showPrice(market, price)} is finer than the market allows: prices move in steps of ${showPrice(market, tick)} (${market.quote.max_precision} decimals).`,
    { field, value: price.toString(), tick: tick.toString() },
  );
}

/** Check an order against the market rules; on success return what it forwards. */
export function validateOrder(market: MarketForValidation, order: OrderIntent, context: ValidateOrderContext = NO_CONTEXT): Result<ValidatedOrder> {
  const value = checkOrder(market, order.side, order.price, order.quantity, order.order_type, context);
  if (typeof value !== 'bigint') return value;
  const forwarded: Forwarded = order.side === 'Buy' ? { asset: market.quote.asset, amount: value } : { asset: market.base.asset, amount: order.quantity };
  return ok({ forwarded, quote_value: value });
}

/**
 * Every rule of `validateOrder`, without its intent or result objects: the order's quote value
 * (floor(price * quantity / 10^base.decimals)) when the order passes, else the failure. The sandbox
 * runs it for every placement; what the order forwards is that value for a buy, its quantity for a
 * sell.
 */
export function checkOrder(market: MarketForValidation, side: Side, price: bigint, quantity: bigint, orderType: OrderType, context: ValidateOrderContext = NO_CONTEXT): bigint | Failure {
  if (market.turbo === true && market.paused === true) return fail(ORDER_CODES.MARKET_PAUSED, 'This Turbo market is paused; new orders are refused until it resumes.');
  if (market.turbo === true && market.connected === false) {
    return fail(ORDER_CODES.MARKET_DISCONNECTED, 'This Turbo book is disconnected from its house book; new orders are refused.');
  }
  if (quantity <= 0n) return fail(ORDER_CODES.ZERO_QUANTITY, 'Quantity must be above zero.', { field: 'quantity' });
  if (price > U64_MAX || quantity > U64_MAX) {
    return fail(ORDER_CODES.AMOUNT_TOO_LARGE, 'Price or quantity is larger than the exchange can represent.', { field: price > U64_MAX ? 'price' : 'quantity' });
  }
  if (context.marginAccount === true && orderType.kind === 'Market') {
    return fail(
      ORDER_CODES.UNBOUNDED_MARKET_ORDER,
      'A margin account cannot place an unbounded market order: use a bounded market order with a worst price.',
      { field: 'order_type' },
    );
  }
  const priceCheck = checkPriceOnTick(market, price, 'Price');
  if (!priceCheck.ok) return priceCheck;
  if (orderType.kind === 'Limit') {
    const limitCheck = checkPriceOnTick(market, orderType.price, 'Limit price');
    if (!limitCheck.ok) return limitCheck;
  }
  if (orderType.kind === 'BoundedMarket') {
    const maxCheck = checkPriceOnTick(market, orderType.max_price, 'Maximum price');
    if (!maxCheck.ok) return maxCheck;
    const minCheck = checkPriceOnTick(market, orderType.min_price, 'Minimum price');
    if (!minCheck.ok) return minCheck;
    if (orderType.max_price < orderType.min_price) {
      return fail(
        ORDER_CODES.BOUNDS,
        `Maximum price ${showPrice(market, orderType.max_price)} is below the minimum price ${showPrice(market, orderType.min_price)}.`,
        { field: 'order_type' },
      );
    }
  }
  const tick = quantityTick(market);
  if (!isOnTick(quantity, tick)) {
    return fail(
      ORDER_CODES.QUANTITY_PRECISION,
      `Quantity ${showQuantity(market, quantity)} is finer than the market allows: quantities move in steps of ${showQuantity(market, tick)} (${market.base.max_precision} decimals).`,
      { field: 'quantity', value: quantity.toString(), tick: tick.toString() },
    );
  }
  // price * quantity once: the fractional-price rule, the order value and (for a buy) the amount
  // forwarded are all taken from it (the same figures as isWholeQuoteValue, quoteValue and
  // forwardedAmount; the sandbox validates every order on its matching path).
  const scale = powerOfTen(market.base.decimals);
  const product = price * quantity;
  if (product % scale !== 0n) {
    const suggested = lowerQuantityToWholeQuote(market, price, quantity);
    return fail(
      ORDER_CODES.FRACTIONAL_PRICE,
      `At ${showPrice(market, price)}, ${showQuantity(market, quantity)} is not worth a whole number of ${market.quote.symbol} units; the nearest valid quantity is ${showQuantity(market, suggested)}.`,
      { field: 'quantity', suggested_quantity: suggested.toString() },
    );
  }
  if (quantity < market.dust) {
    return fail(
      ORDER_CODES.DUST,
      `Quantity ${showQuantity(market, quantity)} is below the market's dust threshold of ${showQuantity(market, market.dust)} and would be ignored.`,
      { field: 'quantity' },
    );
  }
  const value = product / scale;
  if (value < market.min_order) {
    return fail(
      ORDER_CODES.MIN_ORDER,
      `Order value ${formatUnits(value, market.quote.decimals)} ${market.quote.symbol} is below the market minimum of ${formatUnits(market.min_order, market.quote.decimals)} ${market.quote.symbol}.`,
      { field: 'quantity', value: value.toString(), min_order: market.min_order.toString() },
    );
  }
  // What the order forwards must fit too: a buy's value (a sell's quantity was checked above).
  if (side === 'Buy' && value > U64_MAX) return fail(ORDER_CODES.AMOUNT_TOO_LARGE, `Order value ${value} is larger than the exchange can represent.`, { field: 'quantity' });
  return value;
}
