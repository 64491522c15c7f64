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

/**
 * The last `capacity` items pushed, oldest first. A ring: once full, a push overwrites the oldest
 * slot, so the log allocates nothing after it filled (it used to copy its whole array every
 * capacity/8 pushes, and each copy was one more large array for the collector to move).
 */
export class BoundedLog<T> {
  private readonly items: T[] = [];
  /** Once full: the slot of the oldest item (the next to be overwritten). */
  private head = 0;
  constructor(readonly capacity: number) {}

  push(item: T): void {
    const items = this.items;
    if (items.length < this.capacity) {
      items.push(item);
      return;
    }
    items[this.head] = item;
    this.head = this.head + 1 === this.capacity ? 0 : this.head + 1;
  }

  /** Oldest first (the log's own array until it wraps, a copy after). */
  all(): readonly T[] {
    if (this.head === 0) return this.items;
    return this.items.slice(this.head).concat(this.items.slice(0, this.head));
  }

  get length(): number {
    return this.items.length;
  }
}
