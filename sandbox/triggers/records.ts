// A trigger leg as the ledger keeps it: the leg as signed, where it stands, what it holds in escrow
// and what became of it. Mutable fields are snapshotted once per transaction before their first
// change (touchTrigger), so a reverted batch or a failed fire restores them.
import type { B256 } from '../../shared/encoding/b256';
import type { TriggerDirection, TriggerLeg } from '../../shared/protocol/trigger';
import type { Journal } from '../engine/journal';

export type TriggerState = 'pending' | 'fired' | 'cancelled';

export interface TriggerHistoryEntry {
  readonly type: 'created' | 'fired' | 'cancel';
  readonly status: 'success';
  readonly tx_id: string;
}

/**
 * Why a leg stopped being pending without firing, or what stopped the order it named (docs/sandbox.md
 * "Trigger orders"). The order's own revert reasons (OrderBelowMinimum, PriceOutsideWindow, ...) are
 * used as they are.
 */
export const TRIGGER_CANCEL_REASONS = {
  /** The owner cancelled it (CancelTriggerOrder, or CancelOrder with its id). */
  CANCELLED: 'Cancelled',
  /** The other leg of its OCO pair fired. */
  OCO_SIBLING_FIRED: 'OcoSiblingFired',
  /** The owner cancelled the order it is bound to. */
  PARENT_CANCELLED: 'ParentCancelled',
  /** Sized from a parent that closed without any fill: it could never arm. */
  PARENT_NOT_FILLED: 'ParentNotFilled',
  /** The margin session of its account ended (closed, expired or liquidated). */
  SESSION_ENDED: 'SessionEnded',
} as const;

export interface TriggerRecord {
  readonly id: B256;
  readonly marketId: B256;
  /** The trading account that placed it. */
  readonly account: B256;
  /** The leg as signed; an attached leg's zero parent id is replaced by the new order's id. */
  readonly leg: TriggerLeg;
  /** Fixed at creation from the side of the market the trigger stood on. */
  readonly direction: TriggerDirection;
  /**
   * Per book it watches (by contract id), the last trade sequence when it was judged: only later
   * trades can fire it (an attached leg is judged before its own order trades).
   */
  readonly since: ReadonlyMap<string, number>;
  /** The order it is bound to (attached legs, and standalone legs with `parent`). */
  readonly parentId?: B256;
  /** The parent's initial quantity (attached legs: the new order's quantity). */
  readonly expectedQuantity?: bigint;
  /** The other leg of its OCO pair; set once while the pair is created. */
  ocoId?: B256;
  /** What this leg alone locks (0 when it is sized from its parent). */
  readonly ownLock: bigint;
  /** What it holds in escrow now: an OCO pair's escrow is held by the leg that locks more. */
  locked: bigint;
  state: TriggerState;
  /** Why it was cancelled, or what stopped the order it named. */
  reason?: string;
  /** The order it became. */
  firedOrderId?: B256;
  /** Nanoseconds since the epoch. */
  readonly timestamp: bigint;
  readonly sequence: number;
  readonly history: TriggerHistoryEntry[];
  stamp: number;
  /** A leg on a Turbo book (views add `turbo: true`). */
  readonly turbo?: boolean;
}

export function touchTrigger(journal: Journal, record: TriggerRecord): TriggerRecord {
  if (!journal.active || record.stamp === journal.stamp) return record;
  record.stamp = journal.stamp;
  const { locked, state, reason, firedOrderId } = record;
  const historyLength = record.history.length;
  journal.record(() => {
    record.locked = locked;
    record.state = state;
    if (reason === undefined) delete record.reason;
    else record.reason = reason;
    if (firedOrderId === undefined) delete record.firedOrderId;
    else record.firedOrderId = firedOrderId;
    record.history.length = historyLength;
    record.stamp = -1;
  });
  return record;
}

/** True for a leg sized from its parent (it locks nothing and arms once the parent has filled). */
export function sizedFromParent(record: TriggerRecord): boolean {
  return record.leg.quantity.kind === 'ParentOrder';
}
