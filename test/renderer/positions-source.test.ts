// The window's one positions source: the ladder's foot, the chart's position line and the Positions
// panel show the same read (not one position at +3.28 USDC on the chart and +3.11 on the ladder at
// the same moment, each valued at the mark of its own poll).
import { createRoot } from 'solid-js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FillView, OrdersSnapshot, OrderView, PositionsView } from '../../shared/ipc/views';
import { fail, ok, type Result } from '../../shared/result';
import { createPositionsSource } from '../../renderer/src/stores/positions-source';

function fakeApi() {
  const pending: ((result: Result<PositionsView>) => void)[] = [];
  const listeners = { orders: new Set<(snapshot: OrdersSnapshot) => void>(), fill: new Set<() => void>() };
  return {
    pending,
    listeners,
    getPositions: vi.fn(() => new Promise<Result<PositionsView>>((resolve) => pending.push(resolve))),
    onOrders: (listener: (snapshot: OrdersSnapshot) => void) => {
      listeners.orders.add(listener);
      return () => listeners.orders.delete(listener);
    },
    onFill: (listener: () => void) => {
      listeners.fill.add(listener);
      return () => listeners.fill.delete(listener);
    },
  };
}

const answer = (asOf: number): PositionsView => ({ positions: [], asOf, problems: [] });
const order = (orderId: string, filled: bigint): OrderView => ({
  orderId,
  marketId: '0xm',
  side: 'Buy',
  orderType: 'Limit',
  price: 3_000n,
  quantity: 10n,
  filled,
  averagePrice: 0n,
  status: filled > 0n ? 'partially-filled' : 'open',
  turbo: false,
  account: '0xa',
  time: 1,
});
const fill = (orderId: string, quantity: bigint, time: number): FillView => ({ orderId, marketId: '0xm', side: 'Buy', price: 3_000n, quantity, fee: 0n, turbo: false, account: '0xa', time });
const snapshot = (open: OrderView[], fills: FillView[] = []): OrdersSnapshot => ({ open, fills });
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('one positions source per window', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] }));
  afterEach(() => vi.useRealTimers());

  it('every panel reads the same answer; a read begun earlier never replaces one begun later', async () => {
    const api = fakeApi();
    await createRoot(async (dispose) => {
      const source = createPositionsSource(api as never, () => 1_000);
      const stopLadder = source.use();
      const stopChart = source.use();
      expect(api.getPositions).toHaveBeenCalledTimes(1); // one read for both users
      const flatten = source.refresh(); // a read begun now (a flatten)
      expect(api.pending).toHaveLength(2);
      api.pending[1]!(ok(answer(2)));
      await flatten;
      expect(source.view()?.asOf).toBe(2);
      api.pending[0]!(ok(answer(1))); // the earlier read answers last: dropped
      await flush();
      expect(source.view()?.asOf).toBe(2);
      stopLadder();
      stopChart();
      dispose();
    });
  });

  it('reads on order and fill changes and on its cadence while used, and stops when no panel uses it', async () => {
    const api = fakeApi();
    const source = createPositionsSource(api as never, () => 0, 3_000);
    const stop = source.use();
    api.pending.shift()!(ok(answer(1)));
    await flush();
    for (const listener of api.listeners.fill) listener();
    expect(api.getPositions).toHaveBeenCalledTimes(2);
    // A burst while a read is in flight reads once more after it, not once per event.
    for (const listener of api.listeners.orders) listener(snapshot([order('0x1', 1n)]));
    for (const listener of api.listeners.fill) listener();
    expect(api.getPositions).toHaveBeenCalledTimes(2);
    api.pending.shift()!(ok(answer(2)));
    await flush();
    await flush();
    expect(api.getPositions).toHaveBeenCalledTimes(3);
    api.pending.shift()!(ok(answer(3)));
    await flush();
    vi.advanceTimersByTime(3_000);
    expect(api.getPositions).toHaveBeenCalledTimes(4);
    api.pending.shift()!(ok(answer(4)));
    await flush();
    stop();
    expect(api.listeners.fill.size + api.listeners.orders.size).toBe(0);
    vi.advanceTimersByTime(30_000);
    expect(api.getPositions).toHaveBeenCalledTimes(4);
  });

  it('is behind from a fill until a read begun after it answers (panels mark their P&L stale meanwhile)', async () => {
    const api = fakeApi();
    const source = createPositionsSource(api as never, () => 0, 3_000);
    const stop = source.use();
    expect(source.behind()).toBe(false);
    for (const listener of api.listeners.fill) listener(); // a fill while the first read is in flight
    expect(source.behind()).toBe(true);
    api.pending.shift()!(ok(answer(1))); // begun before the fill: still behind
    await flush();
    expect(source.behind()).toBe(true);
    await flush();
    api.pending.shift()!(ok(answer(2))); // begun after it
    await flush();
    expect(source.behind()).toBe(false);
    stop();
  });

  it('reads when a position may have moved, not when an order is placed or amended with nothing filled', async () => {
    const api = fakeApi();
    const source = createPositionsSource(api as never, () => 0, 3_000);
    const stop = source.use();
    const answerAll = async () => {
      while (api.pending.length > 0) {
        api.pending.shift()!(ok(answer(1)));
        await flush();
        await flush();
      }
    };
    await answerAll();
    const push = async (next: OrdersSnapshot) => {
      for (const listener of api.listeners.orders) listener(next);
      await answerAll();
    };
    const reads = () => api.getPositions.mock.calls.length;
    await push(snapshot([order('0x1', 0n)])); // the first snapshot: read
    expect(reads()).toBe(2);
    await push(snapshot([order('0x1', 0n), order('0x2', 0n)])); // a placement, nothing filled
    await push(snapshot([order('0x1', 0n), order('0x2', 0n), order('0x3', 0n)]));
    expect(reads()).toBe(2);
    await push(snapshot([order('0x1', 4n), order('0x2', 0n), order('0x3', 0n)])); // a partial fill
    expect(reads()).toBe(3);
    await push(snapshot([order('0x1', 4n), order('0x3', 0n)])); // 0x2 left the open list (filled or cancelled)
    expect(reads()).toBe(4);
    await push(snapshot([order('0x1', 4n), order('0x3', 0n), order('0x4', 2n)])); // crossed at once, partly filled
    expect(reads()).toBe(5);
    await push(snapshot([order('0x1', 4n), order('0x3', 0n), order('0x4', 2n)], [fill('0x5', 1n, 9)])); // filled at once, in the fills
    expect(reads()).toBe(6);
    await push(snapshot([order('0x1', 4n), order('0x3', 0n), order('0x4', 2n)], [fill('0x5', 1n, 9)])); // the same again
    expect(reads()).toBe(6);
    stop();
  });

  it('a failed read is reported and keeps the last answer (the panel marks it stale)', async () => {
    const api = fakeApi();
    const source = createPositionsSource(api as never, () => 5);
    const stop = source.use();
    api.pending.shift()!(ok(answer(1)));
    await flush();
    const again = source.refresh();
    api.pending.shift()!(fail('NOT_READY', 'The network is not connected yet'));
    expect((await again).ok).toBe(false);
    expect(source.view()?.asOf).toBe(1);
    expect(source.error()).toBe('NOT_READY: The network is not connected yet');
    expect(source.readAt()).toBe(5);
    stop();
  });
});
