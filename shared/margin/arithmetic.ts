// Integer arithmetic of the margin formulas (spec margin-api 2.1 and 2.6).
// Every division here has a non-negative numerator and a positive divisor, so bigint `/`
// (which truncates toward zero) is a floor. Owned value rounds down, owed value rounds up:
// the account is never credited with a fraction it does not have, nor excused one it owes.
import { BugError } from '../result';

/** Basis-point constant of the spec: 10,000 bps is 100 %. */
export const BASIS_POINTS = 10_000n;

/** Prices are decimal strings scaled by 1e18. */
export const PRICE_DECIMALS = 18;

/** The largest asset or collateral decimals accepted; u64 assets never need more than 19. */
export const MAX_DECIMALS = 36;

// 10^n for every exponent scale() can ask for, computed once: `10n ** x` in the hot path
// would dominate a risk recompute.
const POWERS_OF_TEN: readonly bigint[] = Array.from({ length: PRICE_DECIMALS + MAX_DECIMALS + 1 }, (_, exponent) => 10n ** BigInt(exponent));

/** 10^exponent for 0 <= exponent <= PRICE_DECIMALS + MAX_DECIMALS. */
export function powerOfTen(exponent: number): bigint {
  const power = POWERS_OF_TEN[exponent];
  if (power === undefined) throw new BugError(`powerOfTen: exponent ${exponent} outside 0..${POWERS_OF_TEN.length - 1}`);
  return power;
}

/**
 * scale(a) = 10^(18 + ad[a] - min(cd, 18)): dividing quantity × price by it turns raw units of
 * asset a at a 1e18-scaled price into raw collateral units.
 */
export function scaleFor(assetDecimals: number, collateralDecimals: number): bigint {
  return powerOfTen(PRICE_DECIMALS + assetDecimals - Math.min(collateralDecimals, PRICE_DECIMALS));
}

/** ceil(x / y) for x >= 0, y > 0, written as the spec writes it: zero when x is zero. */
export function ceilDivide(numerator: bigint, divisor: bigint): bigint {
  return numerator === 0n ? 0n : (numerator + divisor - 1n) / divisor;
}

/** ownedValue(q, p, a) = floor(q × p / scale(a)); for q >= 0 and p >= 0. */
export function ownedValue(quantity: bigint, price: bigint, scale: bigint): bigint {
  return (quantity * price) / scale;
}

/** owedValue(q, p, a) = ceil(q × p / scale(a)); for q >= 0 and p >= 0. */
export function owedValue(quantity: bigint, price: bigint, scale: bigint): bigint {
  return ceilDivide(quantity * price, scale);
}

/**
 * mark(pos): a long is worth what it sells for at the bid, rounded down; a short costs what it
 * takes to buy back at the ask, rounded up, and counts negative.
 */
export function markPosition(position: bigint, bid: bigint, ask: bigint, scale: bigint): bigint {
  // For a short, -ceil(|pos| × ask / scale) is (pos × ask - (scale - 1)) / scale: bigint `/`
  // truncates toward zero, which on this non-positive numerator is the floor of the negative.
  // Three operations instead of six: every recompute marks each position up to five times.
  return position >= 0n ? (position * bid) / scale : (position * ask - scale + 1n) / scale;
}

/** |x| for bigint. */
export function absolute(value: bigint): bigint {
  return value < 0n ? -value : value;
}

export function maximum(first: bigint, second: bigint): bigint {
  return first > second ? first : second;
}

export function minimum(first: bigint, second: bigint): bigint {
  return first < second ? first : second;
}

/** floor(value × bps / 10,000) for value >= 0 and bps >= 0. */
export function basisPointsOf(value: bigint, bps: bigint): bigint {
  return (value * bps) / BASIS_POINTS;
}
