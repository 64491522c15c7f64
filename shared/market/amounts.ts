// Amounts derived from an order: its quote value, what it forwards (locks) with the call,
// the fractional-price rule and the fee. All integer; owed amounts round up, owned amounts down.
import type { B256 } from '../encoding/b256';
import { powerOfTen, PPM, type MarketRules } from './market';
import type { Side } from './order-type';
import { quantityTick } from './tick';

/** floor(price * quantity / 10^base.decimals): the quote value of a quantity at a price. */
export function quoteValue(market: MarketRules, price: bigint, quantity: bigint): bigint {
  return (price * quantity) / powerOfTen(market.base.decimals);
}

/** The fractional-price rule: price * quantity must be a whole number of quote raw units. */
export function isWholeQuoteValue(market: MarketRules, price: bigint, quantity: bigint): boolean {
  return (price * quantity) % powerOfTen(market.base.decimals) === 0n;
}

function greatestCommonDivisor(left: bigint, right: bigint): bigint {
  let a = left < 0n ? -left : left;
  let b = right < 0n ? -right : right;
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

/**
 * The largest quantity <= `quantity` that is on the quantity tick and satisfies the
 * fractional-price rule at `price`. It is a multiple of lcm(tick, 10^bd / gcd(price, 10^bd)).
 * Zero when no positive quantity fits under `quantity`.
 */
export function lowerQuantityToWholeQuote(market: MarketRules, price: bigint, quantity: bigint): bigint {
  const scale = powerOfTen(market.base.decimals);
  const tick = quantityTick(market);
  const step = price === 0n ? 1n : scale / greatestCommonDivisor(price, scale);
  const combined = (step * tick) / greatestCommonDivisor(step, tick);
  return quantity - (quantity % combined);
}

export interface Forwarded {
  /** Asset forwarded (locked) with the call. */
  readonly asset: B256;
  readonly amount: bigint;
}

/** Buy: floor(price * quantity / 10^bd) of quote; sell: quantity of base. */
export function forwardedAmount(market: MarketRules, side: Side, price: bigint, quantity: bigint): Forwarded {
  return side === 'Buy' ? { asset: market.quote.asset, amount: quoteValue(market, price, quantity) } : { asset: market.base.asset, amount: quantity };
}

const PPM_LESS_ONE = PPM - 1n;

/** ceil(amount * ppm / 10^6): a fee the trader owes rounds up, never in the trader's favour. */
export function feeOwed(amount: bigint, ppm: bigint): bigint {
  const product = amount * ppm;
  return product === 0n ? 0n : (product + PPM_LESS_ONE) / PPM;
}

export type FeeRole = 'maker' | 'taker';

/** The fee, in quote raw units, on the quote value of an order filled entirely in `role`. */
export function orderFee(market: MarketRules, price: bigint, quantity: bigint, role: FeeRole): bigint {
  return feeOwed(quoteValue(market, price, quantity), role === 'maker' ? market.maker_fee : market.taker_fee);
}

/** An amount below the market's dust threshold is ignored by the book. */
export function isDust(market: MarketRules, amount: bigint): boolean {
  return amount < market.dust;
}
