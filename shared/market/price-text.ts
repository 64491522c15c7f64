// Prices and sizes in main's notices and the algorithms' notes, as the windows show them: the market's own
// fraction digits (max_precision) and thousands separators, "2,950.00 USDC", never "2950 USDC".
import { formatUnits } from '../encoding/units';
import type { Market } from './market';

export function priceText(market: Market, raw: bigint): string {
  const digits = Math.max(0, Math.min(market.quote.decimals, market.quote.max_precision));
  return `${formatUnits(raw, market.quote.decimals, { minimumFractionDigits: digits, groupSeparator: ',' })} ${market.quote.symbol}`;
}

export function sizeText(market: Market, raw: bigint): string {
  return `${formatUnits(raw, market.base.decimals, { groupSeparator: ',' })} ${market.base.symbol}`;
}
