// The closing order of a flatten: the position floored to the size step and lowered to a whole
// quote value at the worst price, held to dust, minimum order and the trader's maximum size, and
// the remainder it leaves stated with the rule that keeps any order from closing it.
import { describe, expect, it } from 'vitest';
import type { MarketRules } from '../../../../shared/market/market';
import { closePlan } from '../../../../shared/positions/close-plan';
import { checkOrder } from '../../../../shared/market/validate-order';
import { checkProperty } from '../../../support/property';
import fc from 'fast-check';

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

describe('close plan', () => {
  it('sells a long floored to the step and leaves exactly the part below the step', () => {
    const plan = closePlan(market, 44_172_755n, { price, takerFee: market.taker_fee });
    expect(plan).toEqual({
      side: 'Sell',
      quantity: 44_100_000n,
      remainder: 72_755n,
      remainderReason: 'leaves 0.000072755 ETH, below the 0.0001 ETH size step: no order can close it',
      refusal: null,
      notClosable: false,
    });
  });

  it('buys a short floored to the step; the buy pays its fee in base, which the remainder says', () => {
    const plan = closePlan(market, -44_172_755n, { price, takerFee: 250n });
    // fee = ceil(44,100,000 × 250 / 10^6) = 11,025
    expect(plan.side).toBe('Buy');
    expect(plan.quantity).toBe(44_100_000n);
    expect(plan.remainder).toBe(-(72_755n + 11_025n));
    expect(plan.remainderReason).toBe("leaves 0.00008378 ETH (the buy's fee of 0.000011025 ETH is paid in ETH), below the 0.0001 ETH size step: no order can close it");
  });

  it('sends nothing for a position below the step, the dust threshold or the minimum order, saying which', () => {
    expect(closePlan(market, 72_755n, { price })).toMatchObject({ quantity: 0n, remainder: 72_755n, notClosable: true, refusal: '0.000072755 ETH is below the 0.0001 ETH size step: no order can close it' });
    expect(closePlan(market, 900_000n, { price })).toMatchObject({ quantity: 0n, notClosable: true, refusal: "0.0009 ETH is below the market's dust threshold of 0.001 ETH: no order can close it" });
    expect(closePlan(market, 1_000_000n, { price: 500_000_000n })).toMatchObject({
      quantity: 0n,
      notClosable: true,
      refusal: "0.001 ETH is worth 0.5 USDC at 500 USDC, below the market's minimum order of 1 USDC: no order can close it",
    });
  });

  it("refuses a close above the trader's maximum order size, which is a setting and not a remainder", () => {
    const plan = closePlan(market, 44_172_755n, { price, maxQuantity: 10_000_000n });
    expect(plan).toMatchObject({ quantity: 0n, notClosable: false, remainderReason: null });
    expect(plan.refusal).toBe('closing 0.0441 ETH is above your maximum order size of 0.01 ETH (Settings): raise it to flatten in one order');
  });

  it('is flat for a flat position', () => {
    expect(closePlan(market, 0n, { price })).toMatchObject({ side: null, quantity: 0n, remainder: 0n, refusal: null });
  });

  it('plans only orders the book accepts, and leaves position = quantity + remainder (a sale)', () => {
    checkProperty(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 12n }), fc.bigInt({ min: 1n, max: 10n ** 6n }), (size, cents) => {
        const at = cents * 10_000n;
        const plan = closePlan(market, size, { price: at });
        if (plan.refusal !== null) return plan.quantity === 0n && plan.remainder === size;
        const check = checkOrder(market, 'Sell', at, plan.quantity, { kind: 'Spot' });
        return typeof check === 'bigint' && plan.quantity + plan.remainder === size && (plan.remainder === 0n || plan.remainderReason !== null);
      }),
    );
  });
});
