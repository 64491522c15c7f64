// Average-cost accounting from fills: worked examples by hand, then properties over random fill
// sequences (fast-check): realized + unrealized is exactly the mark-to-market of the sequence,
// the size is the sum of the base movements, a round trip at one price without fees realizes
// nothing, and the basis of what is open stays between the extreme fill prices.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  accountFills,
  applyFill,
  averageEntry,
  fillDeltas,
  FLAT,
  markValue,
  percentBps,
  unrealizedAt,
  type AccountingFill,
} from '../../../../shared/positions/accounting';
import { checkProperty } from '../../../support/property';

// 9 base decimals, quote prices in raw quote units (6 decimals) per whole base.
const S = 10n ** 9n;
const whole = (value: bigint) => value * S;
const usd = (value: bigint) => value * 1_000_000n;
const buy = (quantity: bigint, price: bigint, fee = 0n): AccountingFill => ({ side: 'Buy', quantity, price, fee });
const sell = (quantity: bigint, price: bigint, fee = 0n): AccountingFill => ({ side: 'Sell', quantity, price, fee });

describe('worked examples', () => {
  it('averages the entry of two buys and realizes a partial sale against that average', () => {
    // buy 1 at 3,000 and 1 at 3,100: basis 6,100 USDC for 2, entry 3,050
    let state = accountFills([buy(whole(1n), usd(3_000n)), buy(whole(1n), usd(3_100n))], S);
    expect(state.size).toBe(whole(2n));
    expect(state.basis).toBe(usd(6_100n));
    expect(averageEntry(state, S)).toBe(usd(3_050n));
    // sell 0.5 at 3,200: proceeds 1,600, basis released 6,100 × 0.5 / 2 = 1,525, realized 75
    state = applyFill(state, sell(whole(1n) / 2n, usd(3_200n)), S);
    expect(state.realized).toBe(usd(75n));
    expect(state.size).toBe((whole(3n) / 2n));
    expect(state.basis).toBe(usd(4_575n));
    expect(averageEntry(state, S)).toBe(usd(3_050n));
    // unrealized at 3,000: 1.5 × 3,000 - 4,575 = -75
    expect(unrealizedAt(state, usd(3_000n), S)).toBe(-usd(75n));
    // realized % on the basis closed: 75 / 1,525 = 4.91 %
    expect(percentBps(state.realized, state.closedBasis)).toBe(491n);
  });

  it('counts a buy fee in base into the entry and a sale fee in quote into realized', () => {
    // buy 1 at 2,000 with fee 0.001 base: holds 0.999 for 2,000, entry 2,002.002...
    let state = applyFill(FLAT, buy(whole(1n), usd(2_000n), S / 1_000n), S);
    expect(state.size).toBe(whole(1n) - S / 1_000n);
    expect(state.basis).toBe(usd(2_000n));
    expect(averageEntry(state, S)).toBe(2_002_002_002n);
    expect(state.feesBase).toBe(S / 1_000n);
    // sell the 0.999 at 2,000 with a 1 USDC fee: proceeds 1,998 - 1 = 1,997; realized -3
    state = applyFill(state, sell(whole(1n) - S / 1_000n, usd(2_000n), usd(1n)), S);
    expect(state.size).toBe(0n);
    expect(state.basis).toBe(0n);
    expect(state.realized).toBe(-usd(3n));
    expect(state.feesQuote).toBe(usd(1n));
    expect(averageEntry(state, S)).toBeNull();
  });

  it('opens a short by selling and realizes the buy-back', () => {
    // sell 2 at 100: short 2, basis -200; buy 1 back at 90: released -100, paid 90, realized +10
    let state = applyFill(FLAT, sell(whole(2n), usd(100n)), S);
    expect(state.size).toBe(-whole(2n));
    expect(state.basis).toBe(-usd(200n));
    expect(averageEntry(state, S)).toBe(usd(100n));
    state = applyFill(state, buy(whole(1n), usd(90n)), S);
    expect(state.realized).toBe(usd(10n));
    expect(state.size).toBe(-whole(1n));
    // short marked up at the ask: 1 at 95 owes 95, unrealized = -95 - (-100) = +5
    expect(unrealizedAt(state, usd(95n), S)).toBe(usd(5n));
  });

  it('splits a fill that crosses zero between the close and the new side', () => {
    // long 1 at 100, sell 3 at 110: closes 1 (realized +10), opens short 2 at 110
    const state = accountFills([buy(whole(1n), usd(100n)), sell(whole(3n), usd(110n))], S);
    expect(state.realized).toBe(usd(10n));
    expect(state.size).toBe(-whole(2n));
    expect(state.basis).toBe(-usd(220n));
    expect(averageEntry(state, S)).toBe(usd(110n));
  });

  it('rounds marks against the holder', () => {
    expect(markValue(3n, 10n, 7n)).toBe(4n); // floor(30 / 7)
    expect(markValue(-3n, 10n, 7n)).toBe(-5n); // -ceil(30 / 7)
    expect(markValue(0n, 10n, 7n)).toBe(0n);
  });
});

const fillArbitrary = (scale: bigint) =>
  fc
    .record({
      side: fc.constantFrom<'Buy' | 'Sell'>('Buy', 'Sell'),
      quantity: fc.oneof(fc.bigInt({ min: 1n, max: 1_000n }), fc.bigInt({ min: 1n, max: scale * 1_000n })),
      price: fc.oneof(fc.bigInt({ min: 1n, max: 1_000n }), fc.bigInt({ min: 1n, max: 10n ** 12n })),
      feePpm: fc.bigInt({ min: 0n, max: 5_000n }),
    })
    .map(({ side, quantity, price, feePpm }): AccountingFill => {
      const fee = side === 'Buy' ? (quantity * feePpm) / 1_000_000n : ((price * quantity) / scale) * feePpm / 1_000_000n;
      return { side, quantity, price, fee };
    });

describe('properties over random fill sequences', () => {
  const scales = fc.constantFrom(1n, 10n ** 6n, 10n ** 9n, 10n ** 18n);

  it('realized + unrealized equals the mark-to-market of the fills, to the raw unit', () => {
    checkProperty(
      fc.property(
        scales.chain((scale) => fc.tuple(fc.constant(scale), fc.array(fillArbitrary(scale), { maxLength: 40 }), fc.bigInt({ min: 0n, max: 10n ** 13n }))),
        ([scale, fills, mark]) => {
          let state = FLAT;
          let cash = 0n;
          for (const fill of fills) {
            state = applyFill(state, fill, scale);
            cash += fillDeltas(fill, scale).quote;
            // after every fill, not only at the end
            expect(state.realized + unrealizedAt(state, mark, scale)).toBe(cash + markValue(state.size, mark, scale));
          }
          expect(state.cash).toBe(cash);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the size is the sum of the base movements and the fee totals are the fees', () => {
    checkProperty(
      fc.property(scales.chain((scale) => fc.tuple(fc.constant(scale), fc.array(fillArbitrary(scale), { maxLength: 40 }))), ([scale, fills]) => {
        const state = accountFills(fills, scale);
        expect(state.size).toBe(fills.reduce((sum, fill) => sum + fillDeltas(fill, scale).base, 0n));
        expect(state.feesBase).toBe(fills.filter((fill) => fill.side === 'Buy').reduce((sum, fill) => sum + fill.fee, 0n));
        expect(state.feesQuote).toBe(fills.filter((fill) => fill.side === 'Sell').reduce((sum, fill) => sum + fill.fee, 0n));
        expect(state.fills).toBe(fills.length);
        if (state.size === 0n) expect(state.basis).toBe(0n);
      }),
      { numRuns: 300 },
    );
  });

  it('trading at one price without fees realizes nothing but the rounding of the quote values', () => {
    checkProperty(
      fc.property(fc.array(fc.record({ side: fc.constantFrom<'Buy' | 'Sell'>('Buy', 'Sell'), quantity: fc.bigInt({ min: 1n, max: 10n ** 6n }) }), { maxLength: 30 }), fc.bigInt({ min: 1n, max: 10n ** 9n }), (legs, price) => {
        // with a base scale of 1 every quote value is exact, so the round trip is exactly flat
        const state = accountFills(legs.map((leg) => ({ ...leg, price, fee: 0n })), 1n);
        expect(state.realized).toBe(0n);
        expect(unrealizedAt(state, price, 1n)).toBe(0n);
      }),
      { numRuns: 300 },
    );
  });

  it('the average entry of an open position without fees lies between the lowest and highest fill price', () => {
    checkProperty(
      fc.property(fc.array(fc.record({ quantity: fc.bigInt({ min: 1n, max: 10n ** 6n }), price: fc.bigInt({ min: 1n, max: 10n ** 9n }) }), { minLength: 1, maxLength: 20 }), (buys) => {
        const state = accountFills(buys.map((leg) => buy(leg.quantity, leg.price)), 1n);
        const entry = averageEntry(state, 1n)!;
        const prices = buys.map((leg) => leg.price);
        expect(entry >= prices.reduce((a, b) => (a < b ? a : b))).toBe(true);
        expect(entry <= prices.reduce((a, b) => (a > b ? a : b))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
