// Bars kept exact (bigint) and turned into uPlot's columnar numbers only here, at the chart edge:
// uPlot draws with floats, while labels and the legend read the exact bars.
import type { BarView } from '../../../../shared/ipc/views';

/** Merge an update into the bars (oldest first): a bar with a known time replaces it, a new one is inserted in order. */
export function mergeBars(current: readonly BarView[], update: readonly BarView[], keep = 5000): BarView[] {
  if (update.length === 0) return [...current];
  const byTime = new Map(current.map((bar) => [bar.time, bar]));
  for (const bar of update) byTime.set(bar.time, bar);
  const merged = [...byTime.values()].sort((a, b) => a.time - b.time);
  return merged.length > keep ? merged.slice(merged.length - keep) : merged;
}

/** A raw amount as a float for drawing only (never for arithmetic on money). */
export function toDrawingNumber(raw: bigint, decimals: number): number {
  const scale = 10n ** BigInt(decimals);
  const whole = raw / scale;
  const fraction = raw % scale;
  return Number(whole) + Number(fraction) / Number(scale);
}

export type BarColumns = [number[], number[], number[], number[], number[], number[]];

/** uPlot data: x in seconds, then open, high, low, close in quote units and volume in base units. */
export function barsToColumns(bars: readonly BarView[], quoteDecimals: number, baseDecimals: number): BarColumns {
  const columns: BarColumns = [[], [], [], [], [], []];
  for (const bar of bars) {
    columns[0].push(bar.time / 1000);
    columns[1].push(toDrawingNumber(bar.open, quoteDecimals));
    columns[2].push(toDrawingNumber(bar.high, quoteDecimals));
    columns[3].push(toDrawingNumber(bar.low, quoteDecimals));
    columns[4].push(toDrawingNumber(bar.close, quoteDecimals));
    columns[5].push(toDrawingNumber(bar.volume, baseDecimals));
  }
  return columns;
}

/** The volume pane's columns: x in seconds, volume in base units, 1 for a candle that closed at or above its open. */
export function volumeColumns(bars: readonly BarView[], baseDecimals: number): [number[], number[], number[]] {
  return [bars.map((bar) => bar.time / 1000), bars.map((bar) => toDrawingNumber(bar.volume, baseDecimals)), bars.map((bar) => (bar.close >= bar.open ? 1 : 0))];
}

/** A study's exact values as a drawing column (null where the study is not defined: uPlot leaves a gap). */
export function studyColumn(values: readonly (bigint | null)[], quoteDecimals: number): (number | null)[] {
  return values.map((value) => (value === null ? null : toDrawingNumber(value, quoteDecimals)));
}

const RESOLUTION_MS: Record<string, number> = { '1m': 60_000, '5m': 300_000, '15m': 900_000, '30m': 1_800_000, '1h': 3_600_000, '4h': 14_400_000, '12h': 43_200_000, '1d': 86_400_000, '1w': 604_800_000 };
const DAY_MS = 86_400_000;

/**
 * The open time (ms) of the bar holding `time`, as the terminal reads the spec's resolutions (the
 * spec names them but not where a period begins; docs/architecture.md "Candle buckets"): UTC,
 * minutes to days floored since the epoch, `1w` from Monday 00:00 (the epoch was a Thursday, so a
 * week is not a multiple of 7 days since it), `1M` from the first of the calendar month.
 */
export function barOpenTime(time: number, resolution: string): number {
  if (resolution === '1M') {
    const date = new Date(time);
    return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  }
  if (resolution === '1w') {
    const day = Math.floor(time / DAY_MS) * DAY_MS;
    const sinceMonday = (new Date(day).getUTCDay() + 6) % 7;
    return day - sinceMonday * DAY_MS;
  }
  const width = RESOLUTION_MS[resolution] ?? 60_000;
  return Math.floor(time / width) * width;
}

/** Width of one bar in seconds (a month counts 31 days: only used to pad a short chart). */
export function resolutionSeconds(resolution: string): number {
  return resolution === '1M' ? 31 * 86_400 : (RESOLUTION_MS[resolution] ?? 60_000) / 1000;
}

/**
 * The chart's time range (seconds) from its first and last bars (ms) and the current time (ms): to
 * the bar now falls in (its open time as the venue buckets it, so a weekly chart ends at this
 * Monday's bar and a monthly one at this month's), so a book with no trade for a while shows the
 * gap up to the present; widened to at least 40 bars ending a few bars after the last one.
 */
export function chartTimeRange(firstMs: number, lastMs: number, nowMs: number, resolution: string): [number, number] {
  const current = barOpenTime(nowMs, resolution) / 1000;
  return timeRange(firstMs / 1000, Math.max(lastMs / 1000, current), resolutionSeconds(resolution));
}

export function timeRange(min: number, max: number, barSeconds: number): [number, number] {
  const span = Math.max(max - min, barSeconds * 40);
  return [max - span + barSeconds * 2, max + barSeconds * 2];
}

/**
 * The y range: the bars' own (padded a little) widened to take in the given prices (the pending
 * legs of the book), so a leg far from the market is still on the chart.
 */
export function priceRange(min: number | null, max: number | null, keep: readonly number[]): [number, number] {
  let low = min ?? Number.POSITIVE_INFINITY;
  let high = max ?? Number.NEGATIVE_INFINITY;
  for (const price of keep) {
    if (price < low) low = price;
    if (price > high) high = price;
  }
  if (!Number.isFinite(low) || !Number.isFinite(high)) return [0, 1];
  const pad = Math.max((high - low) * 0.06, Math.abs(high) * 0.0005, 1e-9);
  return [low - pad, high + pad];
}
