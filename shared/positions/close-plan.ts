// What a flatten sends for one position, decided before the confirmation and again, identically,
// before signing: the position floored to the market's size step and lowered to a whole quote
// value at the order's worst price (the rules prepareOrder applies), then held to the book's
// dust threshold, minimum order value and the trader's maximum order size. What the closing order
// cannot take stays on the account; the plan says how much and why, so the confirmation can state
// it and the positions panel can keep showing it.
import { formatUnits } from '../encoding/units';
import { feeOwed, lowerQuantityToWholeQuote, quoteValue } from '../market/amounts';
import type { MarketRules } from '../market/market';
import type { Side } from '../market/order-type';
import { quantityTick } from '../market/tick';

export interface ClosePlan {
  /** The closing order's side; null when flat. */
  readonly side: Side | null;
  /** Raw base units the closing order trades; zero when no order is sent. */
  readonly quantity: bigint;
  /**
   * The signed position after the closing order fills in full, raw base units. A buy pays its fee
   * in base, so closing a short leaves the fee on top of what the order could not take.
   */
  readonly remainder: bigint;
  /** Why the remainder cannot be closed by any order (null when nothing remains). */
  readonly remainderReason: string | null;
  /** Why no order is sent at all (null when one is): the exchange's rules or the trader's cap. */
  readonly refusal: string | null;
  /** The refusal comes from the exchange's rules (no order can close the position), not a setting. */
  readonly notClosable: boolean;
}

export interface CloseTerms {
  /** The closing order's worst price (the bounded market order's bound); null without a price. */
  readonly price: bigint | null;
  /** The trader's maximum order size for this market (Settings), raw base units. */
  readonly maxQuantity?: bigint | undefined;
  /** The taker fee of the book in ppm, for the fee a closing buy pays in base. */
  readonly takerFee?: bigint;
}

const FLAT_PLAN: ClosePlan = { side: null, quantity: 0n, remainder: 0n, remainderReason: null, refusal: null, notClosable: false };

/** A base amount in display units with its symbol ("0.0001 ETH"); the algorithms' notes say rounding with it too. */
export function amount(market: MarketRules, raw: bigint): string {
  return `${formatUnits(raw, market.base.decimals)} ${market.base.symbol}`;
}

/** A quote amount in display units with its symbol ("2970.5 USDC"). */
export function quoteAmount(market: MarketRules, raw: bigint): string {
  return `${formatUnits(raw, market.quote.decimals)} ${market.quote.symbol}`;
}

/** Why `quantity` (on the step, lowered to a whole quote value) cannot be an order at `price` (null when it can). */
function ruleAgainst(market: MarketRules, floored: bigint, quantity: bigint, price: bigint | null): string | null {
  const step = quantityTick(market);
  if (floored < step) return `below the ${amount(market, step)} size step: no order can close it`;
  if (quantity === 0n) return `not worth a whole number of ${market.quote.symbol} units at ${quoteAmount(market, price ?? 0n)} in any multiple of the step: no order can close it`;
  if (quantity < market.dust) return `below the market's dust threshold of ${amount(market, market.dust)}: no order can close it`;
  if (price !== null && quoteValue(market, price, quantity) < market.min_order) {
    return `worth ${quoteAmount(market, quoteValue(market, price, quantity))} at ${quoteAmount(market, price)}, below the market's minimum order of ${quoteAmount(market, market.min_order)}: no order can close it`;
  }
  return null;
}

/** What an order could take of `held` at `price`: floored to the step, then lowered to a whole quote value. */
function orderable(market: MarketRules, held: bigint, price: bigint | null): { floored: bigint; quantity: bigint } {
  const step = quantityTick(market);
  const floored = held - (held % step);
  return { floored, quantity: price !== null && floored > 0n ? lowerQuantityToWholeQuote(market, price, floored) : floored };
}

/** The closing order of a position of signed `size` and what it leaves. */
export function closePlan(market: MarketRules, size: bigint, terms: CloseTerms): ClosePlan {
  if (size === 0n) return FLAT_PLAN;
  const side: Side = size > 0n ? 'Sell' : 'Buy';
  const held = size > 0n ? size : -size;
  const { floored, quantity } = orderable(market, held, terms.price);
  const blocked = ruleAgainst(market, floored, quantity, terms.price);
  if (blocked !== null) {
    const reason = `${amount(market, held)} is ${blocked}`;
    return { side, quantity: 0n, remainder: size, remainderReason: reason, refusal: reason, notClosable: true };
  }
  if (terms.maxQuantity !== undefined && quantity > terms.maxQuantity) {
    const refusal = `closing ${amount(market, quantity)} is above your maximum order size of ${amount(market, terms.maxQuantity)} (Settings): raise it to flatten in one order`;
    return { side, quantity: 0n, remainder: size, remainderReason: null, refusal, notClosable: false };
  }
  const left = held - quantity;
  // The fee a closing buy pays in base comes out of what it buys (the short is not fully covered).
  const fee = side === 'Buy' ? feeOwed(quantity, terms.takerFee ?? 0n) : 0n;
  const remainder = side === 'Sell' ? left : -(left + fee);
  let remainderReason: string | null = null;
  if (remainder !== 0n) {
    const magnitude = remainder < 0n ? -remainder : remainder;
    const rest = orderable(market, magnitude, terms.price);
    const rule = ruleAgainst(market, rest.floored, rest.quantity, terms.price);
    const feeNote = fee > 0n ? ` (the buy's fee of ${amount(market, fee)} is paid in ${market.base.symbol})` : '';
    remainderReason =
      rule !== null
        ? `leaves ${amount(market, magnitude)}${feeNote}, ${rule}`
        : `leaves ${amount(market, magnitude)}${feeNote}: at ${terms.price === null ? 'this price' : quoteAmount(market, terms.price)} a larger order is not worth a whole number of ${market.quote.symbol} units`;
  }
  return { side, quantity, remainder, remainderReason, refusal: null, notClosable: false };
}

/** The shares of a position a partial close offers. */
export const CLOSE_PERCENTS = [25, 50, 75, 100] as const;
export type ClosePercent = (typeof CLOSE_PERCENTS)[number];

/**
 * What a close of `percent` of a position sends. `quantity` and `remainder` are the ClosePlan's, the
 * remainder now being the whole signed position left after the order fills in full.
 */
export interface PartialClosePlan extends ClosePlan {
  readonly percent: ClosePercent;
  /** The share of the position before rounding, raw base units. */
  readonly requested: bigint;
  /** How the share was rounded to an order the book takes (null when it was not). */
  readonly rounding: string | null;
  /**
   * The position left is dust no order can close, why, and its cleanup (null when it is not): at
   * 100 % what stays on the account, below 100 % the full close that takes it along.
   */
  readonly dust: string | null;
}

/** The order that closes `percent` of a position of signed `size`, and what it leaves. */
export function partialClosePlan(market: MarketRules, size: bigint, percent: ClosePercent, terms: CloseTerms): PartialClosePlan {
  const held = size < 0n ? -size : size;
  if (percent === 100) {
    const whole = closePlan(market, size, terms);
    return { ...whole, percent, requested: held, rounding: null, dust: whole.refusal === null ? whole.remainderReason : null };
  }
  if (size === 0n) return { ...FLAT_PLAN, percent, requested: 0n, rounding: null, dust: null };
  const requested = (held * BigInt(percent)) / 100n;
  const sign = size < 0n ? -1n : 1n;
  const { floored, quantity } = orderable(market, requested, terms.price);
  const blocked = ruleAgainst(market, floored, quantity, terms.price);
  if (blocked !== null) {
    const reason = `${percent} % of ${amount(market, held)} is ${amount(market, requested)}, ${blocked}; close 100 % instead`;
    return { side: size > 0n ? 'Sell' : 'Buy', quantity: 0n, remainder: size, remainderReason: reason, refusal: reason, notClosable: true, percent, requested, rounding: null, dust: null };
  }
  const share = closePlan(market, sign * quantity, terms);
  if (share.refusal !== null) return { ...share, remainder: size, percent, requested, rounding: null, dust: null };
  // What the share's order leaves of the share (a buy's fee in base) stays with the rest of the position.
  const remainder = size - sign * quantity + share.remainder;
  const step = quantityTick(market);
  const rounding =
    quantity === requested
      ? null
      : `${percent} % is ${amount(market, requested)}, rounded down to ${amount(market, quantity)} (${floored === quantity ? `the ${amount(market, step)} size step` : `the ${amount(market, step)} size step and a whole number of ${market.quote.symbol} units`})`;
  const magnitude = remainder < 0n ? -remainder : remainder;
  const rest = orderable(market, magnitude, terms.price);
  const rule = remainder === 0n ? null : ruleAgainst(market, rest.floored, rest.quantity, terms.price);
  const dust = rule === null ? null : `leaves ${amount(market, magnitude)}, ${rule}; close 100 % instead to take it along`;
  return { ...share, remainder, remainderReason: dust, percent, requested, rounding, dust };
}

/**
 * A reverse: the flatten's closing order, then an opening order of the same size on the same side
 * (the trader ends with the opposite position of the size closed), in one signed batch.
 */
export interface ReversePlan {
  readonly side: Side | null;
  readonly close: ClosePlan;
  /** Raw base units of the opening order, the close's quantity; zero when nothing is sent. */
  readonly open: bigint;
  /** The signed position after both orders fill in full (each buy pays its fee in base). */
  readonly after: bigint;
  /** Why nothing is sent (the flatten's refusal), null when both orders are. */
  readonly refusal: string | null;
}

/** The reverse of a position of signed `size`: the opening order can be sent when the close can (same size, side and price). */
export function reversePlan(market: MarketRules, size: bigint, terms: CloseTerms): ReversePlan {
  const close = closePlan(market, size, terms);
  if (close.refusal !== null || close.side === null) return { side: close.side, close, open: 0n, after: size, refusal: close.refusal ?? 'the position is flat: there is nothing to reverse' };
  const open = close.quantity;
  const after = close.side === 'Buy' ? close.remainder + open - feeOwed(open, terms.takerFee ?? 0n) : close.remainder - open;
  return { side: close.side, close, open, after, refusal: null };
}
