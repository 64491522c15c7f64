// Partial closes (25 / 50 / 75 / 100 % of a position) and reverse: the share floored to the size
// step with the rounding said, the position left after it, and dust that no order could close
// said plainly with its cleanup; reverse closes and opens the same size on the same side.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { MarketRules } from '../../../../shared/market/market';
import { checkOrder } from '../../../../shared/market/validate-order';
import { partialClosePlan, reversePlan } from '../../../../shared/positions/close-plan';
import { checkProperty } from '../../../support/property';

const id = (byte: string) => `0x${byte.repeat(32)}` as `0x${string}`;

// ETH with 9 decimals and 4 meaningful (step 0.0001 = 100,000 raw), USDC with 6 and 2.
const market: MarketRules = {
  base: { symbol: 'ETH', asset: id('ee') as never, decimals: 9, max_precision: 4 },
  quote: { symbol: 'USDC', asset: id('cc') as never, decimals: 6, max_precision: 2 },
  maker_fee: 100n,
  taker_fee: 250n,
  min_order: 1_000_000n,
  dust: 1_000_000n,
};
const price = 2_970_000_000n; // 2,970.00 USDC

describe('partial close plan', () => {
  it('closes half of a long floored to the step, says the rounding, and leaves the rest as a position', () => {
    const plan = partialClosePlan(market, 44_172_755n, 50, { price, takerFee: market.taker_fee });
    expect(plan.side).toBe('Sell');
    expect(plan.requested).toBe(22_086_377n);
    expect(plan.quantity).toBe(22_000_000n);
    expect(plan.remainder).toBe(22_172_755n);
    expect(plan.rounding).toBe('50 % is 0.022086377 ETH, rounded down to 0.022 ETH (the 0.0001 ETH size step)');
    expect(plan.dust).toBeNull();
    expect(plan.refusal).toBeNull();
  });

  it('at 100 % is the flatten plan, its remainder below the step being the dust', () => {
    const plan = partialClosePlan(market, 44_172_755n, 100, { price, takerFee: market.taker_fee });
    expect(plan.quantity).toBe(44_100_000n);
    expect(plan.remainder).toBe(72_755n);
    expect(plan.dust).toBe('leaves 0.000072755 ETH, below the 0.0001 ETH size step: no order can close it');
  });

  it('says when what a partial close leaves is dust no order can close, and offers the full close that takes it along', () => {
    // 75 % of 0.0013 ETH = 0.000975, floored to 0.0009: leaves 0.0004 ETH, below the dust threshold of 0.001.
    const plan = partialClosePlan(market, 1_300_000n, 75, { price });
    expect(plan.quantity).toBe(0n);
    expect(plan.refusal).toBe("75 % of 0.0013 ETH is 0.000975 ETH, below the market's dust threshold of 0.001 ETH: no order can close it; close 100 % instead");
    const half = partialClosePlan(market, 2_500_000n, 50, { price });
    // 50 % of 0.0025 = 0.00125, floored to 0.0012: leaves 0.0013, closable; 75 % leaves 0.0007: dust.
    expect(half.dust).toBeNull();
    const most = partialClosePlan(market, 5_000_000n, 75, { price });
    expect(most.quantity).toBe(3_700_000n);
    expect(most.remainder).toBe(1_300_000n);
    expect(most.dust).toBeNull();
    const dusty = partialClosePlan(market, 3_600_000n, 75, { price });
    // 75 % of 0.0036 = 0.0027: leaves 0.0009, below the dust threshold.
    expect(dusty.quantity).toBe(2_700_000n);
    expect(dusty.dust).toBe("leaves 0.0009 ETH, below the market's dust threshold of 0.001 ETH: no order can close it; close 100 % instead to take it along");
  });

  it('buys back a share of a short, the buy paying its fee in base', () => {
    const plan = partialClosePlan(market, -40_000_000n, 25, { price, takerFee: 250n });
    expect(plan.side).toBe('Buy');
    expect(plan.quantity).toBe(10_000_000n);
    // fee = ceil(10,000,000 × 250 / 10^6) = 2,500
    expect(plan.remainder).toBe(-30_002_500n);
    expect(plan.rounding).toBeNull();
  });

  it('plans only orders the book accepts and accounts for the whole position (sales)', () => {
    checkProperty(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 12n }), fc.constantFrom(25 as const, 50 as const, 75 as const, 100 as const), fc.bigInt({ min: 1n, max: 10n ** 6n }), (size, percent, cents) => {
        const at = cents * 10_000n;
        const plan = partialClosePlan(market, size, percent, { price: at });
        if (plan.refusal !== null) return plan.quantity === 0n && plan.remainder === size;
        const check = checkOrder(market, 'Sell', at, plan.quantity, { kind: 'Spot' });
        return typeof check === 'bigint' && plan.quantity + plan.remainder === size && plan.quantity <= plan.requested;
      }),
    );
  });
});

describe('reverse plan', () => {
  it('sells the long and sells the same size again, ending short by that size plus what the close left', () => {
    const plan = reversePlan(market, 44_172_755n, { price, takerFee: market.taker_fee });
    expect(plan.refusal).toBeNull();
    expect(plan.side).toBe('Sell');
    expect(plan.close.quantity).toBe(44_100_000n);
    expect(plan.open).toBe(44_100_000n);
    expect(plan.after).toBe(72_755n - 44_100_000n);
  });

  it('buys back a short and buys as much again, each buy paying its fee in base', () => {
    const plan = reversePlan(market, -40_000_000n, { price, takerFee: 250n });
    expect(plan.side).toBe('Buy');
    expect(plan.open).toBe(40_000_000n);
    // two buys of 0.04 ETH, each with a fee of 10,000 raw in base
    expect(plan.after).toBe(40_000_000n - 20_000n);
  });

  it('refuses what the flatten refuses, naming why', () => {
    const plan = reversePlan(market, 72_755n, { price });
    expect(plan.open).toBe(0n);
    expect(plan.refusal).toBe('0.000072755 ETH is below the 0.0001 ETH size step: no order can close it');
    expect(reversePlan(market, 44_172_755n, { price, maxQuantity: 10_000_000n }).refusal).toMatch(/above your maximum order size/);
  });
});
