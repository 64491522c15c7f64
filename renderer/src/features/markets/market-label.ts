// How a market is named on screen: by its symbols ("ETH/USDC"). Symbols are not unique (two
// ETH/USDC markets on different dollar assets can exist on one network, spec 2.3), so where two
// markets share the pair text each gets a short readable suffix, its place in the exchange's
// listing ("ETH/USDC #1", "ETH/USDC #2"). Asset and market ids stay in details views (the market
// list, tooltips), never in headers or notices; matching is by ids, never by this text.
import type { Market } from '../../../../shared/market/market';

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
  const twins = all.filter((other) => pairText(other) === pair);
  if (twins.length < 2) return { pair, qualifier: null };
  // The exchange's listing order (the first is the one its market_pair lookup resolves to); a
  // market not in the list (a Turbo row) takes its canonical twin's place by market id.
  const position = twins.findIndex((other) => other.market_id === market.market_id);
  return { pair, qualifier: `#${position < 0 ? twins.length + 1 : position + 1}` };
}

/**
 * Names of the network's assets by id: the symbol, with the same "#n" suffix where two assets share
 * a symbol (USDC and a bridged USDC), numbered in the order the markets list them.
 */
export function assetNames(markets: readonly Market[]): Map<string, string> {
  const bySymbol = new Map<string, string[]>();
  for (const market of markets) {
    for (const side of [market.base, market.quote]) {
      const ids = bySymbol.get(side.symbol) ?? [];
      if (!ids.includes(side.asset)) ids.push(side.asset);
      bySymbol.set(side.symbol, ids);
    }
  }
  const names = new Map<string, string>();
  for (const [symbol, ids] of bySymbol) ids.forEach((id, index) => names.set(id, ids.length > 1 ? `${symbol} #${index + 1}` : symbol));
  return names;
}

/** The ids behind a name, for a details view or a tooltip (never a header or a notice). */
export function marketIds(market: Market): string {
  return `market ${market.market_id}\nbase ${market.base.symbol} ${market.base.asset}\nquote ${market.quote.symbol} ${market.quote.asset}`;
}

/** "ETH/USDC", or "ETH/USDC #2" where another market has the same symbols. */
export function labelText(label: MarketLabel): string {
  return label.qualifier ? `${label.pair} ${label.qualifier}` : label.pair;
}

/** The market's name as every header, table and notice writes it. */
export function marketName(market: Market, all: readonly Market[]): string {
  return labelText(marketLabel(market, all));
}

/** Matches typed text against symbols and asset ids (a trader may paste an asset id). */
export function marketMatches(market: Market, query: string): boolean {
  const text = query.trim().toLowerCase();
  if (text === '') return true;
  return [pairText(market), market.base.symbol, market.quote.symbol, market.base.asset, market.quote.asset, market.market_id].some((field) => field.toLowerCase().includes(text));
}
