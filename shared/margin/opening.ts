// The amount forwarded with StartMarginSession and the term it buys (spec margin-api 4.3).
//
// Discount model (ours; the spec only says discounted_price truncates): the parent's active
// discount is a number of basis points d in 0..10,000, and
//   discounted(x) = floor(x × (10,000 - d) / 10,000)
// Each leg is discounted on its own and the legs are summed: truncating twice can give one
// base unit less than truncating the total, and a prepaid open must forward the exact amount.
import { fail, ok, type Result } from '../result';
import { BASIS_POINTS } from './arithmetic';
import { MarginErrorCode } from './errors';
import { NO_EXPIRY, isNoExpiry } from './expiry';
import type { Cohort } from './snapshot';

/** StartMarginSession `period` values (spec 4.3). */
export type Period = 'SixHours' | 'Day' | 'Week' | 'Month';

export const PERIODS: readonly Period[] = ['SixHours', 'Day', 'Week', 'Month'];

// A prepaid tier sells one term, flat, and refuses every period but Week at open.
const PREPAID_PERIODS: readonly Period[] = ['Week'];

/** The periods StartMarginSession accepts for the cohort. */
export function openablePeriods(cohort: Cohort): readonly Period[] {
  return cohort === 'Turbo' ? PREPAID_PERIODS : PERIODS;
}

/** discounted(x) = floor(x × (10,000 - discount bps) / 10,000); for 0 <= bps <= 10,000. */
export function discounted(value: bigint, discountBps: bigint): bigint {
  return (value * (BASIS_POINTS - discountBps)) / BASIS_POINTS;
}

export interface OpeningTerms {
  readonly cohort: Cohort;
  /** Legacy: refundable collateral. Prepaid: the entry price, forfeited at settlement. */
  readonly requiredCollateral: bigint;
  readonly openFee: bigint;
  readonly prolongFee: Readonly<Partial<Record<Period, bigint>>>;
  /** The parent's active fee discount, bps (docs/protocol.md (Margin): `discount.discount_bps`). */
  readonly discountBps: bigint;
  readonly period: Period;
}

export interface OpeningAmount {
  /** Legacy: required_collateral, never discounted. Prepaid: discounted(required_collateral). */
  readonly collateralLeg: bigint;
  /** discounted(open_fee + prolong_fee[period]). */
  readonly feeLeg: bigint;
  /** collateralLeg + feeLeg: the exact `amount` to forward. */
  readonly amount: bigint;
}

function checkPeriod(cohort: Cohort, period: Period): Result<Period> {
  if (!openablePeriods(cohort).includes(period)) {
    return fail(MarginErrorCode.PERIOD_NOT_ALLOWED, `period: a ${cohort} session opens only with ${openablePeriods(cohort).join(', ')}, got ${period}`);
  }
  return ok(period);
}

/**
 * Legacy:  amount = required_collateral + discounted(open_fee + prolong_fee[period])
 *          (discounting the collateral would under-fund the session and the open reverts).
 * Prepaid: amount = discounted(required_collateral) + discounted(open_fee + prolong_fee[Week]).
 */
export function openingAmount(terms: OpeningTerms): Result<OpeningAmount> {
  const { cohort, period, discountBps } = terms;
  const periodChecked = checkPeriod(cohort, period);
  if (!periodChecked.ok) return periodChecked;
  if (discountBps < 0n || discountBps > BASIS_POINTS) {
    return fail(MarginErrorCode.INVALID_DISCOUNT, `discountBps: expected 0..10000, got ${discountBps}`);
  }
  const prolongFee = terms.prolongFee[period];
  if (prolongFee === undefined) {
    return fail(MarginErrorCode.MISSING_PERIOD_TERMS, `prolongFee.${period}: the tier publishes no fee for this period`);
  }
  for (const [field, value] of [
    ['requiredCollateral', terms.requiredCollateral],
    ['openFee', terms.openFee],
    [`prolongFee.${period}`, prolongFee],
  ] as const) {
    if (value < 0n) return fail(MarginErrorCode.NEGATIVE_VALUE, `${field}: expected >= 0, got ${value}`);
  }
  const collateralLeg = cohort === 'Turbo' ? discounted(terms.requiredCollateral, discountBps) : terms.requiredCollateral;
  const feeLeg = discounted(terms.openFee + prolongFee, discountBps);
  return ok({ collateralLeg, feeLeg, amount: collateralLeg + feeLeg });
}

export interface OpeningTermInput {
  readonly cohort: Cohort;
  /** tier.duration: the base duration of a legacy session. */
  readonly duration: bigint;
  /** tier.prolong_seconds per period. */
  readonly prolongSeconds: Readonly<Partial<Record<Period, bigint>>>;
  /** tier.turbo.term_seconds; authoritative on a prepaid tier. */
  readonly termSeconds?: bigint;
  readonly period: Period;
}

/**
 * Seconds the opening amount buys, or NO_EXPIRY.
 * Legacy: duration + prolong_seconds[period] (base duration plus the chosen initial period).
 * Prepaid: turbo.term_seconds, one term, never derived from duration + prolong_seconds.
 */
export function openingTermSeconds(input: OpeningTermInput): Result<bigint> {
  const periodChecked = checkPeriod(input.cohort, input.period);
  if (!periodChecked.ok) return periodChecked;
  if (input.cohort === 'Turbo') {
    if (input.termSeconds === undefined) return fail(MarginErrorCode.INVALID_TURBO_TERMS, 'termSeconds: missing on a prepaid tier');
    return ok(input.termSeconds);
  }
  const extra = input.prolongSeconds[input.period];
  if (extra === undefined) {
    return fail(MarginErrorCode.MISSING_PERIOD_TERMS, `prolongSeconds.${input.period}: the tier publishes no length for this period`);
  }
  // The sentinel is a flag: adding to it would overflow u64 and lose the meaning.
  if (isNoExpiry(input.duration) || isNoExpiry(extra)) return ok(NO_EXPIRY);
  return ok(input.duration + extra);
}
