// The resize planning of a position's take-profit / stop-loss pair: grows with a fill that adds,
// shrinks with a partial close, is cancelled when the position is flat or flips, waits while the
// legs are not known, and is never placed again once it fired or was cancelled.
import { describe, expect, it } from 'vitest';
import { autoBracketPrices, planPositionLegs, signablePairSize, type PositionLegsInput } from '../../../../../main/services/protect/position-legs-plan';
import type { B256 } from '../../../../../shared/encoding/b256';
import type { Market } from '../../../../../shared/market/market';

const USDC = 1_000_000n;
const ETH = 1_000_000_000n;
const market: Market = {
  contract_id: `0x${'c1'.repeat(32)}` as B256,
  market_id: `0x${'a1'.repeat(32)}` as B256,
  base: { symbol: 'ETH', asset: `0x${'ba'.repeat(32)}` as B256, decimals: 9, max_precision: 4 },
  quote: { symbol: 'USDC', asset: `0x${'9c'.repeat(32)}` as B256, decimals: 6, max_precision: 2 },
  maker_fee: 100n,
  taker_fee: 250n,
  min_order: USDC,
  dust: 1_000_000n,
  price_window: 20,
};

const whole = (size: bigint) => size;
const base = (change: Partial<PositionLegsInput>): PositionLegsInput => ({ side: 'Sell', position: 2n * ETH, placed: 2n * ETH, pending: 'all', signable: whole, ...change });

describe('planPositionLegs', () => {
  it('keeps a pair sized to the position', () => {
    expect(planPositionLegs(base({}))).toEqual({ kind: 'keep' });
  });

  it('places the pair at the position when none is placed', () => {
    expect(planPositionLegs(base({ placed: 0n, pending: 'none' }))).toEqual({ kind: 'place', quantity: 2n * ETH });
  });

  it('grows the pair when a fill adds to the position', () => {
    expect(planPositionLegs(base({ position: 3n * ETH }))).toEqual({ kind: 'place', quantity: 3n * ETH });
  });

  it('shrinks the pair after a partial close', () => {
    expect(planPositionLegs(base({ position: ETH }))).toEqual({ kind: 'place', quantity: ETH });
  });

  it('cancels the pair and ends when the position is flat', () => {
    expect(planPositionLegs(base({ position: 0n }))).toEqual({ kind: 'cancel', end: true, why: 'flat' });
    expect(planPositionLegs(base({ position: 0n, placed: 0n, pending: 'none' }))).toEqual({ kind: 'end', why: 'flat' });
  });

  it('cancels a long pair when the position flips short', () => {
    expect(planPositionLegs(base({ position: -ETH }))).toEqual({ kind: 'cancel', end: true, why: 'flipped' });
    expect(planPositionLegs(base({ side: 'Buy', position: -ETH, placed: ETH }))).toEqual({ kind: 'keep' });
  });

  it('waits while the legs are not read, and never places a pair again once it fired or was cancelled', () => {
    expect(planPositionLegs(base({ position: 3n * ETH, pending: 'unknown' }))).toEqual({ kind: 'keep' });
    expect(planPositionLegs(base({ pending: 'none' }))).toEqual({ kind: 'end', why: 'legs-gone' });
    expect(planPositionLegs(base({ pending: 'some' }))).toEqual({ kind: 'end', why: 'legs-gone' });
  });

  it('cancels the pair, and keeps watching, when the position is too small to protect', () => {
    expect(planPositionLegs(base({ position: 1n, signable: () => 0n }))).toEqual({ kind: 'cancel', end: false, why: 'too-small' });
    expect(planPositionLegs(base({ position: 1n, placed: 0n, pending: 'none', signable: () => 0n }))).toEqual({ kind: 'keep' });
  });

  it('resizes to what can be signed, not to the raw position', () => {
    expect(planPositionLegs(base({ position: 2n * ETH + 7n, signable: (size) => size - 7n }))).toEqual({ kind: 'keep' });
  });
});

describe('signablePairSize', () => {
  it('floors to the step and keeps a size worth a whole quote amount at both prices', () => {
    const size = signablePairSize(market, 12_345_678_901n, [3_100n * USDC, 2_900n * USDC]);
    expect(size).toBe(12_345_600_000n);
  });

  it('is 0 below the minimum order', () => {
    expect(signablePairSize(market, 100_000n, [3_000n * USDC])).toBe(0n);
  });
});

describe('autoBracketPrices', () => {
  const tick = 10_000n;
  it("puts a long's take-profit above the entry and its stop-loss below, on the step toward the entry", () => {
    expect(autoBracketPrices({ entry: 3_000n * USDC, long: true, unit: 'ticks', takeProfit: 100n, stopLoss: 50n, tick })).toEqual({ takeProfit: 3_001n * USDC, stopLoss: 2_999_500_000n });
    expect(autoBracketPrices({ entry: 3_000_005_000n, long: true, unit: 'percent', takeProfit: 100n, stopLoss: null, tick })).toEqual({ takeProfit: 3_030_000_000n, stopLoss: null });
  });

  it("puts a short's take-profit below the entry and its stop-loss above", () => {
    expect(autoBracketPrices({ entry: 3_000n * USDC, long: false, unit: 'percent', takeProfit: 100n, stopLoss: 50n, tick })).toEqual({ takeProfit: 2_970n * USDC, stopLoss: 3_015n * USDC });
  });
});
