// Numbers in table columns: every cell of a column shows the same number of fraction digits (the
// market's or the asset's display decimals), thousands separators, tabular digits, right-aligned;
// where a value needs more digits than the column's (a fee in raw units, an average price), the
// other cells are padded with figure spaces so the decimal points still line up. Never rounds.
import type { BalanceView, FillView } from '../../../shared/ipc/views';
import type { Market, MarketAsset, MarketRules } from '../../../shared/market/market';
import { formatUnits } from './units';

/** U+2007 is as wide as a digit in tabular fonts; U+2008 as wide as the decimal point. */
export const FIGURE_SPACE = '\u2007';
export const PUNCTUATION_SPACE = '\u2008';

/** The meaningful decimals of an asset on one market: its max_precision, at most its decimals. */
export function displayDecimals(asset: Pick<MarketAsset, 'decimals' | 'max_precision'>): number {
  return Math.max(0, Math.min(asset.decimals, asset.max_precision));
}

/**
 * The display decimals of an asset across the network's markets: the largest max_precision any
 * market gives it (so no market's tick is hidden), else all its decimals.
 */
export function assetDisplayDecimals(assetId: string, decimals: number, markets: readonly Market[]): number {
  let found: number | null = null;
  for (const market of markets) {
    for (const side of [market.base, market.quote]) {
      if (side.asset === assetId) found = Math.max(found ?? 0, displayDecimals(side));
    }
  }
  return found ?? decimals;
}

/** `raw` with at least `shown` fraction digits (more only where the raw value has them). */
export function formatFixed(raw: bigint, decimals: number, shown: number): string {
  return formatUnits(raw, decimals, Math.min(shown, decimals));
}

/** Fraction digits of a formatted number ("1,234.50" -> 2, "7" -> 0). */
export function fractionDigits(text: string): number {
  const point = text.indexOf('.');
  return point < 0 ? 0 : text.length - point - 1;
}

/** Pad `text` on the right to `width` fraction digits with figure spaces (and a point-wide space for an integer). */
export function alignFraction(text: string, width: number): string {
  const digits = fractionDigits(text);
  if (digits >= width) return text;
  const point = text.includes('.') || width === 0 ? '' : PUNCTUATION_SPACE;
  return text + point + FIGURE_SPACE.repeat(width - digits);
}

/** Format a whole column: the same fraction width for every cell (an empty cell stays empty). */
export function alignColumn(texts: readonly string[]): string[] {
  const width = texts.reduce((most, text) => Math.max(most, fractionDigits(text)), 0);
  return texts.map((text) => (text === '' ? '' : alignFraction(text, width)));
}

/** A price cell: exactly the quote's display decimals (prices are on the tick). */
export function priceCell(market: MarketRules, raw: bigint): string {
  return formatFixed(raw, market.quote.decimals, displayDecimals(market.quote));
}

/** A price that need not be on the tick (an average): cut to the display decimals; the exact value goes in a tooltip. */
export function averagePriceCell(market: MarketRules, raw: bigint): string {
  const shown = displayDecimals(market.quote);
  return formatUnits(raw, market.quote.decimals, shown, shown);
}

/** A quantity cell: exactly the base's display decimals (quantities are on the base precision). */
export function quantityCell(market: MarketRules, raw: bigint): string {
  return formatFixed(raw, market.base.decimals, displayDecimals(market.base));
}

/** An amount of the quote asset (a value, a P&L): the quote's display decimals. */
export function quoteCell(market: MarketRules, raw: bigint): string {
  return formatFixed(raw, market.quote.decimals, displayDecimals(market.quote));
}

export interface BalanceCells {
  readonly onAccount: string;
  readonly inBooks: string;
  readonly available: string;
  readonly locked: string;
  readonly total: string;
}

/**
 * The balance figures of an asset (docs/protocol.md, "Balance figures"), from the exchange's three:
 * on account (`trading_account_balance`), available (`total_unlocked`: on account plus every
 * book's unlocked) and locked (`total_locked`). They add up: on account + in books = available,
 * available + locked = total.
 */
export function balanceFigures(balance: Pick<BalanceView, 'onAccount' | 'locked' | 'unlocked'>): { onAccount: bigint; inBooks: bigint; available: bigint; locked: bigint; total: bigint } {
  return { onAccount: balance.onAccount, inBooks: balance.unlocked - balance.onAccount, available: balance.unlocked, locked: balance.locked, total: balance.unlocked + balance.locked };
}

/** One balance figure of an asset in the asset's one display precision (the same text in every panel). */
export function balanceText(assetId: string, decimals: number, raw: bigint, markets: readonly Market[]): string {
  return formatFixed(raw, decimals, assetDisplayDecimals(assetId, decimals, markets));
}

/** The balances tables' figures: each asset in its display decimals, each column aligned on the point. */
export function balanceColumns(balances: readonly Pick<BalanceView, 'assetId' | 'decimals' | 'onAccount' | 'locked' | 'unlocked'>[], markets: readonly Market[]): BalanceCells[] {
  const figures = balances.map((balance) => balanceFigures(balance));
  const column = (pick: (figure: ReturnType<typeof balanceFigures>) => bigint) => alignColumn(balances.map((balance, index) => balanceText(balance.assetId, balance.decimals, pick(figures[index]!), markets)));
  const onAccount = column((figure) => figure.onAccount);
  const inBooks = column((figure) => figure.inBooks);
  const available = column((figure) => figure.available);
  const locked = column((figure) => figure.locked);
  const total = column((figure) => figure.total);
  return balances.map((_, index) => ({ onAccount: onAccount[index]!, inBooks: inBooks[index]!, available: available[index]!, locked: locked[index]!, total: total[index]! }));
}

/**
 * The fills table's fees, one column per asset (a buy pays in base, a sale in quote; raw fees can
 * be finer than the display decimals, so each column is padded to line up).
 */
export function fillFeeColumns(market: MarketRules, fills: readonly Pick<FillView, 'side' | 'fee'>[]): { readonly base: string; readonly quote: string }[] {
  const base = alignColumn(fills.map((fill) => (fill.side === 'Buy' ? formatFixed(fill.fee, market.base.decimals, displayDecimals(market.base)) : '')));
  const quote = alignColumn(fills.map((fill) => (fill.side === 'Sell' ? formatFixed(fill.fee, market.quote.decimals, displayDecimals(market.quote)) : '')));
  return fills.map((_, index) => ({ base: base[index]!, quote: quote[index]! }));
}

/**
 * An order's status in words. The exchange closes an order whose remainder fell under the
 * market's dust threshold: that order is done but not wholly filled, and says how much was not.
 */
export function orderStatusCell(market: MarketRules, order: { readonly status: 'open' | 'partially-filled' | 'filled' | 'cancelled'; readonly quantity: bigint; readonly filled: bigint }): string {
  if (order.status === 'filled' && order.filled < order.quantity) return `closed, ${quantityCell(market, order.quantity - order.filled)} unfilled`;
  return order.status === 'partially-filled' ? 'partially filled' : order.status;
}
