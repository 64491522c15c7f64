// GET /v1/markets body (spec 2.3): registry ids at the top, chain id as a hex string, one row
// per market with fees, min_order and dust as raw integer strings.
import type { MarketAsset } from '../../shared/market/market';
import type { MarketConfig, NetworkConfig } from '../config/network';
import type { TurboLink } from '../turbo/link';

function sideView(side: MarketAsset): Record<string, unknown> {
  return { symbol: side.symbol, asset: side.asset, decimals: side.decimals, max_precision: side.max_precision };
}

export function marketView(market: MarketConfig): Record<string, unknown> {
  return {
    contract_id: market.contract_id,
    market_id: market.market_id,
    maker_fee: market.maker_fee.toString(),
    taker_fee: market.taker_fee.toString(),
    min_order: market.min_order.toString(),
    dust: market.dust.toString(),
    price_window: market.price_window,
    base: sideView(market.base),
    quote: sideView(market.quote),
  };
}

/** A Turbo row (margin 2.5): the canonical row rewritten with the Turbo book's own contract, fees and limits. */
export function turboMarketView(link: TurboLink): Record<string, unknown> {
  return {
    ...marketView(link.turbo.config),
    canonical_contract_id: link.canonical.config.contract_id,
    turbo: true,
    connected: link.connected,
    paused: link.paused,
    trigger_max_slippage: link.triggerMaxSlippage,
  };
}

export function marketsView(network: NetworkConfig, turboLinks?: Iterable<TurboLink>): Record<string, unknown> {
  return {
    books_registry_id: network.booksRegistryId,
    accounts_registry_id: network.accountsRegistryId,
    trade_account_oracle_id: network.tradeAccountOracleId,
    chain_id: `0x${network.chainId.toString(16)}`,
    base_asset_id: network.baseAssetId,
    markets: turboLinks === undefined ? network.markets.map(marketView) : [...turboLinks].map(turboMarketView),
  };
}
