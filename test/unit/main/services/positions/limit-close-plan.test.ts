// A close by limit's plan: the share of a partial close sized at the closing side's touch (not the
// flatten's bound 1 % away), the maker fee on a closing buy, and no order without a touch.
import { describe, expect, it } from 'vitest';
import { limitClosePlan, partialFlattenPlan } from '../../../../../main/services/positions/positions-service';
import { ethUsdc } from '../../../../support/renderer/fixtures';

describe('close by limit plan', () => {
  it('sizes the share at the touch, on the step, as a partial close would at that price', () => {
    const plan = limitClosePlan(ethUsdc, 44_172_755n, 50, 3_000_500_000n);
    expect(plan).toMatchObject({ side: 'Sell', quantity: 22_000_000n, remainder: 22_172_755n, refusal: null, percent: 50, requested: 22_086_377n });
    expect(plan.rounding).toMatch(/rounded down to 0\.022 ETH/);
  });

  it('charges a closing buy the maker fee, not the taker fee the bounded market close pays', () => {
    const maker = { ...ethUsdc, maker_fee: 0n, taker_fee: 1_000n };
    expect(limitClosePlan(maker, -50_000_000n, 100, 2_999_000_000n)).toMatchObject({ side: 'Buy', quantity: 50_000_000n, remainder: 0n, dust: null });
    expect(partialFlattenPlan(maker, -50_000_000n, 100, 2_999_000_000n).remainder).toBeLessThan(0n);
  });

  it('sends nothing without a touch to join, and says which side is empty', () => {
    expect(limitClosePlan(ethUsdc, 50_000_000n, 25, null)).toMatchObject({ quantity: 0n, refusal: 'the ask side of the book is empty: there is no best price to join' });
    expect(limitClosePlan(ethUsdc, -50_000_000n, 25, null).refusal).toMatch(/^the bid side/);
  });
});
