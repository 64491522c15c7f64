// Every division of the margin engine (shared/margin, and the sandbox's own in sandbox/margin)
// against spec section 2.1: owned value rounds down, owed value rounds up. One property per
// formula (docs/protocol.md (Margin) 3.1 lists them with the reason for each direction): over
// random inputs the result r of an exact quotient n / d satisfies
//   down: r × d <= n < (r + 1) × d        up: (r - 1) × d < n <= r × d
// and every property also proves that its inputs hit a non-zero remainder, so a formula whose
// direction flipped gives another result on that input and fails (a test that cannot fail would
// pass with no remainder at all).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BASIS_POINTS,
  absorptionCost,
  borrowLimitByExposure,
  borrowLimitByLoanCap,
  buyoutFee,
  discounted,
  lineCap,
  lossFloor,
  markPosition,
  owedValue,
  ownedValue,
  profitRequired,
  profitShare,
  shockedAsk,
  stressedBid,
  unwindLongProceeds,
  unwindShortCost,
} from '../../../../shared/margin';
import { feeOwed } from '../../../../shared/market/amounts';
import { halfSpread } from '../../../../sandbox/margin/oracle';
import { checkProperty } from '../../../support/property';

type Direction = 'down' | 'up';

interface Case {
  /** The function's result. */
  readonly result: bigint;
  /** The exact quotient it rounds: numerator / divisor, numerator >= 0, divisor > 0. */
  readonly numerator: bigint;
  readonly divisor: bigint;
}

/** Check one result against its exact quotient; returns whether the quotient had a remainder. */
function rounds(direction: Direction, { result, numerator, divisor }: Case): boolean {
  if (direction === 'down') {
    expect(result * divisor <= numerator && numerator < (result + 1n) * divisor, `floor(${numerator} / ${divisor}) expected, got ${result}`).toBe(true);
  } else {
    expect((result - 1n) * divisor < numerator && numerator <= result * divisor, `ceil(${numerator} / ${divisor}) expected, got ${result}`).toBe(true);
  }
  return numerator % divisor !== 0n;
}

const amount = fc.oneof(fc.bigInt({ min: 0n, max: 1_000n }), fc.bigInt({ min: 0n, max: 10n ** 9n }), fc.bigInt({ min: 0n, max: 10n ** 20n }));
const positive = fc.oneof(fc.bigInt({ min: 1n, max: 1_000n }), fc.bigInt({ min: 1n, max: 10n ** 9n }), fc.bigInt({ min: 1n, max: 10n ** 24n }));
const bps = fc.bigInt({ min: 0n, max: 10_000n });
const scale = fc.constantFrom(1n, 10n ** 6n, 10n ** 12n, 10n ** 18n, 10n ** 21n, 3n);

/** Run `body` over random inputs; assert that some input had a remainder (so a flip would show). */
function property<T>(name: string, direction: Direction, arbitrary: fc.Arbitrary<T>, body: (input: T) => Case): void {
  it(`${name} rounds ${direction}`, () => {
    let remainders = 0;
    checkProperty(
      fc.property(arbitrary, (input) => {
        if (rounds(direction, body(input))) remainders++;
      }),
      { numRuns: 400 },
    );
    expect(remainders, `${name}: no input had a remainder, so a flipped direction would go unseen`).toBeGreaterThan(0);
  });
}

describe('rounding directions (spec 2.1: owned down, owed up)', () => {
  property('ownedValue(q, p) = q × p / scale', 'down', fc.tuple(amount, positive, scale), ([q, p, s]) => ({ result: ownedValue(q, p, s), numerator: q * p, divisor: s }));
  property('owedValue(q, p) = q × p / scale', 'up', fc.tuple(amount, positive, scale), ([q, p, s]) => ({ result: owedValue(q, p, s), numerator: q * p, divisor: s }));
  property('mark of a long = pos × bid / scale', 'down', fc.tuple(amount, positive, scale), ([q, p, s]) => ({ result: markPosition(q, p, p + 1n, s), numerator: q * p, divisor: s }));
  property('|mark| of a short = |pos| × ask / scale', 'up', fc.tuple(amount, positive, scale), ([q, p, s]) => ({ result: -markPosition(-q, p - 1n, p, s), numerator: q * p, divisor: s }));
  property('line cap = line × max_credit_line_bps / 10,000', 'down', fc.tuple(amount, bps), ([line, b]) => ({ result: lineCap(line, b), numerator: line * b, divisor: BASIS_POINTS }));
  property('stressed bid = bid × (10,000 - band) / 10,000', 'down', fc.tuple(positive, fc.bigInt({ min: 0n, max: 9_999n })), ([bid, band]) => ({
    result: stressedBid(bid, band),
    numerator: bid * (BASIS_POINTS - band),
    divisor: BASIS_POINTS,
  }));
  // The spec writes this one with an explicit floor (2.6); it is a price, and the owed values
  // computed from it round up.
  property('shocked ask = ask × (10,000 + band) / 10,000 (spec: floor)', 'down', fc.tuple(positive, bps), ([ask, band]) => ({
    result: shockedAsk(ask, band),
    numerator: ask * (BASIS_POINTS + band),
    divisor: BASIS_POINTS,
  }));
  property('by loan cap = (loan headroom + returnable) × scale / ask', 'down', fc.tuple(amount, amount, scale, positive), ([h, r, s, ask]) => ({
    result: borrowLimitByLoanCap(h, r, s, ask),
    numerator: (h + r) * s,
    divisor: ask,
  }));
  property('by exposure = exposure headroom × scale / shocked ask', 'down', fc.tuple(amount, scale, positive), ([h, s, ask]) => ({
    result: borrowLimitByExposure(h, s, ask),
    numerator: h * s,
    divisor: ask,
  }));
  property('absorption cost = |pos| × price × band / (10,000 × scale)', 'up', fc.tuple(amount, positive, fc.bigInt({ min: 0n, max: 2_000n }), scale, fc.boolean()), ([q, p, band, s, short]) => ({
    result: absorptionCost(short ? -q : q, p, band, s),
    numerator: q * p * band,
    divisor: BASIS_POINTS * s,
  }));
  // The floor is a liquidation level: the allowed drawdown rounds down, so the level rounds up.
  property('loss floor = line × (10,000 - max_loss_bps) / 10,000', 'up', fc.tuple(amount, bps), ([line, b]) => ({
    result: lossFloor(line, b),
    numerator: line * (BASIS_POINTS - b),
    divisor: BASIS_POINTS,
  }));
  // Spec 4.3: "discounted_price truncates".
  property('discounted(x) = x × (10,000 - discount) / 10,000 (spec: truncates)', 'down', fc.tuple(amount, bps), ([x, d]) => ({
    result: discounted(x, d),
    numerator: x * (BASIS_POINTS - d),
    divisor: BASIS_POINTS,
  }));
  property('profit_required = line × rollover_profit_bps / 10,000 (a bar to clear)', 'up', fc.tuple(amount, bps), ([line, b]) => ({
    result: profitRequired(line, b),
    numerator: line * b,
    divisor: BASIS_POINTS,
  }));
  property("trader's profit share = profit × (10,000 - profit_share_bps) / 10,000", 'down', fc.tuple(positive, bps), ([profit, b]) => ({
    result: profitShare(profit, b).trader,
    numerator: profit * (BASIS_POINTS - b),
    divisor: BASIS_POINTS,
  }));
  property("house's profit share = profit × profit_share_bps / 10,000", 'up', fc.tuple(positive, bps), ([profit, b]) => ({
    result: profitShare(profit, b).house,
    numerator: profit * b,
    divisor: BASIS_POINTS,
  }));
  property('unwind of a short = short × ask × (10,000 + band) / (10,000 × scale)', 'up', fc.tuple(amount, positive, fc.bigInt({ min: 0n, max: 2_000n }), scale), ([q, ask, band, s]) => ({
    result: unwindShortCost(q, ask, band, s),
    numerator: q * ask * (BASIS_POINTS + band),
    divisor: BASIS_POINTS * s,
  }));
  property('unwind of a long = long × bid × (10,000 - band) / (10,000 × scale)', 'down', fc.tuple(amount, positive, fc.bigInt({ min: 0n, max: 9_999n }), scale), ([q, bid, band, s]) => ({
    result: unwindLongProceeds(q, bid, band, s),
    numerator: q * bid * (BASIS_POINTS - band),
    divisor: BASIS_POINTS * s,
  }));
  property('buy-out fee = cost × fee bps / 10,000', 'up', fc.tuple(amount, bps), ([cost, b]) => ({ result: buyoutFee(cost, b), numerator: cost * b, divisor: BASIS_POINTS }));
  property('oracle half-spread = mid × half-spread bps / 10,000 (bid = mid - half, ask = mid + half)', 'up', fc.tuple(positive, bps), ([mid, b]) => ({
    result: halfSpread(mid, b),
    numerator: mid * b,
    divisor: BASIS_POINTS,
  }));
  property('Turbo book fee = amount × ppm / 1,000,000', 'up', fc.tuple(amount, fc.bigInt({ min: 0n, max: 1_000_000n })), ([value, ppm]) => ({
    result: feeOwed(value, ppm),
    numerator: value * ppm,
    divisor: 1_000_000n,
  }));

  it('the two profit shares add up to the profit, and a loss shares nothing', () => {
    checkProperty(
      fc.property(fc.bigInt({ min: -(10n ** 12n), max: 10n ** 18n }), bps, (profit, b) => {
        const split = profitShare(profit, b);
        if (profit <= 0n) expect(split).toEqual({ trader: 0n, house: 0n });
        else expect(split.trader + split.house).toBe(profit);
      }),
    );
  });
});
