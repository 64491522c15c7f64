// Reduce-only, made exact on our side (the venue has no flag): immediate order types only, against
// a known position read after the last fill, on the closing side, capped so that this order with
// the resting closing orders and pending closing legs can never take the position past zero.
import { describe, expect, it } from 'vitest';
import type { OrderView, PositionView, PositionsView, TriggerView } from '../../shared/ipc/views';
import { reduceOnlyCheck, reduceOnlyFacts, type ReduceOnlyContext, type ReduceOnlyFacts } from '../../renderer/src/features/ticket/ticket-model';
import { ethUsdc, positionView } from '../support/renderer/fixtures';

const ETH = 1_000_000_000n;
const USDC = 1_000_000n;
const hex = (byte: string) => `0x${byte.repeat(32)}`;
const ACCOUNT = hex('aa');

const check = (fields: Partial<ReduceOnlyContext>) =>
  reduceOnlyCheck({ market: ethUsdc, side: 'Sell', kind: 'Market', quantity: ETH / 50n, position: { size: ETH / 50n }, restingClosing: 0n, legsClosing: 0n, book: 'Canonical book', ...fields });

const position = (fields: Partial<PositionView>): PositionView => positionView({ account: ACCOUNT, averageEntry: 3_000n * USDC, fills: 1, ...fields });
const view = (positions: PositionView[], fields: Partial<PositionsView> = {}): PositionsView => ({ positions, asOf: 10_000, problems: [], ...fields });
const order = (fields: Partial<OrderView>): OrderView => ({
  orderId: hex('01'),
  marketId: ethUsdc.market_id,
  side: 'Sell',
  orderType: 'Spot',
  price: 3_100n * USDC,
  quantity: ETH / 100n,
  filled: 0n,
  averagePrice: 0n,
  status: 'open',
  turbo: false,
  account: ACCOUNT,
  time: 0,
  ...fields,
});
const leg = (fields: Partial<TriggerView>): TriggerView => ({
  triggerId: hex('71'),
  marketId: ethUsdc.market_id,
  turbo: false,
  side: 'Sell',
  triggerPrice: 3_200n * USDC,
  kind: 'bounded',
  limitPrice: null,
  maxPrice: null,
  minPrice: null,
  quantity: ETH / 200n,
  parentOrderId: null,
  ocoId: null,
  direction: 'rise',
  role: 'take-profit',
  state: 'pending',
  armed: true,
  locked: 0n,
  firedOrderId: null,
  reason: null,
  time: 0,
  ...fields,
});
const facts = (fields: Partial<ReduceOnlyFacts>) =>
  reduceOnlyFacts({ market: ethUsdc, turbo: false, account: ACCOUNT, positions: view([position({ size: ETH / 20n })]), positionsError: null, openOrders: [], pendingLegs: [], fills: [], ...fields });

describe('reduce-only check', () => {
  it('passes a closing order within the position and says how much it may close', () => {
    const result = check({});
    expect(result).toEqual({ ok: true, cap: ETH / 50n, text: 'Reduce-only: closes at most 0.02 ETH of your long 0.02 ETH.' });
    expect(check({ side: 'Buy', position: { size: -ETH }, quantity: ETH / 2n, kind: 'FillOrKill' }).ok).toBe(true);
    expect(check({ kind: 'BoundedMarket' }).ok).toBe(true);
  });

  it('refuses a quantity that would flip the position, and names the cap', () => {
    const result = check({ quantity: ETH / 40n });
    expect(result).toMatchObject({ ok: false, code: 'REDUCE_ONLY_FLIP', cap: ETH / 50n });
    expect(!result.ok && result.message).toBe('Reduce-only: 0.025 ETH would flip your long 0.02 ETH; at most 0.02 ETH.');
  });

  it('counts closing orders already resting and pending closing legs against the position', () => {
    const result = check({ quantity: ETH / 50n, restingClosing: ETH / 100n, legsClosing: ETH / 200n });
    expect(result).toMatchObject({ ok: false, code: 'REDUCE_ONLY_FLIP', cap: ETH / 200n });
    expect(!result.ok && result.message).toContain('less 0.01 in resting sells and 0.005 in pending take-profit/stop-loss legs');
    expect(check({ restingClosing: ETH / 50n })).toMatchObject({ ok: false, code: 'REDUCE_ONLY_COVERED', cap: 0n });
  });

  it('caps to the quantity step: a position with a fee remainder is closed down to the step', () => {
    // Long 0.019995 ETH (a buy of 0.02 paid 0.000005 in base): the step is 0.0001.
    expect(check({ position: { size: 19_995_000n }, quantity: ETH / 50n })).toMatchObject({ ok: false, cap: 19_900_000n });
  });

  it('refuses the wrong side, no position, an unknown position and order types that can rest, with the reason', () => {
    expect(check({ side: 'Buy' })).toMatchObject({ ok: false, code: 'REDUCE_ONLY_WRONG_SIDE' });
    expect(check({ position: { size: 0n } })).toMatchObject({ ok: false, code: 'REDUCE_ONLY_NO_POSITION' });
    const unknown = check({ position: { unknown: 'the fills are still being read' } });
    expect(unknown).toMatchObject({ ok: false, code: 'REDUCE_ONLY_POSITION_UNKNOWN' });
    expect(!unknown.ok && unknown.message).toContain('Canonical book');
    for (const kind of ['Spot', 'Limit', 'PostOnly'] as const) {
      const resting = check({ kind });
      expect(resting).toMatchObject({ ok: false, code: 'REDUCE_ONLY_RESTING' });
      expect(!resting.ok && resting.message).toMatch(/no reduce-only flag/);
    }
  });
});

describe('reduce-only facts from what the window knows', () => {
  it('finds the signing account position on this book', () => {
    expect(facts({})).toEqual({ position: { size: ETH / 20n }, restingClosing: 0n, legsClosing: 0n });
    expect(facts({ account: hex('bb') }).position).toEqual({ size: 0n });
    expect(facts({ turbo: true }).position).toEqual({ size: 0n });
  });

  it('does not trust a read older than the last fill of the book, a failed read, or a book with problems', () => {
    expect(facts({ fills: [{ orderId: hex('01'), marketId: ethUsdc.market_id, turbo: false, quantity: 1n, time: 10_001 }] }).position).toHaveProperty('unknown');
    expect(facts({ fills: [{ orderId: hex('01'), marketId: ethUsdc.market_id, turbo: true, quantity: 1n, time: 10_001 }] }).position).toEqual({ size: ETH / 20n });
    expect(facts({ positions: null }).position).toHaveProperty('unknown');
    expect(facts({ positionsError: 'RATE_LIMITED: wait' }).position).toHaveProperty('unknown');
    expect(facts({ positions: view([position({ size: ETH })], { problems: ['ETH/USDC: history over 100 pages'] }) }).position).toEqual({ unknown: 'ETH/USDC: history over 100 pages' });
    expect(facts({ account: null }).position).toHaveProperty('unknown');
  });

  it('sums resting closing orders of the account and pending closing legs, an OCO pair once', () => {
    const result = facts({
      openOrders: [
        order({}),
        order({ orderId: hex('02'), quantity: ETH / 50n, filled: ETH / 100n, status: 'partially-filled' }),
        order({ orderId: hex('03'), side: 'Buy' }),
        order({ orderId: hex('04'), account: hex('bb') }),
        order({ orderId: hex('05'), turbo: true }),
      ],
      pendingLegs: [
        leg({ triggerId: hex('71'), ocoId: hex('72'), quantity: ETH / 200n }),
        leg({ triggerId: hex('72'), ocoId: hex('71'), quantity: ETH / 100n, role: 'stop-loss' }),
        leg({ triggerId: hex('73'), quantity: ETH / 1000n }),
        leg({ triggerId: hex('74'), side: 'Buy' }),
      ],
    });
    expect(result).toEqual({ position: { size: ETH / 20n }, restingClosing: ETH / 50n, legsClosing: ETH / 100n + ETH / 1000n });
  });

  it('sizes a leg bound to its order from what that order filled, and refuses when it cannot tell', () => {
    const parentOpen = order({ orderId: hex('09'), side: 'Buy', quantity: ETH / 10n, filled: ETH / 40n, status: 'partially-filled' });
    expect(facts({ openOrders: [parentOpen], pendingLegs: [leg({ quantity: null, parentOrderId: hex('09') })] }).legsClosing).toBe(ETH / 40n);
    const fills = [{ orderId: hex('0a'), marketId: ethUsdc.market_id, turbo: false, quantity: ETH / 50n, time: 9_000 }];
    expect(facts({ fills, pendingLegs: [leg({ quantity: null, parentOrderId: hex('0a') })] }).legsClosing).toBe(ETH / 50n);
    expect(facts({ pendingLegs: [leg({ quantity: null, parentOrderId: hex('0b') })] }).position).toHaveProperty('unknown');
  });
});
