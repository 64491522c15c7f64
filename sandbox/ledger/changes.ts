// What one committed transaction changed, for the streams and the read models (bars, order
// retention). Filled during the transaction, handed to listeners after commit, dropped on
// revert: subscribers never see a state that was rolled back.
import type { TriggerRecord } from '../triggers/records';
import type { OrderRecord } from './orders';
import type { Trade } from './trades';

/** One margin lifecycle or pool action, as the margin stream names it (docs/sandbox.md). */
export interface MarginActivity {
  readonly kind: string;
  /** Action amounts as decimal strings (informative; the update carries post-event totals). */
  readonly details?: Readonly<Record<string, string | boolean | null>>;
}

/**
 * What one transaction changed of one kind, each at most once, in the order first noted. Unlike a
 * Set, clearing it allocates nothing (a Set's clear() allocates a new table, and a change set is
 * cleared after every transaction): it is an array reused from one transaction to the next, with
 * a Set for membership only once it grows long (a sweep over many orders).
 */
export class ChangeList<T> implements Iterable<T> {
  private readonly items: T[] = [];
  private count = 0;
  private index: Set<T> | undefined;

  get size(): number {
    return this.count;
  }

  has(item: T): boolean {
    if (this.index !== undefined) return this.index.has(item);
    const items = this.items;
    for (let i = 0; i < this.count; i++) if (items[i] === item) return true;
    return false;
  }

  add(item: T): this {
    if (this.has(item)) return this;
    if (this.index !== undefined) this.index.add(item);
    else if (this.count >= 16) this.index = new Set(this.items.slice(0, this.count)).add(item);
    this.items[this.count++] = item;
    return this;
  }

  clear(): void {
    const items = this.items;
    // Drop the references (the slots are reused); a list grown long is shrunk back.
    for (let i = 0; i < this.count; i++) items[i] = undefined as T;
    if (items.length > 1024) items.length = 0;
    this.count = 0;
    this.index = undefined;
  }

  /** The item at `index` (0 to size - 1), in the order first noted. */
  at(index: number): T {
    if (index < 0 || index >= this.count) throw new RangeError(`change list: no item ${index} of ${this.count}`);
    return this.items[index] as T;
  }

  /** Items noted while iterating are visited too (as a Set's iteration does). */
  [Symbol.iterator](): Iterator<T> {
    return new ChangeListIterator(this.items, this);
  }
}

class ChangeListIterator<T> implements Iterator<T> {
  private next_ = 0;
  constructor(
    private readonly items: readonly T[],
    private readonly list: ChangeList<T>,
  ) {}

  next(): IteratorResult<T> {
    if (this.next_ < this.list.size) return { value: this.items[this.next_++] as T, done: false };
    return { value: undefined, done: true };
  }
}

export class ChangeSet {
  readonly orders = new ChangeList<OrderRecord>();
  /** Trigger legs created, fired or cancelled (the order stream's `triggers`). */
  readonly triggers = new ChangeList<TriggerRecord>();
  readonly trades: Trade[] = [];
  /** Trading accounts whose balances (on the account or in a book) changed. */
  readonly balances = new ChangeList<string>();
  /** Markets whose book changed. */
  readonly depth = new ChangeList<string>();
  /** Trading accounts whose sequential nonce or parallel window changed. */
  readonly nonces = new ChangeList<string>();
  /** Turbo-book events of GET /v1/events, logged at commit (dropped with a revert). */
  readonly turboEvents: Record<string, unknown>[] = [];
  /** Margin children whose margin state changed, with what happened to each (margin stream). */
  readonly margin = new Map<string, MarginActivity[]>();

  /** Note a margin activity of `account` (folded into one stream update per transaction). */
  marginActivity(account: string, activity: MarginActivity): void {
    const list = this.margin.get(account);
    if (list === undefined) this.margin.set(account, [activity]);
    else list.push(activity);
  }

  clear(): void {
    // Called twice per transaction: skip the work when nothing was recorded.
    if (this.orders.size > 0) this.orders.clear();
    if (this.triggers.size > 0) this.triggers.clear();
    if (this.trades.length > 0) this.trades.length = 0;
    if (this.balances.size > 0) this.balances.clear();
    if (this.depth.size > 0) this.depth.clear();
    if (this.nonces.size > 0) this.nonces.clear();
    if (this.turboEvents.length > 0) this.turboEvents.length = 0;
    if (this.margin.size > 0) this.margin.clear();
  }

  get empty(): boolean {
    return this.orders.size === 0 && this.triggers.size === 0 && this.trades.length === 0 && this.balances.size === 0 && this.depth.size === 0 && this.nonces.size === 0 && this.turboEvents.length === 0 && this.margin.size === 0;
  }
}
