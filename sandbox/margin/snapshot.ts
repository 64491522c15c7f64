// One consistent margin snapshot of a child (margin 2.4), built from the ledger, in the shape
// shared/margin's computeRisk takes. The sandbox judges every margin rule (outstanding <= L,
// frozen, liquidatable, rollover progress) with computeRisk on this snapshot: there is no second
// copy of the formulas here.
import type { AssetBalance, MarginSnapshot, RestingOrders, RiskParams } from '../../shared/margin/index';
import { powerOfTen } from '../../shared/market/market';
import type { ContractAccount } from '../ledger/accounts';
import type { Ledger } from '../ledger/ledger';
import type { MarketState } from '../ledger/market';
import type { MarginConfig, TierVersion } from './config';
import { marginTierOf } from './config';
import type { Oracle } from './oracle';
import { debtOf, type MarginSession } from './session';

/** The Turbo books a tier trades on, as markets of the ledger. */
export function tierMarkets(ledger: Ledger, tier: TierVersion): MarketState[] {
  return tier.books.map((contract) => ledger.marketsByContract.get(contract)).filter((market): market is MarketState => market !== undefined);
}

/** The assets a session can hold: the collateral and the base assets of the tier's books. */
export function tierAssets(ledger: Ledger, config: MarginConfig, tier: TierVersion): string[] {
  return [config.collateralAssetId, ...new Set(tierMarkets(ledger, tier).map((market) => market.config.base.asset))];
}

export function riskParamsOf(config: MarginConfig): RiskParams {
  return {
    stressBandBps: Object.fromEntries(config.stressBandBps),
    absorptionBandBps: Object.fromEntries(config.absorptionBandBps),
    defaultStressBandBps: config.defaultStressBandBps,
    defaultAbsorptionBandBps: config.defaultAbsorptionBandBps,
  };
}

/** Balances per asset as the state publishes them (`settled` is always 0: books settle to the account). */
export function balancesOf(ledger: Ledger, config: MarginConfig, child: ContractAccount, tier: TierVersion, session: MarginSession | null): Record<string, AssetBalance> {
  const balances: Record<string, AssetBalance> = {};
  const markets = tierMarkets(ledger, tier);
  for (const asset of tierAssets(ledger, config, tier)) {
    let locked = 0n;
    let received = 0n;
    for (const market of markets) {
      const book = market.balances.get(child.id);
      if (book === undefined) continue;
      if (market.config.base.asset === asset) {
        locked += book.baseLocked;
        received += book.baseUnlocked;
      } else if (market.config.quote.asset === asset) {
        locked += book.quoteLocked;
        received += book.quoteUnlocked;
      }
    }
    const debt = session === null || asset === config.collateralAssetId ? 0n : debtOf(session, asset);
    balances[asset] = { onAccount: child.balances.get(asset), received, locked, settled: 0n, debt };
  }
  return balances;
}

/** Per base asset, the child's open orders on the tier's books (docs/protocol.md (Margin) 5). */
export function restingOrdersOf(ledger: Ledger, child: ContractAccount, tier: TierVersion): Record<string, RestingOrders> {
  const resting: Record<string, RestingOrders> = {};
  for (const market of tierMarkets(ledger, tier)) {
    const scale = powerOfTen(market.config.base.decimals);
    let sellQuantity = 0n;
    let sellQuote = 0n;
    let buyQuantity = 0n;
    let buyQuote = 0n;
    for (const order of market.ordersByAccount.get(child.id) ?? []) {
      if (order.close) continue;
      const quote = (order.price * order.remaining) / scale;
      if (order.side === 'Sell') {
        sellQuantity += order.remaining;
        sellQuote += quote;
      } else {
        buyQuantity += order.remaining;
        buyQuote += quote;
      }
    }
    const base = market.config.base.asset;
    const previous = resting[base] ?? { sellQuantity: 0n, sellQuote: 0n, buyQuantity: 0n, buyQuote: 0n };
    resting[base] = {
      sellQuantity: previous.sellQuantity + sellQuantity,
      sellQuote: previous.sellQuote + sellQuote,
      buyQuantity: previous.buyQuantity + buyQuantity,
      buyQuote: previous.buyQuote + buyQuote,
    };
  }
  return resting;
}

export function snapshotOf(ledger: Ledger, config: MarginConfig, oracle: Oracle, poolInventory: Record<string, bigint>, child: ContractAccount, session: MarginSession): MarginSnapshot {
  const tier = session.tier;
  const prices: Record<string, MarginSnapshot['prices'][string]> = {};
  for (const asset of tierAssets(ledger, config, tier)) {
    if (asset === config.collateralAssetId) continue;
    const price = oracle.price(asset);
    if (price !== undefined) prices[asset] = { bid: price.bid, ask: price.ask, decimals: price.decimals, stale: price.stale };
  }
  const rollover = session.rollover;
  const turbo = tier.turbo;
  return {
    session: { cohort: session.cohort, collateral: session.collateral, fees: session.fees, quoteDrawn: session.quoteDrawn, expiresAt: session.expiresAt, pnlBasis: session.basis },
    tier: marginTierOf(tier),
    ...(rollover === null || turbo === undefined
      ? {}
      : { rollover: { anchor: rollover.anchor, withdrawn: rollover.withdrawn, outside: rollover.outside, rolloversUsed: rollover.rolloversUsed, maxRollovers: turbo.maxRollovers } }),
    collateralAssetId: config.collateralAssetId,
    collateralDecimals: config.collateralDecimals,
    balances: balancesOf(ledger, config, child, tier, session),
    prices,
    restingOrders: restingOrdersOf(ledger, child, tier),
    poolInventory,
    riskParams: riskParamsOf(config),
  };
}
