// Figures in the guards' refusals, as the trader reads them on the ticket.
import { formatUnits } from '../../../shared/encoding/units';
import type { Market } from '../../../shared/market/market';

export function pairOf(market: Market, turbo: boolean): string {
  return `${market.base.symbol}/${market.quote.symbol} (${turbo ? 'Turbo' : 'Canonical'} book)`;
}

export function priceWords(market: Market, price: bigint): string {
  return `${formatUnits(price, market.quote.decimals)} ${market.quote.symbol}`;
}

export function quantityWords(market: Market, quantity: bigint): string {
  return `${formatUnits(quantity, market.base.decimals)} ${market.base.symbol}`;
}
