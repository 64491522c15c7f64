// 24-hour statistics (summary, ticker, aggregated feeds) from the 1-minute bars: high, low,
// open, last and volumes over the 1440 minutes up to now. Percentages are decimal strings with
// two decimals computed in bigint.
import type { MarketState } from '../ledger/market';

export interface DayStats {
  readonly open: bigint | undefined;
  readonly high: bigint | undefined;
  readonly low: bigint | undefined;
  readonly last: bigint | undefined;
  readonly baseVolume: bigint;
  readonly quoteVolume: bigint;
}

const DAY_MS = 86_400_000;

export function dayStats(market: MarketState, nowMs: number): DayStats {
  const bars = market.bars.query('1m', nowMs - DAY_MS, nowMs + 60_000);
  let high: bigint | undefined;
  let low: bigint | undefined;
  let baseVolume = 0n;
  let quoteVolume = 0n;
  for (const bar of bars) {
    if (high === undefined || bar.high > high) high = bar.high;
    if (low === undefined || bar.low < low) low = bar.low;
    baseVolume += bar.volume;
    quoteVolume += bar.quoteVolume;
  }
  return { open: bars[0]?.open, high, low, last: market.lastPrice, baseVolume, quoteVolume };
}

/** (last - open) / open in percent, two decimals, e.g. "-1.25"; "0.00" without a range. */
export function percentChange(open: bigint | undefined, last: bigint | undefined): string {
  if (open === undefined || last === undefined || open === 0n) return '0.00';
  const hundredths = ((last - open) * 10_000n) / open;
  const sign = hundredths < 0n ? '-' : '';
  const magnitude = hundredths < 0n ? -hundredths : hundredths;
  return `${sign}${magnitude / 100n}.${(magnitude % 100n).toString().padStart(2, '0')}`;
}
