import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  aggregateOwnOrders,
  barPercent,
  ceilToStep,
  clickPrice,
  floorToStep,
  insideCentre,
  ladderPrecisionOptions,
  layoutRows,
  needsRecenter,
  precisionOptions,
  rowPriceOf,
} from '../../renderer/src/features/ladder/ladder-layout';
import { buildLadderRows } from '../../renderer/src/features/ladder/ladder-model';

describe('ladder rows from a centre price and a step', () => {
  it('lays rows from the top down with the centre at index floor(count/2)', () => {
    expect(layoutRows(1000n, 10n, 5)).toEqual([1020n, 1010n, 1000n, 990n, 980n]);
    expect(layoutRows(1000n, 10n, 4)).toEqual([1020n, 1010n, 1000n, 990n]);
  });
  it('snaps an off-step centre down to its row', () => {
    expect(layoutRows(1007n, 10n, 3)).toEqual([1010n, 1000n, 990n]);
  });
  it('never shows a row at zero or below', () => {
    expect(layoutRows(10n, 10n, 5)).toEqual([50n, 40n, 30n, 20n, 10n]);
  });
  it('offers powers of ten from the price tick', () => {
    expect(precisionOptions(10_000n)).toEqual([10_000n, 100_000n, 1_000_000n, 10_000_000n, 100_000_000n, 1_000_000_000n]);
    expect(precisionOptions(1n).slice(0, 3)).toEqual([1n, 10n, 100n]);
  });
});

describe('grouping and the click price of a merged row', () => {
  it('floors bids and raises asks to the row step', () => {
    expect(rowPriceOf('Buy', 100_05n, 10n)).toBe(100_00n);
    expect(rowPriceOf('Sell', 100_05n, 10n)).toBe(100_10n);
    expect(rowPriceOf('Sell', 100_10n, 10n)).toBe(100_10n);
    expect(floorToStep(-5n, 10n)).toBe(-10n);
    expect(ceilToStep(-5n, 10n)).toBe(0n);
  });
  it('a click buys at the row price floored to the tick and sells at the row price raised to it', () => {
    expect(clickPrice('Buy', 3_000_100_000n, 10_000n)).toBe(3_000_100_000n);
    expect(clickPrice('Sell', 3_000_100_000n, 10_000n)).toBe(3_000_100_000n);
    // Only a row finer than the tick (not offered) would move: buys down, sells up.
    expect(clickPrice('Buy', 3_000_105_000n, 10_000n)).toBe(3_000_100_000n);
    expect(clickPrice('Sell', 3_000_105_000n, 10_000n)).toBe(3_000_110_000n);
  });
  it('property: a buy at a bid row never pays above any bid in it, a sell at an ask row never sells below any ask in it', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 12n }), fc.integer({ min: 0, max: 6 }), (price, exponent) => {
        const tick = 100n;
        const step = tick * 10n ** BigInt(exponent);
        const onTick = floorToStep(price, tick) + tick;
        const bidRow = rowPriceOf('Buy', onTick, step);
        const askRow = rowPriceOf('Sell', onTick, step);
        expect(clickPrice('Buy', bidRow, tick)).toBeLessThanOrEqual(onTick);
        expect(clickPrice('Sell', askRow, tick)).toBeGreaterThanOrEqual(onTick);
        expect(clickPrice('Buy', bidRow, tick) % tick).toBe(0n);
      }),
    );
  });
  it('property: an uncrossed book stays uncrossed on the ladder at every precision', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 12n }), fc.bigInt({ min: 1n, max: 10n ** 9n }), fc.integer({ min: 0, max: 9 }), (bid, gap, exponent) => {
        const step = 10n ** BigInt(exponent);
        expect(rowPriceOf('Buy', bid, step)).toBeLessThan(rowPriceOf('Sell', bid + gap, step));
      }),
    );
  });
});

describe('recentering', () => {
  const rows = layoutRows(1000n, 10n, 21); // 1100 .. 900
  it('keeps still while the inside market is well inside', () => {
    expect(needsRecenter({ rows, step: 10n, bestBid: 990n, bestAsk: 1010n, margin: 3 })).toBe(false);
  });
  it('recenters when the best ask comes within N rows of the top', () => {
    expect(needsRecenter({ rows, step: 10n, bestBid: 1060n, bestAsk: 1080n, margin: 3 })).toBe(true);
    expect(needsRecenter({ rows, step: 10n, bestBid: 1050n, bestAsk: 1070n, margin: 3 })).toBe(false);
  });
  it('recenters when the best bid comes within N rows of the bottom or leaves the ladder', () => {
    expect(needsRecenter({ rows, step: 10n, bestBid: 920n, bestAsk: 1000n, margin: 3 })).toBe(true);
    expect(needsRecenter({ rows, step: 10n, bestBid: 500n, bestAsk: 510n, margin: 3 })).toBe(true);
  });
  it('an empty book never forces a recenter', () => {
    expect(needsRecenter({ rows, step: 10n, bestBid: null, bestAsk: null, margin: 3 })).toBe(false);
  });
  it('centres between the best bid row and the best ask row', () => {
    expect(insideCentre(990n, 1010n, 10n, null)).toBe(1000n);
    expect(insideCentre(null, 1015n, 10n, null)).toBe(1020n);
    expect(insideCentre(null, null, 10n, 1234n)).toBe(1230n);
    expect(insideCentre(null, null, 10n, null)).toBeNull();
  });
});

describe('own orders per row', () => {
  const orders = [
    { orderId: 'a', marketId: 'm', side: 'Buy' as const, price: 1001n, remaining: 5n },
    { orderId: 'b', marketId: 'm', side: 'Buy' as const, price: 1009n, remaining: 7n },
    { orderId: 'c', marketId: 'm', side: 'Sell' as const, price: 1011n, remaining: 2n },
    { orderId: 'd', marketId: 'other', side: 'Sell' as const, price: 1011n, remaining: 2n },
    { orderId: 'e', marketId: 'm', side: 'Sell' as const, price: 1020n, remaining: 0n },
  ];
  it('counts and sums orders of the market on their rows with the book rule', () => {
    const rows = aggregateOwnOrders(orders, 'm', 10n);
    expect(rows.get(1000n)).toEqual({ buyCount: 2, buyQuantity: 12n, sellCount: 0, sellQuantity: 0n, buyOrderIds: ['a', 'b'], sellOrderIds: [] });
    expect(rows.get(1020n)).toEqual({ buyCount: 0, buyQuantity: 0n, sellCount: 1, sellQuantity: 2n, buyOrderIds: [], sellOrderIds: ['c'] });
    expect(rows.size).toBe(2);
  });
});

describe('a ladder frame', () => {
  it('merges levels, marks best bid, best ask, last trade and the spread', () => {
    const rows = buildLadderRows({
      rows: layoutRows(1000n, 10n, 7), // 1030 .. 970
      step: 10n,
      marketId: 'm',
      bids: [
        { price: 995n, quantity: 4n },
        { price: 991n, quantity: 6n },
        { price: 980n, quantity: 1n },
      ],
      asks: [
        { price: 1012n, quantity: 3n },
        { price: 1020n, quantity: 20n },
      ],
      volumeAtPrice: [{ price: 1015n, quantity: 9n }],
      lastTrade: { price: 1012n, side: 'Buy' },
      ownOrders: [{ orderId: 'x', marketId: 'm', side: 'Buy', price: 990n, remaining: 2n }],
    });
    const byPrice = new Map(rows.map((row) => [row.price, row]));
    expect(rows.map((row) => row.key)).toEqual(['1030', '1020', '1010', '1000', '990', '980', '970']);
    expect(byPrice.get(990n)).toMatchObject({ bid: 10n, bestBid: true, ownBuyCount: 1, ownBuyQuantity: 2n, ownBuyIds: ['x'] });
    expect(byPrice.get(1020n)).toMatchObject({ ask: 23n, bestAsk: true, lastTrade: 'Buy', bidBar: 0, askBar: 100 });
    expect(byPrice.get(1010n)).toMatchObject({ volume: 9n, inSpread: true, bid: 0n, ask: 0n });
    expect(byPrice.get(1000n)?.inSpread).toBe(true);
    expect(byPrice.get(980n)).toMatchObject({ bid: 1n, bidBar: 4 });
  });
  it('counts levels when the ladder is scrolled away from the inside market, on either side', () => {
    const base = { step: 10n, marketId: 'm', volumeAtPrice: [], lastTrade: null, ownOrders: [] };
    // Scrolled down: the best bids are above the top row, the rows shown hold deeper bids.
    const below = buildLadderRows({ ...base, rows: layoutRows(500n, 10n, 5), bids: [{ price: 990n, quantity: 1n }, { price: 515n, quantity: 2n }, { price: 480n, quantity: 3n }, { price: 100n, quantity: 4n }], asks: [{ price: 1000n, quantity: 9n }] });
    expect(below.map((row) => [row.key, row.bid, row.ask])).toEqual([['520', 0n, 0n], ['510', 2n, 0n], ['500', 0n, 0n], ['490', 0n, 0n], ['480', 3n, 0n]]);
    // Scrolled up: the best asks are below the bottom row.
    const above = buildLadderRows({ ...base, rows: layoutRows(2000n, 10n, 3), bids: [{ price: 990n, quantity: 1n }], asks: [{ price: 1000n, quantity: 9n }, { price: 1995n, quantity: 5n }, { price: 2011n, quantity: 6n }, { price: 3000n, quantity: 7n }] });
    expect(above.map((row) => [row.key, row.ask])).toEqual([['2010', 0n], ['2000', 5n], ['1990', 0n]]);
  });
  it('refuses rows that are not one step apart', () => {
    expect(() => buildLadderRows({ step: 10n, marketId: 'm', rows: [30n, 10n], bids: [], asks: [], volumeAtPrice: [], lastTrade: null, ownOrders: [] })).toThrow(/contiguous/);
  });
  it('keeps depth bar widths in whole percent computed without floats', () => {
    expect(barPercent(0n, 10n)).toBe(0);
    expect(barPercent(1n, 1000n)).toBe(1);
    expect(barPercent(10n ** 30n, 10n ** 30n)).toBe(100);
  });
});

describe('grouping that fits a wide spread', async () => {
  const { fitPrecision } = await import('../../renderer/src/features/ladder/ladder-layout');
  const options = precisionOptions(10_000n); // 0.01 .. 1000 USDC with 6 decimals
  it('keeps the finest grouping when the inside market fits', () => {
    expect(fitPrecision(options, 3_000_000_000n, 3_000_020_000n, 40)).toBe(10_000n);
  });
  it('groups coarser when the spread is wider than half the ladder', () => {
    // 3.02 USDC spread, 40 rows: 0.01 needs 302 rows, 0.1 needs 31, 1 needs 4.
    expect(fitPrecision(options, 3_024_390_000n, 3_027_410_000n, 40)).toBe(1_000_000n);
    expect(fitPrecision(options, 3_024_390_000n, 3_027_410_000n, 80)).toBe(100_000n);
  });
  it('falls back to the finest grouping for a one-sided book', () => {
    expect(fitPrecision(options, null, 3_000_000_000n, 40)).toBe(10_000n);
  });
});

describe('the ladder never offers rows finer than the depth stream groups prices (issue 14, long run)', () => {
  it('on a market whose tick is finer than the stream grouping (FUEL/USDC, tick 1 raw), rows start at 10', () => {
    // At rows of 1, the stream's best ask raised to 10 (0.020000 for an ask of 0.019998) was shown
    // as an exact row, and the trader-session oracle found it.
    expect(ladderPrecisionOptions(1n)[0]).toBe(10n);
    expect(ladderPrecisionOptions(1n)).not.toContain(1n);
    expect(precisionOptions(1n)).toContain(1n);
    // A market whose tick is coarser (ETH/USDC, 0.01 USDC = 10,000 raw) keeps its tick.
    expect(ladderPrecisionOptions(10_000n)[0]).toBe(10_000n);
    expect(ladderPrecisionOptions(10n)[0]).toBe(10n);
  });
});
