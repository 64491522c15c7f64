// Snapshots that cannot be valued come back as failures naming the asset and the field;
// snapshots with gaps that do not matter are valued. Also: which rules a session lives by,
// and where the stress and absorption bands come from.
import { describe, expect, it } from 'vitest';
import {
  FALLBACK_ABSORPTION_BAND_BPS,
  FALLBACK_STRESS_BAND_BPS,
  cohortOf,
  computeRisk,
  type MarginSnapshot,
} from '../../../../shared/margin';
import { ASSET_A, ASSET_B, QUOTE, balance, legacyTier, orders, price, quote, session, snapshot, turboTerms, valueOf } from '../../../support/shared/margin/fixtures';

const priced = { [ASSET_A]: quote(price(2n), price(3n)) };

describe('snapshot failures', () => {
  it('refuses a position without a price, naming the asset', () => {
    const result = computeRisk(snapshot({ balances: { [ASSET_B]: balance({ onAccount: 5n, debt: 7n }) }, prices: priced }));
    expect(result).toEqual({
      ok: false,
      code: 'MARGIN_MISSING_PRICE',
      message: `prices: no price for asset ${ASSET_B}, which holds 5 with debt 7`,
      details: { asset: ASSET_B },
    });
  });

  it('refuses resting orders without a price', () => {
    const result = computeRisk(snapshot({ restingOrders: { [ASSET_B]: orders({ buyQuantity: 1n, buyQuote: 3n }) } }));
    expect(result).toMatchObject({ ok: false, code: 'MARGIN_MISSING_PRICE', details: { asset: ASSET_B } });
  });

  it('values an unpriced asset whose balances are all zero as nothing', () => {
    const report = valueOf(computeRisk(snapshot({ balances: { [ASSET_B]: balance({}) }, restingOrders: { [ASSET_B]: orders({}) } })));
    expect(report.assets).toEqual([]);
  });

  it('refuses a short or a debt valued at an ask of zero', () => {
    const zeroAsk = { [ASSET_A]: quote(0n, 0n) };
    expect(computeRisk(snapshot({ balances: { [ASSET_A]: balance({ debt: 1n, onAccount: 1n }) }, prices: zeroAsk }))).toMatchObject({
      ok: false,
      code: 'MARGIN_ZERO_ASK',
      details: { asset: ASSET_A },
    });
    // A resting sell of everything held plus one borrowed unit would leave a short.
    expect(
      computeRisk(snapshot({ balances: { [ASSET_A]: balance({ locked: 2n }) }, restingOrders: { [ASSET_A]: orders({ sellQuantity: 3n }) }, prices: zeroAsk })),
    ).toMatchObject({ ok: false, code: 'MARGIN_ZERO_ASK' });
  });

  it('values a long at a zero bid and offers no borrow without an ask', () => {
    const report = valueOf(computeRisk(snapshot({ balances: { [ASSET_A]: balance({ onAccount: 4n }) }, prices: { [ASSET_A]: quote(0n, 0n) }, poolInventory: { [ASSET_A]: 9n } })));
    expect(report.assets[0]?.mark).toBe(0n);
    expect(report.assets[0]?.borrowable).toMatchObject({ amount: 0n, limitedBy: 'NO_ASK', poolInventory: 9n });
  });

  it('names the negative field', () => {
    expect(computeRisk(snapshot({ balances: { [ASSET_A]: balance({ locked: -1n }) }, prices: priced }))).toMatchObject({
      ok: false,
      code: 'MARGIN_NEGATIVE_VALUE',
      message: `balances[${ASSET_A}].locked: expected >= 0, got -1`,
    });
    expect(computeRisk(snapshot({ session: session({ fees: -5n }) }))).toMatchObject({ code: 'MARGIN_NEGATIVE_VALUE', message: 'session.fees: expected >= 0, got -5' });
    expect(computeRisk(snapshot({ prices: { [ASSET_A]: quote(-1n, 1n) } }))).toMatchObject({ message: `prices[${ASSET_A}].bid: expected >= 0, got -1` });
    expect(computeRisk(snapshot({ prices: priced, poolInventory: { [ASSET_A]: -2n } }))).toMatchObject({ message: `poolInventory[${ASSET_A}]: expected >= 0, got -2` });
    expect(
      computeRisk(snapshot({ prices: priced, riskParams: { stressBandBps: { [ASSET_A]: -3n }, absorptionBandBps: {} } })),
    ).toMatchObject({ message: `riskParams.stressBandBps[${ASSET_A}]: expected >= 0, got -3` });
    expect(computeRisk(snapshot({ riskParams: { stressBandBps: {}, absorptionBandBps: {}, defaultAbsorptionBandBps: -4n } }))).toMatchObject({
      message: 'riskParams.defaultAbsorptionBandBps: expected >= 0, got -4',
    });
  });

  it('refuses in-kind debt or resting orders on the collateral asset', () => {
    expect(computeRisk(snapshot({ balances: { [QUOTE]: balance({ debt: 1n }) } }))).toMatchObject({ ok: false, code: 'MARGIN_INVALID_COLLATERAL_ENTRY', details: { asset: QUOTE } });
    expect(computeRisk(snapshot({ restingOrders: { [QUOTE]: orders({ sellQuantity: 1n }) } }))).toMatchObject({ ok: false, code: 'MARGIN_INVALID_COLLATERAL_ENTRY' });
  });

  it('refuses decimals that are not small integers', () => {
    expect(computeRisk(snapshot({ collateralDecimals: 6.5 }))).toMatchObject({ code: 'MARGIN_INVALID_DECIMALS', message: 'collateralDecimals: expected an integer in 0..36, got 6.5' });
    expect(computeRisk(snapshot({ prices: { [ASSET_A]: quote(1n, 1n, 99) } }))).toMatchObject({ code: 'MARGIN_INVALID_DECIMALS' });
  });

  it('refuses a prepaid session whose tier carries no usable turbo terms', () => {
    expect(computeRisk(snapshot({ session: session({ cohort: 'Turbo' }) }))).toMatchObject({ ok: false, code: 'MARGIN_INVALID_TURBO_TERMS' });
    const emptyEscalator = snapshot({ session: session({ cohort: 'Turbo' }), tier: legacyTier({ turbo: turboTerms({ maxLossBps: [] }) }) });
    expect(computeRisk(emptyEscalator)).toMatchObject({ ok: false, code: 'MARGIN_INVALID_TURBO_TERMS' });
  });

  it('refuses rollover counters that are not non-negative integers', () => {
    const input = snapshot({
      session: session({ cohort: 'Turbo' }),
      tier: legacyTier({ turbo: turboTerms() }),
      rollover: { anchor: 0n, withdrawn: 0n, outside: 0n, rolloversUsed: -1, maxRollovers: 3 },
    });
    expect(computeRisk(input)).toMatchObject({ ok: false, code: 'MARGIN_INVALID_ROLLOVER' });
  });
});

describe('cohort', () => {
  const prepaidTier = legacyTier({ turbo: turboTerms() });

  it('prefers the session cohort pinned at open over the tier test', () => {
    expect(cohortOf({ cohort: 'Legacy' }, prepaidTier)).toBe('Legacy');
    expect(valueOf(computeRisk(snapshot({ session: session({ cohort: 'Legacy' }), tier: prepaidTier }))).health.rule).toBe('LEGACY');
  });

  it('falls back to the presence of tier.turbo', () => {
    expect(cohortOf(undefined, prepaidTier)).toBe('Turbo');
    expect(cohortOf({}, legacyTier())).toBe('Legacy');
    const { cohort: _ignored, ...withoutCohort } = session();
    expect(valueOf(computeRisk(snapshot({ session: withoutCohort, tier: prepaidTier }))).cohort).toBe('Turbo');
  });

  it('lets the static threshold stand alone on a prepaid tier with all-zero max_loss_bps', () => {
    const report = valueOf(
      computeRisk(snapshot({ session: session({ cohort: 'Turbo' }), tier: legacyTier({ threshold: 1_100n, turbo: turboTerms({ maxLossBps: [0n, 0n, 0n, 0n] }) }) })),
    );
    // threshold = tier.threshold = 1100; freeze = k + open_buffer = 1000 + 300; no floor
    expect(report.health).toMatchObject({ rule: 'STATIC_THRESHOLD', lossFloor: null, threshold: 1_100n, freezeLine: 1_300n });
  });
});

describe('risk parameters and price flags', () => {
  const holding = (riskParams: MarginSnapshot['riskParams']) =>
    valueOf(
      computeRisk(
        snapshot({
          balances: { [ASSET_A]: balance({ onAccount: 1n }), [ASSET_B]: balance({ onAccount: 1n }) },
          prices: { [ASSET_A]: quote(price(2n), price(3n)), [ASSET_B]: quote(price(2n), price(3n), 6, true) },
          riskParams,
        }),
      ),
    );

  it('takes the asset band, then the published default, then the built-in fallback, and lists the fallbacks', () => {
    const published = holding({ stressBandBps: { [ASSET_A]: 700n }, absorptionBandBps: {}, defaultStressBandBps: 300n, defaultAbsorptionBandBps: 20n });
    expect(published.assets.map((asset) => [asset.stressBandBps, asset.absorptionBandBps])).toEqual([
      [700n, 20n],
      [300n, 20n],
    ]);
    expect(published.fallbackRiskParamAssets).toEqual([]);
    const silent = holding({ stressBandBps: { [ASSET_A]: 700n }, absorptionBandBps: { [ASSET_A]: 5n } });
    expect(silent.assets.map((asset) => [asset.stressBandBps, asset.absorptionBandBps])).toEqual([
      [700n, 5n],
      [FALLBACK_STRESS_BAND_BPS, FALLBACK_ABSORPTION_BAND_BPS],
    ]);
    expect(silent.fallbackRiskParamAssets).toEqual([ASSET_B]);
  });

  it('lists assets valued at a stale price', () => {
    const report = holding({ stressBandBps: {}, absorptionBandBps: {} });
    expect(report.stalePriceAssets).toEqual([ASSET_B]);
    expect(report.assets[1]?.stale).toBe(true);
  });
});
