// A scale order: `count` limit orders spread evenly from the price `from` to the price `to`, sizes
// flat or running up or down (linear, or geometric by a ratio). Every price is on the tick, rounded
// in the trader's favour (a buy down, a sell up); every size is on the size step and at least the
// smallest order the book takes at its price; the sizes add up to exactly the total. The notes say
// every rounding in the market's display units, so the preview can show it before anything is signed.
import type { Market } from '../market/market';
import { minimumOrderSize, sizeStep } from '../market/minimum-size';
import type { Side } from '../market/order-type';
import { priceTick } from '../market/tick';
import type { AlgoPlannedChild, ScaleShape } from '../ipc/views/algos';
import { amount } from '../positions/close-plan';
import { priceText } from '../market/price-text';
import { fail, ok, type Result } from '../result';
import { ALGO_PLAN_CODES, ceilDivide, floorDivide } from './plan-codes';

/** More orders than this is a ladder no trader reads; it also bounds the signing (20 batches of 5). */
export const MAX_SCALE_ORDERS = 100;
const BASIS_POINTS = 10_000n;

export interface ScaleInput {
  readonly side: Side;
  /** The total, raw base units. */
  readonly quantity: bigint;
  /** The first order's price and the last one's, raw (either may be the higher). */
  readonly from: bigint;
  readonly to: bigint;
  readonly count: number;
  readonly shape: ScaleShape;
}

export interface ScalePlan {
  /** From the order at `from` to the order at `to`. */
  readonly orders: readonly AlgoPlannedChild[];
  readonly notes: readonly string[];
}

/** Each order's share of the total, in the order of the prices (only their ratios matter). */
function weights(count: number, shape: ScaleShape): bigint[] {
  const positions = Array.from({ length: count }, (_, index) => index);
  if (shape.distribution === 'flat') return positions.map(() => 1n);
  const rising = (index: number) => (shape.distribution === 'increasing' ? index : count - 1 - index);
  if (shape.curve === 'linear') return positions.map((index) => BigInt(rising(index) + 1));
  // ratio^k = ratioBps^k / 10,000^k; multiplied through by 10,000^(count - 1) to stay whole.
  return positions.map((index) => shape.ratioBps ** BigInt(rising(index)) * BASIS_POINTS ** BigInt(count - 1 - rising(index)));
}

/** The evenly spaced prices, rounded to the tick in the trader's favour; and whether any moved. */
function prices(market: Market, input: ScaleInput, count: number): { prices: bigint[]; rounded: boolean } {
  const tick = priceTick(market);
  const spans = BigInt(Math.max(count - 1, 1));
  let rounded = false;
  const list = Array.from({ length: count }, (_, index) => {
    // from + (to - from) × index / (count - 1), in ticks, as one fraction so nothing rounds twice.
    const numerator = input.from * spans + (input.to - input.from) * BigInt(index);
    const denominator = spans * tick;
    const ticks = input.side === 'Buy' ? floorDivide(numerator, denominator) : ceilDivide(numerator, denominator);
    if (ticks * denominator !== numerator) rounded = true;
    return ticks * tick;
  });
  return { prices: list, rounded };
}

type Attempt =
  | { readonly ok: true; readonly orders: AlgoPlannedChild[]; readonly pricesRounded: boolean; readonly remainder: bigint; readonly remainderAt: number }
  | { readonly ok: false; readonly smallest: AlgoPlannedChild; readonly minimum: bigint };

/** The plan for `count` orders, or the order that falls below its minimum. */
function attempt(market: Market, input: ScaleInput, count: number): Attempt {
  const step = sizeStep(market);
  const spread = prices(market, input, count);
  const shares = weights(count, input.shape);
  const total = shares.reduce((sum, share) => sum + share, 0n);
  const units = input.quantity / step;
  const sizes = shares.map((share) => ((units * share) / total) * step);
  const remainder = input.quantity - sizes.reduce((sum, size) => sum + size, 0n);
  // The remainder goes to the largest end so a shape stays monotone: the last order unless sizes decrease.
  const remainderAt = input.shape.distribution === 'decreasing' ? 0 : count - 1;
  sizes[remainderAt] = (sizes[remainderAt] ?? 0n) + remainder;
  const orders = sizes.map((quantity, index) => ({ price: spread.prices[index] ?? 0n, quantity }));
  for (const order of orders) {
    const minimum = minimumOrderSize(market, order.price);
    if (order.quantity < minimum) return { ok: false, smallest: order, minimum };
  }
  return { ok: true, orders, pricesRounded: spread.rounded, remainder, remainderAt };
}

function orderWord(count: number): string {
  return count === 1 ? '1 order' : `${count} orders`;
}

/** The scale order's children and the rounding said, or why it cannot be placed (with the field to change). */
export function planScale(market: Market, input: ScaleInput): Result<ScalePlan> {
  const { count } = input;
  if (!Number.isSafeInteger(count) || count < 1 || count > MAX_SCALE_ORDERS) {
    return fail(ALGO_PLAN_CODES.INVALID_COUNT, `Number of orders must be a whole number from 1 to ${MAX_SCALE_ORDERS}.`, { field: 'count' });
  }
  const tick = priceTick(market);
  const step = sizeStep(market);
  if (input.quantity <= 0n || input.quantity % step !== 0n) {
    return fail(ALGO_PLAN_CODES.QUANTITY_OFF_STEP, `Total ${amount(market, input.quantity)} must be above zero and a whole number of the ${amount(market, step)} size step.`, { field: 'quantity' });
  }
  for (const field of ['from', 'to'] as const) {
    const price = input[field];
    const lowest = input.side === 'Buy' ? tick : 1n;
    if (price < lowest) {
      return fail(ALGO_PLAN_CODES.INVALID_PRICE, `Price ${field === 'from' ? 'from' : 'to'} ${priceText(market, price)} must be at least the ${priceText(market, tick)} tick.`, { field });
    }
  }
  if (input.shape.distribution !== 'flat' && input.shape.curve === 'geometric' && input.shape.ratioBps <= BASIS_POINTS) {
    return fail(ALGO_PLAN_CODES.INVALID_RATIO, `Ratio must be above 10,000 bps (×1): each order is that much larger than the one before on the rising side.`, { field: 'ratioBps' });
  }
  const span = input.to > input.from ? input.to - input.from : input.from - input.to;
  if (BigInt(count - 1) * tick > span) {
    const largestCount = Number(span / tick) + 1;
    return fail(
      ALGO_PLAN_CODES.RANGE_TOO_NARROW,
      `${orderWord(count)} need prices at least one ${priceText(market, tick)} tick apart; from ${priceText(market, input.from)} to ${priceText(market, input.to)} fits at most ${orderWord(largestCount)}.`,
      { field: 'count', largestCount },
    );
  }
  const planned = attempt(market, input, count);
  if (!planned.ok) {
    let largestCount = 0;
    for (let fewer = count - 1; fewer >= 1 && largestCount === 0; fewer--) if (attempt(market, input, fewer).ok) largestCount = fewer;
    const below = `${amount(market, planned.smallest.quantity)} at ${priceText(market, planned.smallest.price)}, below the smallest order of ${amount(market, planned.minimum)} there`;
    if (largestCount === 0) {
      return fail(ALGO_PLAN_CODES.QUANTITY_BELOW_MINIMUM, `Total ${amount(market, input.quantity)} is too small for even one order: ${below}.`, { field: 'quantity' });
    }
    return fail(
      ALGO_PLAN_CODES.COUNT_TOO_LARGE,
      `${orderWord(count)} would make one of ${below}; at most ${orderWord(largestCount)} fit ${amount(market, input.quantity)}.`,
      { field: 'count', largestCount },
    );
  }
  const notes: string[] = [];
  if (planned.pricesRounded) {
    notes.push(
      input.side === 'Buy'
        ? `Prices rounded down to the ${priceText(market, tick)} tick: no buy is above its evenly spaced price.`
        : `Prices rounded up to the ${priceText(market, tick)} tick: no sell is below its evenly spaced price.`,
    );
  }
  if (planned.remainder > 0n && count > 1) {
    const end = planned.remainderAt === 0 ? 'first' : 'last';
    const at = planned.orders[planned.remainderAt];
    notes.push(
      `Sizes rounded down to the ${amount(market, step)} step; ${amount(market, planned.remainder)} added to the ${end} order${at === undefined ? '' : ` (at ${priceText(market, at.price)})`} so the orders add up to ${amount(market, input.quantity)}.`,
    );
  }
  return ok({ orders: planned.orders, notes });
}

