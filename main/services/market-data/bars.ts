// Candles updated live from trades. Buckets are in UTC: minutes and hours floor the time, `1d` to
// midnight, `1w` to Monday 00:00, `1M` to the first of the month (the sandbox builds bars the same
// way; see docs/protocol.md).
import type { BarView, Resolution, TradeView } from '../../../shared/ipc/views';

const MINUTE = 60_000;
const FIXED: Partial<Record<Resolution, number>> = {
  '1m': MINUTE,
  '5m': 5 * MINUTE,
  '15m': 15 * MINUTE,
  '30m': 30 * MINUTE,
  '1h': 60 * MINUTE,
  '4h': 240 * MINUTE,
  '12h': 720 * MINUTE,
  '1d': 1440 * MINUTE,
};

export function bucketStart(time: number, resolution: Resolution): number {
  const fixed = FIXED[resolution];
  if (fixed !== undefined) return Math.floor(time / fixed) * fixed;
  const date = new Date(time);
  if (resolution === '1w') {
    const day = Math.floor(time / (1440 * MINUTE)) * 1440 * MINUTE;
    const weekday = (new Date(day).getUTCDay() + 6) % 7; // Monday = 0
    return day - weekday * 1440 * MINUTE;
  }
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}

/**
 * Fold one trade into bars sorted oldest first. Returns the index of the bar that changed, or null
 * when the trade is older than the history shown (it cannot change a bar the window has).
 */
export function applyTradeToBars(bars: BarView[], resolution: Resolution, trade: TradeView): number | null {
  const start = bucketStart(trade.time, resolution);
  const last = bars[bars.length - 1];
  if (last === undefined || start > last.time) {
    bars.push({ time: start, open: trade.price, high: trade.price, low: trade.price, close: trade.price, volume: trade.quantity });
    return bars.length - 1;
  }
  // Usually the last bar; search backwards for late trades.
  for (let index = bars.length - 1; index >= 0; index--) {
    const bar = bars[index]!;
    if (bar.time === start) {
      const isLatest = index === bars.length - 1;
      bars[index] = {
        time: bar.time,
        open: bar.open,
        high: trade.price > bar.high ? trade.price : bar.high,
        low: trade.price < bar.low ? trade.price : bar.low,
        close: isLatest ? trade.price : bar.close,
        volume: bar.volume + trade.quantity,
      };
      return index;
    }
    if (bar.time < start) return null;
  }
  return null;
}
