// One side of an exact order book. Quantities live in a Map keyed by price (an update of an
// existing level, the common delta, is one lookup); prices live in a sorted array with the BEST
// price LAST, so the churn near the top of the book inserts and removes at the end of the array
// instead of shifting every level. Reading the top N walks the array backwards.

export type SideName = 'buys' | 'sells';

export class BookSide {
  readonly name: SideName;
  /** Sorted so that the best price is last: buys ascending, sells descending. */
  private readonly prices: bigint[] = [];
  private readonly quantities = new Map<bigint, bigint>();

  constructor(name: SideName) {
    this.name = name;
  }

  get size(): number {
    return this.prices.length;
  }

  /** `a` is better than `b` on this side. */
  isBetter(a: bigint, b: bigint): boolean {
    return this.name === 'buys' ? a > b : a < b;
  }

  /** Where `price` is or would go, keeping the best-last order (binary search). */
  private insertionIndex(price: bigint): number {
    const prices = this.prices;
    let low = 0;
    let high = prices.length;
    if (this.name === 'buys') {
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (prices[middle]! < price) low = middle + 1;
        else high = middle;
      }
    } else {
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (prices[middle]! > price) low = middle + 1;
        else high = middle;
      }
    }
    return low;
  }

  /** Set a level's quantity; 0 removes it. The caller has checked quantity >= 0. */
  set(price: bigint, quantity: bigint): void {
    const quantities = this.quantities;
    if (quantity === 0n) {
      if (!quantities.delete(price)) return;
      const prices = this.prices;
      const last = prices.length - 1;
      if (prices[last] === price) prices.pop();
      else prices.splice(this.insertionIndex(price), 1);
      return;
    }
    if (quantities.has(price)) {
      quantities.set(price, quantity);
      return;
    }
    quantities.set(price, quantity);
    const prices = this.prices;
    const last = prices.length - 1;
    if (last < 0 || this.isBetter(price, prices[last]!)) prices.push(price);
    else prices.splice(this.insertionIndex(price), 0, price);
  }

  clear(): void {
    this.prices.length = 0;
    this.quantities.clear();
  }

  quantityAt(price: bigint): bigint {
    return this.quantities.get(price) ?? 0n;
  }

  best(): bigint | undefined {
    return this.prices[this.prices.length - 1];
  }

  /** The best `count` levels, best first, as [price, quantity] pairs. */
  top(count: number): [bigint, bigint][] {
    const prices = this.prices;
    const end = Math.max(0, prices.length - count);
    const out: [bigint, bigint][] = [];
    for (let index = prices.length - 1; index >= end; index--) {
      const price = prices[index]!;
      out.push([price, this.quantities.get(price)!]);
    }
    return out;
  }

  /** Fill columns with the best `count` levels (no per-level allocation); returns how many were written. */
  topInto(count: number, pricesOut: bigint[], quantitiesOut: bigint[]): number {
    const prices = this.prices;
    const written = Math.min(count, prices.length);
    for (let offset = 0; offset < written; offset++) {
      const price = prices[prices.length - 1 - offset]!;
      pricesOut[offset] = price;
      quantitiesOut[offset] = this.quantities.get(price)!;
    }
    return written;
  }

  /** Best-first order is strictly monotone and every stored quantity is positive. */
  checkInvariants(): string | null {
    const prices = this.prices;
    if (prices.length !== this.quantities.size) return `${this.name}: ${prices.length} prices but ${this.quantities.size} quantities`;
    for (let index = 1; index < prices.length; index++) {
      if (!this.isBetter(prices[index]!, prices[index - 1]!)) return `${this.name}: levels ${prices[index - 1]} and ${prices[index]} are out of order`;
    }
    for (const [price, quantity] of this.quantities) if (quantity <= 0n) return `${this.name}: level ${price} has quantity ${quantity}`;
    return null;
  }
}
