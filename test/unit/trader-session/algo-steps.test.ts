// The session's checks of an execution algorithm on the exchange (docs/actions.md "Execution
// algorithms (run by main)"): each must pass what the contract allows (a child whose signing began
// before a stop, a paused scale with orders not yet placed) and report what it forbids.
import { describe, expect, it } from 'vitest';
import type { B256 } from '../../../shared/encoding/b256';
import type { AlgoChildView, AlgoSpec, AlgoView } from '../../../shared/ipc/views/algos';
import type { Market } from '../../../shared/market/market';
import { planScale } from '../../../shared/algos/scale-plan';
import { checkAlgoGuarantees, checkScalePlaced } from '../../support/trader-session/steps/algos';
import type { TruthOrder } from '../../support/trader-session/truth';

const USDC = 1_000_000n;
const ETH = 1_000_000_000n;
const ACCOUNT = `0x${'11'.repeat(32)}`;
const market: Market = {
  contract_id: `0x${'c1'.repeat(32)}` as B256,
  market_id: `0x${'a1'.repeat(32)}` as B256,
  base: { symbol: 'ETH', asset: `0x${'ba'.repeat(32)}` as B256, decimals: 9, max_precision: 3 },
  quote: { symbol: 'USDC', asset: `0x${'9c'.repeat(32)}` as B256, decimals: 6, max_precision: 2 },
  maker_fee: 100n,
  taker_fee: 250n,
  min_order: USDC,
  dust: 1_000_000n,
  price_window: 20,
};
const MS = 1_000_000n; // nanoseconds per millisecond, as the exchange stamps orders

const twap: AlgoSpec = {
  marketId: market.market_id,
  turbo: false,
  side: 'Buy',
  quantity: ETH,
  limitPrice: 3_010n * USDC,
  params: { kind: 'twap', durationMs: 60_000, intervalMs: 10_000, sizeJitterBps: 0n, timeJitterBps: 0n, slice: { kind: 'touch' } },
};

function order(id: string, change: Partial<TruthOrder> = {}): TruthOrder {
  return { orderId: id, timestamp: 1_000n * MS, account: ACCOUNT, marketId: market.market_id, turbo: false, side: 'Buy', kind: 'Spot', price: 3_000n * USDC, quantity: 200_000_000n, filled: 0n, averagePrice: 0n, status: 'open', fills: [], ...change };
}

function child(id: string, change: Partial<AlgoChildView> = {}): AlgoChildView {
  return { journalId: `j-${id}`, orderId: id, price: 3_000n * USDC, quantity: 200_000_000n, filled: 0n, status: 'open', placedAt: 1_000, ...change };
}

function view(change: Partial<AlgoView> = {}): AlgoView {
  return {
    id: 'algo-1',
    networkId: 'sandbox',
    account: ACCOUNT,
    spec: twap,
    state: 'running',
    reason: null,
    filled: 0n,
    remaining: ETH,
    averagePrice: null,
    arrivalPrice: 3_000n * USDC,
    slippageBps: null,
    counts: { open: 0, filled: 0, cancelled: 0 },
    children: [],
    nextAt: null,
    notes: [],
    startedAt: 0,
    updatedAt: 0,
    ...change,
  };
}

// One slice filled at 3,003 in two fills, one resting: 0.2 ETH filled at an average of 3,003.
const filledSlice = order('0x01', { status: 'filled', filled: 200_000_000n, averagePrice: 3_003n * USDC, fills: [{ price: 3_002n * USDC, quantity: 100_000_000n, fee: 0n }, { price: 3_004n * USDC, quantity: 100_000_000n, fee: 0n }] });
const restingSlice = order('0x02', { timestamp: 11_000n * MS });
const healthy = view({
  filled: 200_000_000n,
  remaining: 800_000_000n,
  averagePrice: 3_003n * USDC,
  slippageBps: 10n,
  counts: { open: 1, filled: 1, cancelled: 0 },
  children: [child('0x01', { status: 'filled', filled: 200_000_000n }), child('0x02', { placedAt: 11_000 })],
});

describe('checkAlgoGuarantees', () => {
  it('holds for children within the limit whose fills the view sums exactly', () => {
    expect(checkAlgoGuarantees(healthy, market, [filledSlice, restingSlice])).toEqual([]);
  });

  it('reports more filled, or filled and open, than the total', () => {
    const over = order('0x03', { quantity: 900_000_000n, timestamp: 21_000n * MS });
    const committed = checkAlgoGuarantees({ ...healthy, children: [...healthy.children, child('0x03', { quantity: 900_000_000n })], counts: { open: 2, filled: 1, cancelled: 0 } }, market, [filledSlice, restingSlice, over]);
    expect(committed).toEqual([expect.stringContaining('filled and open come to 1300000000, more than its total 1000000000')]);
    const filled = checkAlgoGuarantees(
      { ...healthy, filled: 1_100_000_000n, remaining: -100_000_000n, children: [child('0x01', { status: 'filled' }), child('0x03', { status: 'filled' })], counts: { open: 0, filled: 2, cancelled: 0 }, averagePrice: 3_000n * USDC, slippageBps: 0n },
      market,
      [order('0x01', { status: 'filled', filled: 200_000_000n, fills: [{ price: 3_000n * USDC, quantity: 200_000_000n, fee: 0n }] }), order('0x03', { status: 'filled', quantity: 900_000_000n, filled: 900_000_000n, fills: [{ price: 3_000n * USDC, quantity: 900_000_000n, fee: 0n }] })],
    );
    expect(filled).toEqual([expect.stringContaining('its children filled 1100000000, more than its total 1000000000')]);
  });

  it('reports a child beyond the limit, off the tick, on another side, book or account', () => {
    const bad = [
      order('0x02', { price: 3_011n * USDC }),
      order('0x03', { price: 3_000n * USDC + 5_000n }),
      order('0x04', { side: 'Sell' }),
      order('0x05', { turbo: true }),
      order('0x06', { account: `0x${'22'.repeat(32)}` }),
    ];
    const problems = checkAlgoGuarantees(
      { ...healthy, children: [child('0x01', { status: 'filled' }), ...bad.map((one) => child(one.orderId))], counts: { open: 5, filled: 1, cancelled: 0 } },
      market,
      [filledSlice, ...bad],
    );
    expect(problems).toEqual([
      expect.stringContaining('is beyond the algorithm\'s limit 3010000000'),
      expect.stringContaining('is off the 10000 price tick'),
      expect.stringContaining('is a Sell; the algorithm buys'),
      expect.stringContaining('is on another book'),
      expect.stringContaining('is signed for account 0x222222…2222'),
      expect.stringContaining('filled and open come to 1200000000'),
    ]);
  });

  it('after a cancel: reports a child created and journaled after it, an open child, and a state other than cancelled', () => {
    const late = order('0x03', { timestamp: 31_000n * MS, status: 'cancelled' });
    const cancelled = { ...healthy, state: 'cancelled' as const, children: [child('0x01', { status: 'filled' }), child('0x02', { placedAt: 11_000, status: 'cancelled' }), child('0x03', { placedAt: 30_500, status: 'cancelled' })], counts: { open: 0, filled: 1, cancelled: 2 } };
    const swept = [filledSlice, order('0x02', { timestamp: 11_000n * MS, status: 'cancelled' })];
    expect(checkAlgoGuarantees(cancelled, market, [...swept, late], { cancelledAt: 30_000 })).toEqual([expect.stringContaining('was created at 31000 ms, after the algorithm was stopped at 30000 ms, and journaled after it (30500 ms)')]);
    // Journaled before the cancel, on the exchange after it: the child in flight, the last one.
    const inFlight = { ...cancelled, children: [...cancelled.children.slice(0, 2), child('0x03', { placedAt: 29_900, status: 'cancelled' })] };
    expect(checkAlgoGuarantees(inFlight, market, [...swept, late], { cancelledAt: 30_000 })).toEqual([]);
    expect(checkAlgoGuarantees({ ...healthy, state: 'running' }, market, [filledSlice, restingSlice], { killedAt: 30_000 })).toEqual([
      expect.stringContaining('is running after it was stopped by the kill switch'),
      expect.stringContaining('child 0x02 is still open on the exchange after the algorithm was cancelled'),
    ]);
  });

  it('after a pause: reports an algorithm still running; open children may stay', () => {
    expect(checkAlgoGuarantees({ ...healthy, state: 'paused' }, market, [filledSlice, restingSlice], { pausedAt: 30_000 })).toEqual([]);
    expect(checkAlgoGuarantees(healthy, market, [filledSlice, restingSlice], { pausedAt: 30_000 })).toEqual([expect.stringContaining('is still running after it was paused')]);
  });

  it('reports the view\'s filled, remaining, average, slippage and counts when they differ from its children on the exchange', () => {
    const problems = checkAlgoGuarantees({ ...healthy, filled: 100_000_000n, remaining: 800_000_000n, averagePrice: 3_002n * USDC, slippageBps: 5n, counts: { open: 0, filled: 2, cancelled: 0 } }, market, [filledSlice, restingSlice]);
    expect(problems).toEqual([
      expect.stringContaining('shows 100000000 filled; its children on the exchange filled 200000000'),
      expect.stringContaining('shows 800000000 remaining, not its total 1000000000 less 100000000 filled'),
      expect.stringContaining('shows an average price of 3002000000; its children\'s fills average 3003000000'),
      expect.stringContaining('shows a slippage of 5 bps; 3002000000 against the arrival 3000000000 is 7 bps'),
      expect.stringContaining('counts 0 open children; the exchange has 1'),
      expect.stringContaining('counts 2 filled children; the exchange has 1'),
    ]);
  });

  it('takes an average within one raw unit of the fills\' own (the exchange rounds each order\'s average)', () => {
    expect(checkAlgoGuarantees({ ...healthy, averagePrice: 3_003n * USDC + 1n, slippageBps: 11n }, market, [filledSlice, restingSlice])).toEqual([]);
    expect(checkAlgoGuarantees({ ...healthy, averagePrice: 3_003n * USDC + 2n, slippageBps: 11n }, market, [filledSlice, restingSlice])).toEqual([expect.stringContaining('shows an average price of 3003000002')]);
  });

  it('reports a child the view names that the exchange does not have', () => {
    expect(checkAlgoGuarantees(healthy, market, [filledSlice])).toContainEqual(expect.stringContaining('child 0x02 (open) is not among the account\'s orders on the exchange'));
  });
});

describe('checkScalePlaced', () => {
  const spec: AlgoSpec = {
    marketId: market.market_id,
    turbo: false,
    side: 'Buy',
    quantity: ETH,
    limitPrice: null,
    params: { kind: 'scale', from: 3_000n * USDC, to: 2_990n * USDC, count: 4, shape: { distribution: 'flat' }, postOnly: true },
  };
  const plan = planScale(market, { side: 'Buy', quantity: ETH, from: 3_000n * USDC, to: 2_990n * USDC, count: 4, shape: { distribution: 'flat' } });
  if (!plan.ok) throw new Error(plan.message);
  const placed = plan.value.orders.map((planned, index) => order(`0x0${index + 1}`, { price: planned.price, quantity: planned.quantity }));
  const scale = (state: AlgoView['state'], orders: readonly TruthOrder[]) => view({ spec, state, children: orders.map((one) => child(one.orderId, { price: one.price, quantity: one.quantity })) });

  it('holds when every planned order is on the exchange with its size', () => {
    expect(checkScalePlaced(scale('running', placed), market, placed)).toEqual([]);
  });

  it('reports a child at a price or size the plan does not have, and a running scale missing a planned order', () => {
    const wrong = [...placed.slice(0, 3), order('0x04', { price: 2_990n * USDC, quantity: 240_000_000n })];
    expect(checkScalePlaced(scale('running', wrong), market, wrong)).toEqual([
      expect.stringContaining('child 0x04 (240000000 at 2990000000) is not one of the planned orders left (250000000 at 2990000000)'),
      expect.stringContaining('is running, but 1 planned orders are not on the exchange: 250000000 at 2990000000'),
    ]);
  });

  it('a paused scale (a refused batch) may lack orders, but what it placed is planned', () => {
    expect(checkScalePlaced(scale('paused', placed.slice(0, 2)), market, placed.slice(0, 2))).toEqual([]);
  });
});
