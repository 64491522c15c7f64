// How a market is named on screen. Symbols are not unique (two ETH/USDC-like markets can exist on
// one network, spec 2.3), so a market whose pair text is shared by another is qualified with its
// quote asset id (and its base asset id when the bases differ too): the trader always sees which
// assets a market trades, never only symbols.
import type { Market } from '../../../../shared/market/market';
import { shortId } from '../../format/units';

export interface MarketLabel {
  readonly pair: string;
  /** Null when the pair text alone is unique on this network. */
  readonly qualifier: string | null;
}

export function pairText(market: Market): string {
  return `${market.base.symbol}/${market.quote.symbol}`;
}

export function marketLabel(market: Market, all: readonly Market[]): MarketLabel {
  const pair = pairText(market);
  const twins = all.filter((other) => other.market_id !== market.market_id && pairText(other) === pair);
  if (twins.length === 0) return { pair, qualifier: null };
  const baseDiffers = twins.some((other) => other.base.asset !== market.base.asset);
  const quoteDiffers = twins.some((other) => other.quote.asset !== market.quote.asset);
  const parts: string[] = [];
  if (baseDiffers) parts.push(`base ${shortId(market.base.asset)}`);
  if (quoteDiffers || !baseDiffers) parts.push(`quote ${shortId(market.quote.asset)}`);
  return { pair, qualifier: parts.join(' · ') };
}

export function labelText(label: MarketLabel): string {
  return label.qualifier ? `${label.pair} (${label.qualifier})` : label.pair;
}

/** Matches typed text against symbols and asset ids (a trader may paste an asset id). */
export function marketMatches(market: Market, query: string): boolean {
  const text = query.trim().toLowerCase();
  if (text === '') return true;
  return [pairText(market), market.base.symbol, market.quote.symbol, market.base.asset, market.quote.asset, market.market_id].some((field) => field.toLowerCase().includes(text));
}
