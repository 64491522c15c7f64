// Health: liquidation threshold, freeze line and the tests on them (spec margin-api 2.6
// "Health" and 4.7), plus the absorption cost the spec leaves open and we define.
import { BugError, fail, ok, type Result } from '../result';
import { BASIS_POINTS, ceilDivide, maximum, minimum } from './arithmetic';
import { MarginErrorCode } from './errors';
import type { Cohort, MarginTier } from './snapshot';

/**
 * What the pool pays to unwind one position off market: the position's value at `price`
 * times the absorption band, rounded up because the account owes it:
 *   ceil(|pos| × price × absorption band bps / (10,000 × scale(a)))
 * One rounding over the exact product, so the cost never falls when the position, the price
 * or the band grows, and a flat position costs nothing. `price` is the bid for a long and
 * the ask for a short; the stressed cost takes the shocked ask for a short and keeps the
 * spot bid for a long (the higher of the two), so the stressed cost is never below the spot
 * cost and the freeze line stays at least (open_buffer - maintenance) above the threshold.
 */
export function absorptionCost(position: bigint, price: bigint, absorptionBandBps: bigint, scale: bigint): bigint {
  const quantity = position < 0n ? -position : position;
  return ceilDivide(quantity * price * absorptionBandBps, BASIS_POINTS * scale);
}

/** max_loss_bps[rollovers_used], clamped at the last entry. */
export function maxLossBpsFor(maxLossBps: readonly bigint[], rolloversUsed: number): bigint {
  const last = maxLossBps.length - 1;
  const entry = maxLossBps[Math.min(rolloversUsed, last)];
  if (entry === undefined) throw new BugError('maxLossBpsFor: empty max_loss_bps');
  return entry;
}

/**
 * loss floor = max(0, tier.line - floor(tier.line × max_loss_bps / 10,000)). Measured on the
 * constant tier.line, never on the anchor, and not clamped at k or tier.threshold: a final-term
 * floor may lie below k, and settlement books that tail as bad debt.
 */
export function lossFloor(line: bigint, maxLossBps: bigint): bigint {
  return maximum(0n, line - (line * maxLossBps) / BASIS_POINTS);
}

/** All-zero max_loss_bps: the tier sells no anchored drawdown and the static threshold stands alone. */
export function sellsAnchoredDrawdown(maxLossBps: readonly bigint[]): boolean {
  return maxLossBps.some((bps) => bps !== 0n);
}

/**
 * - LEGACY: threshold = tier.threshold, freeze line = k + open_buffer.
 * - ANCHORED_FLOOR (prepaid): threshold = floor + absorption cost (added, not maximized with
 *   tier.threshold); freeze line = floor + (open_buffer - maintenance) + stressed absorption cost.
 * - STATIC_THRESHOLD (prepaid tier with all-zero max_loss_bps): no floor exists, so the session
 *   is judged by the legacy lines. A floor computed from zero bps would sit at the whole line.
 */
export type HealthRule = 'LEGACY' | 'ANCHORED_FLOOR' | 'STATIC_THRESHOLD';

export interface HealthLines {
  readonly rule: HealthRule;
  /** null unless the rule is ANCHORED_FLOOR. */
  readonly lossFloor: bigint | null;
  readonly threshold: bigint;
  readonly freezeLine: bigint;
}

export function healthLines(input: {
  readonly cohort: Cohort;
  readonly tier: MarginTier;
  readonly rolloversUsed: number;
  readonly absorptionCost: bigint;
  readonly stressedAbsorptionCost: bigint;
}): Result<HealthLines> {
  const { cohort, tier } = input;
  const legacyLines = (rule: HealthRule): HealthLines => ({
    rule,
    lossFloor: null,
    threshold: tier.threshold,
    freezeLine: tier.capital + tier.openBuffer,
  });
  if (cohort === 'Legacy') return ok(legacyLines('LEGACY'));
  const turbo = tier.turbo;
  if (turbo === undefined) {
    return fail(MarginErrorCode.INVALID_TURBO_TERMS, 'tier.turbo: missing on a Turbo (prepaid) session, so its loss floor cannot be computed');
  }
  if (turbo.maxLossBps.length === 0) {
    return fail(MarginErrorCode.INVALID_TURBO_TERMS, 'tier.turbo.maxLossBps: expected at least one entry, got []');
  }
  const negative = turbo.maxLossBps.findIndex((bps) => bps < 0n);
  if (negative >= 0) {
    return fail(MarginErrorCode.INVALID_TURBO_TERMS, `tier.turbo.maxLossBps[${negative}]: expected >= 0, got ${turbo.maxLossBps[negative]}`);
  }
  if (!sellsAnchoredDrawdown(turbo.maxLossBps)) return ok(legacyLines('STATIC_THRESHOLD'));
  const floor = lossFloor(tier.line, maxLossBpsFor(turbo.maxLossBps, input.rolloversUsed));
  return ok({
    rule: 'ANCHORED_FLOOR',
    lossFloor: floor,
    threshold: floor + input.absorptionCost,
    freezeLine: floor + (tier.openBuffer - tier.maintenance) + input.stressedAbsorptionCost,
  });
}

/** Liquidatable if and only if V <= threshold; anyone may then liquidate. */
export function isLiquidatable(value: bigint, threshold: bigint): boolean {
  return value <= threshold;
}

/** giveaway allowance = max(0, V - threshold - 1): what can leave the account and keep it above the threshold. */
export function giveawayAllowance(value: bigint, threshold: bigint): bigint {
  return maximum(0n, value - threshold - 1n);
}

/** stressed equity = min(V stressed-marked, V stressed-filled) - k. */
export function stressedEquity(stressedMarkedValue: bigint, stressedFilledValue: bigint, capital: bigint): bigint {
  return minimum(stressedMarkedValue, stressedFilledValue) - capital;
}

/** Frozen if and only if stressed equity < freeze line - k: only risk-reducing batches pass. */
export function isFrozen(equityUnderStress: bigint, freezeLine: bigint, capital: bigint): boolean {
  return equityUnderStress < freezeLine - capital;
}
