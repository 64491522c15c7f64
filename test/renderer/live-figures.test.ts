// One mark for every panel that shows a position's P&L: the ladder's foot, its P&L column, the
// chart's position line and the Positions panel value the same position at the live book's exit
// price, at the same moment, and say when the mark or the position is not live.
import { createRoot } from 'solid-js';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../shared/clock';
import type { BookFrame, FreshnessView, SourceFreshness } from '../../shared/ipc/views';
import { positionFigures, unrealizedAtPrice } from '../../renderer/src/features/positions/live-figures';
import { bookPnlAt, bookPosition, bookUnrealized } from '../../renderer/src/features/ladder/ladder-model';
import { createMarkSource, READ_MARK_STALE_MS } from '../../renderer/src/stores/mark-source';
import type { FrameScheduler } from '../../renderer/src/lib/frame-scheduler';
import { ethUsdc, positionView } from '../support/renderer/fixtures';
import { DEFAULT_PNL_DISPLAY, type PnlDisplay } from '../../shared/positions/pnl-display';
import { bpsText, pnlUnitText, tickText } from '../../renderer/src/features/positions/positions-model';
import { positionLine } from '../../renderer/src/features/chart/chart-lines';

const ETH = 10n ** 9n;
const USDC = 10n ** 6n;
// 0.5 ETH long, cost 1,500.00 USDC (entry 3,000.00); main's read marked it at a bid of 2,998.00.
const long = positionView({ size: ETH / 2n, basis: 1_500n * USDC, averageEntry: 3_000n * USDC, mark: 2_998n * USDC, markSide: 'bid', unrealized: -USDC, unrealizedBps: -6n });

const live: SourceFreshness = { state: 'live', ageMs: 0, detail: null };
const freshnessView = (book: SourceFreshness): FreshnessView => ({
  networkId: 'sandbox',
  generation: 1,
  staleAfterMs: 5_000,
  link: live,
  orders: live,
  balances: live,
  markets: [{ marketId: ethUsdc.market_id, turbo: false, book, trades: live }],
});

describe('position figures: one computation', () => {
  it('marks at the live book exit price; the ladder row at the bid shows the foot figure', () => {
    const figures = positionFigures(long, 9, { top: { bid: 2_997n * USDC, ask: 2_997_500_000n }, bookLive: true, positionStale: null, readStale: null });
    expect(figures).toMatchObject({ mark: 2_997n * USDC, markSide: 'bid', unrealized: -1_500_000n, source: 'book', stale: null });
    const open = bookPosition([long], ethUsdc.market_id, false)!.open;
    expect(bookUnrealized(open, () => figures)).toMatchObject({ unrealized: -1_500_000n, stale: null });
    expect(bookPnlAt(open, 2_997n * USDC, 9)).toBe(figures.unrealized);
    // A short is marked at the ask, rounded against the holder.
    const short = positionView({ size: -(ETH / 3n), basis: -1_000n * USDC, averageEntry: 3_000n * USDC });
    expect(positionFigures(short, 9, { top: { bid: 2_990n * USDC, ask: 3_003n * USDC }, bookLive: true, positionStale: null, readStale: null }).unrealized).toBe(unrealizedAtPrice(short, 3_003n * USDC, 9));
    // Owed 1,000.999998999 USDC rounded up to 1,000.999999, less the 1,000 received.
    expect(unrealizedAtPrice(short, 3_003n * USDC, 9)).toBe(-999_999n);
  });

  it('falls back to the read mark where the book is not live, and says why', () => {
    expect(positionFigures(long, 9, { top: { bid: 1n, ask: 2n }, bookLive: false, positionStale: null, readStale: null })).toMatchObject({ mark: 2_998n * USDC, unrealized: -USDC, source: 'read', stale: 'the book is not live' });
    expect(positionFigures(long, 9, { top: null, bookLive: true, positionStale: null, readStale: null })).toMatchObject({ source: 'read', stale: null });
    expect(positionFigures(long, 9, { top: null, bookLive: true, positionStale: null, readStale: 'marked as of 9 s ago' }).stale).toBe('marked as of 9 s ago');
    expect(positionFigures(long, 9, { top: { bid: 2_997n * USDC, ask: null }, bookLive: true, positionStale: 'the position is being read again after a fill', readStale: null }).stale).toBe('the position is being read again after a fill');
  });
});

describe('the window mark source', () => {
  it('follows every ungrouped live frame of a book in the frame batch, ignores grouped ones, and ages the read mark', () => {
    createRoot((dispose) => {
      const clock = new ManualClock(10_000);
      let onBook: ((frame: BookFrame) => void) | null = null;
      const scheduled: (() => void)[] = [];
      const frames: FrameScheduler = { schedule: (_key, work) => scheduled.push(work), cancel: () => undefined, dispose: () => undefined };
      const [behind, error, readAt] = [() => false, () => null, () => 10_000];
      let book = live;
      const marks = createMarkSource({
        api: { onBook: (listener) => ((onBook = listener), () => (onBook = null)) },
        frames,
        positions: { behind, error, readAt },
        market: (marketId) => (marketId === ethUsdc.market_id ? ethUsdc : null),
        freshness: { view: () => freshnessView(book), receivedAt: () => 10_000 },
        clock,
        display: () => DEFAULT_PNL_DISPLAY,
      });
      const frame = (bid: bigint, precision = 10_000n): BookFrame => ({ subscriptionId: 's', marketId: ethUsdc.market_id, turbo: false, state: 'live', precision, bids: [{ price: bid, quantity: 1n }], asks: [{ price: bid + 10_000n, quantity: 1n }], lastTrade: null, volumeAtPrice: [], flowAtPrice: [], flowWindow: 'session', sequence: 1 });
      // Before any frame: the read's mark.
      expect(marks.figures(long)).toMatchObject({ source: 'read', unrealized: -USDC });
      onBook!(frame(2_997n * USDC));
      expect(marks.figures(long).source).toBe('read'); // not before the frame batch writes
      for (const work of scheduled.splice(0)) work();
      expect(marks.figures(long)).toMatchObject({ source: 'book', mark: 2_997n * USDC, unrealized: -1_500_000n, stale: null });
      // A grouped frame (the ladder at a coarser grouping) does not move the mark.
      onBook!(frame(2_990n * USDC, 1_000_000n));
      for (const work of scheduled.splice(0)) work();
      expect(marks.figures(long).mark).toBe(2_997n * USDC);
      // The book goes stale: the read's mark, marked.
      book = { state: 'stale', ageMs: 9_000, detail: 'silent' };
      expect(marks.figures(long)).toMatchObject({ source: 'read', stale: 'the book is not live' });
      // No frame of the book at all and an old read: stale by the read's age.
      onBook!({ ...frame(1n), state: 'resyncing' });
      for (const work of scheduled.splice(0)) work();
      clock.advance(READ_MARK_STALE_MS + 1_000);
      expect(marks.figures(long).stale).toMatch(/^marked as of \d+ s ago$/);
      marks.dispose();
      dispose();
    });
  });
});

describe('the mark source and unit chosen per market', () => {
  const top = { bid: 2_997n * USDC, ask: 2_997n * USDC + 20_000n, last: 3_001n * USDC };
  const input = (display: PnlDisplay) => ({ top, bookLive: true, positionStale: null, readStale: null, display, priceTick: 10_000n });

  it('marks at the last trade or the mid when the market says so, names the mark, and gives the P&L in %, bp and ticks', () => {
    // 0.5 ETH long from 3,000.00: at the last trade of 3,001.00 it is +0.50 USDC, +3 bp, +100 ticks of 0.01.
    const last = positionFigures(long, 9, input({ mark: 'last', unit: 'ticks' }));
    expect(last).toMatchObject({ mark: 3_001n * USDC, markSide: 'last', unrealized: 500_000n, unrealizedBps: 3n, unrealizedTickTenths: 1_000n, source: 'book' });
    expect(pnlUnitText(last)).toBe('+100.0 ticks');
    // At the mid (2,997.01) it is -1.495 USDC: -9 bp of the 1,500 cost, -299 ticks.
    const mid = positionFigures(long, 9, input({ mark: 'mid', unit: 'bps' }));
    expect(mid).toMatchObject({ mark: 2_997_010_000n, markSide: 'mid', unrealized: -1_495_000n, unrealizedBps: -9n, unrealizedTickTenths: -2_990n });
    expect(pnlUnitText(mid)).toBe('-9 bp');
    expect(pnlUnitText({ ...mid, display: { mark: 'mid', unit: 'percent' } })).toBe('-0.09 %');
    expect([bpsText(null), tickText(null), tickText(-5n)]).toEqual(['', '', '-0.5 ticks']);
    // A short on the exit side is marked at the ask, named so.
    const short = positionView({ size: -(ETH / 2n), basis: -1_500n * USDC, averageEntry: 3_000n * USDC });
    expect(positionFigures(short, 9, input({ mark: 'exit', unit: 'percent' })).markSide).toBe('ask');
  });

  it('without the book, falls back to the read exit mark and names it as what it is', () => {
    const read = positionFigures(long, 9, { ...input({ mark: 'mid', unit: 'percent' }), top: null });
    expect(read).toMatchObject({ source: 'read', mark: 2_998n * USDC, markSide: 'bid', display: { mark: 'mid', unit: 'percent' } });
  });

  it('is one figure, one name and one unit in the Positions row, the ladder foot and the chart line', () => {
    createRoot((dispose) => {
      let onBook: ((frame: BookFrame) => void) | null = null;
      const scheduled: (() => void)[] = [];
      let choice: PnlDisplay = { mark: 'mid', unit: 'ticks' };
      const marks = createMarkSource({
        api: { onBook: (listener) => ((onBook = listener), () => (onBook = null)) },
        frames: { schedule: (_key, work) => scheduled.push(work), cancel: () => undefined, dispose: () => undefined },
        positions: { behind: () => false, error: () => null, readAt: () => 10_000 },
        market: (marketId) => (marketId === ethUsdc.market_id ? ethUsdc : null),
        freshness: { view: () => freshnessView(live), receivedAt: () => 10_000 },
        clock: new ManualClock(10_000),
        display: (marketId) => (marketId === ethUsdc.market_id ? choice : DEFAULT_PNL_DISPLAY),
      });
      onBook!({ subscriptionId: 's', marketId: ethUsdc.market_id, turbo: false, state: 'live', precision: 10_000n, bids: [{ price: top.bid, quantity: 1n }], asks: [{ price: top.ask, quantity: 1n }], lastTrade: { price: top.last, side: 'Buy', quantity: 1n }, volumeAtPrice: [], flowAtPrice: [], flowWindow: 'session', sequence: 1 });
      for (const work of scheduled.splice(0)) work();
      const row = marks.figures(long);
      expect(row).toMatchObject({ markSide: 'mid', unrealized: -1_495_000n, unrealizedTickTenths: -2_990n, display: choice });
      const foot = bookUnrealized(bookPosition([long], ethUsdc.market_id, false)!.open, (one) => marks.figures(one), { baseDecimals: 9, priceTick: 10_000n });
      expect(foot).toMatchObject({ unrealized: row.unrealized, markSide: 'mid', unrealizedTickTenths: row.unrealizedTickTenths });
      expect(pnlUnitText(foot)).toBe(pnlUnitText(row));
      const line = positionLine(ethUsdc, false, long.account, [long], (one) => marks.figures(one))!;
      expect(line.label).toContain(`${pnlUnitText(row)} @ mid`);
      // The choice changes (main pushes the settings): every figure follows at once.
      choice = { mark: 'last', unit: 'bps' };
      expect(marks.figures(long)).toMatchObject({ markSide: 'last', unrealized: 500_000n });
      marks.dispose();
      dispose();
    });
  });
});
