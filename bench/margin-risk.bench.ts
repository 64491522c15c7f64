// Benchmark: a full margin risk recompute (computeRisk) for a 10-asset snapshot.
// Run: npx tsx bench/margin-risk.bench.ts  (prints one line of JSON; `run()` returns the same object).
//
// The peer is ours, written for this comparison: a straightforward transcription of the spec
// table (margin-api 2.6) in which every quantity is a function of the snapshot that recomputes
// everything it depends on (V recomputes L, each borrow limit recomputes the loan and exposure
// headroom, each scale is a fresh 10n ** n) and iterates the records with Object.entries. It is
// what the formulas cost written naively, not a third-party library: no public package computes
// these margin rules. Before timing, the peer's figures are checked equal to ours, so the ratio
// compares two implementations of the same results (the unit tests run the same check on
// random snapshots).
//
// `details` times the margin service's own path on the same account (main/services/margin/
// risk-frame.ts), checked to give the same figures: a recompute (the state's conversion reused,
// the account's resting orders and the pool inventory added), a recompute after a new folded
// state (converted once more), and a recompute with the view the risk frame carries.
import { pathToFileURL } from 'node:url';
import type { MarginState } from '../shared/api/margin-schemas';
import { computeRisk, type MarginSnapshot, type RiskReport } from '../shared/margin';
import { fullSnapshot, riskView, stateSnapshot } from '../main/services/margin/risk-frame';
import { median } from './judge';
import type { BenchResult } from './result';
import { interleave, ROUNDS, sized } from './rounds';

const BPS = 10_000n;

type Pass = 'spot' | 'stressedMarked' | 'stressedFilled';

function peerAssets(s: MarginSnapshot): string[] {
  return Object.entries(s.prices)
    .filter(([id]) => id !== s.collateralAssetId)
    .map(([id]) => id);
}

function peerScale(s: MarginSnapshot, a: string): bigint {
  const decimals = s.prices[a]?.decimals ?? 0;
  return 10n ** BigInt(18 + decimals - Math.min(s.collateralDecimals, 18));
}

function peerCeil(x: bigint, y: bigint): bigint {
  if (x === 0n) return 0n;
  return (x + y - 1n) / y;
}

function peerMax(...values: bigint[]): bigint {
  return values.reduce((best, v) => (v > best ? v : best));
}

function peerMin(...values: bigint[]): bigint {
  return values.reduce((best, v) => (v < best ? v : best));
}

function peerBalance(s: MarginSnapshot, a: string) {
  return s.balances[a] ?? { onAccount: 0n, received: 0n, locked: 0n, settled: 0n, debt: 0n };
}

function peerOrders(s: MarginSnapshot, a: string) {
  return s.restingOrders[a] ?? { sellQuantity: 0n, sellQuote: 0n, buyQuantity: 0n, buyQuote: 0n };
}

function peerHoldings(s: MarginSnapshot, a: string): bigint {
  const b = peerBalance(s, a);
  return b.onAccount + b.received + b.locked + b.settled;
}

function peerPosition(s: MarginSnapshot, a: string): bigint {
  return peerHoldings(s, a) - peerBalance(s, a).debt;
}

function peerStressBand(s: MarginSnapshot, a: string): bigint {
  return s.riskParams.stressBandBps[a] ?? s.riskParams.defaultStressBandBps ?? 1_000n;
}

function peerAbsorptionBand(s: MarginSnapshot, a: string): bigint {
  return s.riskParams.absorptionBandBps[a] ?? s.riskParams.defaultAbsorptionBandBps ?? 100n;
}

function peerBid(s: MarginSnapshot, a: string, stressed: boolean): bigint {
  const bid = s.prices[a]?.bid ?? 0n;
  if (!stressed) return bid;
  const band = peerStressBand(s, a);
  return band >= BPS ? 0n : (bid * (BPS - band)) / BPS;
}

function peerAsk(s: MarginSnapshot, a: string, stressed: boolean): bigint {
  const ask = s.prices[a]?.ask ?? 0n;
  return stressed ? (ask * (BPS + peerStressBand(s, a))) / BPS : ask;
}

function peerMark(s: MarginSnapshot, a: string, pos: bigint, stressed: boolean): bigint {
  if (pos >= 0n) return (pos * peerBid(s, a, stressed)) / peerScale(s, a);
  return -peerCeil(-pos * peerAsk(s, a, stressed), peerScale(s, a));
}

function peerLineCap(s: MarginSnapshot): bigint {
  return (s.tier.line * s.tier.maxCreditLineBps) / BPS;
}

function peerL(s: MarginSnapshot): bigint {
  return peerMin(s.tier.capital + s.session.collateral - s.session.fees, peerLineCap(s));
}

function peerPassPosition(s: MarginSnapshot, a: string, pass: Pass): bigint {
  const o = peerOrders(s, a);
  return pass === 'stressedFilled' ? peerPosition(s, a) - o.sellQuantity + o.buyQuantity : peerPosition(s, a);
}

function peerBuyQuote(s: MarginSnapshot): bigint {
  return peerAssets(s).reduce((sum, a) => sum + peerOrders(s, a).buyQuote, 0n);
}

function peerSellQuote(s: MarginSnapshot): bigint {
  return peerAssets(s).reduce((sum, a) => sum + peerOrders(s, a).sellQuote, 0n);
}

function peerV(s: MarginSnapshot, pass: Pass): bigint {
  const L = peerL(s);
  let cash = peerHoldings(s, s.collateralAssetId);
  if (pass === 'stressedFilled') cash = cash - peerBuyQuote(s) + peerSellQuote(s);
  let v = cash + (L - s.session.quoteDrawn) + peerMax(0n, s.session.collateral + s.tier.capital - L);
  for (const a of peerAssets(s)) v += peerMark(s, a, peerPassPosition(s, a, pass), pass !== 'spot');
  return v - s.session.fees;
}

function peerDebtValue(s: MarginSnapshot): bigint {
  let total = 0n;
  for (const a of peerAssets(s)) total += peerCeil(peerBalance(s, a).debt * peerAsk(s, a, false), peerScale(s, a));
  return total;
}

function peerLoanHeadroom(s: MarginSnapshot): bigint {
  return peerMax(0n, peerL(s) - (s.session.quoteDrawn + peerDebtValue(s)));
}

function peerDrawable(s: MarginSnapshot): bigint {
  return peerMin(peerLoanHeadroom(s), s.poolInventory[s.collateralAssetId] ?? 0n);
}

function peerReserve(s: MarginSnapshot): bigint {
  let total = 0n;
  for (const a of peerAssets(s)) {
    const pos = peerPosition(s, a);
    if (pos < 0n) total += peerCeil(-pos * peerAsk(s, a, false), peerScale(s, a));
  }
  return total;
}

function peerSpendable(s: MarginSnapshot): bigint {
  const b = peerBalance(s, s.collateralAssetId);
  return peerMax(0n, b.onAccount + b.settled - peerReserve(s));
}

function peerReturnable(s: MarginSnapshot): bigint {
  return peerMin(s.session.quoteDrawn, peerBalance(s, s.collateralAssetId).onAccount, peerSpendable(s));
}

function peerAbs(x: bigint): bigint {
  return x < 0n ? -x : x;
}

function peerG(s: MarginSnapshot, pass: Pass): bigint {
  if (pass === 'stressedFilled') {
    return peerAssets(s).reduce((sum, a) => sum + peerAbs(peerMark(s, a, peerPassPosition(s, a, pass), true)), 0n);
  }
  let g = peerBuyQuote(s);
  for (const a of peerAssets(s)) {
    const pos = peerPosition(s, a);
    const eff = pos - peerOrders(s, a).sellQuantity;
    g += peerMax(peerAbs(peerMark(s, a, pos, pass !== 'spot')), peerAbs(peerMark(s, a, eff, pass !== 'spot')));
  }
  return g;
}

function peerGross(s: MarginSnapshot): bigint {
  return peerMax(peerG(s, 'spot'), peerG(s, 'stressedMarked'), peerG(s, 'stressedFilled'));
}

function peerExposureHeadroom(s: MarginSnapshot): bigint {
  return peerMax(0n, peerL(s) - peerGross(s));
}

function peerBorrowable(s: MarginSnapshot, a: string): bigint {
  const ask = peerAsk(s, a, false);
  if (ask === 0n) return 0n;
  const byLoan = ((peerLoanHeadroom(s) + peerReturnable(s)) * peerScale(s, a)) / ask;
  const byExposure = (peerExposureHeadroom(s) * peerScale(s, a)) / peerAsk(s, a, true);
  return peerMax(0n, peerMin(byLoan, byExposure, s.poolInventory[a] ?? 0n));
}

function peerAbsorption(s: MarginSnapshot, stressed: boolean): bigint {
  let total = 0n;
  for (const a of peerAssets(s)) {
    const pos = peerPosition(s, a);
    if (pos === 0n) continue;
    const price = pos > 0n ? peerBid(s, a, false) : peerAsk(s, a, stressed);
    total += peerCeil(peerAbs(pos) * price * peerAbsorptionBand(s, a), BPS * peerScale(s, a));
  }
  return total;
}

function peerLines(s: MarginSnapshot): { threshold: bigint; freeze: bigint } {
  const cohort = s.session.cohort ?? (s.tier.turbo ? 'Turbo' : 'Legacy');
  const bpsList = s.tier.turbo?.maxLossBps ?? [];
  if (cohort === 'Legacy' || bpsList.every((b) => b === 0n)) {
    return { threshold: s.tier.threshold, freeze: s.tier.capital + s.tier.openBuffer };
  }
  const used = s.rollover?.rolloversUsed ?? 0;
  const bps = bpsList[Math.min(used, bpsList.length - 1)] ?? 0n;
  const floor = peerMax(0n, s.tier.line - (s.tier.line * bps) / BPS);
  return {
    threshold: floor + peerAbsorption(s, false),
    freeze: floor + (s.tier.openBuffer - s.tier.maintenance) + peerAbsorption(s, true),
  };
}

/** The figures the peer produces, named as in RiskReport. */
export interface PeerFigures {
  readonly accountValue: bigint;
  readonly stressedMarkedValue: bigint;
  readonly stressedFilledValue: bigint;
  readonly creditLine: bigint;
  readonly outstanding: bigint;
  readonly loanHeadroom: bigint;
  readonly drawableQuote: bigint;
  readonly reserve: bigint;
  readonly spendableCash: bigint;
  readonly returnableQuote: bigint;
  readonly grossExposure: bigint;
  readonly exposureHeadroom: bigint;
  readonly buyCapacity: bigint;
  readonly threshold: bigint;
  readonly freezeLine: bigint;
  readonly liquidatable: boolean;
  readonly frozen: boolean;
  readonly borrowable: Readonly<Record<string, bigint>>;
}

/** The naive reference: every figure recomputed from the snapshot on its own. */
export function peerRisk(s: MarginSnapshot): PeerFigures {
  const { threshold, freeze } = peerLines(s);
  const borrowable: Record<string, bigint> = {};
  for (const a of peerAssets(s)) borrowable[a] = peerBorrowable(s, a);
  return {
    accountValue: peerV(s, 'spot'),
    stressedMarkedValue: peerV(s, 'stressedMarked'),
    stressedFilledValue: peerV(s, 'stressedFilled'),
    creditLine: peerL(s),
    outstanding: s.session.quoteDrawn + peerDebtValue(s),
    loanHeadroom: peerLoanHeadroom(s),
    drawableQuote: peerDrawable(s),
    reserve: peerReserve(s),
    spendableCash: peerSpendable(s),
    returnableQuote: peerReturnable(s),
    grossExposure: peerGross(s),
    exposureHeadroom: peerExposureHeadroom(s),
    buyCapacity: peerMin(peerSpendable(s) + peerDrawable(s), peerExposureHeadroom(s)),
    threshold,
    freezeLine: freeze,
    liquidatable: peerV(s, 'spot') <= threshold,
    frozen: peerMin(peerV(s, 'stressedMarked'), peerV(s, 'stressedFilled')) < freeze,
    borrowable,
  };
}

/** The same figures taken from our report, for an equality check against the peer. */
export function figuresOf(report: RiskReport): PeerFigures {
  const borrowable: Record<string, bigint> = {};
  for (const asset of report.assets) borrowable[asset.assetId] = asset.borrowable.amount;
  return {
    accountValue: report.accountValue,
    stressedMarkedValue: report.stressedMarkedValue,
    stressedFilledValue: report.stressedFilledValue,
    creditLine: report.creditLine,
    outstanding: report.outstanding,
    loanHeadroom: report.loanHeadroom,
    drawableQuote: report.drawableQuote,
    reserve: report.reserve,
    spendableCash: report.spendableCash,
    returnableQuote: report.returnableQuote,
    grossExposure: report.exposure.gross,
    exposureHeadroom: report.exposureHeadroom,
    buyCapacity: report.buyCapacity,
    threshold: report.health.threshold,
    freezeLine: report.health.freezeLine,
    liquidatable: report.health.liquidatable,
    frozen: report.health.frozen,
    borrowable,
  };
}

const COLLATERAL = `0x${'c'.repeat(64)}`;

/**
 * A prepaid session on 10 assets of mixed decimals (6 to 18): longs, shorts, in-kind debt,
 * resting buys and sells, some bands published per asset and the rest from the default.
 */
export function benchSnapshot(): MarginSnapshot {
  const prices: Record<string, MarginSnapshot['prices'][string]> = {};
  const balances: Record<string, MarginSnapshot['balances'][string]> = {
    [COLLATERAL]: { onAccount: 40_000_000_000n, received: 1_000_000n, locked: 5_000_000_000n, settled: 250_000_000n, debt: 0n },
  };
  const restingOrders: Record<string, MarginSnapshot['restingOrders'][string]> = {};
  const poolInventory: Record<string, bigint> = { [COLLATERAL]: 900_000_000_000n };
  const stressBandBps: Record<string, bigint> = {};
  const absorptionBandBps: Record<string, bigint> = {};
  const decimalsCycle = [8, 9, 18, 6, 9, 8, 18, 9, 6, 9];
  for (let i = 0; i < 10; i++) {
    const id = `0x${(i + 1).toString(16).padStart(64, '0')}`;
    const decimals = decimalsCycle[i] ?? 9;
    const unit = 10n ** BigInt(decimals);
    const whole = BigInt(100 * (i + 1));
    const bid = whole * 10n ** 18n + BigInt(i) * 123_456_789n;
    prices[id] = { bid, ask: bid + bid / 500n, decimals, stale: i === 7 };
    const short = i % 3 === 2;
    balances[id] = {
      onAccount: short ? 0n : unit * BigInt(i + 2) + 17n,
      received: unit / 3n,
      locked: i % 2 === 0 ? unit : 0n,
      settled: 5n,
      debt: short ? unit * BigInt(i + 4) : i === 4 ? unit : 0n,
    };
    restingOrders[id] = {
      sellQuantity: i % 2 === 0 ? unit : 0n,
      sellQuote: i % 2 === 0 ? (bid * 102n) / 100n / 10n ** 12n : 0n,
      buyQuantity: i % 4 === 1 ? unit / 2n : 0n,
      buyQuote: i % 4 === 1 ? (bid * 95n) / 200n / 10n ** 12n : 0n,
    };
    poolInventory[id] = unit * 1_000n;
    if (i % 2 === 0) stressBandBps[id] = BigInt(800 + 100 * i);
    if (i % 3 === 0) absorptionBandBps[id] = BigInt(50 + 10 * i);
  }
  return {
    session: { cohort: 'Turbo', collateral: 0n, fees: 0n, quoteDrawn: 30_000_000_000n, expiresAt: 1_900_000_000n },
    tier: {
      line: 200_000_000_000n,
      maxCreditLineBps: 7_500n,
      capital: 100_000_000_000n,
      threshold: 80_000_000_000n,
      openBuffer: 20_000_000_000n,
      maintenance: 5_000_000_000n,
      duration: 604_800n,
      turbo: {
        maxLossBps: [1_000n, 2_000n, 3_000n, 4_000n],
        rolloverProfitBps: 500n,
        maxRollovers: 3,
        termSeconds: 604_800n,
        forfeitCollateral: true,
      },
    },
    rollover: { anchor: 100_000_000_000n, withdrawn: 0n, outside: 0n, rolloversUsed: 1, maxRollovers: 3 },
    collateralAssetId: COLLATERAL,
    collateralDecimals: 6,
    balances,
    prices,
    restingOrders,
    poolInventory,
    riskParams: { stressBandBps, absorptionBandBps, defaultStressBandBps: 1_500n, defaultAbsorptionBandBps: 75n },
  };
}

function microsecondsPerOperation(operation: () => unknown, iterations: number): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) operation();
  const elapsed = process.hrtime.bigint() - start;
  return Number(elapsed) / 1_000 / iterations;
}

function stringify(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

/**
 * The same account as the margin service holds it: the folded wire state (bigint members as
 * shared/api parses them), from which main/services/margin converts once per state and then
 * recomputes on each change with the account's resting orders and the pool inventory.
 */
export function benchState(snapshot: MarginSnapshot): MarginState {
  const { session, tier, rollover } = snapshot;
  const turbo = tier.turbo;
  return {
    session: { cohort: session.cohort, collateral: session.collateral, fees: session.fees, quote_drawn: session.quoteDrawn, expires_at: session.expiresAt, tier_id: '9', version: 1n },
    tier: {
      tier_id: '9',
      version: 1n,
      line: tier.line,
      max_credit_line_bps: tier.maxCreditLineBps,
      capital: tier.capital,
      threshold: tier.threshold,
      open_buffer: tier.openBuffer,
      maintenance: tier.maintenance,
      profit_share_bps: 0n,
      duration: tier.duration,
      ...(turbo === undefined
        ? {}
        : { turbo: { forfeit_collateral: turbo.forfeitCollateral, max_loss_bps: [...turbo.maxLossBps], rollover_profit_bps: turbo.rolloverProfitBps, max_rollovers: turbo.maxRollovers, term_seconds: turbo.termSeconds } }),
    },
    ...(rollover === undefined ? {} : { rollover: { anchor: rollover.anchor, withdrawn: rollover.withdrawn, outside: rollover.outside, rollovers_used: rollover.rolloversUsed, max_rollovers: rollover.maxRollovers } }),
    balances: Object.fromEntries(Object.entries(snapshot.balances).map(([asset, b]) => [asset, { on_account: b.onAccount, received: b.received, locked: b.locked, settled: b.settled, debt: b.debt }])),
    prices: Object.fromEntries(Object.entries(snapshot.prices).map(([asset, p]) => [asset, { bid: p.bid, ask: p.ask, decimals: p.decimals, stale: p.stale }])),
    collateral_decimals: snapshot.collateralDecimals,
    collateral_asset_id: snapshot.collateralAssetId,
    risk_params: {
      stress_band_bps: { ...snapshot.riskParams.stressBandBps },
      absorption_band_bps: { ...snapshot.riskParams.absorptionBandBps },
      ...(snapshot.riskParams.defaultStressBandBps === undefined ? {} : { default_stress_band_bps: snapshot.riskParams.defaultStressBandBps }),
      ...(snapshot.riskParams.defaultAbsorptionBandBps === undefined ? {} : { default_absorption_band_bps: snapshot.riskParams.defaultAbsorptionBandBps }),
    },
  } as MarginState;
}

export function run(): BenchResult {
  const snapshot = benchSnapshot();
  const ourReport = computeRisk(snapshot);
  if (!ourReport.ok) throw new Error(`bench snapshot refused: ${ourReport.message}`);
  const ours = stringify(figuresOf(ourReport.value));
  const theirs = stringify(peerRisk(snapshot));
  if (ours !== theirs) throw new Error(`peer and computeRisk disagree:\n ours ${ours}\n peer ${theirs}`);

  // Warm both up so the JIT has settled, then interleaved rounds (bench/rounds.ts).
  microsecondsPerOperation(() => computeRisk(snapshot), 20_000);
  microsecondsPerOperation(() => peerRisk(snapshot), 500);
  const measured = interleave(ROUNDS, {
    ours: () => microsecondsPerOperation(() => computeRisk(snapshot), sized(10_000, 1_000)),
    peer: () => microsecondsPerOperation(() => peerRisk(snapshot), sized(300, 30)),
  });
  const round2 = (x: number): number => Math.round(x * 100) / 100;

  // The margin service's path (main/services/margin/risk-frame.ts): a recompute after an order or
  // pool change reuses the state's conversion; a new folded state converts once more; the frame
  // maps the report to the view the renderer receives.
  const converted = stateSnapshot(benchState(snapshot));
  if (!converted.ok) throw new Error(`bench state refused: ${converted.message}`);
  const part = converted.value;
  const viaService = computeRisk(fullSnapshot(part, snapshot.restingOrders, snapshot.poolInventory));
  if (!viaService.ok || stringify(figuresOf(viaService.value)) !== ours) throw new Error('the service path computes other figures than computeRisk on the snapshot');
  const asset = (assetId: string) => ({ assetId, symbol: 'X', decimals: 9 });
  const recompute = () => computeRisk(fullSnapshot(part, snapshot.restingOrders, snapshot.poolInventory));
  const state = benchState(snapshot);
  const withConversion = () => {
    const fresh = stateSnapshot(state);
    return fresh.ok ? computeRisk(fullSnapshot(fresh.value, snapshot.restingOrders, snapshot.poolInventory)) : fresh;
  };
  const toView = () => {
    const full = fullSnapshot(part, snapshot.restingOrders, snapshot.poolInventory);
    const report = computeRisk(full);
    return report.ok ? riskView(report.value, full, asset, null) : report;
  };
  microsecondsPerOperation(withConversion, 5_000);
  microsecondsPerOperation(toView, 5_000);
  const service = interleave(ROUNDS, {
    recompute: () => microsecondsPerOperation(recompute, sized(5_000, 500)),
    conversion: () => microsecondsPerOperation(withConversion, sized(5_000, 500)),
    view: () => microsecondsPerOperation(toView, sized(5_000, 500)),
  });
  const details = {
    serviceRecomputeMicroseconds: round2(median(service.recompute)),
    serviceRecomputeWithStateConversionMicroseconds: round2(median(service.conversion)),
    serviceRecomputeWithFrameViewMicroseconds: round2(median(service.view)),
  };
  return {
    name: 'margin risk recompute (10 assets)',
    unit: 'µs/op',
    better: 'lower',
    target: '< 50 µs',
    rounds: measured.ours.map((ours, index) => ({ ours: round2(ours), peer: round2(measured.peer[index] as number) })),
    notes: `${ROUNDS} interleaved rounds of ${sized(10_000, 1_000)} recomputes (the peer ${sized(300, 30)}); the margin service's path, medians: recompute ${details.serviceRecomputeMicroseconds}, with the state's conversion ${details.serviceRecomputeWithStateConversionMicroseconds}, with the frame's view ${details.serviceRecomputeWithFrameViewMicroseconds} µs`,
    details,
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(run()));
}
