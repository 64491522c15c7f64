// The session step's check of a position TP/SL on the exchange: two legs on the closing side, at
// the prices entered, on the step, sized to the position as it can be signed; none left once it was
// cancelled.
import { describe, expect, it } from 'vitest';
import type { B256 } from '../../../shared/encoding/b256';
import type { Market } from '../../../shared/market/market';
import { checkPositionPair, checkTrailed, type PairSeen } from '../../support/trader-session/steps/protect';
import type { TruthTrigger } from '../../support/trader-session/truth';

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

const leg = (id: string, triggerPrice: bigint, quantity: bigint | null, side = 'Sell'): TruthTrigger => ({ triggerId: id, account: '0xaa', marketId: market.market_id, turbo: false, side, triggerPrice, kind: 'Spot', quantity, parentOrderId: null, ocoId: null });
const seen = (legs: TruthTrigger[]): PairSeen => ({ market, account: '0xaa', position: 2n * ETH, takeProfit: 3_150n * USDC, stopLoss: 2_850n * USDC, legs, legIds: legs.map((one) => one.triggerId) });

describe('checkPositionPair', () => {
  it('holds legs sized to the position when armed if a fill changed it before the read (main resizes at its pace)', () => {
    const legs = [leg('1', 3_150n * USDC, 2n * ETH), leg('2', 2_850n * USDC, 2n * ETH)];
    expect(checkPositionPair({ ...seen(legs), position: ETH, positionAtArm: 2n * ETH }, { open: [], triggers: [] })).toEqual([]);
    // Sized to neither: broken.
    expect(checkPositionPair({ ...seen(legs), position: ETH, positionAtArm: 3n * ETH }, { open: [], triggers: [] }).length).toBeGreaterThan(0);
  });

  it('holds for a pair sized to the position and gone after the cancel', () => {
    expect(checkPositionPair(seen([leg('1', 3_150n * USDC, 2n * ETH), leg('2', 2_850n * USDC, 2n * ETH)]), { open: [], triggers: [] })).toEqual([]);
  });

  it('names a leg larger than the position, on the opening side, off the step, or left after the cancel', () => {
    const wrong = seen([leg('1', 3_150n * USDC, 3n * ETH), leg('2', 2_850n * USDC + 1n, 2n * ETH, 'Buy')]);
    const problems = checkPositionPair(wrong, { open: [], triggers: [leg('1', 3_150n * USDC, 3n * ETH)] });
    expect(problems.join('\n')).toMatch(/more than the position/);
    expect(problems.join('\n')).toMatch(/not the position's closing Sell/);
    expect(problems.join('\n')).toMatch(/not on the price step/);
    expect(problems.join('\n')).toMatch(/still pending/);
  });
});

describe('checkTrailed', () => {
  it('holds for a sell stop moved up onto the step, and names one moved down or off the step', () => {
    const before = leg('1', 2_900n * USDC, ETH);
    expect(checkTrailed({ market, before, after: leg('2', 2_950n * USDC, ETH) })).toEqual([]);
    expect(checkTrailed({ market, before, after: null })).toEqual([]);
    expect(checkTrailed({ market, before, after: leg('2', 2_899n * USDC, ETH) }).join('\n')).toMatch(/loosened/);
    expect(checkTrailed({ market, before, after: leg('2', 2_950n * USDC + 1n, ETH) }).join('\n')).toMatch(/not on the price step/);
  });
});
