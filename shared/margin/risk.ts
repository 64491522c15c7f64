// computeRisk: every margin quantity of spec margin-api 2.6 and its health table, from one
// consistent snapshot, in one pass over the assets plus one for the borrow limits. A risk panel
// shows the whole report; an order ticket warns with buy capacity and borrowable.
//
// It is recomputed after every relevant stream update (spec 6), so it is written to stay well
// under 50 µs for ten assets: each mark is computed once and shared by V, the reserve and the
// three exposure passes, and marks of unchanged positions are reused rather than redone.
import { fail, ok, type Failure, type Result } from '../result';
import { MAX_DECIMALS, absolute, markPosition, owedValue, scaleFor } from './arithmetic';
import { cohortOf } from './cohort';
import {
  accountValue,
  cashHeld,
  collateralHeadroom,
  creditLine,
  drawableQuote,
  equityAboveCap,
  holdings,
  lineCap,
  loanHeadroom,
  netCollateral,
  outstanding,
  returnableQuote,
  spendableCash,
  traderEquity,
  tradingBasis,
  undrawnLine,
} from './credit';
import { MarginErrorCode } from './errors';
import { isNoExpiry } from './expiry';
import {
  borrowLimitByExposure,
  borrowLimitByLoanCap,
  borrowable,
  buyCapacity,
  effectivePosition,
  exposureHeadroom,
  exposureTerm,
  filledPosition,
  grossExposure,
  shockedAsk,
  stressedBid,
  type BorrowBound,
  type GrossExposure,
} from './exposure';
import {
  absorptionCost,
  giveawayAllowance,
  healthLines,
  isFrozen,
  isLiquidatable,
  stressedEquity,
  type HealthLines,
} from './health';
import { profitRequired, rolloverProgress, type RolloverProgress } from './rollover';
import { realizedProfit } from './settlement';
import type { AssetBalance, AssetId, Cohort, MarginSnapshot, RestingOrders } from './snapshot';

/**
 * Used for an asset when `risk_params` publishes neither its own band nor a default. Wide
 * enough to be conservative for a volatile asset; the report lists every asset that used them.
 */
export const FALLBACK_STRESS_BAND_BPS = 1_000n;
export const FALLBACK_ABSORPTION_BAND_BPS = 100n;

export interface AssetBorrowable {
  /** floor((loan headroom + returnable quote) × scale / ask): the batch returns quote first. */
  readonly byLoanCap: bigint;
  /** floor(loan headroom × scale / ask): the batch does not return quote first. */
  readonly byLoanCapWithoutReturn: bigint;
  readonly byExposure: bigint;
  readonly poolInventory: bigint;
  /** borrowable[a] with returnable quote returned first in the same batch. */
  readonly amount: bigint;
  readonly limitedBy: BorrowBound;
  /** borrowable[a] using the current loan headroom only: what a Borrow without a ReturnQuote before it allows. */
  readonly amountWithoutReturn: bigint;
  /** The bound that set `amountWithoutReturn`. */
  readonly limitedByWithoutReturn: BorrowBound;
}

export interface AssetRisk {
  readonly assetId: AssetId;
  readonly scale: bigint;
  readonly holdings: bigint;
  readonly debt: bigint;
  /** pos[a] = H[a] - debt[a]. */
  readonly position: bigint;
  /** pos[a] - resting sell quantity. */
  readonly effectivePosition: bigint;
  /** pos[a] - resting sell quantity + resting buy quantity (the stressed-filled pass). */
  readonly filledPosition: bigint;
  readonly bid: bigint;
  readonly ask: bigint;
  readonly stressedBid: bigint;
  readonly shockedAsk: bigint;
  readonly stale: boolean;
  readonly stressBandBps: bigint;
  readonly absorptionBandBps: bigint;
  /** mark(pos[a]) at the oracle prices. */
  readonly mark: bigint;
  /** mark(pos[a]) at the stressed prices. */
  readonly stressedMark: bigint;
  /** owedValue(debt[a], ask[a], a). */
  readonly debtValue: bigint;
  readonly borrowable: AssetBorrowable;
}

export interface HealthReport extends HealthLines {
  readonly absorptionCost: bigint;
  readonly stressedAbsorptionCost: bigint;
  /** V <= threshold. */
  readonly liquidatable: boolean;
  /** max(0, V - threshold - 1). */
  readonly giveawayAllowance: bigint;
  /** min(V stressed-marked, V stressed-filled) - k. */
  readonly stressedEquity: bigint;
  /** stressed equity < freeze line - k. */
  readonly frozen: boolean;
  /** V - threshold: liquidatable when it is <= 0. */
  readonly distanceToThreshold: bigint;
  /** min(V stressed-marked, V stressed-filled) - freeze line: frozen when it is < 0. */
  readonly distanceToFreeze: bigint;
}

export interface RiskReport {
  readonly cohort: Cohort;
  readonly lineCap: bigint;
  readonly netCollateral: bigint;
  /** L. */
  readonly creditLine: bigint;
  readonly collateralHeadroom: bigint;
  readonly undrawnLine: bigint;
  readonly equityAboveCap: bigint;
  /** H[collateral]. */
  readonly collateralHoldings: bigint;
  /** V, at the oracle prices. */
  readonly accountValue: bigint;
  /** V with positions marked at stressed prices, orders resting. */
  readonly stressedMarkedValue: bigint;
  /** V after every resting order fills at its limit, positions marked at stressed prices. */
  readonly stressedFilledValue: bigint;
  readonly traderEquity: bigint;
  readonly tradingBasis: bigint;
  readonly tradingPnl: bigint;
  readonly inKindDebtValue: bigint;
  readonly outstanding: bigint;
  readonly loanHeadroom: bigint;
  readonly drawableQuote: bigint;
  readonly reserve: bigint;
  readonly cashHeld: bigint;
  readonly spendableCash: bigint;
  readonly returnableQuote: bigint;
  readonly quoteLockedByBuys: bigint;
  readonly exposure: GrossExposure;
  readonly exposureHeadroom: bigint;
  readonly buyCapacity: bigint;
  readonly health: HealthReport;
  /** Prepaid sessions whose state carries a `rollover`; null otherwise. */
  readonly rollover: RolloverProgress | null;
  /** session.expires_at is the no-expiry value: show no countdown. */
  readonly noExpiry: boolean;
  /** Every non-collateral asset with a price, in the snapshot's order; the collateral asset is drawn, never borrowed. */
  readonly assets: readonly AssetRisk[];
  readonly stalePriceAssets: readonly AssetId[];
  /** Assets valued with FALLBACK_STRESS_BAND_BPS or FALLBACK_ABSORPTION_BAND_BPS. */
  readonly fallbackRiskParamAssets: readonly AssetId[];
}

const ZERO_BALANCE: AssetBalance = { onAccount: 0n, received: 0n, locked: 0n, settled: 0n, debt: 0n };
const NO_ORDERS: RestingOrders = { sellQuantity: 0n, sellQuote: 0n, buyQuantity: 0n, buyQuote: 0n };

// Without an ask nothing can be valued for a borrow: the limit stays zero.
const PENDING_BORROWABLE: AssetBorrowable = {
  byLoanCap: 0n,
  byLoanCapWithoutReturn: 0n,
  byExposure: 0n,
  poolInventory: 0n,
  amount: 0n,
  limitedBy: 'NO_ASK',
  amountWithoutReturn: 0n,
  limitedByWithoutReturn: 'NO_ASK',
};

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function negativeValue(field: string, value: bigint): Failure {
  return fail(MarginErrorCode.NEGATIVE_VALUE, `${field}: expected >= 0, got ${value}`, { field });
}

/** The first negative field of `record`, as a failure named `prefix.field`; undefined when all are >= 0. */
function firstNegative(prefix: string, record: object): Failure | undefined {
  for (const [field, value] of Object.entries(record)) {
    if (typeof value === 'bigint' && value < 0n) return negativeValue(`${prefix}.${field}`, value);
  }
  return undefined;
}

// Written out rather than through Object.entries: these run for every asset of every recompute.
function balanceHasNegative(balance: AssetBalance): boolean {
  return balance.onAccount < 0n || balance.received < 0n || balance.locked < 0n || balance.settled < 0n || balance.debt < 0n;
}

function ordersHaveNegative(orders: RestingOrders): boolean {
  return orders.sellQuantity < 0n || orders.sellQuote < 0n || orders.buyQuantity < 0n || orders.buyQuote < 0n;
}

function hasOrders(orders: RestingOrders): boolean {
  return orders.sellQuantity !== 0n || orders.sellQuote !== 0n || orders.buyQuantity !== 0n || orders.buyQuote !== 0n;
}

function checkDecimals(field: string, decimals: number): Failure | undefined {
  if (Number.isInteger(decimals) && decimals >= 0 && decimals <= MAX_DECIMALS) return undefined;
  return fail(MarginErrorCode.INVALID_DECIMALS, `${field}: expected an integer in 0..${MAX_DECIMALS}, got ${decimals}`, { field });
}

function isNonNegativeInteger(value: number): boolean {
  return Number.isInteger(value) && value >= 0;
}

// The fast test is written out: Object.entries over these records on every recompute would
// cost more than a third of the formulas. The slow path only names the offending field.
function anyScalarNegative(snapshot: MarginSnapshot): boolean {
  const { session, tier, rollover, riskParams } = snapshot;
  const { turbo } = tier;
  return (
    session.collateral < 0n ||
    session.fees < 0n ||
    session.quoteDrawn < 0n ||
    session.expiresAt < 0n ||
    tier.line < 0n ||
    tier.maxCreditLineBps < 0n ||
    tier.capital < 0n ||
    tier.threshold < 0n ||
    tier.openBuffer < 0n ||
    tier.maintenance < 0n ||
    tier.duration < 0n ||
    (turbo !== undefined && (turbo.rolloverProfitBps < 0n || turbo.termSeconds < 0n)) ||
    (rollover !== undefined && (rollover.anchor < 0n || rollover.withdrawn < 0n || rollover.outside < 0n)) ||
    (riskParams.defaultStressBandBps ?? 0n) < 0n ||
    (riskParams.defaultAbsorptionBandBps ?? 0n) < 0n
  );
}

function checkScalars(snapshot: MarginSnapshot): Failure | undefined {
  const { session, tier, rollover, riskParams } = snapshot;
  const decimalsFailure = checkDecimals('collateralDecimals', snapshot.collateralDecimals);
  if (decimalsFailure) return decimalsFailure;
  if (anyScalarNegative(snapshot)) {
    const failure =
      firstNegative('session', session) ??
      firstNegative('tier', tier) ??
      (tier.turbo === undefined ? undefined : firstNegative('tier.turbo', tier.turbo)) ??
      (rollover === undefined ? undefined : firstNegative('rollover', rollover)) ??
      firstNegative('riskParams', riskParams);
    if (failure) return failure;
  }
  if (rollover !== undefined && !(isNonNegativeInteger(rollover.rolloversUsed) && isNonNegativeInteger(rollover.maxRollovers))) {
    return fail(
      MarginErrorCode.INVALID_ROLLOVER,
      `rollover: expected non-negative integer counters, got rolloversUsed ${rollover.rolloversUsed} and maxRollovers ${rollover.maxRollovers}`,
    );
  }
  return undefined;
}

/** An asset with holdings, debt or resting orders must be priced, or V cannot be known. */
function unpricedExposure(snapshot: MarginSnapshot): Failure | undefined {
  const { balances, restingOrders, prices, collateralAssetId } = snapshot;
  for (const assetId of Object.keys(balances)) {
    if (assetId === collateralAssetId || prices[assetId] !== undefined) continue;
    const balance = balances[assetId] ?? ZERO_BALANCE;
    if (holdings(balance) !== 0n || balance.debt !== 0n) {
      return fail(
        MarginErrorCode.MISSING_PRICE,
        `prices: no price for asset ${assetId}, which holds ${holdings(balance)} with debt ${balance.debt}`,
        { asset: assetId },
      );
    }
  }
  for (const assetId of Object.keys(restingOrders)) {
    if (assetId === collateralAssetId || prices[assetId] !== undefined) continue;
    if (hasOrders(restingOrders[assetId] ?? NO_ORDERS)) {
      return fail(MarginErrorCode.MISSING_PRICE, `prices: no price for asset ${assetId}, which has resting orders`, { asset: assetId });
    }
  }
  return undefined;
}

function checkCollateralEntries(snapshot: MarginSnapshot, collateralBalance: AssetBalance): Failure | undefined {
  const id = snapshot.collateralAssetId;
  if (collateralBalance.debt !== 0n) {
    return fail(
      MarginErrorCode.INVALID_COLLATERAL_ENTRY,
      `balances[${id}].debt: the collateral asset is drawn (session.quoteDrawn), never borrowed in kind, got debt ${collateralBalance.debt}`,
      { asset: id },
    );
  }
  const orders = snapshot.restingOrders[id];
  if (orders !== undefined && hasOrders(orders)) {
    return fail(MarginErrorCode.INVALID_COLLATERAL_ENTRY, `restingOrders[${id}]: resting orders are keyed by base asset, not by the collateral asset`, {
      asset: id,
    });
  }
  return undefined;
}

/** Compute every margin quantity of one snapshot, or say which input makes that impossible. */
export function computeRisk(snapshot: MarginSnapshot): Result<RiskReport> {
  const scalarFailure = checkScalars(snapshot);
  if (scalarFailure) return scalarFailure;
  const { session, tier, riskParams, collateralAssetId, collateralDecimals } = snapshot;
  const collateralBalance = snapshot.balances[collateralAssetId] ?? ZERO_BALANCE;
  const collateralFailure =
    (balanceHasNegative(collateralBalance) ? firstNegative(`balances[${collateralAssetId}]`, collateralBalance) : undefined) ??
    checkCollateralEntries(snapshot, collateralBalance) ??
    unpricedExposure(snapshot);
  if (collateralFailure) return collateralFailure;

  const cohort = cohortOf(session, tier);
  const cap = lineCap(tier.line, tier.maxCreditLineBps);
  const net = netCollateral(session.collateral, session.fees);
  const line = creditLine(tier.capital, net, cap);
  const undrawn = undrawnLine(line, session.quoteDrawn);
  const aboveCap = equityAboveCap(session.collateral, tier.capital, line);
  const collateralHoldings = holdings(collateralBalance);

  const assets: Mutable<AssetRisk>[] = [];
  const stalePriceAssets: AssetId[] = [];
  const fallbackRiskParamAssets: AssetId[] = [];
  let marks = 0n;
  let stressedMarks = 0n;
  let filledMarks = 0n;
  let spotTerms = 0n;
  let stressedTerms = 0n;
  let filledTerms = 0n;
  let debtValueTotal = 0n;
  let reserve = 0n;
  let buyQuoteTotal = 0n;
  let sellQuoteTotal = 0n;
  let absorption = 0n;
  let stressedAbsorption = 0n;

  const prices = snapshot.prices;
  for (const assetId of Object.keys(prices)) {
    const price = prices[assetId];
    if (price === undefined || assetId === collateralAssetId) continue;
    const decimalsFailure = checkDecimals(`prices[${assetId}].decimals`, price.decimals);
    if (decimalsFailure) return decimalsFailure;
    if (price.bid < 0n) return negativeValue(`prices[${assetId}].bid`, price.bid);
    if (price.ask < 0n) return negativeValue(`prices[${assetId}].ask`, price.ask);
    const balance = snapshot.balances[assetId] ?? ZERO_BALANCE;
    const orders = snapshot.restingOrders[assetId] ?? NO_ORDERS;
    // The message is built only on failure.
    const recordFailure =
      (balanceHasNegative(balance) ? firstNegative(`balances[${assetId}]`, balance) : undefined) ??
      (ordersHaveNegative(orders) ? firstNegative(`restingOrders[${assetId}]`, orders) : undefined);
    if (recordFailure) return recordFailure;
    const poolInventory = snapshot.poolInventory[assetId];
    if (poolInventory !== undefined && poolInventory < 0n) return negativeValue(`poolInventory[${assetId}]`, poolInventory);

    let stressBand = riskParams.stressBandBps[assetId];
    let absorptionBand = riskParams.absorptionBandBps[assetId];
    if (stressBand === undefined || absorptionBand === undefined) {
      const usesFallback =
        (stressBand === undefined && riskParams.defaultStressBandBps === undefined) ||
        (absorptionBand === undefined && riskParams.defaultAbsorptionBandBps === undefined);
      if (usesFallback) fallbackRiskParamAssets.push(assetId);
      stressBand ??= riskParams.defaultStressBandBps ?? FALLBACK_STRESS_BAND_BPS;
      absorptionBand ??= riskParams.defaultAbsorptionBandBps ?? FALLBACK_ABSORPTION_BAND_BPS;
    }
    if (stressBand < 0n) return negativeValue(`riskParams.stressBandBps[${assetId}]`, stressBand);
    if (absorptionBand < 0n) return negativeValue(`riskParams.absorptionBandBps[${assetId}]`, absorptionBand);

    const { bid, ask } = price;
    const scale = scaleFor(price.decimals, collateralDecimals);
    const held = holdings(balance);
    const position = held - balance.debt;
    const effective = effectivePosition(position, orders.sellQuantity);
    const filled = filledPosition(position, orders.sellQuantity, orders.buyQuantity);
    if (ask === 0n && (balance.debt !== 0n || effective < 0n || position < 0n)) {
      return fail(
        MarginErrorCode.ZERO_ASK,
        `prices[${assetId}].ask: is 0, but asset ${assetId} has position ${position}, effective position ${effective} and debt ${balance.debt}; a short or a debt cannot be valued at an ask of 0`,
        { asset: assetId },
      );
    }
    const lowBid = stressedBid(bid, stressBand);
    const highAsk = shockedAsk(ask, stressBand);

    // Each mark once; a position no order changes shares its mark across passes.
    const mark = markPosition(position, bid, ask, scale);
    const stressedMark = markPosition(position, lowBid, highAsk, scale);
    const noSells = orders.sellQuantity === 0n;
    const effectiveMark = noSells ? mark : markPosition(effective, bid, ask, scale);
    const stressedEffectiveMark = noSells ? stressedMark : markPosition(effective, lowBid, highAsk, scale);
    const stressedFilledMark = filled === position ? stressedMark : markPosition(filled, lowBid, highAsk, scale);
    const debtValue = balance.debt === 0n ? 0n : owedValue(balance.debt, ask, scale);

    marks += mark;
    stressedMarks += stressedMark;
    filledMarks += stressedFilledMark;
    spotTerms += exposureTerm(mark, effectiveMark);
    stressedTerms += exposureTerm(stressedMark, stressedEffectiveMark);
    filledTerms += absolute(stressedFilledMark);
    debtValueTotal += debtValue;
    // owedValue(|pos|, ask) is exactly -mark for a short: the reserve is the buy-back cost.
    if (position < 0n) reserve -= mark;
    buyQuoteTotal += orders.buyQuote;
    sellQuoteTotal += orders.sellQuote;
    // A long keeps the spot bid under stress (the higher price), so only a short costs twice.
    if (position > 0n) {
      const cost = absorptionCost(position, bid, absorptionBand, scale);
      absorption += cost;
      stressedAbsorption += cost;
    } else if (position < 0n) {
      absorption += absorptionCost(position, ask, absorptionBand, scale);
      stressedAbsorption += absorptionCost(position, highAsk, absorptionBand, scale);
    }
    if (price.stale) stalePriceAssets.push(assetId);

    assets.push({
      assetId,
      scale,
      holdings: held,
      debt: balance.debt,
      position,
      effectivePosition: effective,
      filledPosition: filled,
      bid,
      ask,
      stressedBid: lowBid,
      shockedAsk: highAsk,
      stale: price.stale,
      stressBandBps: stressBand,
      absorptionBandBps: absorptionBand,
      mark,
      stressedMark,
      debtValue,
      // Replaced below, once loan and exposure headroom are known.
      borrowable: PENDING_BORROWABLE,
    });
  }

  const fees = session.fees;
  const value = accountValue({ collateralHoldings, undrawn, aboveCap, marks, fees });
  const stressedMarkedValue = accountValue({ collateralHoldings, undrawn, aboveCap, marks: stressedMarks, fees });
  // Filled: the quote locked by buys became base, the sells' proceeds arrived as quote.
  const stressedFilledValue = accountValue({
    collateralHoldings: collateralHoldings - buyQuoteTotal + sellQuoteTotal,
    undrawn,
    aboveCap,
    marks: filledMarks,
    fees,
  });

  const owed = outstanding(session.quoteDrawn, debtValueTotal);
  const headroom = loanHeadroom(line, owed);
  const drawable = drawableQuote(headroom, snapshot.poolInventory[collateralAssetId] ?? 0n);
  const cash = cashHeld(collateralBalance);
  const spendable = spendableCash(cash, reserve);
  const returnable = returnableQuote(session.quoteDrawn, collateralBalance.onAccount, spendable);
  const exposure = grossExposure(buyQuoteTotal + spotTerms, buyQuoteTotal + stressedTerms, filledTerms);
  const exposureRoom = exposureHeadroom(line, exposure.gross);

  for (const asset of assets) {
    const poolInventory = snapshot.poolInventory[asset.assetId] ?? 0n;
    if (asset.ask === 0n) {
      asset.borrowable = { ...PENDING_BORROWABLE, poolInventory };
      continue;
    }
    const byLoanCap = borrowLimitByLoanCap(headroom, returnable, asset.scale, asset.ask);
    const byLoanCapWithoutReturn = returnable === 0n ? byLoanCap : borrowLimitByLoanCap(headroom, 0n, asset.scale, asset.ask);
    const byExposure = borrowLimitByExposure(exposureRoom, asset.scale, asset.shockedAsk);
    const limit = borrowable(byLoanCap, byExposure, poolInventory);
    const limitWithoutReturn = returnable === 0n ? limit : borrowable(byLoanCapWithoutReturn, byExposure, poolInventory);
    asset.borrowable = {
      byLoanCap,
      byLoanCapWithoutReturn,
      byExposure,
      poolInventory,
      amount: limit.amount,
      limitedBy: limit.limitedBy,
      amountWithoutReturn: limitWithoutReturn.amount,
      limitedByWithoutReturn: limitWithoutReturn.limitedBy,
    };
  }

  const lines = healthLines({
    cohort,
    tier,
    rolloversUsed: snapshot.rollover?.rolloversUsed ?? 0,
    absorptionCost: absorption,
    stressedAbsorptionCost: stressedAbsorption,
  });
  if (!lines.ok) return lines;
  const { threshold, freezeLine } = lines.value;
  const equityUnderStress = stressedEquity(stressedMarkedValue, stressedFilledValue, tier.capital);
  // Written out rather than spread from lines.value: a spread literal took an eighth of a recompute.
  const health: HealthReport = {
    rule: lines.value.rule,
    lossFloor: lines.value.lossFloor,
    threshold,
    freezeLine,
    absorptionCost: absorption,
    stressedAbsorptionCost: stressedAbsorption,
    liquidatable: isLiquidatable(value, threshold),
    giveawayAllowance: giveawayAllowance(value, threshold),
    stressedEquity: equityUnderStress,
    frozen: isFrozen(equityUnderStress, freezeLine, tier.capital),
    distanceToThreshold: value - threshold,
    distanceToFreeze: equityUnderStress + tier.capital - freezeLine,
  };

  const rollover =
    cohort === 'Turbo' && snapshot.rollover !== undefined && tier.turbo !== undefined
      ? rolloverProgress(value, snapshot.rollover, profitRequired(tier.line, tier.turbo.rolloverProfitBps))
      : null;

  const equity = traderEquity(value, tier.capital);
  // One definition of realized profit for the panel and settlement (settlement.ts): the
  // published PnL basis when the state has one, else the spec's C - F.
  const basis = session.pnlBasis ?? tradingBasis(session.collateral, session.fees);
  return ok({
    cohort,
    lineCap: cap,
    netCollateral: net,
    creditLine: line,
    collateralHeadroom: collateralHeadroom(cap, tier.capital, net),
    undrawnLine: undrawn,
    equityAboveCap: aboveCap,
    collateralHoldings,
    accountValue: value,
    stressedMarkedValue,
    stressedFilledValue,
    traderEquity: equity,
    tradingBasis: basis,
    tradingPnl: realizedProfit(equity, basis),
    inKindDebtValue: debtValueTotal,
    outstanding: owed,
    loanHeadroom: headroom,
    drawableQuote: drawable,
    reserve,
    cashHeld: cash,
    spendableCash: spendable,
    returnableQuote: returnable,
    quoteLockedByBuys: buyQuoteTotal,
    exposure,
    exposureHeadroom: exposureRoom,
    buyCapacity: buyCapacity(spendable, drawable, exposureRoom),
    health,
    rollover,
    noExpiry: isNoExpiry(session.expiresAt),
    assets,
    stalePriceAssets,
    fallbackRiskParamAssets,
  });
}
