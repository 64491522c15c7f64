import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  aggregateOwnOrders,
  barPercent,
  ceilToStep,
  clickPrice,
  floorToStep,
  insideCentre,
  insideView,
  ladderPrecisionOptions,
  layoutRows,
  mayAutoRecenter,
  needsRecenter,
  precisionOptions,
  rowIndexer,
  rowPriceOf,
  viewRows,
} from '../../renderer/src/features/ladder/ladder-layout';
import { bookPosition, buildLadderFrame, buildLadderRows, cumulativeByIndex } from '../../renderer/src/features/ladder/ladder-model';
import { defaultPresets, ladderPresets, withPreset } from '../../renderer/src/features/ladder/ladder-size';
import type { PositionView } from '../../shared/ipc/views';
import { closePlan, reversePlan } from '../../shared/positions/close-plan';
import { ethUsdc } from '../support/renderer/fixtures';
import { checkProperty } from '../support/property';

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
    checkProperty(
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
    checkProperty(
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
  it('refuses rows off the step grid or not descending', () => {
    const base = { step: 10n, marketId: 'm', bids: [], asks: [], volumeAtPrice: [], lastTrade: null, ownOrders: [] };
    expect(() => buildLadderRows({ ...base, rows: [30n, 15n] })).toThrow(/step grid/);
    expect(() => buildLadderRows({ ...base, rows: [10n, 30n] })).toThrow(/descending/);
    expect(buildLadderRows({ ...base, rows: [30n, 10n] }).map((row) => row.hiddenAbove)).toEqual([0n, 1n]);
  });
  it('keeps depth bar widths in whole percent computed without floats', () => {
    expect(barPercent(0n, 10n)).toBe(0);
    expect(barPercent(1n, 1000n)).toBe(1);
    expect(barPercent(10n ** 30n, 10n ** 30n)).toBe(100);
  });
});

// ETH/USDC as the sandbox lists it: 6 quote decimals, tick 0.01 USDC = 10_000 raw.
const TICK = 10_000n;
const usdc = (text: string) => {
  const [whole, fraction = ''] = text.split('.');
  return BigInt(whole!) * 1_000_000n + BigInt((fraction + '000000').slice(0, 6));
};

describe('default grouping at the tick, recentred on the inside market', () => {
  it('a narrow inside market: contiguous rows centred between best bid and best ask', () => {
    const view = insideView(usdc('2999.95'), usdc('3000.05'), TICK, 40, null);
    expect(view).toEqual({ kind: 'centre', centre: usdc('3000.00') });
    const rows = viewRows(view!, TICK, 40);
    expect(rows).toHaveLength(40);
    expect(rows.indexOf(usdc('3000.05'))).toBeGreaterThanOrEqual(10);
    expect(rows.indexOf(usdc('2999.95'))).toBeLessThan(30);
  });
  it('a spread wider than the ladder (7.49 USDC = 749 ticks, 40 rows): split, both sides shown with depth, the middle of the spread left out', () => {
    const bid = usdc('2989.85');
    const ask = usdc('2997.34');
    const view = insideView(bid, ask, TICK, 40, null);
    expect(view).toEqual({ kind: 'split', askRow: ask, bidRow: bid });
    const rows = viewRows(view!, TICK, 40);
    expect(rows).toHaveLength(40);
    const askIndex = rows.indexOf(ask);
    const bidIndex = rows.indexOf(bid);
    // 20 rows of the ask side ending 2 empty rows below the best ask, 20 of the bid side from 2 above the best bid.
    expect(askIndex).toBe(17);
    expect(bidIndex).toBe(22);
    expect(rows[19]).toBe(ask - 2n * TICK);
    expect(rows[20]).toBe(bid + 2n * TICK);
    // Never a view of empty rows only: 17 ask rows above the best ask, 17 bid rows below the best bid.
    expect(rows.slice(0, askIndex).every((price) => price > ask)).toBe(true);
    expect(rows.slice(bidIndex + 1).every((price) => price < bid)).toBe(true);
    // Rows left out, said on the first row under the gap.
    const built = buildLadderRows({ rows, step: TICK, marketId: 'm', bids: [{ price: bid, quantity: 5n }], asks: [{ price: ask, quantity: 7n }], volumeAtPrice: [], lastTrade: null, ownOrders: [] });
    expect(built[20]!.hiddenAbove).toBe((ask - bid) / TICK - 1n - 4n);
    expect(built.filter((row) => row.hiddenAbove > 0n)).toHaveLength(1);
    expect(built[askIndex]).toMatchObject({ ask: 7n, bestAsk: true });
    expect(built[bidIndex]).toMatchObject({ bid: 5n, bestBid: true });
  });
  it('the old behaviour is gone: at the tick, a centred view of a wide spread would hold no level at all', () => {
    const bid = usdc('2989.85');
    const ask = usdc('2997.34');
    const centred = layoutRows(insideCentre(bid, ask, TICK, null)!, TICK, 40);
    expect(centred.some((price) => price <= bid || price >= ask)).toBe(false);
    expect(viewRows(insideView(bid, ask, TICK, 40, null)!, TICK, 40).some((price) => price <= bid)).toBe(true);
  });
  it('a one-sided or empty book centres on what there is, or on the last trade', () => {
    expect(insideView(null, usdc('3000.00'), TICK, 40, null)).toEqual({ kind: 'centre', centre: usdc('3000.00') });
    expect(insideView(null, null, TICK, 40, usdc('3000.004'))).toEqual({ kind: 'centre', centre: usdc('3000.00') });
    expect(insideView(null, null, TICK, 40, null)).toBeNull();
  });
  it('does not split when the bid side would reach zero', () => {
    expect(insideView(20n, 1000n, 10n, 10, null)?.kind).toBe('centre');
    expect(insideView(30n, 1000n, 10n, 10, null)?.kind).toBe('split');
  });
  it('property: a split or centred view always shows the best bid and the best ask, rows strictly descending on the grid', () => {
    checkProperty(
      fc.property(fc.bigInt({ min: 1000n, max: 10n ** 12n }), fc.bigInt({ min: 1n, max: 10n ** 9n }), fc.integer({ min: 14, max: 120 }), fc.constantFrom(1n, 10n, 100n), (bidRaw, width, count, step) => {
        // Prices well away from zero (a bid side of the ladder that would reach zero cannot be split).
        const bid = bidRaw + step * BigInt(count) * 2n;
        const ask = bid + width;
        const view = insideView(bid, ask, step, count, null)!;
        const rows = viewRows(view, step, count);
        expect(rows).toHaveLength(count);
        for (let index = 1; index < rows.length; index++) expect(rows[index]! < rows[index - 1]!).toBe(true);
        expect(rows.every((price) => price % step === 0n && price > 0n)).toBe(true);
        const indexOf = rowIndexer(rows, step);
        const bidAt = indexOf(rowPriceOf('Buy', bid, step));
        const askAt = indexOf(rowPriceOf('Sell', ask, step));
        expect(bidAt).toBeGreaterThanOrEqual(0);
        expect(askAt).toBeGreaterThanOrEqual(0);
        // ...and the fresh view never needs a recenter of its own (a ladder of 14 rows or more).
        expect(needsRecenter({ rows, step, bestBid: bid, bestAsk: ask, margin: 4 })).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});

describe('recentering rules', () => {
  const bid = usdc('2989.85');
  const ask = usdc('2997.34');
  const rows = viewRows(insideView(bid, ask, TICK, 40, null)!, TICK, 40);
  it('a split ladder recenters when the best bid or ask moves into the part left out', () => {
    expect(needsRecenter({ rows, step: TICK, bestBid: bid + TICK, bestAsk: ask - TICK, margin: 4 })).toBe(false);
    expect(needsRecenter({ rows, step: TICK, bestBid: bid + 3n * TICK, bestAsk: ask, margin: 4 })).toBe(true);
    expect(needsRecenter({ rows, step: TICK, bestBid: bid, bestAsk: ask - 3n * TICK, margin: 4 })).toBe(true);
  });
  it('never moves by itself while held, under the pointer, during a drag or with a dialog open', () => {
    const idle = { held: false, pointerOver: false, dialogOpen: false, dragging: false };
    expect(mayAutoRecenter(idle)).toBe(true);
    expect(mayAutoRecenter({ ...idle, held: true })).toBe(false);
    expect(mayAutoRecenter({ ...idle, pointerOver: true })).toBe(false);
    expect(mayAutoRecenter({ ...idle, dialogOpen: true })).toBe(false);
    expect(mayAutoRecenter({ ...idle, dragging: true })).toBe(false);
  });
  it('a split view kept across a change of grouping gives rows on the new grid', () => {
    const coarse = viewRows({ kind: 'split', askRow: ask, bidRow: bid }, 1_000_000n, 40);
    expect(coarse.every((price) => price % 1_000_000n === 0n)).toBe(true);
    for (let index = 1; index < coarse.length; index++) expect(coarse[index]! < coarse[index - 1]!).toBe(true);
    expect(() => buildLadderRows({ rows: coarse, step: 1_000_000n, marketId: 'm', bids: [], asks: [], volumeAtPrice: [], lastTrade: null, ownOrders: [] })).not.toThrow();
  });
  it('finds row indexes across the gap', () => {
    const indexOf = rowIndexer(rows, TICK);
    expect(indexOf(rows[0]!)).toBe(0);
    expect(indexOf(rows[19]!)).toBe(19);
    expect(indexOf(rows[20]!)).toBe(20);
    expect(indexOf(rows[39]!)).toBe(39);
    expect(indexOf(rows[19]! - TICK)).toBe(-1);
    expect(indexOf(rows[0]! + TICK)).toBe(-1);
  });
});

describe('cumulative depth in bigint', () => {
  const rows = layoutRows(1000n, 10n, 7); // 1030 .. 970
  const bids = [
    { price: 995n, quantity: 4n },
    { price: 991n, quantity: 6n },
    { price: 980n, quantity: 1n },
    { price: 900n, quantity: 50n },
  ];
  const asks = [
    { price: 1012n, quantity: 3n },
    { price: 1020n, quantity: 20n },
    { price: 1100n, quantity: 9n },
  ];
  it('sums every bid at or above the row and every ask at or below it', () => {
    expect(cumulativeByIndex(bids, 'Buy', 10n, rows)).toEqual([0n, 0n, 0n, 0n, 10n, 11n, 11n]);
    expect(cumulativeByIndex(asks, 'Sell', 10n, rows)).toEqual([23n, 23n, 0n, 0n, 0n, 0n, 0n]);
  });
  it('counts levels above the rows shown (scrolled down) and beyond 2^53 exactly', () => {
    const big = 2n ** 80n + 1n;
    const deep = layoutRows(920n, 10n, 3); // 930 920 910
    expect(cumulativeByIndex([{ price: 995n, quantity: big }, { price: 921n, quantity: 1n }], 'Buy', 10n, deep)).toEqual([big, big + 1n, big + 1n]);
  });
  it('a frame in cumulative mode shows the sums and scales its bars to them', () => {
    const frame = buildLadderFrame({ rows, step: 10n, marketId: 'm', bids, asks, volumeAtPrice: [], lastTrade: null, ownOrders: [], cumulative: true });
    expect(frame.rows.map((row) => [row.key, row.bid, row.ask])).toEqual([
      ['1030', 0n, 23n],
      ['1020', 0n, 23n],
      ['1010', 0n, 0n],
      ['1000', 0n, 0n],
      ['990', 10n, 0n],
      ['980', 11n, 0n],
      ['970', 11n, 0n],
    ]);
    expect(frame.barScale).toBe(23n);
    // Best bid and ask still mark the inside, not the largest sum.
    expect(frame.rows.find((row) => row.bestBid)?.key).toBe('990');
    expect(frame.rows.find((row) => row.bestAsk)?.key).toBe('1020');
  });
});

describe('own trades, average entry and P&L per row', () => {
  it('marks the rows of own recent fills and the entry row', () => {
    const rows = buildLadderRows({
      rows: layoutRows(1000n, 10n, 5),
      step: 10n,
      marketId: 'm',
      bids: [],
      asks: [],
      volumeAtPrice: [],
      lastTrade: null,
      ownOrders: [],
      ownFills: [
        { side: 'Buy', price: 1005n, quantity: 2n },
        { side: 'Buy', price: 1001n, quantity: 3n },
        { side: 'Sell', price: 1000n, quantity: 1n },
        { side: 'Sell', price: 2000n, quantity: 1n },
      ],
      entryPrice: 993n,
    });
    const byKey = new Map(rows.map((row) => [row.key, row]));
    expect(byKey.get('1000')).toMatchObject({ ownBought: 5n, ownSold: 1n });
    expect(byKey.get('990')).toMatchObject({ entry: true, ownBought: 0n });
    expect(rows.filter((row) => row.entry)).toHaveLength(1);
  });
  it('sums the positions of a book over its signing accounts, with an entry only when they agree in sign', () => {
    const position = (account: string, size: bigint, entry: bigint, turbo = false): PositionView => ({
      account, accountKind: 'trading', marketId: 'm', turbo, size, notClosable: null, close: closePlan(ethUsdc, size, { price: null }), partials: [], reverse: reversePlan(ethUsdc, size, { price: null }), limitTouch: null, limitCloses: [], averageEntry: entry, basis: size * entry, mark: null, markSide: null, unrealized: 1n,
      unrealizedBps: null, realized: 0n, realizedBps: null, feesBase: 0n, feesQuote: 0n, fills: 1, liquidation: null, freeze: null,
    });
    const a = position('a', 2n, 100n);
    const b = position('b', 6n, 200n);
    expect(bookPosition([a, b, position('c', 5n, 1n, true)], 'm', false)).toEqual({ size: 8n, entry: 175n, open: [a, b] });
    expect(bookPosition([position('a', 2n, 100n), position('b', -6n, 200n)], 'm', false)?.entry).toBeNull();
    expect(bookPosition([position('a', 0n, 100n)], 'm', false)).toBeNull();
  });
});

describe('ladder size presets', () => {
  // ETH/USDC: base 9 decimals shown to 4 (tick 10^5), minimum order 5 USDC.
  const market = {
    base: { symbol: 'ETH', asset: '0x' as never, decimals: 9, max_precision: 4 },
    quote: { symbol: 'USDC', asset: '0x' as never, decimals: 6, max_precision: 2 },
    maker_fee: 0n, taker_fee: 0n, min_order: 5_000_000n, dust: 0n,
  };
  it('start at the smallest size on the step worth the minimum order at the price', () => {
    // 5 USDC at 3,000 USDC is 0.001667 ETH: 0.0017 ETH on the 0.0001 step.
    expect(defaultPresets(market, usdc('3000'))).toEqual([1_700_000n, 3_400_000n, 8_500_000n, 17_000_000n]);
    // At 100,000 USDC: 0.00005 ETH is below the step (0.0001): 0.0001 ETH.
    expect(defaultPresets(market, usdc('100000'))[0]).toBe(100_000n);
    expect(defaultPresets(market, null)).toEqual([]);
  });
  it('never start below the dust threshold (0.001 ETH on the sandbox ETH/USDC, where 0.0005 was offered)', () => {
    const sandbox = { ...market, min_order: 1_000_000n, dust: 1_000_000n };
    expect(defaultPresets(sandbox, usdc('3000'))).toEqual([1_000_000n, 2_000_000n, 5_000_000n, 10_000_000n]);
    expect(ladderPresets(undefined, sandbox, usdc('3000')).minimum).toBe(1_000_000n);
  });
  it("a Turbo book's own row decides: its min_order, not the canonical one's", () => {
    const turboRow = { ...market, min_order: 10_000_000n, dust: 1_000_000n };
    // 10 USDC at 3,000 is 0.003334 ETH: 0.0034 ETH.
    expect(ladderPresets(undefined, turboRow, usdc('3000')).presets[0]).toBe(3_400_000n);
  });
  it("the trader's own presets win; adding one keeps the list sorted, unique and at most 8", () => {
    expect(ladderPresets([1n, 2n], market, usdc('3000'))).toEqual({ presets: [1n, 2n], configured: true, minimum: 1_700_000n });
    expect(ladderPresets([], market, usdc('3000')).configured).toBe(false);
    expect(withPreset([5n, 1n], 3n)).toEqual([1n, 3n, 5n]);
    expect(withPreset([1n, 3n], 3n)).toEqual([1n, 3n]);
    expect(withPreset([1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n], 9n)).toEqual([2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n]);
  });
});

describe('the ladder never offers rows finer than the depth stream groups prices', () => {
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
