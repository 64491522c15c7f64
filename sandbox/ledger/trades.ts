// A trade (spec 2.5) and the bounded log a market keeps of them. The log is a ring: the
// oldest trades are dropped past its capacity (bars are built incrementally and keep history).
import type { B256 } from '../../shared/encoding/b256';
import type { Side } from '../../shared/market/order-type';

export interface Trade {
  readonly id: B256;
  readonly marketId: B256;
  readonly sequence: number;
  /** The taker's side. */
  readonly side: Side;
  readonly quantity: bigint;
  readonly price: bigint;
  /** Quote value: floor(price * quantity / 10^base.decimals). */
  readonly total: bigint;
  /** Nanoseconds since the epoch. */
  readonly timestamp: bigint;
  readonly makerOrderId: B256;
  readonly takerOrderId: B256;
  readonly makerAccount: B256;
  readonly takerAccount: B256;
  /** Fees: the maker's and the taker's, each in the asset it received (docs/sandbox.md). */
  readonly makerFee: bigint;
  readonly takerFee: bigint;
  readonly txId: string;
  /** A Turbo-book trade funded by a shared quote: the canonical order that funded it. */
  readonly sharedSourceOrderId?: B256;
  /** Printed on a Turbo book. */
  readonly turbo?: boolean;
}

export class BoundedLog<T> {
  private items: T[] = [];
  constructor(readonly capacity: number) {}

  push(item: T): void {
    this.items.push(item);
    // Trim in chunks so the cost of the copy is spread over many pushes.
    if (this.items.length > this.capacity + (this.capacity >> 3)) this.items = this.items.slice(this.items.length - this.capacity);
  }

  /** Oldest first. */
  all(): readonly T[] {
    return this.items.length > this.capacity ? this.items.slice(this.items.length - this.capacity) : this.items;
  }

  get length(): number {
    return Math.min(this.items.length, this.capacity);
  }

}
