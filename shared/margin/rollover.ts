// Rollover progress on prepaid tiers (spec margin-api 2.4): a free term is earned by clearing
// profit_required above the term's anchor. Withdrawals are added back (they do not move the
// anchor) and outside arrivals such as AddCollateral are taken out (they are not earned).
import { BASIS_POINTS, ceilDivide } from './arithmetic';
import type { RolloverState } from './snapshot';

/**
 * profit_required = ceil(tier.line × rollover_profit_bps / 10,000). The spec writes no rounding;
 * a bar the trader must clear rounds against the trader, as owed value does (section 2.1): the
 * free term is never earned on a fraction of a unit short of the bar.
 */
export function profitRequired(line: bigint, rolloverProfitBps: bigint): bigint {
  return ceilDivide(line * rolloverProfitBps, BASIS_POINTS);
}

export interface RolloverProgress {
  readonly profitRequired: bigint;
  /** V - anchor + withdrawn - outside; may be negative. */
  readonly progress: bigint;
  /** max(0, profitRequired - progress). */
  readonly remaining: bigint;
  /** progress >= profitRequired; the chain decides at the term deadline. */
  readonly reached: boolean;
  /** rolloversUsed < maxRollovers: a free term can still be earned. */
  readonly canEarnMore: boolean;
}

export function rolloverProgress(value: bigint, rollover: RolloverState, required: bigint): RolloverProgress {
  const progress = value - rollover.anchor + rollover.withdrawn - rollover.outside;
  return {
    profitRequired: required,
    progress,
    remaining: progress >= required ? 0n : required - progress,
    reached: progress >= required,
    canEarnMore: rollover.rolloversUsed < rollover.maxRollovers,
  };
}
