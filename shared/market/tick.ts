// Ticks and truncation to max_precision. Both price and quantity are floored: rounding a quantity
// up (as one public client does) could commit more than the trader asked for. Callers show the
// trader when a value changed.
import { powerOfTen, type MarketAsset, type MarketRules } from './market';

export interface Truncated {
  readonly value: bigint;
  /** True when the input was not on the tick and was lowered. */
  readonly changed: boolean;
}

/** 10^(decimals - max_precision); 1 (every raw value valid) when the exponent is not positive. */
export function assetTick(asset: MarketAsset): bigint {
  const exponent = asset.decimals - asset.max_precision;
  return exponent > 0 ? powerOfTen(exponent) : 1n;
}

export function priceTick(market: MarketRules): bigint {
  return assetTick(market.quote);
}

export function quantityTick(market: MarketRules): bigint {
  return assetTick(market.base);
}

/** Floor `value` to a multiple of `tick`. */
export function truncateToTick(value: bigint, tick: bigint): Truncated {
  const remainder = value % tick;
  return { value: value - remainder, changed: remainder !== 0n };
}

export function truncatePrice(market: MarketRules, price: bigint): Truncated {
  return truncateToTick(price, priceTick(market));
}

export function truncateQuantity(market: MarketRules, quantity: bigint): Truncated {
  return truncateToTick(quantity, quantityTick(market));
}

export function isOnTick(value: bigint, tick: bigint): boolean {
  return value % tick === 0n;
}
