// Figures in the guards' refusals and the settings' confirmation lines, as the trader reads them on
// the ladder and the ticket: a price in the pair's price precision and a size in its size precision
// (max_precision; more digits only where the raw value has them: never rounded), thousands
// separated, with the asset's symbol.
import { formatUnits } from '../../../shared/encoding/units';
import type { Market } from '../../../shared/market/market';

export function pairOf(market: Market, turbo: boolean): string {
  return `${market.base.symbol}/${market.quote.symbol} (${turbo ? 'Turbo' : 'Canonical'} book)`;
}

export function priceWords(market: Market, price: bigint): string {
  return `${formatUnits(price, market.quote.decimals, { minimumFractionDigits: shownDecimals(market.quote), groupSeparator: ',' })} ${market.quote.symbol}`;
}

export function quantityWords(market: Market, quantity: bigint): string {
  return `${formatUnits(quantity, market.base.decimals, { minimumFractionDigits: shownDecimals(market.base), groupSeparator: ',' })} ${market.base.symbol}`;
}

/** The meaningful decimals of an asset on one market: its max_precision, at most its decimals. */
function shownDecimals(asset: { readonly decimals: number; readonly max_precision: number }): number {
  return Math.max(0, Math.min(asset.decimals, asset.max_precision));
}

/**
 * An amount of an asset (a day's P&L, a limit) as the header shows it: in the finest price precision
 * of the markets quoted in it (else the finest any market gives it), thousands separated, with its
 * symbol; never rounded.
 */
export function assetAmountWords(markets: readonly Market[], assetId: string, raw: bigint): string {
  const sides = markets.flatMap((market) => [market.base, market.quote]).filter((side) => side.asset === assetId);
  const first = sides[0];
  if (first === undefined) return `${raw} raw units of ${assetId}`;
  const quoted = markets.filter((market) => market.quote.asset === assetId).map((market) => shownDecimals(market.quote));
  const shown = Math.max(...(quoted.length > 0 ? quoted : sides.map(shownDecimals)));
  return `${formatUnits(raw, first.decimals, { minimumFractionDigits: shown, groupSeparator: ',' })} ${first.symbol}`;
}
