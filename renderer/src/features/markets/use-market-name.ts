// The market's name as headers write it ("ETH/USDC", "ETH/USDC #2" where two share the symbols),
// reactive on the window's market list.
import type { Market } from '../../../../shared/market/market';
import { useTerminal } from '../../stores/terminal-context';
import { marketName } from './market-label';

export function useMarketName(): (market: Market) => string {
  const terminal = useTerminal();
  return (market) => marketName(market, terminal.store.state.markets?.markets ?? []);
}
