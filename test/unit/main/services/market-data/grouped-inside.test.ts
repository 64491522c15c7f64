// The best ask and bid a grouped ladder shows (FUEL/USDC's ladder must not show a best ask row
// 0.020070 under the exchange's best ask 0.020076). The path a price takes:
// the sandbox's depth stream groups it (at least 10 raw units: bids floored, asks raised), main's
// hub groups the stream's levels again at the window's precision, and the ladder puts each level in
// its row (bids floored, asks raised). Whatever the book, the best rows are the exchange's inside
// rounded the safe way (an ask never shown lower, a bid never higher, than is on offer), which is
// also what the trader-session oracle holds the ladder to.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupLevels } from '../../../../../main/services/market-data/market-data-hub';
import { rowPriceOf } from '../../../../../renderer/src/features/ladder/ladder-layout';
import { groupPrice } from '../../../../../sandbox/market-data/depth';
import { insideRows } from '../../../../support/trader-session/oracle';
import { checkProperty } from '../../../../support/property';

const STREAM_GROUPING = 10n;

/** The sandbox's level-2 view of one side at the stream's grouping, best first (sandbox/market-data/depth.ts). */
function streamLevels(side: 'Buy' | 'Sell', orders: readonly (readonly [bigint, bigint])[]): [bigint, bigint][] {
  const sorted = [...orders].sort((a, b) => (side === 'Buy' ? (a[0] > b[0] ? -1 : a[0] < b[0] ? 1 : 0) : a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const levels: [bigint, bigint][] = [];
  for (const [price, quantity] of sorted) {
    const grouped = groupPrice(side, price, STREAM_GROUPING);
    const last = levels[levels.length - 1];
    if (last && last[0] === grouped) last[1] += quantity;
    else levels.push([grouped, quantity]);
  }
  return levels;
}

describe('grouped best bid and ask: asks rounded up, bids down, from the stream to the ladder row', () => {
  it('groupPrice raises an ask and floors a bid to the stream grouping', () => {
    expect(groupPrice('Sell', 20_076n, 10n)).toBe(20_080n);
    expect(groupPrice('Sell', 20_070n, 10n)).toBe(20_070n);
    expect(groupPrice('Buy', 20_036n, 10n)).toBe(20_030n);
    expect(groupLevels([[20_080n, 5n]], 10n, 'sells', 5)[0]!.price).toBe(20_080n);
    expect(rowPriceOf('Sell', 20_080n, 10n)).toBe(20_080n);
    // The exchange's best ask 0.020076 belongs to the row 0.020080.
    expect(insideRows({ bid: 20_036n, ask: 20_076n }, 10n)).toEqual({ bid: 20_030n, ask: 20_080n });
  });

  it('for any book and any ladder precision from the stream grouping up, the best rows are the inside rounded the safe way', () => {
    const price = fc.bigInt({ min: 19_000n, max: 21_000n });
    const quantity = fc.bigInt({ min: 1n, max: 1_000n });
    checkProperty(
      fc.property(
        fc.array(fc.tuple(price, quantity), { minLength: 1, maxLength: 40 }),
        fc.array(fc.tuple(price, quantity), { minLength: 1, maxLength: 40 }),
        fc.constantFrom(10n, 100n, 1_000n),
        (rawBids, rawAsks, precision) => {
          // An uncrossed book: every ask above every bid.
          const highestBid = rawBids.reduce((max, [p]) => (p > max ? p : max), 0n);
          const asks = rawAsks.map(([p, q]) => [p + highestBid - 18_999n, q] as const);
          const bestBid = highestBid;
          const bestAsk = asks.reduce((min, [p]) => (p < min ? p : min), asks[0]![0]);
          const bidRows = groupLevels(streamLevels('Buy', rawBids), precision, 'buys', 25);
          const askRows = groupLevels(streamLevels('Sell', asks), precision, 'sells', 25);
          const shownBid = rowPriceOf('Buy', bidRows[0]!.price, precision);
          const shownAsk = rowPriceOf('Sell', askRows[0]!.price, precision);
          const expected = insideRows({ bid: bestBid, ask: bestAsk }, precision);
          expect(shownAsk).toBe(expected.ask);
          expect(shownBid).toBe(expected.bid);
          // Never a better price than is on offer.
          expect(shownAsk >= bestAsk).toBe(true);
          expect(shownBid <= bestBid).toBe(true);
          // Rows are best first, and when all fit, every order's quantity is in one of them.
          for (let index = 1; index < askRows.length; index++) expect(askRows[index]!.price > askRows[index - 1]!.price).toBe(true);
          for (let index = 1; index < bidRows.length; index++) expect(bidRows[index]!.price < bidRows[index - 1]!.price).toBe(true);
          if (askRows.length < 25) expect(askRows.reduce((sum, row) => sum + row.quantity, 0n)).toBe(asks.reduce((sum, [, q]) => sum + q, 0n));
        },
      ),
      { numRuns: 500 },
    );
  });
});
