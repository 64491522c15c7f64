// GET /v1/markets body (spec 2.3): registry ids at the top, chain id as a hex string, one row
// per market with fees, min_order and dust as raw integer strings.
import type { MarketConfig, MarketSideConfig, NetworkConfig } from '../config/network';

function sideView(side: MarketSideConfig): Record<string, unknown> {
  return { symbol: side.symbol, asset: side.asset, decimals: side.decimals, max_precision: side.maxPrecision };
}

export function marketView(market: MarketConfig): Record<string, unknown> {
  return {
    contract_id: market.contractId,
    market_id: market.marketId,
    maker_fee: market.makerFeePpm.toString(),
    taker_fee: market.takerFeePpm.toString(),
    min_order: market.minOrder.toString(),
    dust: market.dust.toString(),
    price_window: market.priceWindow,
    base: sideView(market.base),
    quote: sideView(market.quote),
  };
}

export function marketsView(network: NetworkConfig): Record<string, unknown> {
  return {
    books_registry_id: network.booksRegistryId,
    accounts_registry_id: network.accountsRegistryId,
    trade_account_oracle_id: network.tradeAccountOracleId,
    chain_id: `0x${network.chainId.toString(16)}`,
    base_asset_id: network.baseAssetId,
    markets: network.markets.map(marketView),
  };
}
