// An exact order book for one market at one depth precision: a snapshot, then deltas (quantity 0
// removes a level). Inconsistencies are reported as data, never thrown: the owner (main's book
// feed) drops the book and resubscribes for a fresh snapshot. Prices and quantities are bigint.
// A snapshot is checked in full; every delta checks what it can break (BookSide.set: order and
// consistency around the level it touched; here: no negative value, and the book uncrossed after
// each message), so a book that applied its deltas without a problem passes the full check.
import type { B256 } from '../encoding/b256';
import { fail, ok, type Ok, type Result } from '../result';
import { BookSide, type SideName } from './book-side';

const OK: Ok<void> = ok(undefined);

export interface BookLevel {
  readonly price: bigint;
  readonly quantity: bigint;
}

export interface BookLevels {
  readonly buys: readonly BookLevel[];
  readonly sells: readonly BookLevel[];
}

export const BOOK_CODES = {
  UNSORTED: 'BOOK_UNSORTED',
  DUPLICATE_LEVEL: 'BOOK_DUPLICATE_LEVEL',
  ZERO_QUANTITY: 'BOOK_ZERO_QUANTITY',
  NEGATIVE_VALUE: 'BOOK_NEGATIVE_VALUE',
  CROSSED: 'BOOK_CROSSED',
  /** The price order and the levels disagree (found by a delta's own check or the full check). */
  INCONSISTENT: 'BOOK_INCONSISTENT',
  NOT_SYNCED: 'BOOK_NOT_SYNCED',
} as const;

export class OrderBook {
  readonly market_id: B256;
  /** The depth precision the book was subscribed at (a power of ten). */
  readonly precision: bigint;
  readonly buys = new BookSide('buys');
  readonly sells = new BookSide('sells');
  /** Increments on every applied snapshot or batch, so readers can skip unchanged books. */
  version = 0;
  private synced = false;
  private problem: string | null = null;

  constructor(marketId: B256, precision: bigint) {
    this.market_id = marketId;
    this.precision = precision;
  }

  /** True once a snapshot was applied and no inconsistency was seen since. */
  isSynced(): boolean {
    return this.synced;
  }

  /** The last inconsistency, until the next snapshot. */
  lastProblem(): string | null {
    return this.problem;
  }

  private broken(code: string, message: string): Result<void> {
    this.synced = false;
    this.problem = message;
    return fail(code, message);
  }

  /**
   * Replace the book with a full view. Levels must be best first: buys strictly descending, sells
   * strictly ascending, no zero quantity, and the best buy below the best sell.
   */
  applySnapshot(view: BookLevels): Result<void> {
    this.buys.clear();
    this.sells.clear();
    this.version++;
    for (const name of ['buys', 'sells'] as const) {
      const levels = view[name];
      const side = this.side(name);
      for (let index = 0; index < levels.length; index++) {
        const level = levels[index]!;
        if (level.price < 0n || level.quantity < 0n) return this.broken(BOOK_CODES.NEGATIVE_VALUE, `snapshot ${name}[${index}] has a negative value`);
        if (level.quantity === 0n) return this.broken(BOOK_CODES.ZERO_QUANTITY, `snapshot ${name}[${index}] at price ${level.price} has quantity 0`);
        if (index > 0) {
          const previous = levels[index - 1]!.price;
          if (previous === level.price) return this.broken(BOOK_CODES.DUPLICATE_LEVEL, `snapshot ${name} repeats price ${level.price}`);
          if (!side.isBetter(previous, level.price)) {
            return this.broken(BOOK_CODES.UNSORTED, `snapshot ${name} is not ${name === 'buys' ? 'descending' : 'ascending'} at index ${index} (${previous} then ${level.price})`);
          }
        }
        const problem = side.set(level.price, level.quantity);
        if (problem !== null) return this.broken(BOOK_CODES.INCONSISTENT, problem);
      }
    }
    const crossed = this.crossing();
    if (crossed) return this.broken(BOOK_CODES.CROSSED, crossed);
    this.synced = true;
    this.problem = null;
    return ok(undefined);
  }

  /** Apply one batch of deltas (`subscribe_depth_update.changes`), checking what each can break. */
  applyDeltas(changes: BookLevels): Result<void> {
    if (!this.synced) return fail(BOOK_CODES.NOT_SYNCED, this.problem ?? 'no snapshot applied yet');
    this.version++;
    const refused = this.applyLevels(this.buys, changes.buys) ?? this.applyLevels(this.sells, changes.sells);
    if (refused !== null) return refused;
    const crossed = this.crossing();
    return crossed === null ? OK : this.broken(BOOK_CODES.CROSSED, crossed);
  }

  private applyLevels(side: BookSide, levels: readonly BookLevel[]): Result<void> | null {
    for (let index = 0; index < levels.length; index++) {
      const level = levels[index]!;
      if (level.price < 0n || level.quantity < 0n) return this.broken(BOOK_CODES.NEGATIVE_VALUE, `delta ${side.name}[${index}] has a negative value`);
      const problem = side.set(level.price, level.quantity);
      if (problem !== null) return this.broken(BOOK_CODES.INCONSISTENT, problem);
    }
    return null;
  }

  /** Apply a single level change (same rules as a batch of one). */
  applyDelta(name: SideName, price: bigint, quantity: bigint): Result<void> {
    if (!this.synced) return fail(BOOK_CODES.NOT_SYNCED, this.problem ?? 'no snapshot applied yet');
    if (price < 0n || quantity < 0n) return this.broken(BOOK_CODES.NEGATIVE_VALUE, `delta ${name} at ${price} has a negative value`);
    this.version++;
    const problem = this.side(name).set(price, quantity);
    if (problem !== null) return this.broken(BOOK_CODES.INCONSISTENT, problem);
    const crossed = this.crossing();
    return crossed === null ? OK : this.broken(BOOK_CODES.CROSSED, crossed);
  }

  private side(name: SideName): BookSide {
    return name === 'buys' ? this.buys : this.sells;
  }

  private crossing(): string | null {
    const bid = this.buys.best();
    const ask = this.sells.best();
    if (bid !== undefined && ask !== undefined && bid >= ask) return `book crossed: best buy ${bid} >= best sell ${ask}`;
    return null;
  }

  bestBid(): bigint | undefined {
    return this.buys.best();
  }

  bestAsk(): bigint | undefined {
    return this.sells.best();
  }

  /** The best `count` levels of each side, best first. */
  top(count: number): { buys: [bigint, bigint][]; sells: [bigint, bigint][] } {
    return { buys: this.buys.top(count), sells: this.sells.top(count) };
  }

  /**
   * The full self-check (O(levels)): sorted, positive quantities, price order and levels agree,
   * uncrossed. Deltas need not run it (each checks what it can break); it backs the property test
   * that says so (test/unit/shared/book).
   */
  check(): Result<void> {
    const side = this.buys.checkInvariants() ?? this.sells.checkInvariants();
    if (side !== null) return fail(side.includes('out of order') ? BOOK_CODES.UNSORTED : BOOK_CODES.INCONSISTENT, side);
    const crossed = this.crossing();
    return crossed === null ? OK : fail(BOOK_CODES.CROSSED, crossed);
  }
}
