// From the folded margin state to shared/margin's input, and from its RiskReport to the view the
// renderer shows. One consistent snapshot per computation: the state object the stream fold
// produced (balances, prices, session, tier and rollover of the same event), the account's own
// resting orders, and the pool inventory (the one input outside the state, docs/protocol.md (Margin)
// 2). The conversion of the state is cached per state object, so a recompute caused by an order
// or a pool change reuses it; no formula is copied here: computeRisk does all the arithmetic.
import type { MarginState } from '../../../shared/api/margin-schemas';
import type { MarginAssetRef, MarginAssetRiskView, MarginRiskView, MarginSessionView } from '../../../shared/ipc/views/margin';
import type { AssetBalance, AssetPrice, MarginSnapshot, RestingOrders, RiskParams, RiskReport, RolloverState } from '../../../shared/margin/index';
import { fail, ok, type Result } from '../../../shared/result';
import { MarginCodes } from './codes';
import { tierTerms, type TierTerms } from './margin-reads';

/** The parts of a MarginSnapshot that come from the state alone. */
export interface StateSnapshot {
  readonly base: Omit<MarginSnapshot, 'restingOrders' | 'poolInventory'>;
  readonly tier: TierTerms;
}

const PERIODS = new Set(['SixHours', 'Day', 'Week', 'Month']);

function bigintRecord(record: Readonly<Record<string, bigint>> | undefined): Record<string, bigint> {
  return record === undefined ? {} : { ...record };
}

/** Convert a state with a live session; failures name the member that is missing. */
export function stateSnapshot(state: MarginState): Result<StateSnapshot> {
  const session = state.session ?? null;
  if (session === null) return fail(MarginCodes.NO_SESSION, 'session: the margin account has no live session');
  if (state.tier === undefined || state.tier === null) return fail(MarginCodes.TIER_INCOMPLETE, 'tier: the state carries no tier for its session', { field: 'tier' });
  const tier = tierTerms(state.tier, 'state.tier');
  if (!tier.ok) return tier;
  const collateralAssetId = state.collateral_asset_id;
  if (collateralAssetId === undefined) return fail(MarginCodes.TIER_INCOMPLETE, 'collateral_asset_id: missing from the margin state', { field: 'collateral_asset_id' });
  const balances: Record<string, AssetBalance> = {};
  for (const [assetId, balance] of Object.entries(state.balances)) {
    balances[assetId] = { onAccount: balance.on_account, received: balance.received, locked: balance.locked, settled: balance.settled, debt: balance.debt };
  }
  const prices: Record<string, AssetPrice> = {};
  for (const [assetId, price] of Object.entries(state.prices)) {
    if (assetId === collateralAssetId) continue;
    prices[assetId] = { bid: price.bid, ask: price.ask, decimals: price.decimals, stale: price.stale ?? false };
  }
  const wireRollover = state.rollover;
  const rollover: RolloverState | undefined =
    wireRollover === undefined
      ? undefined
      : { anchor: wireRollover.anchor, withdrawn: wireRollover.withdrawn, outside: wireRollover.outside, rolloversUsed: wireRollover.rollovers_used, maxRollovers: wireRollover.max_rollovers };
  const params = state.risk_params;
  const riskParams: RiskParams = {
    stressBandBps: bigintRecord(params?.stress_band_bps),
    absorptionBandBps: bigintRecord(params?.absorption_band_bps),
    ...(params?.default_stress_band_bps === undefined ? {} : { defaultStressBandBps: params.default_stress_band_bps }),
    ...(params?.default_absorption_band_bps === undefined ? {} : { defaultAbsorptionBandBps: params.default_absorption_band_bps }),
  };
  return ok({
    tier: tier.value,
    base: {
      session: {
        ...(session.cohort === undefined ? {} : { cohort: session.cohort }),
        collateral: session.collateral,
        fees: session.fees,
        quoteDrawn: session.quote_drawn,
        expiresAt: session.expires_at,
        ...(session.pnl_basis === undefined ? {} : { pnlBasis: session.pnl_basis }),
      },
      tier: tier.value.margin,
      ...(rollover === undefined ? {} : { rollover }),
      collateralAssetId,
      collateralDecimals: state.collateral_decimals,
      balances,
      prices,
      riskParams,
    },
  });
}

/** The state's part with the account's resting orders and the pool inventory (no spread: it runs per recompute). */
export function fullSnapshot(part: StateSnapshot, restingOrders: Readonly<Record<string, RestingOrders>>, poolInventory: Readonly<Record<string, bigint>>): MarginSnapshot {
  const base = part.base;
  return {
    session: base.session,
    tier: base.tier,
    ...(base.rollover === undefined ? {} : { rollover: base.rollover }),
    collateralAssetId: base.collateralAssetId,
    collateralDecimals: base.collateralDecimals,
    balances: base.balances,
    prices: base.prices,
    restingOrders,
    poolInventory,
    riskParams: base.riskParams,
  };
}

export type AssetLookup = (assetId: string) => MarginAssetRef;

export function riskView(report: RiskReport, snapshot: MarginSnapshot, asset: AssetLookup, eligibleNow: boolean | null): MarginRiskView {
  // Written out without object spreads: a spread per asset costs more than the formulas.
  const assets: MarginAssetRiskView[] = report.assets.map((entry) => {
    const balance = snapshot.balances[entry.assetId];
    const ref = asset(entry.assetId);
    return {
      assetId: ref.assetId,
      symbol: ref.symbol,
      decimals: ref.decimals,
      onAccount: balance?.onAccount ?? 0n,
      received: balance?.received ?? 0n,
      locked: balance?.locked ?? 0n,
      settled: balance?.settled ?? 0n,
      holdings: entry.holdings,
      debt: entry.debt,
      position: entry.position,
      effectivePosition: entry.effectivePosition,
      bid: entry.bid,
      ask: entry.ask,
      stale: entry.stale,
      mark: entry.mark,
      stressedMark: entry.stressedMark,
      debtValue: entry.debtValue,
      stressBandBps: entry.stressBandBps,
      absorptionBandBps: entry.absorptionBandBps,
      borrowable: entry.borrowable.amountWithoutReturn,
      borrowLimitedBy: entry.borrowable.limitedByWithoutReturn,
      borrowableReturningQuoteFirst: entry.borrowable.amount,
      borrowReturningLimitedBy: entry.borrowable.limitedBy,
      byLoanCap: entry.borrowable.byLoanCap,
      byExposure: entry.borrowable.byExposure,
      poolInventory: entry.borrowable.poolInventory,
    };
  });
  const rollover = snapshot.rollover;
  return {
    lineCap: report.lineCap,
    netCollateral: report.netCollateral,
    creditLine: report.creditLine,
    collateralHeadroom: report.collateralHeadroom,
    undrawnLine: report.undrawnLine,
    equityAboveCap: report.equityAboveCap,
    collateralHoldings: report.collateralHoldings,
    accountValue: report.accountValue,
    stressedMarkedValue: report.stressedMarkedValue,
    stressedFilledValue: report.stressedFilledValue,
    traderEquity: report.traderEquity,
    tradingBasis: report.tradingBasis,
    tradingPnl: report.tradingPnl,
    inKindDebtValue: report.inKindDebtValue,
    outstanding: report.outstanding,
    loanHeadroom: report.loanHeadroom,
    drawableQuote: report.drawableQuote,
    reserve: report.reserve,
    cashHeld: report.cashHeld,
    spendableCash: report.spendableCash,
    returnableQuote: report.returnableQuote,
    quoteLockedByBuys: report.quoteLockedByBuys,
    exposure: { spot: report.exposure.spot, stressedMarked: report.exposure.stressedMarked, stressedFilled: report.exposure.stressedFilled, gross: report.exposure.gross, pass: report.exposure.pass },
    exposureHeadroom: report.exposureHeadroom,
    buyCapacity: report.buyCapacity,
    health: {
      rule: report.health.rule,
      lossFloor: report.health.lossFloor,
      threshold: report.health.threshold,
      freezeLine: report.health.freezeLine,
      absorptionCost: report.health.absorptionCost,
      stressedAbsorptionCost: report.health.stressedAbsorptionCost,
      liquidatable: report.health.liquidatable,
      frozen: report.health.frozen,
      giveawayAllowance: report.health.giveawayAllowance,
      stressedEquity: report.health.stressedEquity,
      distanceToThreshold: report.health.distanceToThreshold,
      distanceToFreeze: report.health.distanceToFreeze,
    },
    rollover:
      report.rollover === null || rollover === undefined
        ? null
        : {
            profitRequired: report.rollover.profitRequired,
            progress: report.rollover.progress,
            remaining: report.rollover.remaining,
            reached: report.rollover.reached,
            canEarnMore: report.rollover.canEarnMore,
            anchor: rollover.anchor,
            withdrawn: rollover.withdrawn,
            outside: rollover.outside,
            rolloversUsed: rollover.rolloversUsed,
            maxRollovers: rollover.maxRollovers,
            eligibleNow,
          },
    assets,
    fallbackRiskParamAssets: report.fallbackRiskParamAssets,
  };
}

const debtsOf = (session: Record<string, unknown>): [string, bigint][] => {
  const debts = session.debts;
  if (debts === null || typeof debts !== 'object' || Array.isArray(debts)) return [];
  return Object.entries(debts as Record<string, unknown>)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string' && /^\d{1,80}$/.test(entry[1]))
    .map(([assetId, amount]) => [assetId, BigInt(amount)] as [string, bigint])
    .filter(([, amount]) => amount !== 0n);
};

/** The session as the panel shows it; members the spec leaves open are read when present. */
export function sessionView(state: MarginState, cohortFallback: 'Legacy' | 'Turbo', asset: AssetLookup): MarginSessionView | null {
  const session = state.session ?? null;
  if (session === null) return null;
  const loose = session as Record<string, unknown>;
  const opened = loose.opened_at;
  const autoProlong = loose.auto_prolong;
  return {
    cohort: session.cohort ?? cohortFallback,
    tierId: session.tier_id ?? state.tier?.tier_id ?? null,
    tierVersion: session.version ?? state.tier?.version ?? null,
    collateral: session.collateral,
    fees: session.fees,
    quoteDrawn: session.quote_drawn,
    debts: debtsOf(loose).map(([assetId, amount]) => ({ ...asset(assetId), amount })),
    openedAt: typeof opened === 'string' && /^\d{1,20}$/.test(opened) ? BigInt(opened) : null,
    autoProlong: typeof autoProlong === 'string' && PERIODS.has(autoProlong) ? (autoProlong as MarginSessionView['autoProlong']) : null,
  };
}
