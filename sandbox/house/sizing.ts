// Prices and quantities the house can actually place on a market: on the ticks, whole quote
// value (FractionalPrice), at least min_order and dust. Built on shared/market's rules.
import { isWholeQuoteValue, quoteValue } from '../../shared/market/amounts';
import { powerOfTen } from '../../shared/market/market';
import { priceTick, quantityTick, truncateToTick } from '../../shared/market/tick';
import type { MarketConfig } from '../config/network';

/** `price` floored to the market's price tick, never below one tick. */
export function onPriceTick(market: MarketConfig, price: bigint): bigint {
  const tick = priceTick(market);
  const floored = truncateToTick(price, tick).value;
  return floored < tick ? tick : floored;
}

/** The smallest valid quantity at `price` that is at least `atLeast` (undefined if none nearby). */
export function validQuantity(market: MarketConfig, price: bigint, atLeast = 0n): bigint | undefined {
  const tick = quantityTick(market);
  const minimum = (market.min_order * powerOfTen(market.base.decimals) + price - 1n) / price;
  let quantity = [atLeast, market.dust, minimum, tick].reduce((a, b) => (a > b ? a : b));
  quantity = ((quantity + tick - 1n) / tick) * tick;
  for (let i = 0; i < 10_000; i++, quantity += tick) {
    if (isWholeQuoteValue(market, price, quantity) && quoteValue(market, price, quantity) >= market.min_order) return quantity;
  }
  return undefined;
}
