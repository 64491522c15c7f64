// OHLCV bars of every resolution, built incrementally from trades as they are committed (so
// the trade log can stay bounded). Each resolution keeps at most MAX_BARS bars; a bar exists
// only for a period with trades. Periods start at multiples of their length since the epoch
// (UTC), weeks on Mondays, months on the first of the month.

export const RESOLUTIONS = ['1m', '5m', '15m', '30m', '1h', '4h', '12h', '1d', '1w', '1M'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

export const MAX_BARS = 5000;

const MINUTE = 60_000;
const DAY = 86_400_000;
const LENGTH: Readonly<Record<Exclude<Resolution, '1M'>, number>> = {
  '1m': MINUTE,
  '5m': 5 * MINUTE,
  '15m': 15 * MINUTE,
  '30m': 30 * MINUTE,
  '1h': 60 * MINUTE,
  '4h': 240 * MINUTE,
  '12h': 720 * MINUTE,
  '1d': DAY,
  '1w': 7 * DAY,
};
/** 1970-01-05 was the first Monday after the epoch. */
const FIRST_MONDAY = 4 * DAY;

export interface Bar {
  /** Period start, ms. */
  readonly timestamp: number;
  open: bigint;
  high: bigint;
  low: bigint;
  close: bigint;
  /** Base quantity traded. */
  volume: bigint;
  /** Quote value traded. */
  quoteVolume: bigint;
}

export function periodStart(resolution: Resolution, ms: number): number {
  if (resolution === '1M') {
    const date = new Date(ms);
    return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  }
  const length = LENGTH[resolution];
  if (resolution === '1w') return Math.floor((ms - FIRST_MONDAY) / length) * length + FIRST_MONDAY;
  return Math.floor(ms / length) * length;
}

/** Start of the period after the one starting at `start`. */
function periodEnd(resolution: Resolution, start: number): number {
  if (resolution !== '1M') return start + LENGTH[resolution];
  const date = new Date(start);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}

export class BarSeries {
  private readonly series = new Map<Resolution, Bar[]>(RESOLUTIONS.map((resolution) => [resolution, []]));
  /** End of the last bar's period per resolution: most trades fall inside it (no date math). */
  private readonly ends = new Map<Resolution, number>();
  /**
   * The trades of one minute not yet folded into the series, as one bar. Every period of every
   * resolution is made of whole minutes, so folding a minute's trades as one bar gives each
   * resolution exactly the bar that folding them one by one would (open of the first, high, low,
   * close of the last, the sums); it is folded when a trade of another minute comes and before
   * every read. A trade costs two additions instead of ten resolutions' updates.
   */
  private pending: Bar | undefined;
  /** The pending minute in nanoseconds, [start, end) (empty before the epoch): `addAt`'s fast path. */
  private pendingStartNs = 1n;
  private pendingEndNs = 0n;

  add(ms: number, price: bigint, quantity: bigint, quote: bigint): void {
    const minute = Math.floor(ms / MINUTE) * MINUTE;
    const pending = this.pending;
    if (pending !== undefined && pending.timestamp === minute) {
      BarSeries.extend(pending, price, quantity, quote);
      return;
    }
    if (pending !== undefined) this.fold(pending);
    this.pending = { timestamp: minute, open: price, high: price, low: price, close: price, volume: quantity, quoteVolume: quote };
    if (minute >= 0) {
      this.pendingStartNs = BigInt(minute) * 1_000_000n;
      this.pendingEndNs = this.pendingStartNs + BigInt(MINUTE) * 1_000_000n;
    } else {
      this.pendingStartNs = 1n;
      this.pendingEndNs = 0n;
    }
  }

  /**
   * `add` of a trade at `ns` nanoseconds since the epoch (milliseconds = floor(ns / 10^6)): a trade
   * in the pending minute, as most are, is folded in without dividing its timestamp.
   */
  addAt(ns: bigint, price: bigint, quantity: bigint, quote: bigint): void {
    const pending = this.pending;
    if (pending !== undefined && ns >= this.pendingStartNs && ns < this.pendingEndNs) {
      BarSeries.extend(pending, price, quantity, quote);
      return;
    }
    this.add(Number(ns / 1_000_000n), price, quantity, quote);
  }

  private static extend(pending: Bar, price: bigint, quantity: bigint, quote: bigint): void {
    if (price > pending.high) pending.high = price;
    if (price < pending.low) pending.low = price;
    pending.close = price;
    pending.volume += quantity;
    pending.quoteVolume += quote;
  }

  /** Fold the pending minute into every resolution. */
  private flush(): void {
    const pending = this.pending;
    if (pending === undefined) return;
    this.pending = undefined;
    this.fold(pending);
  }

  /** Fold the trades of one minute (`group`, starting at its minute) into every resolution. */
  private fold(group: Bar): void {
    const minute = group.timestamp;
    for (const resolution of RESOLUTIONS) {
      const bars = this.series.get(resolution) as Bar[];
      const last = bars[bars.length - 1];
      const inLast = last !== undefined && minute >= last.timestamp && minute < (this.ends.get(resolution) ?? 0);
      const start = inLast ? last.timestamp : periodStart(resolution, minute);
      if (last !== undefined && last.timestamp === start) {
        if (group.high > last.high) last.high = group.high;
        if (group.low < last.low) last.low = group.low;
        last.close = group.close;
        last.volume += group.volume;
        last.quoteVolume += group.quoteVolume;
      } else if (last === undefined || start > last.timestamp) {
        bars.push({ timestamp: start, open: group.open, high: group.high, low: group.low, close: group.close, volume: group.volume, quoteVolume: group.quoteVolume });
        this.ends.set(resolution, periodEnd(resolution, start));
        if (bars.length > MAX_BARS + 256) bars.splice(0, bars.length - MAX_BARS);
      }
      // Trades older than the current bar (clock moved back) are not folded in.
    }
  }

  /** Bars with start in [from, to), or the last `countBack` starting before `to`. Oldest first. */
  query(resolution: Resolution, from: number, to: number, countBack?: number): Bar[] {
    this.flush();
    const bars = this.series.get(resolution) as Bar[];
    const before = bars.filter((bar) => bar.timestamp < to);
    if (countBack !== undefined) return before.slice(Math.max(0, before.length - countBack));
    return before.filter((bar) => bar.timestamp >= from);
  }
}
