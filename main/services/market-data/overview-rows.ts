// The overview's rows from one ticker and one summary answer. Both are display figures on the wire
// (kept as text by shared/api); a figure is taken as raw units only when it is a whole number that
// fits a u64, else it is left out (shown as a dash), never guessed. Where both reads carry a figure
// the ticker's wins: it is the exchange's real-time read, the summary a 24-hour statistic.
import type { Summary, Ticker } from '../../../shared/api/market-schemas';
import type { MarketOverviewRow } from '../../../shared/ipc/views';

const U64_MAX = 0xffff_ffff_ffff_ffffn;

/** A whole number of raw units, or null. */
export function rawFigure(text: string | undefined): bigint | null {
  if (text === undefined || !/^\d{1,20}$/.test(text)) return null;
  const value = BigInt(text);
  return value <= U64_MAX ? value : null;
}

/**
 * A price in raw units, or null: a price of zero is no price (an exchange that saw no trade in 24
 * hours may answer "0" for its last, high, low and open, as the sandbox's Turbo books do), and
 * showing it would draw a 100 % fall.
 */
export function priceFigure(text: string | undefined): bigint | null {
  const value = rawFigure(text);
  return value === 0n ? null : value;
}

/** A percentage as decimal text ("-1.25", "0"), or null. */
export function percentFigure(text: string | undefined): string | null {
  return text !== undefined && /^[+-]?\d{1,12}(\.\d{1,8})?$/.test(text) ? text.replace(/^\+/, '') : null;
}

/** One row per market either read names, in the order of `order` (the markets list), unknown markets last. */
export function overviewRows(tickers: readonly Ticker[], summaries: readonly Summary[], order: readonly string[] = []): MarketOverviewRow[] {
  const byTicker = new Map(tickers.map((ticker) => [ticker.market_id as string, ticker]));
  const bySummary = new Map(summaries.map((summary) => [summary.market_id as string, summary]));
  const ids = [...new Set([...order.filter((id) => byTicker.has(id) || bySummary.has(id)), ...byTicker.keys(), ...bySummary.keys()])];
  return ids.map((marketId) => {
    const ticker = byTicker.get(marketId);
    const summary = bySummary.get(marketId);
    return {
      marketId,
      last: priceFigure(ticker?.last) ?? priceFigure(ticker?.close) ?? priceFigure(summary?.last_price),
      open: priceFigure(ticker?.open),
      high: priceFigure(ticker?.high) ?? priceFigure(summary?.high_price),
      low: priceFigure(ticker?.low) ?? priceFigure(summary?.low_price),
      bid: priceFigure(ticker?.bid),
      ask: priceFigure(ticker?.ask),
      volume: rawFigure(ticker?.base_volume) ?? rawFigure(summary?.volume_24h),
      changePercent: percentFigure(ticker?.percentage) ?? percentFigure(summary?.change_24h),
    };
  });
}
