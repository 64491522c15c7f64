// Worked examples computed by hand (the arithmetic is in the comments), one per situation a
// trader stakes money on. Collateral decimals cd = 6 throughout, so an asset with 6 decimals
// has scale 10^(18 + 6 - 6) = 1e18 and its value is simply quantity × price; asset B has 8
// decimals, scale 10^(18 + 8 - 6) = 1e20, so its value is quantity × price / 100.
import { describe, expect, it } from 'vitest';
import { NO_EXPIRY, computeRisk, isNoExpiry, openingTermSeconds, secondsUntilExpiry, type MarginSnapshot } from '../../../../shared/margin';
import {
  ASSET_A,
  ASSET_B,
  QUOTE,
  balance,
  legacyTier,
  orders,
  price,
  quote,
  session,
  snapshot,
  turboTerms,
  valueOf,
} from '../../../support/shared/margin/fixtures';

describe('legacy session with collateral, a long with resting orders and a short held as in-kind debt', () => {
  const input: MarginSnapshot = snapshot({
    session: session({ cohort: 'Legacy', collateral: 500n, fees: 20n, quoteDrawn: 800n }),
    tier: legacyTier({ line: 10_000n, maxCreditLineBps: 5_000n, capital: 1_000n, threshold: 1_100n, openBuffer: 300n, maintenance: 100n }),
    balances: {
      [QUOTE]: balance({ onAccount: 600n, locked: 120n, settled: 50n }),
      [ASSET_A]: balance({ onAccount: 100n, received: 1n, locked: 40n }),
      [ASSET_B]: balance({ onAccount: 50n, debt: 300n }),
    },
    prices: {
      [ASSET_A]: quote(price(25n, 10n), price(26n, 10n), 6),
      [ASSET_B]: quote(price(32n, 10n), price(33n, 10n), 8),
    },
    // A: sell 40 resting at 2.7 (proceeds 108), buy 50 resting at 2.4 (120 quote locked).
    restingOrders: { [ASSET_A]: orders({ sellQuantity: 40n, sellQuote: 108n, buyQuantity: 50n, buyQuote: 120n }) },
    poolInventory: { [QUOTE]: 10_000n, [ASSET_A]: 1_000n, [ASSET_B]: 5_000n },
    riskParams: {
      stressBandBps: { [ASSET_A]: 1_000n, [ASSET_B]: 2_000n },
      absorptionBandBps: { [ASSET_A]: 100n, [ASSET_B]: 200n },
    },
  });
  const report = valueOf(computeRisk(input));

  it('derives the credit line from the collateral', () => {
    expect(report.cohort).toBe('Legacy');
    // line cap = floor(10000 × 5000 / 10000) = 5000
    expect(report.lineCap).toBe(5_000n);
    // net collateral = C - F = 500 - 20 = 480
    expect(report.netCollateral).toBe(480n);
    // L = min(k + net, cap) = min(1000 + 480, 5000) = 1480
    expect(report.creditLine).toBe(1_480n);
    // collateral headroom = max(0, 5000 - 1000 - max(0, 480)) = 3520
    expect(report.collateralHeadroom).toBe(3_520n);
    // undrawn = L - Dq = 1480 - 800 = 680
    expect(report.undrawnLine).toBe(680n);
    // equity above cap = max(0, C + k - L) = 500 + 1000 - 1480 = 20
    expect(report.equityAboveCap).toBe(20n);
  });

  it('marks longs down at the bid and shorts up at the ask', () => {
    const [a, b] = report.assets;
    // H[A] = 100 + 1 + 40 + 0 = 141; pos = 141 - 0; effective = 141 - 40 = 101; filled = 101 + 50 = 151
    expect(a).toMatchObject({ assetId: ASSET_A, holdings: 141n, position: 141n, effectivePosition: 101n, filledPosition: 151n });
    // mark(141) = floor(141 × 2.5) = floor(352.5) = 352
    expect(a?.mark).toBe(352n);
    // H[B] = 50, pos = 50 - 300 = -250; mark = -ceil(250 × 3.3e18 / 1e20) = -ceil(8.25) = -9
    expect(b).toMatchObject({ assetId: ASSET_B, holdings: 50n, position: -250n, mark: -9n });
    // debt value = ceil(300 × 3.3e18 / 1e20) = ceil(9.9) = 10
    expect(b?.debtValue).toBe(10n);
  });

  it('values the account: V, equity, basis and PnL', () => {
    // H[quote] = 600 + 0 + 120 + 50 = 770
    expect(report.collateralHoldings).toBe(770n);
    // V = 770 + 680 + 20 + (352 - 9) - 20 = 1793
    expect(report.accountValue).toBe(1_793n);
    // equity = V - k = 793; basis = C - F = 480; PnL = 793 - 480 = 313
    expect(report.traderEquity).toBe(793n);
    expect(report.tradingBasis).toBe(480n);
    expect(report.tradingPnl).toBe(313n);
  });

  it('derives loan headroom, reserve and cash', () => {
    // in-kind debt value = 0 (A) + 10 (B) = 10; outstanding = Dq + 10 = 810
    expect(report.inKindDebtValue).toBe(10n);
    expect(report.outstanding).toBe(810n);
    // loan headroom = max(0, 1480 - 810) = 670; drawable = min(670, pool 10000) = 670
    expect(report.loanHeadroom).toBe(670n);
    expect(report.drawableQuote).toBe(670n);
    // reserve = owedValue(250, 3.3, B) = 9 (the short's buy-back); cash held = 600 + 50 = 650
    expect(report.reserve).toBe(9n);
    expect(report.cashHeld).toBe(650n);
    // spendable = max(0, 650 - 9) = 641; returnable = min(Dq 800, on-account 600, 641) = 600
    expect(report.spendableCash).toBe(641n);
    expect(report.returnableQuote).toBe(600n);
  });

  it('takes gross exposure from the largest of the three passes (here spot)', () => {
    // stressed A: bid floor(2.5 × 0.9) = 2.25, ask floor(2.6 × 1.1) = 2.86; B: bid 2.56, ask 3.96
    expect(report.assets[0]).toMatchObject({ stressedBid: price(225n, 100n), shockedAsk: price(286n, 100n) });
    expect(report.assets[1]).toMatchObject({ stressedBid: price(256n, 100n), shockedAsk: price(396n, 100n) });
    // spot: 120 locked by buys + A max(|352|, |floor(101 × 2.5) = 252|) + B max(9, 9) = 481
    // stressed-marked: 120 + A max(floor(141 × 2.25) = 317, floor(101 × 2.25) = 227) + B ceil(250 × 3.96 / 100) = ceil(9.9) = 10 → 447
    // stressed-filled: A floor(151 × 2.25) = floor(339.75) = 339 + B 10 = 349 (nothing left locked)
    expect(report.exposure).toEqual({ spot: 481n, stressedMarked: 447n, stressedFilled: 349n, gross: 481n, pass: 'SPOT' });
    // exposure headroom = 1480 - 481 = 999; buy capacity = min(641 + 670, 999) = 999
    expect(report.exposureHeadroom).toBe(999n);
    expect(report.buyCapacity).toBe(999n);
  });

  it('values the account under stress, orders resting and orders filled', () => {
    // V stressed-marked = 770 + 680 + 20 + (317 - 10) - 20 = 1757
    expect(report.stressedMarkedValue).toBe(1_757n);
    // V stressed-filled: quote 770 - 120 (buys paid) + 108 (sells' proceeds) = 758;
    //   758 + 680 + 20 + (339 - 10) - 20 = 1767
    expect(report.stressedFilledValue).toBe(1_767n);
  });

  it('judges health by the static legacy lines', () => {
    expect(report.health).toEqual({
      rule: 'LEGACY',
      lossFloor: null,
      threshold: 1_100n,
      // freeze line = k + open_buffer = 1000 + 300
      freezeLine: 1_300n,
      // A long: ceil(141 × 2.5 × 100 / 10000) = ceil(3.525) = 4; B short: ceil(250 × 3.3 × 200 / 10000 / 100) = ceil(0.165) = 1
      absorptionCost: 5n,
      // A keeps the bid: 4; B at the shocked ask: ceil(250 × 3.96 × 200 / 10000 / 100) = ceil(0.198) = 1
      stressedAbsorptionCost: 5n,
      liquidatable: false,
      // max(0, 1793 - 1100 - 1) = 692
      giveawayAllowance: 692n,
      // min(1757, 1767) - 1000 = 757
      stressedEquity: 757n,
      // frozen if 757 < 1300 - 1000: no
      frozen: false,
      distanceToThreshold: 693n,
      distanceToFreeze: 457n,
    });
  });

  it('limits each borrow by the tightest bound and never offers the collateral asset', () => {
    const [a, b] = report.assets;
    // A: by loan cap floor((670 + 600) / 2.6) = floor(488.46) = 488; without returning quote floor(670 / 2.6) = 257
    //    by exposure floor(999 / 2.86) = floor(349.3) = 349; pool 1000 → 349 (exposure); without return 257
    expect(a?.borrowable).toEqual({
      byLoanCap: 488n,
      byLoanCapWithoutReturn: 257n,
      byExposure: 349n,
      poolInventory: 1_000n,
      amount: 349n,
      limitedBy: 'EXPOSURE',
      amountWithoutReturn: 257n,
      limitedByWithoutReturn: 'LOAN_CAP',
    });
    // B (scale 1e20): by loan cap floor(1270 × 100 / 3.3) = 38484; without floor(67000 / 3.3) = 20303;
    //    by exposure floor(999 × 100 / 3.96) = 25227; pool 5000 → 5000 (pool inventory)
    expect(b?.borrowable).toEqual({
      byLoanCap: 38_484n,
      byLoanCapWithoutReturn: 20_303n,
      byExposure: 25_227n,
      poolInventory: 5_000n,
      amount: 5_000n,
      limitedBy: 'POOL_INVENTORY',
      amountWithoutReturn: 5_000n,
      limitedByWithoutReturn: 'POOL_INVENTORY',
    });
    expect(report.assets.map((asset) => asset.assetId)).not.toContain(QUOTE);
    expect(report.rollover).toBeNull();
    expect(report.noExpiry).toBe(false);
  });
});

describe('prepaid (Turbo) session on zero collateral', () => {
  // line 2500, cap = floor(2500 × 10000 / 10000) = 2500, k = 2000; max_loss_bps [2400, 3000, 4000, 6000]
  const tier = legacyTier({ line: 2_500n, maxCreditLineBps: 10_000n, capital: 2_000n, threshold: 1_800n, openBuffer: 300n, maintenance: 100n, turbo: turboTerms() });
  const input = snapshot({
    session: session({ cohort: 'Turbo', collateral: 0n, fees: 0n, quoteDrawn: 1_000n }),
    tier,
    rollover: { anchor: 2_000n, withdrawn: 30n, outside: 10n, rolloversUsed: 1, maxRollovers: 3 },
    balances: { [QUOTE]: balance({ onAccount: 200n }), [ASSET_A]: balance({ onAccount: 210n }) },
    prices: { [ASSET_A]: quote(price(4n), price(41n, 10n)) },
    poolInventory: { [QUOTE]: 600n, [ASSET_A]: 10_000n },
    riskParams: { stressBandBps: { [ASSET_A]: 500n }, absorptionBandBps: { [ASSET_A]: 100n } },
  });
  const report = valueOf(computeRisk(input));

  it('opens on C = 0 with L = min(k, line cap)', () => {
    expect(report.cohort).toBe('Turbo');
    // net = 0 - 0; L = min(2000 + 0, 2500) = 2000 = k
    expect(report.creditLine).toBe(2_000n);
    // V = 200 + (2000 - 1000) + max(0, 0 + 2000 - 2000) + floor(210 × 4) - 0 = 2040
    expect(report.accountValue).toBe(2_040n);
    // equity = 40, basis = 0, PnL = 40
    expect([report.traderEquity, report.tradingBasis, report.tradingPnl]).toEqual([40n, 0n, 40n]);
  });

  it('keeps V at H + k - Dq when the line cap lies below k', () => {
    // cap = floor(2500 × 6000 / 10000) = 1500 < k: L = min(2000, 1500) = 1500
    const capped = valueOf(computeRisk({ ...input, tier: { ...tier, maxCreditLineBps: 6_000n } }));
    expect(capped.creditLine).toBe(1_500n);
    // equity above cap = max(0, 0 + 2000 - 1500) = 500; V = 200 + (1500 - 1000) + 500 + 840 = 2040, as before
    expect(capped.equityAboveCap).toBe(500n);
    expect(capped.accountValue).toBe(2_040n);
  });

  it('sets threshold and freeze line on the anchored floor plus the absorption cost', () => {
    // rollovers_used 1 → 3000 bps: floor = max(0, 2500 - floor(2500 × 3000 / 10000)) = 2500 - 750 = 1750
    // absorption = ceil(210 × 4 × 100 / 10000) = ceil(8.4) = 9 (a long keeps the bid under stress: 9 too)
    // threshold = 1750 + 9 = 1759 (not maximized with tier.threshold 1800)
    // freeze = 1750 + (300 - 100) + 9 = 1959
    // stressed V = 200 + 1000 + 0 + floor(210 × 3.8) = 1998 (no orders: marked = filled); stressed equity = -2
    expect(report.health).toEqual({
      rule: 'ANCHORED_FLOOR',
      lossFloor: 1_750n,
      threshold: 1_759n,
      freezeLine: 1_959n,
      absorptionCost: 9n,
      stressedAbsorptionCost: 9n,
      liquidatable: false,
      giveawayAllowance: 280n, // 2040 - 1759 - 1
      stressedEquity: -2n,
      frozen: false, // -2 < 1959 - 2000 = -41? no
      distanceToThreshold: 281n,
      distanceToFreeze: 39n, // 1998 - 1959
    });
  });

  it('measures rollover progress against profit_required', () => {
    // profit_required = floor(2500 × 500 / 10000) = 125; progress = 2040 - 2000 + 30 - 10 = 60
    expect(report.rollover).toEqual({ profitRequired: 125n, progress: 60n, remaining: 65n, reached: false, canEarnMore: true });
  });

  it('derives capacity from the drawn quote and the pool', () => {
    // outstanding = 1000; loan headroom = 1000; drawable = min(1000, pool 600) = 600
    expect([report.outstanding, report.loanHeadroom, report.drawableQuote]).toEqual([1_000n, 1_000n, 600n]);
    // G: spot 840, stressed 798 → 840; headroom 2000 - 840 = 1160; buy capacity = min(200 + 600, 1160) = 800
    expect(report.exposure.pass).toBe('SPOT');
    expect([report.exposureHeadroom, report.buyCapacity]).toEqual([1_160n, 800n]);
  });
});

describe('tier without expiry', () => {
  const forever = snapshot({
    session: session({ cohort: 'Turbo', expiresAt: NO_EXPIRY }),
    tier: legacyTier({ capital: 2_000n, line: 2_500n, duration: NO_EXPIRY, turbo: turboTerms({ termSeconds: NO_EXPIRY, maxRollovers: 0, maxLossBps: [2_000n, 2_000n, 2_000n, 2_000n] }) }),
  });

  it('is recognised and never counted down', () => {
    expect(NO_EXPIRY).toBe(18_446_744_073_709_551_615n);
    expect(isNoExpiry(NO_EXPIRY)).toBe(true);
    expect(isNoExpiry(NO_EXPIRY - 1n)).toBe(false);
    expect(secondsUntilExpiry(NO_EXPIRY, 1_700_000_000n)).toBeNull();
    expect(secondsUntilExpiry(1_700_000_100n, 1_700_000_000n)).toBe(100n);
    expect(secondsUntilExpiry(1_700_000_000n, 1_700_000_100n)).toBe(0n);
    expect(valueOf(computeRisk(forever)).noExpiry).toBe(true);
  });

  it('buys a no-expiry term instead of adding a period to the sentinel', () => {
    expect(valueOf(openingTermSeconds({ cohort: 'Turbo', duration: NO_EXPIRY, prolongSeconds: {}, termSeconds: NO_EXPIRY, period: 'Week' }))).toBe(NO_EXPIRY);
    expect(valueOf(openingTermSeconds({ cohort: 'Legacy', duration: NO_EXPIRY, prolongSeconds: { Day: 86_400n }, period: 'Day' }))).toBe(NO_EXPIRY);
    expect(valueOf(openingTermSeconds({ cohort: 'Legacy', duration: 3_600n, prolongSeconds: { Day: 86_400n }, period: 'Day' }))).toBe(90_000n);
  });

  it('keeps the first-term floor when max_rollovers is 0 and the rollover is absent', () => {
    const report = valueOf(computeRisk(forever));
    // floor = 2500 - floor(2500 × 2000 / 10000) = 2000; no positions, no absorption
    expect(report.health.lossFloor).toBe(2_000n);
    expect(report.rollover).toBeNull();
  });
});

describe('final-term floor below k', () => {
  it('is not clamped at k nor at tier.threshold', () => {
    // rollovers_used 7 clamps to the last entry, 6000 bps: floor = 2500 - 1500 = 1000, below k = 2000 and below tier.threshold = 1800
    const report = valueOf(
      computeRisk(
        snapshot({
          session: session({ cohort: 'Turbo', quoteDrawn: 1_000n }),
          tier: legacyTier({ line: 2_500n, capital: 2_000n, threshold: 1_800n, openBuffer: 300n, maintenance: 100n, turbo: turboTerms() }),
          rollover: { anchor: 2_000n, withdrawn: 0n, outside: 0n, rolloversUsed: 7, maxRollovers: 3 },
          balances: { [QUOTE]: balance({ onAccount: 500n }) },
        }),
      ),
    );
    // V = 500 + (2000 - 1000) + 0 = 1500: below k (equity -500) and below tier.threshold, yet above the floor
    expect(report.accountValue).toBe(1_500n);
    expect(report.traderEquity).toBe(-500n);
    expect(report.health).toMatchObject({ lossFloor: 1_000n, threshold: 1_000n, liquidatable: false, giveawayAllowance: 499n });
    // freeze = 1000 + (300 - 100) + 0 = 1200; stressed V = 1500 → not frozen
    expect(report.health).toMatchObject({ freezeLine: 1_200n, frozen: false });
    expect(report.rollover).toMatchObject({ canEarnMore: false, progress: -500n });
  });
});

describe('liquidation and freeze', () => {
  it('liquidates a legacy account at V = threshold exactly, not one unit above', () => {
    // Legacy, C = 100, L = min(1000 + 100, 10000) = 1100, V = H + 1100 - Dq; threshold 1100
    const at = valueOf(computeRisk(snapshot({ session: session({ collateral: 100n }) }))).health;
    // H = 0, Dq = 0: V = 0 + 1100 + max(0, 100 + 1000 - 1100) = 1100 → liquidatable; giveaway max(0, 1100 - 1100 - 1) = 0
    expect(at).toMatchObject({ liquidatable: true, giveawayAllowance: 0n, distanceToThreshold: 0n });
    // with H = 1 the same account is safe, and may give away nothing yet: max(0, 1101 - 1100 - 1) = 0
    const above = valueOf(
      computeRisk(snapshot({ session: session({ collateral: 100n }), balances: { [QUOTE]: balance({ onAccount: 1n }) } })),
    ).health;
    expect(above).toMatchObject({ liquidatable: false, giveawayAllowance: 0n, distanceToThreshold: 1n });
  });

  it('liquidates a prepaid account on floor plus absorption, even above the static threshold', () => {
    // rollovers_used 0 → 2400 bps: floor = 2500 - 600 = 1900; A long 100 at bid 2: absorption ceil(100 × 2 × 100 / 10000) = 2
    // threshold = 1902; V = 702 + (2000 - 1000) + 0 + 200 = 1902 → liquidatable, though V > tier.threshold 1800 and V > floor
    const report = valueOf(
      computeRisk(
        snapshot({
          session: session({ cohort: 'Turbo', quoteDrawn: 1_000n }),
          tier: legacyTier({ line: 2_500n, capital: 2_000n, threshold: 1_800n, turbo: turboTerms() }),
          rollover: { anchor: 2_000n, withdrawn: 0n, outside: 0n, rolloversUsed: 0, maxRollovers: 3 },
          balances: { [QUOTE]: balance({ onAccount: 702n }), [ASSET_A]: balance({ onAccount: 100n }) },
          prices: { [ASSET_A]: quote(price(2n), price(2n)) },
          riskParams: { stressBandBps: {}, absorptionBandBps: {}, defaultStressBandBps: 0n, defaultAbsorptionBandBps: 100n },
        }),
      ),
    );
    expect(report.accountValue).toBe(1_902n);
    expect(report.health).toMatchObject({ lossFloor: 1_900n, absorptionCost: 2n, threshold: 1_902n, liquidatable: true });
  });

  it('prices a short at the shocked ask in the stressed absorption cost of the freeze line', () => {
    // prepaid, rollovers_used 0: floor = 2500 - floor(2500 × 2400 / 10000) = 1900
    // A short 100 (debt 100): ask 4, stress 2500 bps → shocked ask 5; absorption band 100 bps
    // absorption = ceil(100 × 4 × 100 / 10000) = 4; stressed = ceil(100 × 5 × 100 / 10000) = 5
    // threshold = 1900 + 4 = 1904; freeze = 1900 + (300 - 100) + 5 = 2105
    const report = valueOf(
      computeRisk(
        snapshot({
          session: session({ cohort: 'Turbo' }),
          tier: legacyTier({ line: 2_500n, capital: 2_000n, openBuffer: 300n, maintenance: 100n, turbo: turboTerms() }),
          balances: { [ASSET_A]: balance({ debt: 100n }) },
          prices: { [ASSET_A]: quote(price(4n), price(4n)) },
          riskParams: { stressBandBps: { [ASSET_A]: 2_500n }, absorptionBandBps: { [ASSET_A]: 100n } },
        }),
      ),
    );
    expect(report.health).toMatchObject({ lossFloor: 1_900n, absorptionCost: 4n, stressedAbsorptionCost: 5n, threshold: 1_904n, freezeLine: 2_105n });
  });

  it('freezes when the stressed-marked value falls below the freeze line though V is above it', () => {
    // Legacy, C = 300: L = 1300; freeze = 1000 + 300 = 1300, threshold 1100
    // A long 100: bid 2 → 200; stress 2000 bps → stressed bid 1.6 → 160
    // V = 320 + (1300 - 500) + 0 + 200 = 1320; V stressed = 320 + 800 + 160 = 1280; stressed equity 280 < 300
    const report = valueOf(
      computeRisk(
        snapshot({
          session: session({ collateral: 300n, quoteDrawn: 500n }),
          balances: { [QUOTE]: balance({ onAccount: 320n }), [ASSET_A]: balance({ onAccount: 100n }) },
          prices: { [ASSET_A]: quote(price(2n), price(2n)) },
          riskParams: { stressBandBps: { [ASSET_A]: 2_000n }, absorptionBandBps: {}, defaultAbsorptionBandBps: 0n },
        }),
      ),
    );
    expect([report.accountValue, report.stressedMarkedValue, report.stressedFilledValue]).toEqual([1_320n, 1_280n, 1_280n]);
    expect(report.health).toMatchObject({ liquidatable: false, stressedEquity: 280n, frozen: true, distanceToFreeze: -20n });
  });

  it('freezes when only the stressed-filled value falls below: a resting buy above the stressed bid', () => {
    // Legacy, C = 300: L = 1300; no position; buy 100 A resting at 1.9 locks 190 quote
    // V = 220 + (1300 - 200) + 0 = 1320 = stressed-marked (nothing to mark)
    // filled: quote 220 - 190 = 30, A 100 at stressed bid 1.6 = 160 → 30 + 1100 + 160 = 1290; stressed equity 290 < 300
    const report = valueOf(
      computeRisk(
        snapshot({
          session: session({ collateral: 300n, quoteDrawn: 200n }),
          balances: { [QUOTE]: balance({ onAccount: 30n, locked: 190n }) },
          prices: { [ASSET_A]: quote(price(2n), price(2n)) },
          restingOrders: { [ASSET_A]: orders({ buyQuantity: 100n, buyQuote: 190n }) },
          riskParams: { stressBandBps: { [ASSET_A]: 2_000n }, absorptionBandBps: {}, defaultAbsorptionBandBps: 0n },
        }),
      ),
    );
    expect([report.accountValue, report.stressedMarkedValue, report.stressedFilledValue]).toEqual([1_320n, 1_320n, 1_290n]);
    expect(report.health).toMatchObject({ stressedEquity: 290n, frozen: true, liquidatable: false });
  });
});

describe('borrowable, limited by each of its three bounds', () => {
  // Legacy, C = 0: L = min(1000, 10000) = 1000. Asset A: ask 4, stress 2500 bps → shocked ask 5.
  const borrowOf = (fields: Partial<MarginSnapshot>) => {
    const report = valueOf(
      computeRisk(
        snapshot({
          prices: { [ASSET_A]: quote(price(4n), price(4n)), [QUOTE]: quote(price(1n), price(1n)) },
          poolInventory: { [ASSET_A]: 1_000n },
          riskParams: { stressBandBps: {}, absorptionBandBps: {}, defaultStressBandBps: 2_500n, defaultAbsorptionBandBps: 0n },
          ...fields,
        }),
      ),
    );
    return report.assets.find((asset) => asset.assetId === ASSET_A)?.borrowable;
  };

  it('by the loan cap', () => {
    // Dq = 900 → loan headroom 100, nothing on account to return: floor(100 / 4) = 25;
    // exposure headroom 1000 → floor(1000 / 5) = 200; pool 1000 → 25
    expect(borrowOf({ session: session({ quoteDrawn: 900n }) })).toMatchObject({ byLoanCap: 25n, byExposure: 200n, amount: 25n, limitedBy: 'LOAN_CAP' });
  });

  it('by the loan cap, raised by quote the batch returns first', () => {
    // 500 on account, no shorts: returnable = min(900, 500, 500) = 500 → floor((100 + 500) / 4) = 150; without it 25
    expect(borrowOf({ session: session({ quoteDrawn: 900n }), balances: { [QUOTE]: balance({ onAccount: 500n }) } })).toMatchObject({
      byLoanCap: 150n,
      byLoanCapWithoutReturn: 25n,
      amount: 150n,
      amountWithoutReturn: 25n,
      limitedBy: 'LOAN_CAP',
    });
  });

  it('by exposure', () => {
    // B long 900 at 1 (6 decimals here): G = 900 in every pass (stress on B 0) → exposure headroom 100
    // by exposure floor(100 / 5) = 20; by loan cap floor(1000 / 4) = 250
    expect(
      borrowOf({
        balances: { [ASSET_B]: balance({ onAccount: 900n }) },
        prices: { [ASSET_A]: quote(price(4n), price(4n)), [ASSET_B]: quote(price(1n), price(1n)) },
        riskParams: { stressBandBps: { [ASSET_B]: 0n }, absorptionBandBps: {}, defaultStressBandBps: 2_500n, defaultAbsorptionBandBps: 0n },
      }),
    ).toMatchObject({ byLoanCap: 250n, byExposure: 20n, amount: 20n, limitedBy: 'EXPOSURE' });
  });

  it('by the pool inventory', () => {
    expect(borrowOf({ poolInventory: { [ASSET_A]: 7n } })).toMatchObject({ byLoanCap: 250n, byExposure: 200n, amount: 7n, limitedBy: 'POOL_INVENTORY' });
  });

  it('never for the collateral asset, even when it is priced', () => {
    const report = valueOf(computeRisk(snapshot({ prices: { [QUOTE]: quote(price(1n), price(1n)) }, poolInventory: { [QUOTE]: 1_000n } })));
    expect(report.assets).toEqual([]);
  });
});

describe('gross exposure picks each pass', () => {
  // Legacy, L = 1000; asset A at 4 with a 2500 bps band: stressed bid 3, shocked ask 5.
  const exposureOf = (fields: Partial<MarginSnapshot>) =>
    valueOf(
      computeRisk(
        snapshot({
          prices: { [ASSET_A]: quote(price(4n), price(4n)) },
          riskParams: { stressBandBps: { [ASSET_A]: 2_500n }, absorptionBandBps: {}, defaultAbsorptionBandBps: 0n },
          ...fields,
        }),
      ),
    ).exposure;

  it('spot for a long: the stressed bid only lowers it', () => {
    // 100 long: spot 400, stressed 300 (marked and filled)
    expect(exposureOf({ balances: { [ASSET_A]: balance({ onAccount: 100n }) } })).toEqual({
      spot: 400n,
      stressedMarked: 300n,
      stressedFilled: 300n,
      gross: 400n,
      pass: 'SPOT',
    });
  });

  it('stressed-marked for a short: the shocked ask raises it (a tie with stressed-filled goes to the earlier pass)', () => {
    // 100 short (debt 100, nothing held): spot 400, stressed 500
    expect(exposureOf({ balances: { [ASSET_A]: balance({ debt: 100n }) } })).toEqual({
      spot: 400n,
      stressedMarked: 500n,
      stressedFilled: 500n,
      gross: 500n,
      pass: 'STRESSED_MARKED',
    });
  });

  it('stressed-filled for a buy resting below the stressed bid', () => {
    // buy 100 at limit 2 locks 200: spot 200 + 0, stressed-marked 200 + 0; filled: 100 at stressed bid 3 = 300
    expect(
      exposureOf({
        balances: { [QUOTE]: balance({ locked: 200n }) },
        restingOrders: { [ASSET_A]: orders({ buyQuantity: 100n, buyQuote: 200n }) },
      }),
    ).toEqual({ spot: 200n, stressedMarked: 200n, stressedFilled: 300n, gross: 300n, pass: 'STRESSED_FILLED' });
  });

  it('counts a resting sell that turns holdings into a short', () => {
    // hold 100 A borrowed (debt 100, pos 0), sell 100 resting: effective position -100
    // spot: max(|0|, 400) = 400; stressed-marked: max(0, 500) = 500; filled: |-100 at 5| = 500
    expect(
      exposureOf({
        balances: { [ASSET_A]: balance({ locked: 100n, debt: 100n }) },
        restingOrders: { [ASSET_A]: orders({ sellQuantity: 100n, sellQuote: 420n }) },
      }),
    ).toMatchObject({ spot: 400n, stressedMarked: 500n, stressedFilled: 500n, pass: 'STRESSED_MARKED' });
  });
});

describe('asset decimals and collateral decimals', () => {
  it('scales by 10^(18 + ad - min(cd, 18))', () => {
    // cd = 20 is capped at 18: an 8-decimal asset has scale 10^(18 + 8 - 18) = 1e8
    // 1 whole A (1e8 raw) at 3 quote: floor(1e8 × 3e18 / 1e8) = 3e18 raw collateral units
    const report = valueOf(
      computeRisk(
        snapshot({
          collateralDecimals: 20,
          balances: { [ASSET_A]: balance({ onAccount: 100_000_000n }) },
          prices: { [ASSET_A]: quote(price(3n), price(3n), 8) },
        }),
      ),
    );
    expect(report.assets[0]?.scale).toBe(100_000_000n);
    expect(report.assets[0]?.mark).toBe(3n * 10n ** 18n);
  });
});
