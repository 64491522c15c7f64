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

export class ChangeSet {
  readonly orders = new Set<OrderRecord>();
  /** Trigger legs created, fired or cancelled (the order stream's `triggers`). */
  readonly triggers = new Set<TriggerRecord>();
  readonly trades: Trade[] = [];
  /** Trading accounts whose balances (on the account or in a book) changed. */
  readonly balances = new Set<string>();
  /** Markets whose book changed. */
  readonly depth = new Set<string>();
  /** Trading accounts whose sequential nonce or parallel window changed. */
  readonly nonces = new Set<string>();
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
