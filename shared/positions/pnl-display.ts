// How the trader reads a position's unrealized P&L on one market: the price it is marked at (the
// exit side of the book, the last trade, or the mid) and the unit shown beside the quote figure
// (percent of the cost basis, basis points of it, or ticks of price). Chosen per market, kept in
// the settings, and read by every panel that shows that market's P&L, so the figure, its name and
// its precision are one everywhere. Pure arithmetic on raw units; formatting is the renderer's.

export const MARK_SOURCES = ['exit', 'last', 'mid'] as const;
/** `exit`: the best bid for a long, the best ask for a short (what a close trades into). */
export type MarkSource = (typeof MARK_SOURCES)[number];

export const PNL_UNITS = ['percent', 'bps', 'ticks'] as const;
export type PnlUnit = (typeof PNL_UNITS)[number];

export interface PnlDisplay {
  readonly mark: MarkSource;
  readonly unit: PnlUnit;
}

export const DEFAULT_PNL_DISPLAY: PnlDisplay = { mark: 'exit', unit: 'percent' };

/** The name a mark goes by wherever it is shown: the side of the book, the last trade, or the mid. */
export type MarkName = 'bid' | 'ask' | 'last' | 'mid';

/** The trader's choice for a market (market ids compared in lower case), or the default. */
export function pnlDisplayOf(choices: Readonly<Record<string, PnlDisplay>>, marketId: string): PnlDisplay {
  const wanted = marketId.toLowerCase();
  for (const [id, display] of Object.entries(choices)) if (id.toLowerCase() === wanted) return display;
  return DEFAULT_PNL_DISPLAY;
}

/** The best prices and the last trade of one book, raw quote units. */
export interface BookPrices {
  readonly bid: bigint | null;
  readonly ask: bigint | null;
  readonly last?: bigint | null | undefined;
}

/**
 * The mark of a position of signed `size` from `source`, and its name; null when the book does not
 * give it (an empty exit side; no trade seen; a one-sided book for the mid). The mid is rounded
 * against the holder (down for a long, up for a short), as a mark value is.
 */
export function markFrom(source: MarkSource, size: bigint, prices: BookPrices): { price: bigint; name: MarkName } | null {
  if (size === 0n) return null;
  const long = size > 0n;
  if (source === 'exit') {
    const price = long ? prices.bid : prices.ask;
    return price === null ? null : { price, name: long ? 'bid' : 'ask' };
  }
  if (source === 'last') return prices.last === null || prices.last === undefined ? null : { price: prices.last, name: 'last' };
  if (prices.bid === null || prices.ask === null) return null;
  const sum = prices.bid + prices.ask;
  return { price: long ? sum / 2n : (sum + 1n) / 2n, name: 'mid' };
}

/**
 * Unrealized P&L in tenths of a tick of price per unit held: `unrealized` (raw quote) over the
 * position's size and the price tick, cut toward zero. It is the P&L's own ratio (fees paid
 * included), so it agrees in sign with the quote figure. Null when flat.
 */
export function pnlTickTenths(unrealized: bigint, size: bigint, baseScale: bigint, priceTick: bigint): bigint | null {
  const held = size < 0n ? -size : size;
  if (held === 0n || priceTick <= 0n) return null;
  return (unrealized * baseScale * 10n) / (held * priceTick);
}
