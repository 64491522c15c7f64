// The amount forwarded with StartMarginSession: a prepaid open is refused unless the amount is
// exact, so a one-unit rounding difference is a failed open.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PERIODS, discounted, openablePeriods, openingAmount, type OpeningTerms } from '../../../../shared/margin';
import { valueOf } from '../../../support/shared/margin/fixtures';
import { checkProperty } from '../../../support/property';

const prolongFee = { SixHours: 1n, Day: 5n, Week: 2n, Month: 40n };

describe('opening amount', () => {
  it('prepaid: discounts each leg, then sums, one unit below discounting the total', () => {
    // discount 1000 bps: discounted(x) = floor(x × 9000 / 10000)
    // collateral leg = floor(1005 × 0.9) = floor(904.5) = 904
    // fee leg = floor((3 + 2) × 0.9) = floor(4.5) = 4
    // amount = 904 + 4 = 908, while floor((1005 + 3 + 2) × 0.9) = floor(909) = 909
    const terms: OpeningTerms = { cohort: 'Turbo', requiredCollateral: 1_005n, openFee: 3n, prolongFee, discountBps: 1_000n, period: 'Week' };
    expect(valueOf(openingAmount(terms))).toEqual({ collateralLeg: 904n, feeLeg: 4n, amount: 908n });
    expect(discounted(1_005n + 3n + 2n, 1_000n)).toBe(909n);
  });

  it('legacy: never discounts the collateral; sums the fees before discounting them', () => {
    // collateral leg = 1000 (discounting it would under-fund the session and the open reverts)
    // fee leg = floor((5 + 5) × 0.9) = 9, not floor(5 × 0.9) + floor(5 × 0.9) = 4 + 4 = 8
    const terms: OpeningTerms = { cohort: 'Legacy', requiredCollateral: 1_000n, openFee: 5n, prolongFee, discountBps: 1_000n, period: 'Day' };
    expect(valueOf(openingAmount(terms))).toEqual({ collateralLeg: 1_000n, feeLeg: 9n, amount: 1_009n });
  });

  it('forwards the full price without a discount and nothing but the collateral with a full one', () => {
    const base = { requiredCollateral: 1_000n, openFee: 10n, prolongFee, period: 'Week' } as const;
    expect(valueOf(openingAmount({ ...base, cohort: 'Turbo', discountBps: 0n })).amount).toBe(1_012n);
    expect(valueOf(openingAmount({ ...base, cohort: 'Turbo', discountBps: 10_000n })).amount).toBe(0n);
    expect(valueOf(openingAmount({ ...base, cohort: 'Legacy', discountBps: 10_000n })).amount).toBe(1_000n);
  });

  it('refuses every prepaid period but Week; legacy opens with any period', () => {
    expect(openablePeriods('Turbo')).toEqual(['Week']);
    expect(openablePeriods('Legacy')).toEqual(PERIODS);
    for (const period of PERIODS) {
      const result = openingAmount({ cohort: 'Turbo', requiredCollateral: 1n, openFee: 0n, prolongFee, discountBps: 0n, period });
      expect(result.ok).toBe(period === 'Week');
      if (!result.ok) expect(result).toMatchObject({ code: 'MARGIN_PERIOD_NOT_ALLOWED', message: `period: a Turbo session opens only with Week, got ${period}` });
      expect(openingAmount({ cohort: 'Legacy', requiredCollateral: 1n, openFee: 0n, prolongFee, discountBps: 0n, period }).ok).toBe(true);
    }
  });

  it('fails on a discount outside 0..10000, a missing period fee, or a negative amount', () => {
    const base: OpeningTerms = { cohort: 'Legacy', requiredCollateral: 1n, openFee: 0n, prolongFee, discountBps: 0n, period: 'Day' };
    expect(openingAmount({ ...base, discountBps: 10_001n })).toMatchObject({ ok: false, code: 'MARGIN_INVALID_DISCOUNT', message: 'discountBps: expected 0..10000, got 10001' });
    expect(openingAmount({ ...base, prolongFee: { Week: 1n } })).toMatchObject({ ok: false, code: 'MARGIN_MISSING_PERIOD_TERMS' });
    expect(openingAmount({ ...base, openFee: -1n })).toMatchObject({ ok: false, code: 'MARGIN_NEGATIVE_VALUE', message: 'openFee: expected >= 0, got -1' });
  });

  it('discounting legs apart lands at most one unit below discounting their sum', () => {
    const amount = fc.bigInt({ min: 0n, max: 10n ** 20n });
    const bps = fc.bigInt({ min: 0n, max: 10_000n });
    checkProperty(
      fc.property(amount, amount, bps, (first, second, discount) => {
        const apart = discounted(first, discount) + discounted(second, discount);
        const together = discounted(first + second, discount);
        expect(together - apart === 0n || together - apart === 1n).toBe(true);
      }),
    );
  });

  it('a prepaid open never costs more than a legacy one on the same terms', () => {
    const amount = fc.bigInt({ min: 0n, max: 10n ** 20n });
    checkProperty(
      fc.property(amount, amount, amount, fc.bigInt({ min: 0n, max: 10_000n }), (requiredCollateral, openFee, weekFee, discountBps) => {
        const terms = { requiredCollateral, openFee, prolongFee: { Week: weekFee }, discountBps, period: 'Week' } as const;
        const prepaid = valueOf(openingAmount({ ...terms, cohort: 'Turbo' }));
        const legacy = valueOf(openingAmount({ ...terms, cohort: 'Legacy' }));
        expect(prepaid.amount <= legacy.amount).toBe(true);
        expect(prepaid.feeLeg).toBe(legacy.feeLeg);
      }),
    );
  });
});
