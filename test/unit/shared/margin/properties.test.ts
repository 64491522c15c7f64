// Properties of the margin formulas over random snapshots (fast-check): rounding never favours
// the account, stress never helps it, a limit the terminal offers is a limit the chain accepts,
// and draws and borrows are not PnL. The last property checks computeRisk against the naive
// peer of the benchmark, a separate transcription of the spec table.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { figuresOf, peerRisk } from '../../../../bench/margin-risk.bench';
import {
  absorptionCost,
  ceilDivide,
  computeRisk,
  owedValue,
  ownedValue,
  scaleFor,
  type AssetPrice,
  type MarginSnapshot,
  type RiskReport,
} from '../../../../shared/margin';
import { QUOTE, valueOf } from '../../../support/shared/margin/fixtures';
import { checkProperty } from '../../../support/property';

const ASSET_IDS = [1, 2, 3, 4].map((n) => `0x${n.toString(16).padStart(64, '0')}`);

// Magnitudes are mixed so that small accounts (where rounding shows) and accounts whose line
// dwarfs their positions (where the borrow and draw limits are not zero) both come up often.
const amount = fc.oneof(fc.bigInt({ min: 0n, max: 1_000n }), fc.bigInt({ min: 0n, max: 10n ** 6n }), fc.bigInt({ min: 0n, max: 10n ** 12n }));
const largeAmount = fc.oneof(amount, fc.bigInt({ min: 10n ** 12n, max: 10n ** 16n }));
const sometimesZero = fc.oneof(fc.constant(0n), amount);
const bps = fc.bigInt({ min: 0n, max: 10_000n });
const priceArbitrary = fc.oneof(fc.bigInt({ min: 1n, max: 10n ** 19n }), fc.bigInt({ min: 1n, max: 10n ** 24n }));

const assetArbitrary = fc.record({
  balance: fc.record({ onAccount: sometimesZero, received: sometimesZero, locked: sometimesZero, settled: sometimesZero, debt: sometimesZero }),
  bid: fc.oneof(fc.constant(0n), priceArbitrary),
  spread: fc.bigInt({ min: 0n, max: 10n ** 22n }),
  decimals: fc.constantFrom(0, 6, 8, 9, 18),
  stale: fc.boolean(),
  orders: fc.record({ sellQuantity: sometimesZero, sellQuote: sometimesZero, buyQuantity: sometimesZero, buyQuote: sometimesZero }),
  pool: largeAmount,
  stressBand: fc.option(bps, { nil: undefined }),
  absorptionBand: fc.option(fc.bigInt({ min: 0n, max: 2_000n }), { nil: undefined }),
});

const snapshotArbitrary: fc.Arbitrary<MarginSnapshot> = fc
  .record({
    assets: fc.array(assetArbitrary, { minLength: 0, maxLength: 4 }),
    collateralDecimals: fc.constantFrom(0, 6, 9, 18, 20),
    quoteBalance: fc.record({ onAccount: sometimesZero, received: sometimesZero, locked: sometimesZero, settled: sometimesZero }),
    quotePool: largeAmount,
    cohort: fc.constantFrom('Legacy', 'Turbo', undefined),
    collateral: sometimesZero,
    fees: sometimesZero,
    quoteDrawn: sometimesZero,
    line: largeAmount,
    maxCreditLineBps: bps,
    capital: largeAmount,
    threshold: amount,
    openBuffer: amount,
    maintenance: amount,
    maxLossBps: fc.array(bps, { minLength: 1, maxLength: 4 }),
    rolloverProfitBps: bps,
    withTurbo: fc.boolean(),
    rollover: fc.option(fc.record({ anchor: amount, withdrawn: sometimesZero, outside: sometimesZero, rolloversUsed: fc.nat(6), maxRollovers: fc.nat(3) }), {
      nil: undefined,
    }),
    defaultStressBand: fc.option(bps, { nil: undefined }),
    defaultAbsorptionBand: fc.option(fc.bigInt({ min: 0n, max: 2_000n }), { nil: undefined }),
  })
  .map((drawn) => {
    const balances: Record<string, MarginSnapshot['balances'][string]> = { [QUOTE]: { ...drawn.quoteBalance, debt: 0n } };
    const prices: Record<string, AssetPrice> = {};
    const restingOrders: Record<string, MarginSnapshot['restingOrders'][string]> = {};
    const poolInventory: Record<string, bigint> = { [QUOTE]: drawn.quotePool };
    const stressBandBps: Record<string, bigint> = {};
    const absorptionBandBps: Record<string, bigint> = {};
    drawn.assets.forEach((asset, index) => {
      const id = ASSET_IDS[index] as string;
      balances[id] = asset.balance;
      // An ask is at least 1 and never below the bid, as an oracle quotes it.
      prices[id] = { bid: asset.bid, ask: asset.bid + asset.spread + 1n, decimals: asset.decimals, stale: asset.stale };
      restingOrders[id] = asset.orders;
      poolInventory[id] = asset.pool;
      if (asset.stressBand !== undefined) stressBandBps[id] = asset.stressBand;
      if (asset.absorptionBand !== undefined) absorptionBandBps[id] = asset.absorptionBand;
    });
    // A Turbo session always has its tier's turbo terms (without them the snapshot is refused, tested elsewhere).
    const withTurbo = drawn.cohort === 'Turbo' || (drawn.cohort === undefined && drawn.withTurbo) || (drawn.cohort === 'Legacy' && drawn.withTurbo);
    const snapshot: MarginSnapshot = {
      session: {
        ...(drawn.cohort === undefined ? {} : { cohort: drawn.cohort }),
        collateral: drawn.collateral,
        fees: drawn.fees,
        quoteDrawn: drawn.quoteDrawn,
        expiresAt: 1_700_000_000n,
      },
      tier: {
        line: drawn.line,
        maxCreditLineBps: drawn.maxCreditLineBps,
        capital: drawn.capital,
        threshold: drawn.threshold,
        openBuffer: drawn.openBuffer,
        maintenance: drawn.maintenance,
        duration: 604_800n,
        ...(withTurbo
          ? { turbo: { maxLossBps: drawn.maxLossBps, rolloverProfitBps: drawn.rolloverProfitBps, maxRollovers: 3, termSeconds: 604_800n, forfeitCollateral: true } }
          : {}),
      },
      ...(drawn.rollover === undefined ? {} : { rollover: drawn.rollover }),
      collateralAssetId: QUOTE,
      collateralDecimals: drawn.collateralDecimals,
      balances,
      prices,
      restingOrders,
      poolInventory,
      riskParams: {
        stressBandBps,
        absorptionBandBps,
        ...(drawn.defaultStressBand === undefined ? {} : { defaultStressBandBps: drawn.defaultStressBand }),
        ...(drawn.defaultAbsorptionBand === undefined ? {} : { defaultAbsorptionBandBps: drawn.defaultAbsorptionBand }),
      },
    };
    return snapshot;
  });

const risk = (snapshot: MarginSnapshot): RiskReport => valueOf(computeRisk(snapshot));

/** The snapshot after one change to an asset's balance (a draw, a borrow, a price move…). */
function withBalance(snapshot: MarginSnapshot, assetId: string, change: (balance: MarginSnapshot['balances'][string]) => MarginSnapshot['balances'][string]): MarginSnapshot {
  const current = snapshot.balances[assetId] ?? { onAccount: 0n, received: 0n, locked: 0n, settled: 0n, debt: 0n };
  return { ...snapshot, balances: { ...snapshot.balances, [assetId]: change(current) } };
}

function withPrice(snapshot: MarginSnapshot, assetId: string, change: (price: AssetPrice) => AssetPrice): MarginSnapshot {
  const current = snapshot.prices[assetId];
  if (current === undefined) return snapshot;
  return { ...snapshot, prices: { ...snapshot.prices, [assetId]: change(current) } };
}

describe('rounding', () => {
  const quantity = fc.bigInt({ min: 0n, max: 10n ** 20n });
  const anyPrice = fc.bigInt({ min: 0n, max: 10n ** 24n });
  const decimals = fc.integer({ min: 0, max: 36 });

  it('owned value never exceeds owed value, and they differ by at most one unit', () => {
    checkProperty(
      fc.property(quantity, anyPrice, decimals, decimals, (q, p, assetDecimals, collateralDecimals) => {
        const scale = scaleFor(assetDecimals, collateralDecimals);
        const owned = ownedValue(q, p, scale);
        const owed = owedValue(q, p, scale);
        expect(owned <= owed).toBe(true);
        expect(owed - owned).toBe((q * p) % scale === 0n ? 0n : 1n);
      }),
    );
  });

  it('the ceiling of zero is zero, and every ceiling is the least multiple cover', () => {
    checkProperty(
      fc.property(quantity, fc.bigInt({ min: 1n, max: 10n ** 30n }), (x, y) => {
        expect(ceilDivide(0n, y)).toBe(0n);
        const ceiling = ceilDivide(x, y);
        expect(ceiling * y >= x).toBe(true);
        expect(x === 0n || (ceiling - 1n) * y < x).toBe(true);
      }),
    );
    expect(owedValue(0n, 5n * 10n ** 18n, 10n ** 18n)).toBe(0n);
    expect(owedValue(7n, 0n, 10n ** 18n)).toBe(0n);
  });

  it('absorption cost grows with the position', () => {
    checkProperty(
      fc.property(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), anyPrice, fc.bigInt({ min: 0n, max: 10_000n }), decimals, (position, p, band, assetDecimals) => {
        const scale = scaleFor(assetDecimals, 6);
        const larger = position < 0n ? position - 1n : position + 1n;
        expect(absorptionCost(larger, p, band, scale) >= absorptionCost(position, p, band, scale)).toBe(true);
        expect(absorptionCost(0n, p, band, scale)).toBe(0n);
      }),
    );
  });
});

describe('computeRisk over random snapshots', () => {
  it('agrees with the naive peer on every figure the two compute', () => {
    checkProperty(
      fc.property(snapshotArbitrary, (snapshot) => {
        expect(figuresOf(risk(snapshot))).toEqual(peerRisk(snapshot));
      }),
      { numRuns: 300 },
    );
  });

  it('V is non-decreasing in the bid of a long and non-increasing in the ask of a short', () => {
    checkProperty(
      fc.property(snapshotArbitrary, fc.bigInt({ min: 1n, max: 10n ** 22n }), (snapshot, raise) => {
        for (const asset of risk(snapshot).assets) {
          if (asset.position > 0n) {
            const higherBid = withPrice(snapshot, asset.assetId, (p) => ({ ...p, bid: p.bid + raise, ask: p.ask + raise }));
            expect(risk(higherBid).accountValue >= risk(snapshot).accountValue).toBe(true);
          }
          if (asset.position < 0n) {
            const higherAsk = withPrice(snapshot, asset.assetId, (p) => ({ ...p, ask: p.ask + raise }));
            expect(risk(higherAsk).accountValue <= risk(snapshot).accountValue).toBe(true);
          }
        }
      }),
    );
  });

  it('stress never raises the account value, and the stressed absorption cost never falls below the spot one', () => {
    checkProperty(
      fc.property(snapshotArbitrary, (snapshot) => {
        const report = risk(snapshot);
        expect(report.stressedMarkedValue <= report.accountValue).toBe(true);
        expect(report.health.stressedAbsorptionCost >= report.health.absorptionCost).toBe(true);
        if (report.health.rule === 'ANCHORED_FLOOR' && snapshot.tier.openBuffer >= snapshot.tier.maintenance) {
          expect(report.health.freezeLine >= report.health.threshold).toBe(true);
        }
      }),
    );
  });

  it('outstanding <= L if and only if loan headroom is L - outstanding', () => {
    checkProperty(
      fc.property(snapshotArbitrary, (snapshot) => {
        const report = risk(snapshot);
        expect(report.loanHeadroom >= 0n).toBe(true);
        expect(report.outstanding <= report.creditLine).toBe(report.loanHeadroom === report.creditLine - report.outstanding);
      }),
    );
  });

  it('capacity figures respect their bounds', () => {
    checkProperty(
      fc.property(snapshotArbitrary, (snapshot) => {
        const report = risk(snapshot);
        const { exposure } = report;
        expect(exposure.gross >= exposure.spot && exposure.gross >= exposure.stressedMarked && exposure.gross >= exposure.stressedFilled).toBe(true);
        expect(report.buyCapacity <= report.exposureHeadroom).toBe(true);
        expect(report.buyCapacity <= report.spendableCash + report.drawableQuote).toBe(true);
        expect(report.returnableQuote <= report.spendableCash && report.returnableQuote <= snapshot.session.quoteDrawn).toBe(true);
        expect(report.health.liquidatable).toBe(report.health.distanceToThreshold <= 0n);
        if (report.health.liquidatable) expect(report.health.giveawayAllowance).toBe(0n);
        expect(report.health.frozen).toBe(report.health.distanceToFreeze < 0n);
      }),
    );
  });

  it('a borrow of the offered amount fits the loan cap, and one unit more would not', () => {
    checkProperty(
      fc.property(snapshotArbitrary, (snapshot) => {
        const report = risk(snapshot);
        for (const asset of report.assets) {
          if (asset.ask === 0n) continue;
          const room = report.loanHeadroom + report.returnableQuote;
          expect(owedValue(asset.borrowable.byLoanCap, asset.ask, asset.scale) <= room).toBe(true);
          expect(owedValue(asset.borrowable.byLoanCap + 1n, asset.ask, asset.scale) > room).toBe(true);
          expect(owedValue(asset.borrowable.byExposure, asset.shockedAsk, asset.scale) <= report.exposureHeadroom).toBe(true);
          expect(asset.borrowable.amount <= asset.borrowable.poolInventory).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('borrowing what is offered (without returning quote) leaves V unchanged and outstanding within L', () => {
    checkProperty(
      fc.property(snapshotArbitrary, (snapshot) => {
        const before = risk(snapshot);
        if (before.outstanding > before.creditLine) return;
        for (const asset of before.assets) {
          const borrowed = asset.borrowable.amountWithoutReturn;
          if (borrowed === 0n) continue;
          const after = risk(withBalance(snapshot, asset.assetId, (b) => ({ ...b, onAccount: b.onAccount + borrowed, debt: b.debt + borrowed })));
          expect(after.accountValue).toBe(before.accountValue);
          expect(after.outstanding <= after.creditLine).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('drawing the drawable quote leaves V unchanged and outstanding within L', () => {
    checkProperty(
      fc.property(snapshotArbitrary, (snapshot) => {
        const before = risk(snapshot);
        if (before.outstanding > before.creditLine || before.drawableQuote === 0n) return;
        const drawn = before.drawableQuote;
        const after = risk({
          ...withBalance(snapshot, QUOTE, (b) => ({ ...b, onAccount: b.onAccount + drawn })),
          session: { ...snapshot.session, quoteDrawn: snapshot.session.quoteDrawn + drawn },
        });
        expect(after.accountValue).toBe(before.accountValue);
        expect(after.tradingPnl).toBe(before.tradingPnl);
        expect(after.outstanding <= after.creditLine).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
