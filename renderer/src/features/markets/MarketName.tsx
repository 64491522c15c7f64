// A market's name in a header: "ETH/USDC", or "ETH/USDC #2" where another market has the same symbols.
import type { Component } from 'solid-js';
import type { Market } from '../../../../shared/market/market';
import { useMarketName } from './use-market-name';

export const MarketName: Component<{ market: Market }> = (props) => {
  const name = useMarketName();
  return <>{name(props.market)}</>;
};
