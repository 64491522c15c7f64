// The realistic depth profile's ladder: prices on the tick and strictly away from the mid, sizes
// on the step, valid orders (min_order, dust, whole quote value), never smaller than the level
// inside them, within the configured size, and as deep as a liquid venue on ETH/USDC.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isWholeQuoteValue, quoteValue } from '../../../../shared/market/amounts';
import { powerOfTen } from '../../../../shared/market/market';
import { priceTick, quantityTick } from '../../../../shared/market/tick';
import { buildNetwork, type MarketConfig } from '../../../../sandbox/config/network';
import { FULL_PPM, ladder, REALISTIC_SHAPE, type LadderQuote, type LadderShape } from '../../../../sandbox/house/depth-profile';
import { checkProperty } from '../../../support/property';

const network = buildNetwork(1, 9889n);
const ethUsdc = network.markets.find((market) => market.name === 'ETH/USDC') as MarketConfig;
const ETH = 1_000_000_000n;

/** The quantity a level is sized at before rounding: its configured value at its price. */
function target(market: MarketConfig, shape: LadderShape, level: number, price: bigint): bigint {
  let value = shape.insideValue * powerOfTen(market.quote.decimals);
  for (let i = 0; i < level; i++) value = (value * (FULL_PPM + shape.growthPpm)) / FULL_PPM;
  return (value * powerOfTen(market.base.decimals)) / price;
}

/** Every invariant of a full ladder; returns the problems found (empty when sound). */
function problems(market: MarketConfig, mid: bigint, shape: LadderShape, quotes: readonly LadderQuote[]): string[] {
  const found: string[] = [];
  const tick = priceTick(market);
  const step = quantityTick(market);
  for (const side of ['Buy', 'Sell'] as const) {
    const levels = quotes.filter((quote) => quote.side === side);
    let previous: LadderQuote | undefined;
    for (const quote of levels) {
      const where = `${side} level ${quote.level} ${quote.price}x${quote.quantity}`;
      if (quote.price % tick !== 0n) found.push(`${where}: price off the tick ${tick}`);
      if (quote.quantity % step !== 0n) found.push(`${where}: size off the step ${step}`);
      if (quote.quantity < market.dust) found.push(`${where}: below dust ${market.dust}`);
      if (!isWholeQuoteValue(market, quote.price, quote.quantity) || quoteValue(market, quote.price, quote.quantity) < market.min_order) found.push(`${where}: not a valid order value`);
      if (side === 'Buy' ? quote.price >= mid : quote.price <= mid) found.push(`${where}: on the wrong side of the mid ${mid}`);
      const wanted = target(market, shape, quote.level, quote.price);
      if (quote.quantity < wanted) found.push(`${where}: below its configured size ${wanted}`);
      if (previous !== undefined) {
        if (side === 'Buy' ? quote.price >= previous.price : quote.price <= previous.price) found.push(`${where}: price not away from the level inside it`);
        if (quote.quantity < previous.quantity) found.push(`${where}: smaller than the level inside it (${previous.quantity})`);
      }
      // Rounding up to a valid order adds at most ten steps (whole quote value) above the largest
      // of the configured size, the level inside and the market's minimum.
      const minimum = (market.min_order * powerOfTen(market.base.decimals) + quote.price - 1n) / quote.price;
      const ceiling = [wanted, previous?.quantity ?? 0n, minimum, market.dust].reduce((a, b) => (a > b ? a : b)) + 10n * step;
      if (quote.quantity > ceiling) found.push(`${where}: above the configured bound ${ceiling}`);
      previous = quote;
    }
  }
  const bestBid = quotes.find((quote) => quote.side === 'Buy');
  const bestAsk = quotes.find((quote) => quote.side === 'Sell');
  if (bestBid !== undefined && bestAsk !== undefined && bestBid.price >= bestAsk.price) found.push(`crossed: ${bestBid.price} >= ${bestAsk.price}`);
  return found;
}

describe('the realistic depth profile', () => {
  it('quotes 40 sound levels a side on every market of the network', () => {
    for (const market of network.markets) {
      const quotes = ladder(market, market.initialMid, REALISTIC_SHAPE);
      expect(problems(market, market.initialMid, REALISTIC_SHAPE, quotes), market.name).toEqual([]);
      expect(quotes.filter((quote) => quote.side === 'Buy'), market.name).toHaveLength(40);
      expect(quotes.filter((quote) => quote.side === 'Sell'), market.name).toHaveLength(40);
    }
  });

  it('holds a few hundred ETH within 1 % of the mid on ETH/USDC, growing from about half an ETH at the inside', () => {
    const mid = ethUsdc.initialMid;
    const quotes = ladder(ethUsdc, mid, REALISTIC_SHAPE);
    const within = quotes.filter((quote) => (quote.price > mid ? quote.price - mid : mid - quote.price) * 100n <= mid);
    expect(within).toHaveLength(80);
    const total = within.reduce((sum, quote) => sum + quote.quantity, 0n);
    expect(total).toBeGreaterThanOrEqual(200n * ETH);
    expect(total).toBeLessThanOrEqual(400n * ETH);
    const inside = quotes.find((quote) => quote.side === 'Sell' && quote.level === 0) as LadderQuote;
    expect(inside.quantity).toBe(5_000_000_00n);
    // A 2 ETH buy walks at least three levels.
    const asks = quotes.filter((quote) => quote.side === 'Sell');
    expect((asks[0]?.quantity ?? 0n) + (asks[1]?.quantity ?? 0n) + (asks[2]?.quantity ?? 0n)).toBeLessThan(2n * ETH);
  });

  it('quotes a level the book lost part of at what came back, and leaves out one with nothing', () => {
    const mid = ethUsdc.initialMid;
    const full = ladder(ethUsdc, mid, REALISTIC_SHAPE);
    const partial = ladder(ethUsdc, mid, REALISTIC_SHAPE, (side, level) => (side === 'Sell' && level === 0 ? 0n : side === 'Sell' && level === 1 ? FULL_PPM / 3n : FULL_PPM));
    const fullAsk = (level: number) => full.find((quote) => quote.side === 'Sell' && quote.level === level) as LadderQuote;
    expect(partial.find((quote) => quote.side === 'Sell' && quote.level === 0)).toBeUndefined();
    const third = partial.find((quote) => quote.side === 'Sell' && quote.level === 1) as LadderQuote;
    expect(third.price).toBe(fullAsk(1).price);
    expect(third.quantity).toBeGreaterThanOrEqual(fullAsk(1).quantity / 3n);
    expect(third.quantity).toBeLessThan(fullAsk(1).quantity / 3n + quantityTick(ethUsdc) * 10n);
    expect(partial.filter((quote) => quote.side === 'Buy')).toEqual(full.filter((quote) => quote.side === 'Buy'));
  });

  it('property: any market, mid and shape give prices on the tick away from the mid, sizes on the step, monotone and within the configured bound', () => {
    const shapes = fc.record({
      levels: fc.integer({ min: 1, max: 60 }),
      insideOffsetPpm: fc.bigInt({ min: 1n, max: 5000n }),
      levelStepPpm: fc.bigInt({ min: 1n, max: 5000n }),
      insideValue: fc.bigInt({ min: 1n, max: 100_000n }),
      growthPpm: fc.bigInt({ min: 0n, max: 300_000n }),
    });
    checkProperty(
      fc.property(fc.constantFrom(...network.markets), fc.integer({ min: 50, max: 200 }), shapes, (market, percent, shape) => {
        const mid = (market.initialMid * BigInt(percent)) / 100n;
        const quotes = ladder(market, mid, shape);
        expect(problems(market, mid, shape, quotes)).toEqual([]);
        for (const side of ['Buy', 'Sell'] as const) expect(quotes.filter((quote) => quote.side === side).length).toBeLessThanOrEqual(shape.levels);
      }),
      { numRuns: 300 },
    );
  });
});
