// What one committed transaction changed, for the streams and the read models (bars, order
// retention). Filled during the transaction, handed to listeners after commit, dropped on
// revert: subscribers never see a state that was rolled back.
import type { OrderRecord } from './orders';
import type { Trade } from './trades';

export class ChangeSet {
  readonly orders = new Set<OrderRecord>();
  readonly trades: Trade[] = [];
  /** Trading accounts whose balances (on the account or in a book) changed. */
  readonly balances = new Set<string>();
  /** Markets whose book changed. */
  readonly depth = new Set<string>();
  /** Trading accounts whose sequential nonce or parallel window changed. */
  readonly nonces = new Set<string>();

  clear(): void {
    // Called twice per transaction: skip the work when nothing was recorded.
    if (this.orders.size > 0) this.orders.clear();
    if (this.trades.length > 0) this.trades.length = 0;
    if (this.balances.size > 0) this.balances.clear();
    if (this.depth.size > 0) this.depth.clear();
    if (this.nonces.size > 0) this.nonces.clear();
  }

  get empty(): boolean {
    return this.orders.size === 0 && this.trades.length === 0 && this.balances.size === 0 && this.depth.size === 0 && this.nonces.size === 0;
  }
}
