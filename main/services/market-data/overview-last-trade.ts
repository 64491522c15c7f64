// One last price per market: where main follows a market's trade stream (a window shows its book
// or tape, or an alert watches it), the overview's last is that stream's newest trade, the same
// trade the market bar, the ladder and the tape show, instead of the ticker's figure of up to one
// read ago. The 24-hour figures that depend on it follow: the change is measured again from the
// ticker's open, and a trade beyond the ticker's high or low extends them (it happened within the
// last 24 hours). Volume is left as read: adding trades to it would count some twice.
import type { MarketOverviewRow } from '../../../shared/ipc/views';

/** Percent text with two decimals, cut toward zero ("-0.11"), as the renderer reads it to basis points. */
export function changePercentText(last: bigint, open: bigint): string {
  const bps = ((last - open) * 10_000n) / open;
  const magnitude = bps < 0n ? -bps : bps;
  return `${bps < 0n ? '-' : ''}${magnitude / 100n}.${(magnitude % 100n).toString().padStart(2, '0')}`;
}

/** `lastTrade(marketId)`: the price of the canonical book's newest streamed trade, or null where main follows none. */
export function withLastTrades(rows: readonly MarketOverviewRow[], lastTrade: (marketId: string) => bigint | null): MarketOverviewRow[] {
  return rows.map((row) => {
    const last = lastTrade(row.marketId);
    if (last === null) return row;
    return {
      ...row,
      last,
      high: row.high !== null && last > row.high ? last : row.high,
      low: row.low !== null && last < row.low ? last : row.low,
      changePercent: row.open !== null && row.open > 0n ? changePercentText(last, row.open) : row.changePercent,
    };
  });
}
