// The ladder's order-flow columns: each row's traded volume split by the taker's side (merged into
// the row like bids, floored), drawn as one bar of the two parts; the last trade's size on the row
// it printed at, marked as a large lot from the trader's size; unchanged rows keep their object.
import { describe, expect, it } from 'vitest';
import { buildLadderFrame, sameRow, type LadderInput } from '../../renderer/src/features/ladder/ladder-model';
import { largeLotOf } from '../../renderer/src/features/ladder/OrderFlowControls';

const rows = [1030n, 1020n, 1010n, 1000n, 990n];
const base: LadderInput = {
  rows,
  step: 10n,
  marketId: 'm',
  bids: [{ price: 1000n, quantity: 5n }],
  asks: [{ price: 1010n, quantity: 5n }],
  volumeAtPrice: [
    { price: 1010n, quantity: 8n },
    { price: 1003n, quantity: 2n },
  ],
  flowAtPrice: [
    { price: 1010n, bought: 6n, sold: 2n },
    { price: 1003n, bought: 0n, sold: 2n },
  ],
  lastTrade: { price: 1010n, side: 'Buy', quantity: 3n },
  ownOrders: [],
};

describe('ladder order flow', () => {
  it('splits each row by taker side, bars scaled to the busiest row shown, a print floored into its row', () => {
    const frame = buildLadderFrame(base);
    const byPrice = new Map(frame.rows.map((row) => [row.price, row]));
    expect(byPrice.get(1010n)).toMatchObject({ volume: 8n, bought: 6n, sold: 2n, boughtBar: 75, soldBar: 25 });
    expect(byPrice.get(1000n)).toMatchObject({ volume: 2n, bought: 0n, sold: 2n, boughtBar: 0, soldBar: 25 });
    expect(byPrice.get(1020n)).toMatchObject({ volume: 0n, bought: 0n, sold: 0n, boughtBar: 0, soldBar: 0 });
  });

  it('the last trade size sits on its row only; a large lot from the trader size on', () => {
    const plain = buildLadderFrame(base);
    const sizes = plain.rows.map((row) => row.lastSize);
    // A buy lifted the offer: it prints on the ask side's row (1010).
    expect(sizes).toEqual([0n, 0n, 3n, 0n, 0n]);
    expect(plain.rows.every((row) => !row.largeLot)).toBe(true);
    expect(buildLadderFrame({ ...base, largeLot: 3n }).rows.find((row) => row.price === 1010n)?.largeLot).toBe(true);
    expect(buildLadderFrame({ ...base, largeLot: 4n }).rows.some((row) => row.largeLot)).toBe(false);
    expect(buildLadderFrame({ ...base, largeLot: null }).rows.some((row) => row.largeLot)).toBe(false);
  });

  it('a row whose flow changed is a new row; an unchanged one is the same object', () => {
    const first = buildLadderFrame(base);
    const previous = (price: bigint) => first.rows.find((row) => row.price === price);
    const next = buildLadderFrame({ ...base, flowAtPrice: [{ price: 1010n, bought: 6n, sold: 3n }, { price: 1003n, bought: 0n, sold: 2n }], previous, barScale: first.barScale });
    const changed = next.rows.find((row) => row.price === 1010n)!;
    expect(sameRow(changed, previous(1010n)!)).toBe(false);
    expect(next.rows.find((row) => row.price === 1030n)).toBe(previous(1030n));
  });

  it('reads the large-lot size of the market from the settings', () => {
    expect(largeLotOf({ largeTradeSize: { m: 5n } }, 'm')).toBe(5n);
    expect(largeLotOf({ largeTradeSize: {} }, 'm')).toBeNull();
    expect(largeLotOf(null, 'm')).toBeNull();
  });
});
