// How funds get into the trading account (spec 1.5): an on-chain transfer to the account's
// contract id that names the asset id and the amount. Mainnet has no faucet; that is said on
// every network, so nobody learns the test networks' habit and looks for a faucet on mainnet.
import type { DepositAssetView, DepositInstructionsView } from '../../../shared/ipc/views';
import type { MarketsIndex } from '../market-data/markets-index';
import type { NetworkConfig } from '../network/networks';

export function depositInstructions(network: NetworkConfig, markets: MarketsIndex, tradeAccountId: string | null): DepositInstructionsView {
  const assets: DepositAssetView[] = markets
    .assets()
    .map((asset) => ({
      assetId: asset.assetId,
      symbol: asset.symbol,
      decimals: asset.decimals,
      markets: markets
        .markets()
        .filter((market) => market.base.asset === asset.assetId || market.quote.asset === asset.assetId)
        .map((market) => ({ marketId: market.market_id, pair: `${market.base.symbol}/${market.quote.symbol}` })),
    }))
    .sort((left, right) => left.symbol.localeCompare(right.symbol) || left.assetId.localeCompare(right.assetId));
  const hasFaucet = network.kind === 'sandbox' || (!network.production && network.faucetUrl !== null);
  const sentences = [
    tradeAccountId === null
      ? 'Create the trading account first: deposits go to its contract id, which does not exist yet.'
      : `Deposit by an on-chain transfer to the trading account, contract id ${tradeAccountId}. The transfer must name the asset id and the amount, in the asset's raw units (the amount times 10 to the power of its decimals).`,
    'Send only the assets listed here, each to this contract id; they are the ones the markets trade.',
    'Mainnet has no faucet: there an on-chain transfer is the only way to fund the account.',
  ];
  if (hasFaucet) sentences.push(`On ${network.name} the faucet can also mint test funds straight into the trading account.`);
  return { networkId: network.id, networkName: network.name, production: network.production, hasFaucet, tradeAccountId, assets, sentences };
}
