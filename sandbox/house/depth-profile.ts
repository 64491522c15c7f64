// Depth profiles of the house maker: how many levels it quotes a side, how far apart, and how
// large. `thin-legacy` is the maker tests were written against (a few small levels, random
// sizes: house/maker.ts keeps its exact draws); `realistic` is a liquid venue's book, dozens of
// levels whose sizes grow away from the inside, so a trader can rehearse size. The ladder below
// is pure: prices on the tick, sizes on the step and at least the market's minimum and dust.
import type { Side } from '../../shared/market/order-type';
import { powerOfTen } from '../../shared/market/market';
import { priceTick } from '../../shared/market/tick';
import type { MarketConfig } from '../config/network';
import { validQuantity } from './sizing';

export const MAKER_PROFILES = ['thin-legacy', 'realistic'] as const;
export type MakerProfileName = (typeof MAKER_PROFILES)[number];

export interface LadderShape {
  /** Levels a side. */
  readonly levels: number;
  /** Distance of the inside level from the mid, in parts per million of the mid. */
  readonly insideOffsetPpm: bigint;
  /**
   * How far the levels spread, in parts per million of the mid: level n sits at the inside
   * offset plus levelStepPpm × n² / levels, so the outermost lies about levelStepPpm × levels out
   * and the levels crowd near the inside, as on a liquid venue (a level a few ticks apart there,
   * wider gaps further out).
   */
  readonly levelStepPpm: bigint;
  /** Value of the inside level in whole quote units (a dollar-quoted market: dollars). */
  readonly insideValue: bigint;
  /** Each level is this much larger than the one inside it, in parts per million. */
  readonly growthPpm: bigint;
}

/**
 * The realistic book: 40 levels a side from 0.5 bp to 0.96 % of the mid (the first ten within
 * 0.07 %: a couple of USDC on ETH/USDC), the inside worth 1,500
 * quote units growing 8 % a level: on ETH/USDC at 3,000 about 0.5 ETH at the inside, 10 ETH at
 * the 40th level and 130 ETH a side within 1 % of the mid.
 */
export const REALISTIC_SHAPE: LadderShape = { levels: 40, insideOffsetPpm: 50n, levelStepPpm: 250n, insideValue: 1500n, growthPpm: 80_000n };

/** A quote-interval count: a level the book lost comes back by a fraction this many intervals long. */
export const REFILL_INTERVALS = 3;

export const FULL_PPM = 1_000_000n;

export interface LadderQuote {
  readonly side: Side;
  /** 0 for the inside level of its side. */
  readonly level: number;
  readonly price: bigint;
  readonly quantity: bigint;
}

/** How much of a level is on the book now, in ppm of its full size (the refill model); full when absent. */
export type Availability = (side: Side, level: number) => bigint;

const full: Availability = () => FULL_PPM;

/**
 * The quotes of one refresh around `mid`, inside level first on each side. Bids are floored and
 * asks ceiled to the tick and kept at least a tick apart, so prices are strictly monotone away
 * from the mid and never cross. A level's full size is never below the one inside it; a level
 * the book lost part of is quoted at what is available, and left out while that is below the
 * market's minimum.
 */
export function ladder(market: MarketConfig, mid: bigint, shape: LadderShape, available: Availability = full): LadderQuote[] {
  const tick = priceTick(market);
  const quotes: LadderQuote[] = [];
  for (const side of ['Buy', 'Sell'] as const) {
    let previousPrice: bigint | undefined;
    let previousSize = 0n;
    let value = shape.insideValue * powerOfTen(market.quote.decimals);
    for (let level = 0; level < shape.levels; level++) {
      const spread = (shape.levelStepPpm * BigInt(level) * BigInt(level)) / BigInt(Math.max(1, shape.levels));
      const offset = (mid * (shape.insideOffsetPpm + spread)) / FULL_PPM;
      // At least a raw unit from the mid (an offset below one rounds to nothing on a cheap market).
      let price = side === 'Buy' ? floorTo(mid - (offset > 0n ? offset : 1n), tick) : ceilTo(mid + (offset > 0n ? offset : 1n), tick);
      if (previousPrice !== undefined) price = side === 'Buy' ? min(price, previousPrice - tick) : max(price, previousPrice + tick);
      if (price <= 0n) break;
      previousPrice = price;
      const target = (value * powerOfTen(market.base.decimals)) / price;
      const fullSize = validQuantity(market, price, max(target, previousSize));
      value = (value * (FULL_PPM + shape.growthPpm)) / FULL_PPM;
      if (fullSize === undefined) continue;
      previousSize = fullSize;
      const share = available(side, level);
      if (share >= FULL_PPM) {
        quotes.push({ side, level, price, quantity: fullSize });
        continue;
      }
      // Partly refilled: on the step and a valid order (so never below the minimum, nor above the full size).
      const part = validQuantity(market, price, (fullSize * share) / FULL_PPM);
      if (part !== undefined && share > 0n) quotes.push({ side, level, price, quantity: part < fullSize ? part : fullSize });
    }
  }
  return quotes;
}

function floorTo(value: bigint, tick: bigint): bigint {
  return value - (value % tick);
}

function ceilTo(value: bigint, tick: bigint): bigint {
  const floored = floorTo(value, tick);
  return floored === value ? value : floored + tick;
}

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

function max(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}
