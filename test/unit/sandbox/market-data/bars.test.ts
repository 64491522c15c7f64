// The sandbox's candle buckets checked against the spec's words, not against the client's
// bucketing (main/services/bars.ts): the sandbox referees the client's chart, so each side answers
// to the spec on its own. The spec (exchange-api.md) says only this of bars:
//   2.5:  "Bars: OHLCV candles. Response fields of REST endpoints for summary, ticker, fees, depth,
//          bars, ... : not shown."
//   4.1:  "| GET | /v1/bars | `market_id`, `resolution`, `from`, `to` (ms), `count_back` (max 5000,
//          overrides the time range) | bars |"
//   4.1:  "`resolution` values: `1m`, `5m`, `15m`, `30m`, `1h`, `4h`, `12h`, `1d`, `1w`, `1M`."
//   8:    "Page sizes: ... bars 5000"
// It does not say where a week or a month begins. The sandbox's reading (docs/sandbox.md, "Market
// data"): "periods start at multiples of their length since the epoch (UTC), weeks on Mondays,
// months on the first". Every expected instant below is a calendar date written out (weekdays
// checked against a calendar), never computed the way the code computes it.
import { describe, expect, it } from 'vitest';
import { BarSeries, MAX_BARS, periodStart, RESOLUTIONS } from '../../../../sandbox/market-data/bars';

const at = (iso: string): number => Date.parse(iso);

describe('the resolutions of spec 4.1', () => {
  it('are exactly the spec\'s list, in its order', () => {
    const specLine = '`resolution` values: `1m`, `5m`, `15m`, `30m`, `1h`, `4h`, `12h`, `1d`, `1w`, `1M`.';
    const specValues = [...specLine.matchAll(/`([^`]+)`/g)].map((match) => match[1]).slice(1);
    expect([...RESOLUTIONS]).toEqual(specValues);
  });

  it('keep one full page of bars per resolution (spec 8, "Page sizes: ... bars 5000")', () => {
    expect(MAX_BARS).toBe(5000);
  });
});

describe('1w: a week begins on Monday 00:00 UTC', () => {
  const cases: [trade: string, weekStart: string][] = [
    // Friday 27 November 2026 is in the week of Monday 23 November.
    ['2026-11-27T13:24:13.000Z', '2026-11-23T00:00:00.000Z'],
    // Monday 00:00 starts its own week; the millisecond before is Sunday, in the week before.
    ['2026-11-23T00:00:00.000Z', '2026-11-23T00:00:00.000Z'],
    ['2026-11-29T23:59:59.999Z', '2026-11-23T00:00:00.000Z'],
    ['2026-11-30T00:00:00.000Z', '2026-11-30T00:00:00.000Z'],
    // A week across a new year: Thursday 1 January 2026 is in the week of Monday 29 December 2025.
    ['2026-01-01T12:00:00.000Z', '2025-12-29T00:00:00.000Z'],
    // Thursday 29 February 2024 (a leap day) is in the week of Monday 26 February.
    ['2024-02-29T08:00:00.000Z', '2024-02-26T00:00:00.000Z'],
    // The epoch was a Thursday: its week began on Monday 29 December 1969; the next on 5 January.
    ['1970-01-01T00:00:00.000Z', '1969-12-29T00:00:00.000Z'],
    ['1970-01-05T00:00:00.000Z', '1970-01-05T00:00:00.000Z'],
  ];
  for (const [trade, weekStart] of cases) {
    it(`${trade} -> ${weekStart}`, () => {
      expect(new Date(periodStart('1w', at(trade))).toISOString()).toBe(weekStart);
    });
  }
});

describe('1M: a month begins on the first, 00:00 UTC', () => {
  const cases: [trade: string, monthStart: string][] = [
    ['2026-11-27T13:24:13.000Z', '2026-11-01T00:00:00.000Z'],
    ['2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z'],
    ['2026-10-31T23:59:59.999Z', '2026-10-01T00:00:00.000Z'],
    // Across a new year.
    ['2025-12-31T23:59:59.999Z', '2025-12-01T00:00:00.000Z'],
    ['2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'],
    // February of a leap year has 29 days; the first of March starts the next month.
    ['2024-02-29T23:59:59.999Z', '2024-02-01T00:00:00.000Z'],
    ['2024-03-01T00:00:00.000Z', '2024-03-01T00:00:00.000Z'],
    // February of a common year has 28.
    ['2026-02-28T23:59:59.999Z', '2026-02-01T00:00:00.000Z'],
    ['2026-03-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z'],
  ];
  for (const [trade, monthStart] of cases) {
    it(`${trade} -> ${monthStart}`, () => {
      expect(new Date(periodStart('1M', at(trade))).toISOString()).toBe(monthStart);
    });
  }
});

describe('"OHLCV candles" of 1w and 1M built from trades', () => {
  // Four trades: Sunday 29 and Monday 30 November 2026, then Thursday 31 December 2026 and
  // Friday 1 January 2027. Price, quantity, quote value.
  const trades: [iso: string, price: bigint, quantity: bigint, quote: bigint][] = [
    ['2026-11-29T23:59:00.000Z', 100n, 1n, 100n],
    ['2026-11-30T00:00:00.000Z', 105n, 2n, 210n],
    ['2026-12-31T23:59:00.000Z', 90n, 3n, 270n],
    ['2027-01-01T00:00:00.000Z', 95n, 4n, 380n],
  ];
  const series = new BarSeries();
  for (const [iso, price, quantity, quote] of trades) series.add(at(iso), price, quantity, quote);
  const all = (resolution: '1w' | '1M') => series.query(resolution, 0, at('2030-01-01T00:00:00.000Z')).map((bar) => ({ ...bar, timestamp: new Date(bar.timestamp).toISOString() }));

  it('1w: one bar per week that has trades, opening on its Monday', () => {
    expect(all('1w')).toEqual([
      { timestamp: '2026-11-23T00:00:00.000Z', open: 100n, high: 100n, low: 100n, close: 100n, volume: 1n, quoteVolume: 100n },
      { timestamp: '2026-11-30T00:00:00.000Z', open: 105n, high: 105n, low: 105n, close: 105n, volume: 2n, quoteVolume: 210n },
      // Thursday 31 December 2026 and Friday 1 January 2027 are in one week, that of Monday 28 December.
      { timestamp: '2026-12-28T00:00:00.000Z', open: 90n, high: 95n, low: 90n, close: 95n, volume: 7n, quoteVolume: 650n },
    ]);
  });

  it('1M: one bar per month that has trades, opening on its first', () => {
    expect(all('1M')).toEqual([
      { timestamp: '2026-11-01T00:00:00.000Z', open: 100n, high: 105n, low: 100n, close: 105n, volume: 3n, quoteVolume: 310n },
      { timestamp: '2026-12-01T00:00:00.000Z', open: 90n, high: 90n, low: 90n, close: 90n, volume: 3n, quoteVolume: 270n },
      { timestamp: '2027-01-01T00:00:00.000Z', open: 95n, high: 95n, low: 95n, close: 95n, volume: 4n, quoteVolume: 380n },
    ]);
  });
});
