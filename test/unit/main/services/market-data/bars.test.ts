// The client's candle buckets against the spec's own words (exchange-api 4.1 and 2.1), not against
// the sandbox's code: the sandbox is the referee and keeps its own reading.
//
// exchange-api 4.1: "`resolution` values: `1m`, `5m`, `15m`, `30m`, `1h`, `4h`, `12h`, `1d`, `1w`, `1M`."
// exchange-api 2.1: "| Bars `from` / `to` | Unix milliseconds. |"
// exchange-api 2.5: "Bars: OHLCV candles."
// The spec shows no alignment; the terminal reads the resolutions as UTC calendar periods: minutes
// and hours floored since the epoch, `1d` from midnight, `1w` from Monday 00:00 (ISO weeks), `1M`
// from the first of the month.
import { describe, expect, it } from 'vitest';
import { RESOLUTIONS } from '../../../../../shared/ipc/views';
import { applyTradeToBars, bucketStart } from '../../../../../main/services/market-data/bars';

const MINUTE = 60_000;

describe('candle buckets (exchange-api 4.1 resolutions, times in Unix milliseconds)', () => {
  it('has a bucket for every resolution the spec lists, and the bucket holds the time', () => {
    expect([...RESOLUTIONS]).toEqual(['1m', '5m', '15m', '30m', '1h', '4h', '12h', '1d', '1w', '1M']);
    const time = Date.UTC(2026, 10, 27, 13, 47, 31, 250);
    for (const resolution of RESOLUTIONS) {
      const start = bucketStart(time, resolution);
      expect(start, resolution).toBeLessThanOrEqual(time);
      expect(bucketStart(start, resolution), resolution).toBe(start);
    }
  });

  it('floors minutes and hours to their length in UTC', () => {
    const time = Date.UTC(2026, 10, 27, 13, 47, 31, 250);
    expect(bucketStart(time, '1m')).toBe(Date.UTC(2026, 10, 27, 13, 47));
    expect(bucketStart(time, '5m')).toBe(Date.UTC(2026, 10, 27, 13, 45));
    expect(bucketStart(time, '15m')).toBe(Date.UTC(2026, 10, 27, 13, 45));
    expect(bucketStart(time, '30m')).toBe(Date.UTC(2026, 10, 27, 13, 30));
    expect(bucketStart(time, '1h')).toBe(Date.UTC(2026, 10, 27, 13));
    expect(bucketStart(time, '4h')).toBe(Date.UTC(2026, 10, 27, 12));
    expect(bucketStart(time, '12h')).toBe(Date.UTC(2026, 10, 27, 12));
    expect(bucketStart(time, '1d')).toBe(Date.UTC(2026, 10, 27));
    // The last millisecond of a bucket is still in it; the next one starts the next bucket.
    expect(bucketStart(Date.UTC(2026, 10, 27, 13, 59, 59, 999), '1h')).toBe(Date.UTC(2026, 10, 27, 13));
    expect(bucketStart(Date.UTC(2026, 10, 27, 14), '1h')).toBe(Date.UTC(2026, 10, 27, 14));
  });

  it('starts a 1w candle on Monday 00:00 UTC, also across a month and a year', () => {
    // 2026-11-27 is a Friday; its week starts Monday 2026-11-23.
    expect(bucketStart(Date.UTC(2026, 10, 27, 13, 47), '1w')).toBe(Date.UTC(2026, 10, 23));
    expect(bucketStart(Date.UTC(2026, 10, 23), '1w')).toBe(Date.UTC(2026, 10, 23));
    // Sunday 23:59:59.999 still belongs to the week that began the Monday before.
    expect(bucketStart(Date.UTC(2026, 10, 29, 23, 59, 59, 999), '1w')).toBe(Date.UTC(2026, 10, 23));
    // Thursday 2027-01-01: its week began Monday 2026-12-28.
    expect(bucketStart(Date.UTC(2027, 0, 1, 6), '1w')).toBe(Date.UTC(2026, 11, 28));
    // Not a multiple of 7 days since the epoch (which was a Thursday).
    expect(bucketStart(Date.UTC(2026, 10, 27), '1w') % (7 * 1440 * MINUTE)).not.toBe(0);
    expect(new Date(bucketStart(Date.UTC(2026, 10, 27), '1w')).getUTCDay()).toBe(1);
  });

  it('starts a 1M candle on the first of the calendar month UTC, whatever the month’s length', () => {
    expect(bucketStart(Date.UTC(2026, 10, 27, 13), '1M')).toBe(Date.UTC(2026, 10, 1));
    expect(bucketStart(Date.UTC(2026, 1, 28, 23, 59, 59, 999), '1M')).toBe(Date.UTC(2026, 1, 1));
    expect(bucketStart(Date.UTC(2028, 1, 29, 12), '1M')).toBe(Date.UTC(2028, 1, 1));
    expect(bucketStart(Date.UTC(2026, 11, 31, 23, 59, 59, 999), '1M')).toBe(Date.UTC(2026, 11, 1));
    expect(bucketStart(Date.UTC(2027, 0, 1), '1M')).toBe(Date.UTC(2027, 0, 1));
  });

  it('folds trades into OHLCV candles of those buckets ("Bars: OHLCV candles")', () => {
    const bars: Parameters<typeof applyTradeToBars>[0] = [];
    const trade = (time: number, price: bigint, quantity: bigint) => ({ tradeId: String(time), marketId: 'm', side: 'Buy' as const, price, quantity, time });
    expect(applyTradeToBars(bars, '1w', trade(Date.UTC(2026, 10, 23, 1), 10n, 1n))).toBe(0);
    expect(applyTradeToBars(bars, '1w', trade(Date.UTC(2026, 10, 29, 23), 12n, 2n))).toBe(0);
    expect(applyTradeToBars(bars, '1w', trade(Date.UTC(2026, 10, 30), 9n, 3n))).toBe(1);
    expect(bars).toEqual([
      { time: Date.UTC(2026, 10, 23), open: 10n, high: 12n, low: 10n, close: 12n, volume: 3n },
      { time: Date.UTC(2026, 10, 30), open: 9n, high: 9n, low: 9n, close: 9n, volume: 3n },
    ]);
  });
});
