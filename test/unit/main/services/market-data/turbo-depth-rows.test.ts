// The Turbo depth overlay's rows: both views merged into the ladder's rows by its grouping rule
// (bids floored to the step, asks raised), highest first, so the ladder looks a price up and never
// regroups per frame.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { turboDepthRows } from '../../../../../main/services/market-data/turbo-depth-rows';
import { checkProperty } from '../../../../support/property';

describe('Turbo depth rows', () => {
  it('groups each view into the ladder rows, bids down and asks up', () => {
    const rows = turboDepthRows(
      { buys: [{ price: 2_995n, quantity: 3n }, { price: 2_990n, quantity: 4n }], sells: [{ price: 3_001n, quantity: 5n }] },
      { buys: [{ price: 2_999n, quantity: 7n }], sells: [{ price: 3_010n, quantity: 1n }, { price: 3_005n, quantity: 0n }] },
      10n,
    );
    expect(rows).toEqual([
      { price: 3_010n, executableBid: 0n, executableAsk: 5n, demandBid: 0n, demandAsk: 1n },
      { price: 2_990n, executableBid: 7n, executableAsk: 0n, demandBid: 7n, demandAsk: 0n },
    ]);
  });

  it('keeps every quantity (property)', async () => {
    const level = fc.record({ price: fc.bigInt({ min: 1n, max: 1_000_000n }), quantity: fc.bigInt({ min: 1n, max: 1_000n }) });
    const sides = fc.record({ buys: fc.array(level, { maxLength: 20 }), sells: fc.array(level, { maxLength: 20 }) });
    await checkProperty(
      fc.property(sides, sides, fc.constantFrom(1n, 10n, 100n, 1000n), (executable, demand, step) => {
        const rows = turboDepthRows(executable, demand, step);
        const sum = (list: readonly { quantity: bigint }[]) => list.reduce((total, entry) => total + entry.quantity, 0n);
        expect(rows.reduce((total, row) => total + row.executableBid, 0n)).toBe(sum(executable.buys));
        expect(rows.reduce((total, row) => total + row.demandAsk, 0n)).toBe(sum(demand.sells));
        for (const row of rows) expect(row.price % step).toBe(0n);
        for (let index = 1; index < rows.length; index++) expect(rows[index - 1]!.price > rows[index]!.price).toBe(true);
      }),
    );
  });
});
