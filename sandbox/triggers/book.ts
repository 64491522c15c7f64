// The trigger legs of one book: they rest off the book with their escrow (the lock their call
// forwarded) until they fire or are cancelled. Every mutation goes through the journal, so a batch
// that reverts, or a fire whose order reverts, leaves no trace. Firing itself is the engine's
// (engine.ts); this file keeps the records, the escrow and the cancellations.
import type { B256 } from '../../shared/encoding/b256';
import type { MarketConfig } from '../config/network';
import type { Journal } from '../engine/journal';
import type { ActionContext } from '../ledger/action-context';
import type { BookBalance } from '../ledger/balances';
import type { ChangeSet } from '../ledger/changes';
import { filledQuantity, type OrderRecord } from '../ledger/orders';
import { sizedFromParent, touchTrigger, TRIGGER_CANCEL_REASONS, type TriggerRecord } from './records';

/** Closed legs kept per book for reads (GET /v1/orders/active lists only pending ones). */
export const CLOSED_TRIGGER_CAPACITY = 10_000;

export class TriggerBook {
  readonly byId = new Map<string, TriggerRecord>();
  private readonly pendingSet = new Set<TriggerRecord>();
  private readonly byAccount = new Map<string, Set<TriggerRecord>>();
  private readonly byParent = new Map<string, Set<TriggerRecord>>();
  /** Closed legs in closing order (the queue) and as a set (membership). */
  private readonly closed: TriggerRecord[] = [];
  private readonly closedSet = new Set<TriggerRecord>();
  private sequence = 0;

  constructor(
    private readonly config: MarketConfig,
    private readonly journal: Journal,
    private readonly changes: ChangeSet,
    private readonly balanceOf: (account: string) => BookBalance,
  ) {}

  get pendingCount(): number {
    return this.pendingSet.size;
  }

  /** The next sequence number (counters are restored by the caller's undo when a batch reverts). */
  nextSequence(): number {
    const sequence = ++this.sequence;
    if (this.journal.active) this.journal.record(() => {
      this.sequence = sequence - 1;
    });
    return sequence;
  }

  /** Pending legs, oldest first. */
  pending(): TriggerRecord[] {
    return [...this.pendingSet].sort((left, right) => left.sequence - right.sequence);
  }

  pendingOf(account: string): TriggerRecord[] {
    return [...(this.byAccount.get(account) ?? [])].filter((record) => record.state === 'pending').sort((left, right) => left.sequence - right.sequence);
  }

  /** Every retained leg of an account, oldest first. */
  of(account: string): TriggerRecord[] {
    return [...(this.byAccount.get(account) ?? [])].sort((left, right) => left.sequence - right.sequence);
  }

  /** Pending legs bound to an order. */
  boundTo(orderId: string): TriggerRecord[] {
    return [...(this.byParent.get(orderId) ?? [])].filter((record) => record.state === 'pending').sort((left, right) => left.sequence - right.sequence);
  }

  /** The asset a leg locks: quote for a buy, base for a sell. */
  lockAsset(record: Pick<TriggerRecord, 'leg'>): B256 {
    return record.leg.side === 'Buy' ? this.config.quote.asset : this.config.base.asset;
  }

  register(record: TriggerRecord): void {
    this.byId.set(record.id, record);
    this.pendingSet.add(record);
    const mine = getOrCreate(this.byAccount, record.account);
    mine.add(record);
    const parentSet = record.parentId === undefined ? undefined : getOrCreate(this.byParent, record.parentId);
    parentSet?.add(record);
    if (this.journal.active) this.journal.record(() => {
      this.byId.delete(record.id);
      this.pendingSet.delete(record);
      mine.delete(record);
      parentSet?.delete(record);
    });
    this.changes.triggers.add(record);
  }

  /** Put `amount` of the leg's asset into the book as locked escrow (it left the trading account). */
  lock(record: TriggerRecord, amount: bigint): void {
    if (amount === 0n) return;
    const balance = this.balanceOf(record.account).touch();
    if (record.leg.side === 'Buy') balance.quoteLocked += amount;
    else balance.baseLocked += amount;
    this.changes.balances.add(record.account);
  }

  /** Take `amount` out of the leg's escrow: to the book's unlocked funds (cancel) or back out (fire). */
  private unlockEscrow(record: TriggerRecord, amount: bigint, toUnlocked: boolean): void {
    if (amount === 0n) return;
    const balance = this.balanceOf(record.account).touch();
    if (record.leg.side === 'Buy') {
      balance.quoteLocked -= amount;
      if (toUnlocked) balance.quoteUnlocked += amount;
    } else {
      balance.baseLocked -= amount;
      if (toUnlocked) balance.baseUnlocked += amount;
    }
    balance.check();
    this.changes.balances.add(record.account);
  }

  /** The pending OCO sibling of a leg. */
  sibling(record: TriggerRecord): TriggerRecord | undefined {
    const other = record.ocoId === undefined ? undefined : this.byId.get(record.ocoId);
    return other?.state === 'pending' ? other : undefined;
  }

  private close(record: TriggerRecord, state: 'fired' | 'cancelled', context: ActionContext, reason?: string): void {
    touchTrigger(this.journal, record);
    record.state = state;
    if (reason !== undefined) record.reason = reason;
    record.history.push({ type: state === 'fired' ? 'fired' : 'cancel', status: 'success', tx_id: context.txId });
    this.pendingSet.delete(record);
    if (this.journal.active) this.journal.record(() => this.pendingSet.add(record));
    this.changes.triggers.add(record);
  }

  /**
   * Cancel a pending leg; its escrow goes to the book's unlocked funds (as a cancelled order's
   * lock does). When its OCO sibling stays pending, the sibling keeps the part of the pair's
   * escrow that it locks on its own.
   */
  cancel(record: TriggerRecord, reason: string, context: ActionContext): void {
    const sibling = this.sibling(record);
    let release = record.locked;
    if (sibling !== undefined && record.locked > 0n) {
      touchTrigger(this.journal, sibling);
      const keep = sibling.ownLock - sibling.locked;
      const handed = keep < release ? keep : release;
      sibling.locked += handed;
      release -= handed;
      this.changes.triggers.add(sibling);
    }
    touchTrigger(this.journal, record);
    record.locked = 0n;
    this.unlockEscrow(record, release, true);
    this.close(record, 'cancelled', context, reason);
  }

  /**
   * A leg fires: the escrow of its pair leaves the book (the engine returns it to the trading
   * account, from which the order takes what it forwards) and its sibling is cancelled.
   * Returns the escrow released.
   */
  fire(record: TriggerRecord, context: ActionContext): bigint {
    const sibling = this.sibling(record);
    let escrow = record.locked;
    touchTrigger(this.journal, record);
    record.locked = 0n;
    if (sibling !== undefined) {
      touchTrigger(this.journal, sibling);
      escrow += sibling.locked;
      sibling.locked = 0n;
      this.close(sibling, 'cancelled', context, TRIGGER_CANCEL_REASONS.OCO_SIBLING_FIRED);
    }
    this.unlockEscrow(record, escrow, false);
    this.close(record, 'fired', context);
    return escrow;
  }

  /** The owner cancelled `order`: every leg bound to it goes with it. */
  onParentCancelled(order: OrderRecord, context: ActionContext): void {
    for (const record of this.boundTo(order.id)) if (record.state === 'pending') this.cancel(record, TRIGGER_CANCEL_REASONS.PARENT_CANCELLED, context);
  }

  /** `order` closed without any fill (an immediate-or-cancel parent): its parent-sized legs can never arm. */
  onParentClosedUnfilled(order: OrderRecord, context: ActionContext): void {
    if (filledQuantity(order) !== 0n) return;
    for (const record of this.boundTo(order.id)) if (record.state === 'pending' && sizedFromParent(record)) this.cancel(record, TRIGGER_CANCEL_REASONS.PARENT_NOT_FILLED, context);
  }

  /** After commit: forget the oldest closed legs past the capacity. */
  retain(record: TriggerRecord): void {
    if (record.state === 'pending' || this.closedSet.has(record)) return;
    this.closed.push(record);
    this.closedSet.add(record);
    while (this.closed.length > CLOSED_TRIGGER_CAPACITY) {
      const old = this.closed.shift() as TriggerRecord;
      this.closedSet.delete(old);
      this.byId.delete(old.id);
      this.byAccount.get(old.account)?.delete(old);
      if (old.parentId !== undefined) this.byParent.get(old.parentId)?.delete(old);
    }
  }

  /** Escrow held per account (the invariant check adds it to what open orders lock). */
  escrowByAccount(): Map<string, { base: bigint; quote: bigint }> {
    const held = new Map<string, { base: bigint; quote: bigint }>();
    for (const record of this.pendingSet) {
      const entry = held.get(record.account) ?? { base: 0n, quote: 0n };
      if (record.leg.side === 'Buy') entry.quote += record.locked;
      else entry.base += record.locked;
      held.set(record.account, entry);
    }
    return held;
  }
}

function getOrCreate(map: Map<string, Set<TriggerRecord>>, key: string): Set<TriggerRecord> {
  let set = map.get(key);
  if (set === undefined) {
    set = new Set();
    map.set(key, set);
  }
  return set;
}
