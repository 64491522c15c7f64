// The tape's rows: trades of one taker order merged (same time and side, next to each other,
// walking the book one way), filtered by a minimum size, large lots marked.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TradeView } from '../../shared/ipc/views';
import { keepSameRows, tapeRows } from '../../renderer/src/features/tape/tape-model';
import { checkProperty } from '../support/property';

let serial = 0;
const trade = (side: 'Buy' | 'Sell', price: bigint, quantity: bigint, time: number): TradeView => ({ tradeId: `t${++serial}`, marketId: 'm', side, price, quantity, time });

describe('tape rows', () => {
  // Newest first, as the tape holds them: a buy sweep 100 → 102 at time 5, a lone sell at time 5, a buy at time 4.
  const sweep = [trade('Buy', 102n, 1n, 5), trade('Buy', 101n, 2n, 5), trade('Buy', 100n, 3n, 5)];
  const trades = [trade('Sell', 99n, 4n, 6), ...sweep, trade('Buy', 100n, 1n, 4)];

  it('one row per trade without aggregation', () => {
    expect(tapeRows(trades, { aggregate: false, minimum: null, largeLot: null }).map((row) => row.quantity)).toEqual([4n, 1n, 2n, 3n, 1n]);
  });

  it('merges the trades of one taker order: its size summed, the price it reached and the one it started at', () => {
    const rows = tapeRows(trades, { aggregate: true, minimum: null, largeLot: null });
    expect(rows.map((row) => ({ side: row.side, price: row.price, firstPrice: row.firstPrice, quantity: row.quantity, count: row.count }))).toEqual([
      { side: 'Sell', price: 99n, firstPrice: 99n, quantity: 4n, count: 1 },
      { side: 'Buy', price: 102n, firstPrice: 100n, quantity: 6n, count: 3 },
      { side: 'Buy', price: 100n, firstPrice: 100n, quantity: 1n, count: 1 },
    ]);
    expect(rows[1]!.key).toBe(sweep[0]!.tradeId);
  });

  it('does not merge trades of one time that walk the book the wrong way or change side', () => {
    const two = [trade('Buy', 100n, 1n, 7), trade('Buy', 101n, 1n, 7)];
    expect(tapeRows(two, { aggregate: true, minimum: null, largeLot: null })).toHaveLength(2);
    const sides = [trade('Buy', 100n, 1n, 7), trade('Sell', 100n, 1n, 7)];
    expect(tapeRows(sides, { aggregate: true, minimum: null, largeLot: null })).toHaveLength(2);
  });

  it('filters by the minimum size (of the merged order when merged) and marks large lots', () => {
    expect(tapeRows(trades, { aggregate: false, minimum: 3n, largeLot: null }).map((row) => row.quantity)).toEqual([4n, 3n]);
    const merged = tapeRows(trades, { aggregate: true, minimum: 5n, largeLot: 6n });
    expect(merged.map((row) => [row.quantity, row.large])).toEqual([[6n, true]]);
  });

  it('for any trades: merging keeps every unit traded, and each row is one side and one time', () => {
    const arbitrary = fc.array(fc.record({ side: fc.constantFrom('Buy' as const, 'Sell' as const), price: fc.bigInt({ min: 1n, max: 5n }), quantity: fc.bigInt({ min: 1n, max: 9n }), time: fc.integer({ min: 0, max: 3 }) }), { maxLength: 40 });
    checkProperty(
      fc.property(arbitrary, (items) => {
        const list = items.map((item) => trade(item.side, item.price, item.quantity, item.time));
        const merged = tapeRows(list, { aggregate: true, minimum: null, largeLot: null });
        const total = (values: readonly { quantity: bigint }[]) => values.reduce((sum, value) => sum + value.quantity, 0n);
        expect(total(merged)).toBe(total(list));
        expect(merged.reduce((sum, row) => sum + row.count, 0)).toBe(list.length);
        for (const row of merged) expect(row.side === 'Buy' ? row.price >= row.firstPrice : row.price <= row.firstPrice).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('keeps the objects of rows that did not change, so a new trade draws one new row', () => {
    const options = { aggregate: false, minimum: null, largeLot: null };
    const before = keepSameRows([], tapeRows(trades, options));
    const newer = trade('Buy', 103n, 1n, 8);
    const after = keepSameRows(before, tapeRows([newer, ...trades], options));
    expect(after[0]!.key).toBe(newer.tradeId);
    after.slice(1).forEach((row, index) => expect(row).toBe(before[index]));
    // A row whose figures changed (a large-lot size set) is a new object with the new figures.
    const marked = keepSameRows(after, tapeRows([newer, ...trades], { ...options, largeLot: 4n }));
    expect(marked[0]).toBe(after[0]);
    expect(marked[0]!.large).toBe(false);
    const large = marked.find((row) => row.quantity === 4n)!;
    expect(large.large).toBe(true);
    expect(after).not.toContain(large);
  });
});
