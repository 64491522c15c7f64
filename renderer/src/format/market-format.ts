// Prices and quantities of one market, formatted with the market's own meaningful decimals
// (max_precision), so every row of a column lines up and no raw unit is ever hidden.
import type { MarketRules } from '../../../shared/market/market';
import { formatUnits } from './units';

function shownDecimals(decimals: number, maxPrecision: number): number {
  return Math.max(0, Math.min(decimals, maxPrecision));
}

/** Price in quote units with exactly `quote.max_precision` fraction digits (more if the raw value has them). */
export function formatPrice(market: MarketRules, raw: bigint): string {
  return formatUnits(raw, market.quote.decimals, shownDecimals(market.quote.decimals, market.quote.max_precision));
}

/** Quantity in base units, trailing zeros trimmed (sizes read faster without them). */
export function formatQuantity(market: MarketRules, raw: bigint): string {
  return formatUnits(raw, market.base.decimals);
}

/** An amount of the quote asset (fees, order values), trimmed. */
export function formatQuote(market: MarketRules, raw: bigint): string {
  return formatUnits(raw, market.quote.decimals);
}

/** An amount of any asset with its decimals, trimmed. */
export function formatAmount(raw: bigint, decimals: number): string {
  return formatUnits(raw, decimals);
}

/**
 * A fill's fee with its asset: every fill pays in the asset its side receives (a buy in base, a
 * sale in quote), so "0.000005 ETH" for a buy and "0.015 USDC" for a sale.
 */
export function formatFillFee(market: MarketRules, side: 'Buy' | 'Sell', raw: bigint): string {
  return side === 'Buy' ? `${formatQuantity(market, raw)} ${market.base.symbol}` : `${formatQuote(market, raw)} ${market.quote.symbol}`;
}

/** Text a trader can edit back into the same raw value (no separators). */
export function editablePrice(market: MarketRules, raw: bigint): string {
  return formatUnits(raw, market.quote.decimals).replaceAll(',', '');
}

export function editableQuantity(market: MarketRules, raw: bigint): string {
  return formatUnits(raw, market.base.decimals).replaceAll(',', '');
}
