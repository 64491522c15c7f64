// The codes of an algorithm plan that cannot be made. Each failure names the field the trader
// changes (details.field) and, where one exists, the value that would work (details.largestCount).
export const ALGO_PLAN_CODES = {
  /** The total is not a whole number of the market's size step. */
  QUANTITY_OFF_STEP: 'ALGO_QUANTITY_OFF_STEP',
  /** The total is below the smallest order the book accepts: not even one child can be placed. */
  QUANTITY_BELOW_MINIMUM: 'ALGO_QUANTITY_BELOW_MINIMUM',
  /** Scale: count is not a whole number in range. */
  INVALID_COUNT: 'ALGO_INVALID_COUNT',
  /** Scale: so many orders would leave one below the minimum order; details.largestCount fits. */
  COUNT_TOO_LARGE: 'ALGO_COUNT_TOO_LARGE',
  /** Scale: the range holds fewer ticks than orders; details.largestCount fits. */
  RANGE_TOO_NARROW: 'ALGO_RANGE_TOO_NARROW',
  /** Scale: a price is zero or rounds to zero. */
  INVALID_PRICE: 'ALGO_INVALID_PRICE',
  /** Scale: a geometric ratio that does not grow (at most 10,000 bps). */
  INVALID_RATIO: 'ALGO_INVALID_RATIO',
  /** TWAP: a duration or interval that is not a whole number of milliseconds in range. */
  INVALID_SCHEDULE: 'ALGO_INVALID_SCHEDULE',
  /** TWAP: more slices than one schedule holds. */
  TOO_MANY_SLICES: 'ALGO_TOO_MANY_SLICES',
  /** A jitter outside 0..10,000 basis points. */
  INVALID_JITTER: 'ALGO_INVALID_JITTER',
} as const;

/** floor(numerator / denominator) for a positive denominator (bigint division truncates towards zero). */
export function floorDivide(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  return numerator % denominator < 0n ? quotient - 1n : quotient;
}

/** ceil(numerator / denominator) for a positive denominator. */
export function ceilDivide(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  return numerator % denominator > 0n ? quotient + 1n : quotient;
}
