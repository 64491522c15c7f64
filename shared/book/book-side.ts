// One side of an exact order book. Quantities live in a Map keyed by price (an update of an
// existing level, the common delta, is one lookup); prices live in a sorted array with the BEST
// price LAST, so the churn near the top of the book inserts and removes at the end of the array
// instead of shifting every level. Reading the top N walks the array backwards.
//
// Every change checks, in O(1) beyond its own binary search, the part of the invariants it can
// break (docs/reliability.md, "Benchmarks"): a new level is strictly between its two neighbours, a
// removed level is the one found at its place in the price order, and the price order and the map
// hold the same number of levels. A quantity update moves no price and stores a positive quantity
// (the caller refuses negatives; 0 removes). By induction from a snapshot that passed the full
// check, the side therefore stays sorted, positive and consistent without walking its levels:
// `checkInvariants` (the full walk) is kept for snapshots and tests.

export type SideName = 'buys' | 'sells';

export class BookSide {
  readonly name: SideName;
  private readonly bid: boolean;
  /** Sorted so that the best price is last: buys ascending, sells descending. */
  private readonly prices: bigint[] = [];
  private readonly quantities = new Map<bigint, bigint>();

  constructor(name: SideName) {
    this.name = name;
    this.bid = name === 'buys';
  }

  get size(): number {
    return this.prices.length;
  }

  /** `a` is better than `b` on this side. */
  isBetter(a: bigint, b: bigint): boolean {
    return this.bid ? a > b : a < b;
  }

  /** Where `price` is or would go, keeping the best-last order (binary search). */
  private insertionIndex(price: bigint): number {
    const prices = this.prices;
    let low = 0;
    let high = prices.length;
    if (this.bid) {
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

  /**
   * Set a level's quantity; 0 removes it (removing an absent level changes nothing). The caller
   * has checked quantity >= 0. Returns null, or what this change found inconsistent (the side must
   * then be rebuilt from a snapshot).
   */
  set(price: bigint, quantity: bigint): string | null {
    const quantities = this.quantities;
    const prices = this.prices;
    if (quantity === 0n) {
      if (!quantities.delete(price)) return null;
      const last = prices.length - 1;
      if (prices[last] === price) prices.pop();
      else {
        const index = this.insertionIndex(price);
        if (prices[index] !== price) return `${this.name}: level ${price} is not at its place in the price order`;
        prices.splice(index, 1);
      }
      return prices.length === quantities.size ? null : this.sizeProblem();
    }
    if (quantities.has(price)) {
      quantities.set(price, quantity);
      return null;
    }
    quantities.set(price, quantity);
    const last = prices.length - 1;
    if (last < 0 || this.isBetter(price, prices[last]!)) prices.push(price);
    else {
      const index = this.insertionIndex(price);
      prices.splice(index, 0, price);
      // The rest was sorted: the new level is in order iff it is between its two neighbours.
      if (index > 0 && !this.isBetter(price, prices[index - 1]!)) return this.orderProblem(prices[index - 1]!, price);
      if (index + 1 >= prices.length || !this.isBetter(prices[index + 1]!, price)) return this.orderProblem(price, prices[index + 1]);
    }
    return prices.length === quantities.size ? null : this.sizeProblem();
  }

  private orderProblem(worse: bigint, better: bigint | undefined): string {
    return `${this.name}: levels ${worse} and ${better ?? '(none)'} are out of order`;
  }

  private sizeProblem(): string {
    return `${this.name}: ${this.prices.length} prices but ${this.quantities.size} quantities`;
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

  /**
   * The full walk (O(levels)): best-first order is strictly monotone, every price of the order has
   * a positive quantity, and the order and the map hold the same levels.
   */
  checkInvariants(): string | null {
    const prices = this.prices;
    if (prices.length !== this.quantities.size) return this.sizeProblem();
    for (let index = 1; index < prices.length; index++) {
      if (!this.isBetter(prices[index]!, prices[index - 1]!)) return this.orderProblem(prices[index - 1]!, prices[index]!);
    }
    for (let index = 0; index < prices.length; index++) {
      const quantity = this.quantities.get(prices[index]!);
      if (quantity === undefined) return `${this.name}: level ${prices[index]} has no quantity`;
      if (quantity <= 0n) return `${this.name}: level ${prices[index]} has quantity ${quantity}`;
    }
    return null;
  }
}
