import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { b256 } from '../../../../shared/encoding/b256';
import { OrderBook, type BookLevel } from '../../../../shared/book/order-book';
import type { BookSide } from '../../../../shared/book/book-side';
import { checkProperty } from '../../../support/property';

const marketId = b256(`0x${'a1'.repeat(32)}`);
const level = (price: bigint, quantity: bigint): BookLevel => ({ price, quantity });

/** The reference: two Maps, sorted on every read. Slow and obviously right. */
class NaiveBook {
  buys = new Map<bigint, bigint>();
  sells = new Map<bigint, bigint>();
  apply(side: 'buys' | 'sells', price: bigint, quantity: bigint): void {
    if (quantity === 0n) this[side].delete(price);
    else this[side].set(price, quantity);
  }
  top(side: 'buys' | 'sells', count: number): [bigint, bigint][] {
    const sorted = [...this[side]].sort(([a], [b]) => (side === 'buys' ? (a > b ? -1 : 1) : a < b ? -1 : 1));
    return sorted.slice(0, count);
  }
  crossed(): boolean {
    const bid = this.top('buys', 1)[0];
    const ask = this.top('sells', 1)[0];
    return bid !== undefined && ask !== undefined && bid[0] >= ask[0];
  }
}

function freshBook(): OrderBook {
  const book = new OrderBook(marketId, 10n);
  const snapshot = book.applySnapshot({ buys: [level(100n, 5n), level(99n, 7n), level(97n, 1n)], sells: [level(101n, 2n), level(103n, 4n)] });
  expect(snapshot.ok).toBe(true);
  return book;
}

describe('order book', () => {
  it('applies a snapshot and reads the top levels best first', () => {
    const book = freshBook();
    expect(book.bestBid()).toBe(100n);
    expect(book.bestAsk()).toBe(101n);
    expect(book.top(2)).toEqual({ buys: [[100n, 5n], [99n, 7n]], sells: [[101n, 2n], [103n, 4n]] });
    expect(book.check().ok).toBe(true);
  });

  it('applies deltas: update, insert, and quantity 0 removes', () => {
    const book = freshBook();
    expect(book.applyDeltas({ buys: [level(99n, 1n), level(98n, 3n), level(100n, 0n)], sells: [level(102n, 6n), level(777n, 0n)] }).ok).toBe(true);
    expect(book.top(10)).toEqual({ buys: [[99n, 1n], [98n, 3n], [97n, 1n]], sells: [[101n, 2n], [102n, 6n], [103n, 4n]] });
  });

  it('fills columns without allocating levels', () => {
    const book = freshBook();
    const prices: bigint[] = [];
    const quantities: bigint[] = [];
    expect(book.sells.topInto(5, prices, quantities)).toBe(2);
    expect([prices, quantities]).toEqual([
      [101n, 103n],
      [2n, 4n],
    ]);
  });

  it.each([
    ['unsorted buys', { buys: [level(99n, 1n), level(100n, 1n)], sells: [] }, 'BOOK_UNSORTED'],
    ['unsorted sells', { buys: [], sells: [level(102n, 1n), level(101n, 1n)] }, 'BOOK_UNSORTED'],
    ['a repeated price', { buys: [level(99n, 1n), level(99n, 2n)], sells: [] }, 'BOOK_DUPLICATE_LEVEL'],
    ['a zero quantity', { buys: [level(99n, 0n)], sells: [] }, 'BOOK_ZERO_QUANTITY'],
    ['a crossed view', { buys: [level(101n, 1n)], sells: [level(101n, 1n)] }, 'BOOK_CROSSED'],
  ])('reports a snapshot with %s as data and stays unsynced', (_name, view, code) => {
    const book = new OrderBook(marketId, 10n);
    expect(book.applySnapshot(view)).toMatchObject({ ok: false, code });
    expect(book.isSynced()).toBe(false);
    expect(book.applyDeltas({ buys: [], sells: [] })).toMatchObject({ ok: false, code: 'BOOK_NOT_SYNCED' });
  });

  it('a crossing delta marks the book for a resync until the next snapshot', () => {
    const book = freshBook();
    expect(book.applyDeltas({ buys: [level(101n, 1n)], sells: [] })).toMatchObject({ ok: false, code: 'BOOK_CROSSED' });
    expect(book.isSynced()).toBe(false);
    expect(book.lastProblem()).toContain('best buy 101');
    expect(book.applySnapshot({ buys: [level(100n, 1n)], sells: [level(101n, 1n)] }).ok).toBe(true);
    expect(book.isSynced()).toBe(true);
  });

  it('refuses negative values', () => {
    expect(freshBook().applyDelta('sells', 105n, -1n)).toMatchObject({ ok: false, code: 'BOOK_NEGATIVE_VALUE' });
  });

  it('random deltas match the naive reference, stay sorted, and report crossing exactly when it happens', () => {
    const delta = fc.record({ side: fc.constantFrom('buys' as const, 'sells' as const), price: fc.bigInt({ min: 1n, max: 60n }), quantity: fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: 9n })) });
    checkProperty(
      fc.property(fc.array(fc.array(delta, { maxLength: 6 }), { maxLength: 40 }), (batches) => {
        const book = new OrderBook(marketId, 1n);
        const naive = new NaiveBook();
        book.applySnapshot({ buys: [level(30n, 1n), level(20n, 1n)], sells: [level(31n, 1n), level(40n, 1n)] });
        for (const price of [30n, 20n]) naive.apply('buys', price, 1n);
        for (const price of [31n, 40n]) naive.apply('sells', price, 1n);
        for (const batch of batches) {
          for (const change of batch) naive.apply(change.side, change.price, change.quantity);
          const result = book.applyDeltas({
            buys: batch.filter((change) => change.side === 'buys').map((change) => level(change.price, change.quantity)),
            sells: batch.filter((change) => change.side === 'sells').map((change) => level(change.price, change.quantity)),
          });
          expect(result.ok).toBe(!naive.crossed());
          expect(book.top(100)).toEqual({ buys: naive.top('buys', 100), sells: naive.top('sells', 100) });
          if (!result.ok) {
            expect(result.code).toBe('BOOK_CROSSED');
            return;
          }
          expect(book.check().ok).toBe(true);
        }
      }),
    );
  });

  // Main's feed no longer walks the book after each message: each delta checks what it can break
  // (shared/book/book-side.ts). These two properties are why that is enough: whatever the deltas
  // (valid, crossing, negative, removals of absent levels), and even when the code that places a
  // level in the price order is wrong, the full check never finds a problem in a book whose
  // incremental checks all passed.
  const anyDelta = fc.record({
    side: fc.constantFrom('buys' as const, 'sells' as const),
    price: fc.bigInt({ min: 1n, max: 80n }),
    quantity: fc.oneof({ weight: 3, arbitrary: fc.bigInt({ min: 1n, max: 9n }) }, { weight: 2, arbitrary: fc.constant(0n) }, { weight: 1, arbitrary: fc.bigInt({ min: -3n, max: -1n }) }),
  });
  const snapshotOf = (buys: bigint[], sells: bigint[]) => ({
    buys: [...new Set(buys)].sort((a, b) => (a > b ? -1 : 1)).map((price) => level(price, 1n)),
    sells: [...new Set(sells)].sort((a, b) => (a < b ? -1 : 1)).map((price) => level(price, 1n)),
  });

  /** Replace a side's binary search by one that is off by `shifts[call]` places (a planted bug). */
  function plantBug(side: BookSide, shifts: readonly number[]): { wrong: number } {
    const inner = side as unknown as { insertionIndex(price: bigint): number; size: number };
    const right = inner.insertionIndex.bind(side);
    const planted = { wrong: 0 };
    let call = 0;
    inner.insertionIndex = (price: bigint) => {
      const shift = shifts.length === 0 ? 0 : shifts[call++ % shifts.length]!;
      const index = Math.min(Math.max(right(price) + shift, 0), inner.size);
      if (index !== right(price)) planted.wrong++;
      return index;
    };
    return planted;
  }

  it('property: a book whose per-delta checks all passed passes the full check (any deltas)', () => {
    checkProperty(
      fc.property(fc.array(fc.bigInt({ min: 1n, max: 40n }), { maxLength: 12 }), fc.array(fc.bigInt({ min: 41n, max: 80n }), { maxLength: 12 }), fc.array(fc.array(anyDelta, { maxLength: 5 }), { maxLength: 60 }), (buys, sells, batches) => {
        const book = new OrderBook(marketId, 1n);
        expect(book.applySnapshot(snapshotOf(buys, sells)).ok).toBe(true);
        for (const batch of batches) {
          const applied =
            batch.length === 1
              ? book.applyDelta(batch[0]!.side, batch[0]!.price, batch[0]!.quantity)
              : book.applyDeltas({ buys: batch.filter((change) => change.side === 'buys').map((change) => level(change.price, change.quantity)), sells: batch.filter((change) => change.side === 'sells').map((change) => level(change.price, change.quantity)) });
          if (!applied.ok) {
            expect(['BOOK_CROSSED', 'BOOK_NEGATIVE_VALUE']).toContain(applied.code);
            expect(book.isSynced()).toBe(false);
            return;
          }
          expect(book.check()).toEqual({ ok: true, value: undefined });
        }
      }),
      { numRuns: 300 },
    );
  });

  it('property: with a planted bug in the price order, the per-delta checks report every inconsistency the full check finds, no later', () => {
    let caught = 0;
    checkProperty(
      fc.property(
        fc.array(fc.bigInt({ min: 1n, max: 40n }), { minLength: 3, maxLength: 12 }),
        fc.array(fc.bigInt({ min: 41n, max: 80n }), { minLength: 3, maxLength: 12 }),
        fc.array(fc.oneof({ weight: 6, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: -3, max: 3 }) }), { maxLength: 20 }),
        fc.array(fc.bigInt({ min: 1n, max: 40n }).chain((price) => fc.record({ side: fc.constant('buys' as const), price: fc.constant(price), quantity: fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: 9n })) })), { minLength: 1, maxLength: 60 }),
        (buys, sells, shifts, deltas) => {
          const book = new OrderBook(marketId, 1n);
          expect(book.applySnapshot(snapshotOf(buys, sells)).ok).toBe(true);
          const planted = plantBug(book.buys, shifts);
          for (const delta of deltas) {
            const applied = book.applyDelta(delta.side, delta.price, delta.quantity);
            if (!applied.ok) {
              // Refused at the delta that went wrong: resync, nothing of this book is served.
              expect(applied.code).toBe('BOOK_INCONSISTENT');
              expect(planted.wrong).toBeGreaterThan(0);
              caught++;
              return;
            }
            // Passed its own checks: then the full walk finds nothing either.
            expect(book.check()).toEqual({ ok: true, value: undefined });
          }
        },
      ),
      { numRuns: 400 },
    );
    // The planted bug did cause inconsistencies (the property is not vacuous).
    expect(caught).toBeGreaterThan(20);
  });

  it('an off-by-one placement is refused at the delta that makes it (and the full check agrees)', () => {
    const book = freshBook();
    plantBug(book.buys, [1]);
    const applied = book.applyDelta('buys', 98n, 1n); // belongs between 97 and 99; placed one too far
    expect(applied).toMatchObject({ ok: false, code: 'BOOK_INCONSISTENT' });
    expect(book.isSynced()).toBe(false);
    expect(book.check()).toMatchObject({ ok: false, code: 'BOOK_UNSORTED' });
  });
});
