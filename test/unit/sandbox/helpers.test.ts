// Small sandbox helpers: CLI flags, the stream's JSON error position, depth grouping, bar
// periods, the rate limiter's sliding window and the fault rules.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../shared/clock';
import { Faults } from '../../../sandbox/control/faults';
import { BarSeries, periodStart, RESOLUTIONS, type Bar, type Resolution } from '../../../sandbox/market-data/bars';
import { groupPrice } from '../../../sandbox/market-data/depth';
import { percentChange } from '../../../sandbox/market-data/stats';
import { DEFAULT_OPTIONS, parseFlags } from '../../../sandbox/options';
import { RateLimiter, ruleFor } from '../../../sandbox/ratelimit';
import { invalidJsonOffset, malformedJsonMessage } from '../../../sandbox/ws/json-error';
import { checkProperty } from '../../support/property';

describe('parseFlags', () => {
  it('parses every flag in both forms and keeps the defaults', () => {
    expect(parseFlags([])).toEqual({ ok: true, value: DEFAULT_OPTIONS });
    // `npm run sandbox` and the app's embedded sandbox quote the realistic book; tests pin theirs.
    expect(DEFAULT_OPTIONS).toMatchObject({ makerProfile: 'realistic', makerRegime: 'normal' });
    const parsed = parseFlags(['--port', '7070', '--chain-id=0x10', '--seed', '5', '--maker', 'off', '--maker-rate=9', '--maker-profile', 'thin-legacy', '--maker-regime=trending-up', '--control', '--ws-idle-ms', '500', '--rate-limits', 'off']);
    expect(parsed).toEqual({ ok: true, value: { port: 7070, chainId: 16n, seed: 5, maker: false, makerRate: 9, makerProfile: 'thin-legacy', makerRegime: 'trending-up', control: true, wsIdleMs: 500, rateLimits: false } });
  });

  it('names the flag and the value it refuses', () => {
    expect(parseFlags(['--port', '70000'])).toMatchObject({ ok: false, message: '--port: expected an integer in [0, 65535], got "70000"' });
    expect(parseFlags(['--chain-id', '-1'])).toMatchObject({ ok: false, message: expect.stringContaining('"-1"') });
    expect(parseFlags(['--control=yes'])).toMatchObject({ ok: false, message: '--control: takes no value, got "yes"' });
    expect(parseFlags(['--seed'])).toMatchObject({ ok: false, message: '--seed: missing value' });
    expect(parseFlags(['--turbo'])).toMatchObject({ ok: false, message: 'unknown flag "--turbo"' });
    expect(parseFlags(['--maker-profile', 'deep'])).toMatchObject({ ok: false, message: '--maker-profile: expected one of thin-legacy, realistic, got "deep"' });
    expect(parseFlags(['--maker-regime=Fast'])).toMatchObject({ ok: false, message: '--maker-regime: expected one of normal, quiet, trending-up, trending-down, fast, thin, got "Fast"' });
  });
});

describe('malformed JSON position', () => {
  it('points at the first invalid character, 1-based, across lines', () => {
    expect(invalidJsonOffset('{"a": [1, 2]}')).toBeUndefined();
    const text = '{\n  "a": tru }';
    const offset = invalidJsonOffset(text) as number;
    expect(malformedJsonMessage(text, offset)).toBe('expected value at line 2 column 11');
    expect(malformedJsonMessage('', invalidJsonOffset('') as number)).toBe('expected value at line 1 column 1');
    expect(invalidJsonOffset('{} x')).toBe(3);
  });
});

describe('depth grouping', () => {
  it('floors bids and ceils asks to the precision', () => {
    expect(groupPrice('Buy', 1234n, 100n)).toBe(1200n);
    expect(groupPrice('Sell', 1234n, 100n)).toBe(1300n);
    expect(groupPrice('Sell', 1200n, 100n)).toBe(1200n);
    expect(groupPrice('Buy', 1234n, 1n)).toBe(1234n);
  });
});

describe('bars and statistics', () => {
  it('aligns periods to the epoch, weeks to Mondays and months to the first', () => {
    const t = Date.UTC(2026, 10, 21, 22, 47, 13);
    expect(periodStart('1m', t)).toBe(Date.UTC(2026, 10, 21, 22, 47));
    expect(periodStart('4h', t)).toBe(Date.UTC(2026, 10, 21, 20));
    expect(new Date(periodStart('1w', t)).getUTCDay()).toBe(1);
    expect(periodStart('1M', t)).toBe(Date.UTC(2026, 10, 1));
  });

  it('folds trades into every resolution exactly as trade by trade, whatever the times and the reads between them', () => {
    // The reference: each trade folded into each resolution on its own (the rule of bars.ts).
    const reference = (trades: readonly { ms: number; price: bigint; quantity: bigint }[]): Map<Resolution, Bar[]> => {
      const series = new Map<Resolution, Bar[]>(RESOLUTIONS.map((resolution) => [resolution, []]));
      for (const { ms, price, quantity } of trades) {
        for (const resolution of RESOLUTIONS) {
          const bars = series.get(resolution) as Bar[];
          const last = bars[bars.length - 1];
          const start = periodStart(resolution, ms);
          if (last !== undefined && last.timestamp === start) {
            if (price > last.high) last.high = price;
            if (price < last.low) last.low = price;
            last.close = price;
            last.volume += quantity;
            last.quoteVolume += quantity * price;
          } else if (last === undefined || start > last.timestamp) {
            bars.push({ timestamp: start, open: price, high: price, low: price, close: price, volume: quantity, quoteVolume: quantity * price });
          }
        }
      }
      return series;
    };
    const base = Date.UTC(2026, 10, 30, 23, 58);
    const trade = fc.record({
      // Within minutes of a month's, a week's and a day's end; the clock may step back.
      ms: fc.integer({ min: -3 * 60_000, max: 6 * 60_000 }).map((offset) => base + offset),
      price: fc.bigInt({ min: 1n, max: 1000n }),
      quantity: fc.bigInt({ min: 1n, max: 50n }),
      read: fc.boolean(),
      // Folded by the nanosecond entry point (the ledger's) or by milliseconds.
      nanos: fc.option(fc.integer({ min: 0, max: 999_999 }), { nil: undefined }),
    });
    checkProperty(
      fc.property(fc.array(trade, { maxLength: 60 }), (trades) => {
        const series = new BarSeries();
        trades.forEach((t, i) => {
          if (t.nanos === undefined) series.add(t.ms, t.price, t.quantity, t.quantity * t.price);
          else series.addAt(BigInt(t.ms) * 1_000_000n + BigInt(t.nanos), t.price, t.quantity, t.quantity * t.price);
          if (t.read) expect(series.query('1m', 0, Infinity)).toEqual(reference(trades.slice(0, i + 1)).get('1m'));
        });
        const expected = reference(trades);
        for (const resolution of RESOLUTIONS) expect(series.query(resolution, 0, Infinity)).toEqual(expected.get(resolution));
      }),
      { numRuns: 300 },
    );
  });

  it('computes percentages in bigint', () => {
    expect(percentChange(200n, 199n)).toBe('-0.50');
    expect(percentChange(3n, 4n)).toBe('33.33');
    expect(percentChange(undefined, 4n)).toBe('0.00');
  });
});

describe('rate limiter', () => {
  it('refuses the sixth request inside one second and accepts again once the window slides', () => {
    const clock = new ManualClock(1_000_000);
    const limiter = new RateLimiter(clock);
    const rule = ruleFor('POST', '/v1/session/actions');
    expect(rule).toBeDefined();
    if (!rule) return;
    const results = Array.from({ length: 6 }, () => limiter.take(rule, 'owner:a'));
    expect(results).toEqual([true, true, true, true, true, false]);
    expect(limiter.take(rule, 'owner:b')).toBe(true);
    clock.advance(999);
    expect(limiter.take(rule, 'owner:a')).toBe(false);
    clock.advance(1);
    expect(limiter.take(rule, 'owner:a')).toBe(true);
    expect(ruleFor('GET', '/v1/agg/trades')).toBe(ruleFor('GET', '/v1/aggregated/trades'));
    expect(ruleFor('GET', '/v1/depth')).toBeUndefined();
  });
});

describe('faults', () => {
  it('counts down matching rules and never touches control requests', () => {
    const faults = new Faults();
    faults.add({ kind: 'fail', remaining: 2, status: 503, pathPrefix: '/v1/session' });
    faults.add({ kind: 'delay', remaining: 1, delayMs: 50 });
    expect(faults.take('GET', '/control/ledger')).toEqual({ delayMs: 0, drop: false });
    expect(faults.take('POST', '/v1/session/actions')).toEqual({ delayMs: 50, failStatus: 503, drop: false });
    expect(faults.take('GET', '/v1/markets')).toEqual({ delayMs: 0, failStatus: undefined, drop: false });
    expect(faults.take('PUT', '/v1/session')).toEqual({ delayMs: 0, failStatus: 503, drop: false });
    expect(faults.list()).toEqual([]);
  });
});
