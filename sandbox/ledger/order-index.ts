// A market's orders by id. Every order id a market issues is its id prefix, the kind `00` and the
// order's sequence in 14 hex digits (MarketState.nextId), so the index keys the orders by their
// sequence (a small integer) rather than by the 66-character id: hashing that string on every
// placement was a tenth of a placement's time (docs/sandbox.md, "Performance"). A lookup by id
// parses the sequence and answers only an order whose id is exactly the one asked for, as a Map
// keyed by the id string would.
import type { OrderRecord } from './orders';

export class OrderIndex {
  private readonly bySequence = new Map<number, OrderRecord>();

  /** `prefix`: what every id of this market's orders starts with (its id prefix and kind `00`). */
  constructor(private readonly prefix: string) {}

  get size(): number {
    return this.bySequence.size;
  }

  get(id: string): OrderRecord | undefined {
    if (id.length !== this.prefix.length + 14 || !id.startsWith(this.prefix)) return undefined;
    const sequence = Number.parseInt(id.slice(this.prefix.length), 16);
    if (!Number.isSafeInteger(sequence)) return undefined;
    const order = this.bySequence.get(sequence);
    return order !== undefined && order.id === id ? order : undefined;
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  /** Every indexed order, in the order they were added. */
  values(): IterableIterator<OrderRecord> {
    return this.bySequence.values();
  }

  add(order: OrderRecord): void {
    this.bySequence.set(order.sequence, order);
  }

  delete(order: OrderRecord): void {
    if (this.bySequence.get(order.sequence) === order) this.bySequence.delete(order.sequence);
  }
}
