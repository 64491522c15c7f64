// The smallest order a book accepts, from its row: on the size step, not below the dust threshold
// (a smaller size is ignored by the book) and worth at least min_order at a reference price. A
// default size or a preset below it would make the trader's first click a refusal.
import { powerOfTen, type MarketRules } from './market';
import { priceTick, quantityTick } from './tick';

function greatestCommonDivisor(left: bigint, right: bigint): bigint {
  let a = left;
  let b = right;
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

/**
 * The step a size can take that is valid at every price on the tick: a multiple of the quantity
 * tick whose value at any on-tick price is a whole number of quote units (the fractional-price
 * rule). Equal to the quantity tick on most markets; coarser where the price tick is finer than the
 * base's decimals leave room for (ETH/USDT at 0.001 USDT: 0.001 ETH, not 0.0001).
 */
export function sizeStep(market: MarketRules): bigint {
  const scale = powerOfTen(market.base.decimals);
  const tick = quantityTick(market);
  const wholeQuote = scale / greatestCommonDivisor(priceTick(market), scale);
  return (tick * wholeQuote) / greatestCommonDivisor(tick, wholeQuote);
}

/**
 * The smallest size on the size step that the book accepts at `price`: at least one step, at least
 * the dust threshold, and worth at least min_order at `price` (raw base units). Without a price only
 * the step and dust are known, and the result is that lower bound.
 */
export function minimumOrderSize(market: MarketRules, price: bigint | null): bigint {
  const step = sizeStep(market);
  const roundUp = (quantity: bigint) => ((quantity + step - 1n) / step) * step;
  let minimum = roundUp(market.dust > step ? market.dust : step);
  if (price !== null && price > 0n) {
    // ceil(min_order * 10^base.decimals / price): the quantity whose value reaches min_order.
    const byValue = roundUp((market.min_order * powerOfTen(market.base.decimals) + price - 1n) / price);
    if (byValue > minimum) minimum = byValue;
  }
  return minimum;
}
