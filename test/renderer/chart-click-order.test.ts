// Click-to-place on the chart: a Limit at the clicked price snapped onto the step, a Buy under the
// mid and a Sell over it, the ladder's size and the ladder's one-click checks; refused with the
// reason when not armed, the book not live, or no size, and never a side at the mid.
import { describe, expect, it } from 'vitest';
import { chartClickPlan, sideAgainstMarket, type ChartClickState } from '../../renderer/src/features/chart/chart-click-order';
import { ethUsdc } from '../support/renderer/fixtures';

const USDC = 1_000_000n;
const CENT = 10_000n;
const BID = 3000n * USDC;
const ASK = 3001n * USDC;

const state = (change: Partial<ChartClickState> = {}): ChartClickState => ({
  armed: true,
  bookLive: true,
  bookLabel: 'live',
  bookName: 'ETH/USDC (Canonical book)',
  sizeText: '0.01',
  ticket: { market: ethUsdc, turbo: false, maxOrderQuantity: null, bestBid: BID, bestAsk: ASK, availableQuote: 1_000_000n * USDC, availableBase: 100n * 1_000_000_000n },
  ...change,
});

describe('the side of a click', () => {
  it('is a Buy under the mid, a Sell over it, none at it', () => {
    expect(sideAgainstMarket(BID, BID, ASK)).toBe('Buy');
    expect(sideAgainstMarket(3_000_490_000n, BID, ASK)).toBe('Buy');
    expect(sideAgainstMarket(3_000_500_000n, BID, ASK)).toBeNull();
    expect(sideAgainstMarket(3_000_510_000n, BID, ASK)).toBe('Sell');
    // One side only: that price is the market.
    expect(sideAgainstMarket(2999n * USDC, BID, null)).toBe('Buy');
    expect(sideAgainstMarket(3002n * USDC, null, ASK)).toBe('Sell');
    expect(sideAgainstMarket(1n, null, null)).toBeNull();
  });
});

describe('the order of a click', () => {
  it('is a Limit at the pointer snapped onto the step, with the ladder size, shown as "Buy 0.0100 @ 2,990.00"', () => {
    const plan = chartClickPlan(2_990_004_321n, state());
    expect(plan).toMatchObject({ ok: true, side: 'Buy', price: 2990n * USDC, quantity: 10_000_000n, label: 'Buy 0.0100 @ 2,990.00' });
    if (!plan.ok) throw new Error('refused');
    expect(plan.evaluation.request).toMatchObject({ marketId: ethUsdc.market_id, side: 'Buy', orderType: { kind: 'Limit' }, price: 2990n * USDC, quantity: 10_000_000n });
    expect(plan.price % CENT).toBe(0n);
    const sell = chartClickPlan(3_010_005_000n, state());
    expect(sell).toMatchObject({ ok: true, side: 'Sell', price: 3_010_010_000n, label: 'Sell 0.0100 @ 3,010.01' });
  });

  it('is refused with the reason when not armed, the book not live, or no size', () => {
    expect(chartClickPlan(2990n * USDC, state({ armed: false }))).toMatchObject({ ok: false, code: 'NOT_ARMED', reason: expect.stringContaining('ETH/USDC (Canonical book) is armed') });
    expect(chartClickPlan(2990n * USDC, state({ bookLive: false, bookLabel: 'resyncing' }))).toMatchObject({ ok: false, code: 'BOOK_NOT_LIVE', reason: expect.stringContaining('book is resyncing') });
    // A refusal is drawn at the pointer's price on the step, with a short hint for the hover line.
    expect(chartClickPlan(2_990_004_321n, state({ sizeText: '  ' }))).toMatchObject({ ok: false, code: 'NO_SIZE', price: 2990n * USDC, hint: 'No size: type one in Size', reason: expect.stringContaining('no size') });
    expect(chartClickPlan(2990n * USDC, state({ ticket: null }))).toMatchObject({ ok: false, code: 'RULES_NOT_LOADED' });
  });

  it('is refused at the mid and with no market, and where the ladder would refuse it (the ticket’s checks)', () => {
    expect(chartClickPlan(3_000_500_000n, state())).toMatchObject({ ok: false, code: 'AT_THE_MARKET', price: 3_000_500_000n, reason: expect.stringContaining('3,000.50 is the mid') });
    const empty = state();
    expect(chartClickPlan(2990n * USDC, { ...empty, ticket: { ...empty.ticket!, bestBid: null, bestAsk: null } })).toMatchObject({ ok: false, code: 'NO_MARKET' });
    expect(chartClickPlan(2990n * USDC, state({ sizeText: 'abc' }))).toMatchObject({ ok: false, code: 'ORDER_INVALID' });
    expect(chartClickPlan(2990n * USDC, state({ sizeText: '0.0000001' }))).toMatchObject({ ok: false, code: 'ORDER_INVALID' });
  });
});
