// A margin session as the sandbox keeps it (margin 2.3, 2.4): what was posted, drawn and owed,
// the pinned tier version and cohort, the term and the prepaid rollover position. Mutable, and
// snapshotted once per transaction before its first change (touchSession) so a reverted batch
// restores it whole.
import type { Cohort, Period } from '../../shared/margin/index';
import type { Journal } from '../engine/journal';
import type { TierVersion } from './config';

export interface RolloverPosition {
  /** V at the start of the current term; fixed for the term. */
  anchor: bigint;
  /** Collateral value withdrawn this term (WithdrawFromMargin). */
  withdrawn: bigint;
  /** Value that arrived this term rather than being earned (AddCollateral). */
  outside: bigint;
  rolloversUsed: number;
}

export type SessionStatus = 'Active' | 'Closed' | 'Liquidated' | 'Expired';

export interface MarginSession {
  readonly id: number;
  readonly tier: TierVersion;
  /** Pinned at open (margin 2.3). */
  readonly cohort: Cohort;
  /** C: posted collateral including fees charged from it. */
  collateral: bigint;
  /** F: fees accrued this session. */
  fees: bigint;
  /** Dq: collateral-asset quote drawn from the pool. */
  quoteDrawn: bigint;
  /** In-kind debt per asset. */
  debts: Map<string, bigint>;
  /**
   * The PnL basis of realized profit (shared/margin settlement.ts): C - F at open, less fees
   * charged after open and the equity withdrawn to the parent, plus equity that arrived from
   * outside. Published as `session.pnl_basis`.
   */
  basis: bigint;
  /** Unix seconds. */
  readonly openedAt: bigint;
  /** Unix seconds, or NO_EXPIRY. */
  expiresAt: bigint;
  autoProlong: Period | null;
  /** Prepaid tiers with free terms only. */
  rollover: RolloverPosition | null;
  status: SessionStatus;
  /** Unix seconds; set when the session ended. */
  endedAt: bigint | null;
  /** How the session ended (settlement figures), for the activity log and the stream. */
  settlement: Readonly<Record<string, string>> | null;
  stamp: number;
}

/** Snapshot every mutable field once per transaction, before the first change. */
export function touchSession(journal: Journal, session: MarginSession): MarginSession {
  if (!journal.active || session.stamp === journal.stamp) return session;
  session.stamp = journal.stamp;
  const saved = {
    collateral: session.collateral,
    fees: session.fees,
    quoteDrawn: session.quoteDrawn,
    debts: new Map(session.debts),
    basis: session.basis,
    expiresAt: session.expiresAt,
    autoProlong: session.autoProlong,
    rollover: session.rollover === null ? null : { ...session.rollover },
    status: session.status,
    endedAt: session.endedAt,
    settlement: session.settlement,
  };
  journal.record(() => {
    Object.assign(session, saved);
    session.stamp = -1;
  });
  return session;
}

export function debtOf(session: MarginSession, asset: string): bigint {
  return session.debts.get(asset) ?? 0n;
}
