// A market's orders by id, and each account's orders. Every order id a market issues is its id
// prefix, the kind `00` and the order's sequence in 14 hex digits (MarketState.nextId), so the
// index keys the orders by their sequence rather than by the 66-character id, in blocks of 4096
// consecutive sequences: no string hashed, no hash table grown, rehashed or churned by the
// retention of closed orders on every placement (both were a tenth of a placement's time,
// docs/sandbox.md, "Performance"). A lookup by id parses the sequence and answers only an order
// whose id is exactly the one asked for, as a Map keyed by the id string would.
import type { OrderRecord } from './orders';

const BLOCK = 4096;

interface Block {
  readonly slots: (OrderRecord | undefined)[];
  count: number;
}

export class OrderIndex {
  /** Blocks by number (sequence / 4096), created in increasing order; a block left empty is dropped. */
  private readonly blocks = new Map<number, Block>();
  private lastNumber = -1;
  private last: Block | undefined;
  private count = 0;

  /** `prefix`: what every id of this market's orders starts with (its id prefix and kind `00`). */
  constructor(private readonly prefix: string) {}

  get size(): number {
    return this.count;
  }

  get(id: string): OrderRecord | undefined {
    if (id.length !== this.prefix.length + 14 || !id.startsWith(this.prefix)) return undefined;
    const sequence = Number.parseInt(id.slice(this.prefix.length), 16);
    if (!Number.isSafeInteger(sequence) || sequence < 0) return undefined;
    const order = this.blocks.get(Math.floor(sequence / BLOCK))?.slots[sequence % BLOCK];
    return order !== undefined && order.id === id ? order : undefined;
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  /** Every indexed order by sequence (the order they were placed in). */
  *values(): IterableIterator<OrderRecord> {
    for (const number of [...this.blocks.keys()].sort((a, b) => a - b)) {
      const block = this.blocks.get(number);
      if (block === undefined) continue;
      for (const order of block.slots) if (order !== undefined) yield order;
    }
  }

  add(order: OrderRecord): void {
    const number = Math.floor(order.sequence / BLOCK);
    let block = number === this.lastNumber ? this.last : this.blocks.get(number);
    if (block === undefined) {
      block = { slots: [], count: 0 };
      this.blocks.set(number, block);
    }
    this.lastNumber = number;
    this.last = block;
    const index = order.sequence % BLOCK;
    // Slots fill in sequence order; one left behind by a revert is filled again.
    while (block.slots.length < index) block.slots.push(undefined);
    if (block.slots[index] === undefined) {
      block.count++;
      this.count++;
    }
    block.slots[index] = order;
  }

  delete(order: OrderRecord): void {
    const number = Math.floor(order.sequence / BLOCK);
    const block = this.blocks.get(number);
    const index = order.sequence % BLOCK;
    if (block === undefined || block.slots[index] !== order) return;
    block.slots[index] = undefined;
    block.count--;
    this.count--;
    if (index === block.slots.length - 1) block.slots.length = index;
    if (block.count === 0) {
      this.blocks.delete(number);
      if (this.last === block) {
        this.last = undefined;
        this.lastNumber = -1;
      }
    }
  }
}

/**
 * One account's orders in a market, in placement order (as the Set it replaces iterated them).
 * Orders are added in increasing sequence; a removal is found by binary search on the sequence
 * and leaves a gap that is skipped, and the gaps are squeezed out once they are half the list.
 */
export class AccountOrders implements Iterable<OrderRecord> {
  private items: (OrderRecord | undefined)[] = [];
  private sequences: number[] = [];
  private removed = 0;

  get size(): number {
    return this.items.length - this.removed;
  }

  add(order: OrderRecord): this {
    const n = this.sequences.length;
    if (n === 0 || (this.sequences[n - 1] as number) < order.sequence) {
      this.items.push(order);
      this.sequences.push(order.sequence);
      return this;
    }
    const at = this.find(order.sequence);
    if (at >= 0 && this.items[at] === order) return this;
    // Not expected (sequences only grow); kept correct anyway: insert at its place.
    this.compact();
    let index = 0;
    while (index < this.sequences.length && (this.sequences[index] as number) < order.sequence) index++;
    this.items.splice(index, 0, order);
    this.sequences.splice(index, 0, order.sequence);
    return this;
  }

  has(order: OrderRecord): boolean {
    const at = this.find(order.sequence);
    return at >= 0 && this.items[at] === order;
  }

  delete(order: OrderRecord): boolean {
    const at = this.find(order.sequence);
    if (at < 0 || this.items[at] !== order) return false;
    this.items[at] = undefined;
    this.removed++;
    while (this.items.length > 0 && this.items[this.items.length - 1] === undefined) {
      this.items.pop();
      this.sequences.pop();
      this.removed--;
    }
    if (this.removed > 32 && this.removed * 2 > this.items.length) this.compact();
    return true;
  }

  *[Symbol.iterator](): Iterator<OrderRecord> {
    const items = this.items;
    for (let i = 0; i < items.length; i++) {
      const order = items[i];
      if (order !== undefined) yield order;
    }
  }

  values(): Iterator<OrderRecord> {
    return this[Symbol.iterator]();
  }

  /** Index of the slot holding `sequence` (an order or a gap), or -1. */
  private find(sequence: number): number {
    const sequences = this.sequences;
    let low = 0;
    let high = sequences.length - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const value = sequences[mid] as number;
      if (value === sequence) return mid;
      if (value < sequence) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }

  private compact(): void {
    if (this.removed === 0) return;
    const items: OrderRecord[] = [];
    const sequences: number[] = [];
    for (let i = 0; i < this.items.length; i++) {
      const order = this.items[i];
      if (order === undefined) continue;
      items.push(order);
      sequences.push(this.sequences[i] as number);
    }
    this.items = items;
    this.sequences = sequences;
    this.removed = 0;
  }
}
