// Frame pacing and the hub's stores under a long, busy feed, property-based. Found by the soak
// (bench/soak.ts): timers fire up to a millisecond early by the clock main paces with, so two
// flushes could land 15 ms apart (two book frames in one 16 ms frame); and the volume-at-price
// rows of a trade channel grew with every new price for as long as a window watched the market.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FRAME_INTERVAL_MS, FramePacer } from '../../../main/services/market-data/frame-pacer';
import { MarketDataHub, type DepthHandle, type MarketFeed, type TradesEvent } from '../../../main/services/market-data/market-data-hub';
import { WindowHub } from '../../../main/services/window-hub';
import type { Clock, TimerHandle } from '../../../shared/clock';
import type { BookFrame, TradeView } from '../../../shared/ipc/views';
import { ok } from '../../../shared/result';
import { MAX_FLOW_ROWS, type FlowCell } from '../../../main/services/market-data/order-flow';
import { checkProperty } from '../../support/property';

/** A manual clock whose timers fire up to `early(n)` ms before they are due, as real ones can. */
class EarlyClock implements Clock {
  current = 1_000_000;
  private sequence = 0;
  private readonly timers = new Map<number, { due: number; callback: () => void }>();
  constructor(private readonly early: () => number) {}
  now(): number {
    return this.current;
  }
  setTimeout(callback: () => void, ms: number): TimerHandle {
    const id = ++this.sequence;
    // Early, but never before any time has passed (real time moves on while a timer waits).
    this.timers.set(id, { due: this.current + (ms <= 0 ? 0 : Math.max(1, ms - this.early())), callback });
    return id as unknown as TimerHandle;
  }
  clearTimeout(handle: TimerHandle): void {
    this.timers.delete(handle as unknown as number);
  }
  /** Move time forward by `ms`, firing in order every timer that falls due (and what they schedule). */
  advance(ms: number): void {
    const target = this.current + ms;
    for (;;) {
      let next: [number, { due: number; callback: () => void }] | undefined;
      for (const entry of this.timers) if (next === undefined || entry[1].due < next[1].due) next = entry;
      if (next === undefined || next[1].due > target) break;
      this.timers.delete(next[0]);
      this.current = Math.max(this.current, next[1].due);
      next[1].callback();
    }
    this.current = Math.max(this.current, target);
  }
}

describe('frame pacing', () => {
  it('every mark is flushed within a frame, and consecutive flushes are a whole frame apart by the clock, even when timers fire early and flushes take time', () => {
    checkProperty(
      fc.property(fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 50 }), fc.array(fc.nat({ max: 40 }), { minLength: 1, maxLength: 60 }), fc.array(fc.nat({ max: 3 }), { minLength: 1, maxLength: 20 }), (early, marksAt, durations) => {
        let turn = 0;
        const clock = new EarlyClock(() => early[turn++ % early.length] ?? 0);
        const flushes: { start: number; end: number; keys: string[] }[] = [];
        const pacer = new FramePacer(clock, (keys) => {
          const start = clock.now();
          clock.current += durations[flushes.length % durations.length] ?? 0;
          flushes.push({ start, end: clock.now(), keys: [...keys] });
        });
        const marks: number[] = [];
        for (const gap of marksAt) {
          marks.push(clock.now());
          pacer.mark('book');
          clock.advance(gap);
        }
        clock.advance(1_000);
        // Liveness (a pacer that never flushes, or flushes late, fails here): each mark is carried
        // by a flush that starts at or after it and at most one frame (and the millisecond an early
        // timer costs) later.
        expect(flushes.length).toBeGreaterThan(0);
        for (const [index, at] of marks.entries()) {
          const carrier = flushes.find((flush) => flush.start >= at);
          expect(carrier, `mark ${index} at ${at} was never flushed`).toBeDefined();
          expect(carrier!.start - at, `mark ${index}: flushed ${carrier!.start - at} ms later`).toBeLessThanOrEqual(FRAME_INTERVAL_MS + 1);
          expect(carrier!.keys).toEqual(['book']);
        }
        for (let index = 1; index < flushes.length; index++) {
          expect(flushes[index]!.start - flushes[index - 1]!.end, `flush ${index}`).toBeGreaterThanOrEqual(FRAME_INTERVAL_MS);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('the hub under a long feed', () => {
  it('keeps volume-at-price rows bounded while prices keep moving, and still shows the rows near the price', () => {
    const clock = new EarlyClock(() => 0);
    const trades: { listener: ((event: TradesEvent) => void) | null } = { listener: null };
    const book = { state: () => 'resyncing' as const, book: () => null, close: () => undefined } satisfies DepthHandle;
    const feed: MarketFeed = {
      openDepth: () => book,
      openTrades: (_market, _turbo, listener) => {
        trades.listener = listener;
        return { close: () => undefined };
      },
      recentTrades: () => Promise.resolve(ok([])),
      bars: () => Promise.resolve(ok([])),
    };
    const windows = new WindowHub();
    const frames: BookFrame[] = [];
    windows.attach('w', { send: (stream, payload) => stream === 'book' && frames.push(payload as BookFrame) });
    const hub = new MarketDataHub(feed, windows, clock);
    expect(hub.subscribeBook('w', { marketId: 'm', turbo: false, precision: 1n, levels: 10 }).ok).toBe(true);
    // A drifting market: 200,000 trades, each at a price never seen before.
    for (let index = 0; index < 200_000; index++) {
      const trade: TradeView = { tradeId: String(index), marketId: 'm', side: 'Buy', price: 1_000_000n + BigInt(index), quantity: 1n, time: index };
      trades.listener?.({ trades: [trade], reset: false });
    }
    // Diagnostic read of the store (no API exposes it): bounded, not one row per price ever traded.
    const channels = (hub as unknown as { trades: Map<string, { flow: { session: Map<bigint, FlowCell> } }> }).trades;
    const session = [...channels.values()][0]?.flow.session;
    expect(session?.size ?? 0).toBeLessThanOrEqual(MAX_FLOW_ROWS);
    for (let offset = 0n; offset < 100n; offset++) expect(session?.get(1_000_000n + 199_999n - offset)?.bought).toBe(1n);
  });
});
