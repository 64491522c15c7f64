// Reactive plumbing in the node environment (Solid's reactive core needs no DOM): one draw per
// frame, keyed identity of ladder rows and of order rows, and the NOT_READY retry.
import { createRoot, createRenderEffect } from 'solid-js';
import { describe, expect, it } from 'vitest';
import type { TerminalApi } from '../../shared/ipc/contract';
import type { OrderView } from '../../shared/ipc/views';
import { fail, ok } from '../../shared/result';
import { bookHealth, buildLadderRows } from '../../renderer/src/features/ladder/ladder-model';
import { layoutRows } from '../../renderer/src/features/ladder/ladder-layout';
import { createRowCells } from '../../renderer/src/features/ladder/row-cells';
import { createFrameScheduler } from '../../renderer/src/lib/frame-scheduler';
import { retryWhileNotReady } from '../../renderer/src/lib/retry';
import { changedInPlace, createTerminalStore } from '../../renderer/src/stores/terminal-store';
import { createTicketStore } from '../../renderer/src/stores/ticket-store';
import { createLadderSizes } from '../../renderer/src/stores/ladder-size-store';

function manualFrames() {
  const callbacks: ((time: number) => void)[] = [];
  return {
    request: (callback: (time: number) => void) => callbacks.push(callback),
    cancel: () => undefined,
    run: () => {
      for (const callback of callbacks.splice(0)) callback(0);
    },
    pending: () => callbacks.length,
  };
}

describe('frame scheduler', () => {
  it('draws once per frame with the latest value', () => {
    const frames = manualFrames();
    const scheduler = createFrameScheduler(frames.request, frames.cancel);
    const drawn: number[] = [];
    for (let value = 1; value <= 5; value++) scheduler.schedule('book', () => drawn.push(value));
    scheduler.schedule('tape', () => drawn.push(100));
    expect(frames.pending()).toBe(1);
    frames.run();
    expect(drawn).toEqual([5, 100]);
    frames.run();
    expect(drawn).toEqual([5, 100]);
  });
});

describe('book health', () => {
  const frame = (bid: bigint, ask: bigint) => ({ state: 'live' as const, bids: [{ price: bid, quantity: 1n }], asks: [{ price: ask, quantity: 1n }] });
  it('hides a resyncing, crossed or stale book', () => {
    expect(bookHealth(frame(99n, 100n), false)).toBe('live');
    expect(bookHealth({ ...frame(99n, 100n), state: 'resyncing' }, false)).toBe('resyncing');
    expect(bookHealth(frame(100n, 100n), false)).toBe('crossed');
    expect(bookHealth(frame(99n, 100n), true)).toBe('stream-down');
  });
});

describe('ladder row cells', () => {
  const rowsAt = (centre: bigint, bid: bigint) =>
    buildLadderRows({ rows: layoutRows(centre, 10n, 5), step: 10n, marketId: 'm', bids: [{ price: 1000n, quantity: bid }], asks: [{ price: 1010n, quantity: 5n }], volumeAtPrice: [], lastTrade: null, ownOrders: [] });

  it('keeps a cell per price and tells only the rows that changed', () => {
    createRoot((dispose) => {
      const cells = createRowCells();
      cells.apply(rowsAt(1000n, 1n));
      const first = cells.list();
      cells.apply(rowsAt(1000n, 2n));
      expect(cells.list()).toBe(first);
      const before = new Map(first.map((cell) => [cell.key(), cell]));
      const texts: string[] = [];
      const top = first[0]!;
      top.onRow((row) => texts.push(`${row.key}:${row.bid}`));
      // Scrolling by a row keeps the cells of the prices still shown; the price scrolled out
      // gives its cell (and DOM row) to the price scrolled in: no cell is made.
      cells.apply(rowsAt(990n, 2n));
      const second = cells.list();
      expect(second).not.toBe(first);
      expect(second.map((cell) => cell.key())).toEqual(['1010', '1000', '990', '980', '970']);
      for (const cell of second.slice(0, 4)) expect(cell).toBe(before.get(cell.key()));
      expect(second[4]).toBe(top);
      expect(new Set(second)).toEqual(new Set(first));
      // The reused cell's writer got the new price's row at once, and reads it as its latest.
      expect(top.latest().key).toBe('970');
      expect(texts).toEqual(['1020:0', '970:0']);
      dispose();
    });
  });

  it('redraws a row only when one of its values changed', () => {
    const runs = new Map<string, number>();
    const marks = new Map<string, number>();
    const dispose = createRoot((disposer) => {
      const cells = createRowCells();
      cells.apply(rowsAt(1000n, 1n));
      for (const cell of cells.list()) {
        cell.onRow(() => runs.set(cell.key(), (runs.get(cell.key()) ?? 0) + 1));
        createRenderEffect(() => {
          cell.marks();
          marks.set(cell.key(), (marks.get(cell.key()) ?? 0) + 1);
        });
      }
      cells.apply(rowsAt(1000n, 2n));
      // The same figures again (a new frame with nothing new for these rows): nothing is redrawn.
      cells.apply(rowsAt(1000n, 2n));
      return disposer;
    });
    // Only the bid row changed (the ask of 5 still sets the bar scale): the ask row and the
    // empty rows are not redrawn, and no row's marks (entry, own orders) changed.
    expect([...marks.values()].every((count) => count === 1)).toBe(true);
    expect(runs.get('1000')).toBe(2);
    expect(runs.get('1010')).toBe(1);
    expect(runs.get('1020')).toBe(1);
    expect(runs.get('980')).toBe(1);
    dispose();
  });
});

describe('ladder row marks', () => {
  const withOrders = (ownOrders: { orderId: string; price: bigint; remaining: bigint }[], bid: bigint) =>
    buildLadderRows({
      rows: layoutRows(1000n, 10n, 5),
      step: 10n,
      marketId: 'm',
      bids: [{ price: 1000n, quantity: bid }],
      asks: [{ price: 1010n, quantity: 5n }],
      volumeAtPrice: [],
      lastTrade: null,
      ownOrders: ownOrders.map((order) => ({ ...order, marketId: 'm', side: 'Buy' as const })),
    });

  it('tells the own order ids of a row when they change, and not when only its figures do', () => {
    const seen: string[][] = [];
    const { cells, cell, dispose } = createRoot((disposer) => {
      const rowCells = createRowCells();
      rowCells.apply(withOrders([], 1n));
      const watched = rowCells.list().find((candidate) => candidate.key() === '990')!;
      createRenderEffect(() => seen.push([...watched.marks().ownBuyIds]));
      return { cells: rowCells, cell: watched, dispose: disposer };
    });
    cells.apply(withOrders([{ orderId: 'o1', price: 990n, remaining: 2n }], 1n));
    cells.apply(withOrders([{ orderId: 'o1', price: 990n, remaining: 1n }], 3n));
    cells.apply(withOrders([{ orderId: 'o1', price: 990n, remaining: 1n }, { orderId: 'o2', price: 990n, remaining: 1n }], 3n));
    cells.apply(withOrders([], 3n));
    expect(cell.latest().ownBuyCount).toBe(0);
    expect(seen).toEqual([[], ['o1'], ['o1', 'o2'], []]);
    dispose();
  });
});

describe('ladder row cells off screen', () => {
  const rowsAt = (bid: bigint) =>
    buildLadderRows({ rows: layoutRows(1000n, 10n, 5), step: 10n, marketId: 'm', bids: [{ price: 1000n, quantity: bid }], asks: [{ price: 1010n, quantity: 5n }], volumeAtPrice: [], lastTrade: null, ownOrders: [] });

  it('a row not drawn is not told of new figures; shown again it gets the newest at once', () => {
    const { cells, bidCell, seen, dispose } = createRoot((disposer) => {
      const rowCells = createRowCells();
      rowCells.apply(rowsAt(1n));
      const cell = rowCells.list().find((candidate) => candidate.key() === '1000')!;
      const bids: bigint[] = [];
      cell.onRow((row) => bids.push(row.bid));
      return { cells: rowCells, bidCell: cell, seen: bids, dispose: disposer };
    });
    cells.setShown(bidCell, false);
    cells.apply(rowsAt(2n));
    cells.apply(rowsAt(3n));
    expect(seen).toEqual([1n]);
    // buildLadderFrame's `previous` is the newest row, drawn or not.
    expect(cells.current(1000n, cells.list().indexOf(bidCell))?.bid).toBe(3n);
    cells.setShown(bidCell, true);
    expect(seen).toEqual([1n, 3n]);
    cells.apply(rowsAt(4n));
    expect(seen).toEqual([1n, 3n, 4n]);
    // Hidden and shown again with nothing new: no redraw.
    cells.setShown(bidCell, false);
    cells.setShown(bidCell, true);
    expect(seen).toEqual([1n, 3n, 4n]);
    dispose();
  });
});

describe('pushed state keeps row identity', () => {
  const order = (orderId: string, filled: bigint): OrderView => ({ orderId, marketId: 'm', side: 'Buy', orderType: 'Limit', price: 1n, quantity: 10n, filled, averagePrice: 0n, status: 'open', turbo: false, account: 'a', time: 1 });

  it('applies an orders snapshot keyed by order id', async () => {
    let push: ((snapshot: { open: OrderView[]; fills: [] }) => void) | null = null;
    const notReady = () => Promise.resolve(fail('NOT_READY', 'not yet'));
    const api = new Proxy({} as TerminalApi, {
      get: (_target, name: string) => {
        if (name === 'onOrders') return (listener: typeof push) => ((push = listener), () => undefined);
        if (name.startsWith('on')) return () => () => undefined;
        if (name === 'getOrders') return () => Promise.resolve(ok({ open: [order('a', 0n), order('b', 0n)], fills: [] }));
        return notReady;
      },
    });
    await createRoot(async (dispose) => {
      const store = createTerminalStore(api, () => 0);
      await new Promise((resolve) => setTimeout(resolve, 0));
      const [a, b] = store.state.openOrders;
      expect(a?.orderId).toBe('a');
      push!({ open: [order('a', 0n), order('b', 4n), order('c', 0n)], fills: [] });
      expect(store.state.openOrders[0]).toBe(a);
      expect(store.state.openOrders[1]).toBe(b);
      expect(store.state.openOrders[1]?.filled).toBe(4n);
      expect(store.state.openOrders).toHaveLength(3);
      expect(store.state.problems.balances).toBe('not yet');
      store.dispose();
      dispose();
    });
  });
});

describe('an orders push applied row by row when only members changed', () => {
  const order = (orderId: string, filled: bigint, status: OrderView['status'] = 'open'): OrderView => ({ orderId, marketId: 'm', side: 'Buy', orderType: 'Limit', price: 1n, quantity: 10n, filled, averagePrice: 0n, status, turbo: false, account: 'a', time: 1 });

  it('names the changed rows when the keys stand as they were, and nothing when a row came, went or moved', () => {
    const held = [order('a', 0n), order('b', 0n), order('c', 0n)];
    expect(changedInPlace(held, [order('a', 0n), order('b', 4n, 'partially-filled'), order('c', 0n)], 'orderId')).toEqual([1]);
    expect(changedInPlace(held, held.map((row) => ({ ...row })), 'orderId')).toEqual([]);
    expect(changedInPlace(held, [order('a', 0n), order('b', 0n)], 'orderId')).toBeNull();
    expect(changedInPlace(held, [order('b', 0n), order('a', 0n), order('c', 0n)], 'orderId')).toBeNull();
    expect(changedInPlace(held, [order('a', 0n), order('x', 0n), order('c', 0n)], 'orderId')).toBeNull();
  });

  it('shows every push as main sent it, the same row objects per order, through fills in place, placements and cancels', async () => {
    let push: ((snapshot: { open: OrderView[]; fills: [] }) => void) | null = null;
    const api = new Proxy({} as TerminalApi, {
      get: (_target, name: string) => {
        if (name === 'onOrders') return (listener: typeof push) => ((push = listener), () => undefined);
        if (name.startsWith('on')) return () => () => undefined;
        if (name === 'getOrders') return () => Promise.resolve(ok({ open: [order('a', 0n), order('b', 0n), order('c', 0n)], fills: [] }));
        return () => Promise.resolve(fail('NOT_READY', 'not yet'));
      },
    });
    await createRoot(async (dispose) => {
      const store = createTerminalStore(api, () => 0);
      await new Promise((resolve) => setTimeout(resolve, 0));
      const rows = () => store.state.openOrders.map((row) => `${row.orderId}:${row.filled}:${row.status}`);
      const [a, b, c] = store.state.openOrders;
      const filledSeen: bigint[] = [];
      createRenderEffect(() => filledSeen.push(b!.filled));
      // A partial fill of b: its row object stays and its member changes (a row drawn from it updates).
      push!({ open: [order('a', 0n), order('b', 4n, 'partially-filled'), order('c', 0n)], fills: [] });
      expect(rows()).toEqual(['a:0:open', 'b:4:partially-filled', 'c:0:open']);
      expect(store.state.openOrders[1]).toBe(b);
      expect(filledSeen).toEqual([0n, 4n]);
      // A placement on top and a cancel at the bottom: reconciled by key, the kept rows keep their objects.
      push!({ open: [order('d', 0n), order('a', 0n), order('b', 4n, 'partially-filled')], fills: [] });
      expect(rows()).toEqual(['d:0:open', 'a:0:open', 'b:4:partially-filled']);
      expect(store.state.openOrders[1]).toBe(a);
      expect(store.state.openOrders[2]).toBe(b);
      expect(store.state.openOrders).not.toContain(c);
      // Two changed at once, in place.
      push!({ open: [order('d', 1n, 'partially-filled'), order('a', 0n), order('b', 6n, 'partially-filled')], fills: [] });
      expect(rows()).toEqual(['d:1:partially-filled', 'a:0:open', 'b:6:partially-filled']);
      expect(filledSeen).toEqual([0n, 4n, 6n]);
      store.dispose();
      dispose();
    });
  });
});

describe('retry while NOT_READY', () => {
  it('retries on a timer until main answers, then stops', async () => {
    const answers = [fail('NOT_READY', 'starting'), fail('NOT_READY', 'starting'), ok(7)];
    const seen: unknown[] = [];
    const timers: (() => void)[] = [];
    retryWhileNotReady(() => Promise.resolve(answers.shift()!), (result) => seen.push(result.ok ? result.value : result.code), { setTimer: (callback) => timers.push(callback), clearTimer: () => undefined });
    for (let round = 0; round < 3; round++) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      timers.shift()?.();
    }
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(seen).toEqual(['NOT_READY', 'NOT_READY', 7]);
    expect(timers).toHaveLength(0);
  });
  it('does not retry other failures', async () => {
    const timers: (() => void)[] = [];
    const seen: string[] = [];
    retryWhileNotReady(() => Promise.resolve(fail('UNKNOWN_MARKET', 'no')), (result) => seen.push(result.ok ? 'ok' : result.code), { setTimer: (callback) => timers.push(callback) });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(seen).toEqual(['UNKNOWN_MARKET']);
    expect(timers).toHaveLength(0);
  });
});

describe('ticket drafts per market', () => {
  it('post-only toggles between Limit and PostOnly, per market', () => {
    createRoot((dispose) => {
      const tickets = createTicketStore();
      expect(tickets.togglePostOnly('m')).toBe('PostOnly');
      expect(tickets.draft('m').kind).toBe('PostOnly');
      expect(tickets.draft('other').kind).toBe('Limit');
      expect(tickets.togglePostOnly('m')).toBe('Limit');
      tickets.update('m', { kind: 'Market' });
      expect(tickets.togglePostOnly('m')).toBe('PostOnly');
      dispose();
    });
  });
});

describe("the ladder's own size", () => {
  it("is per market and book, written by default once, and never the ticket's quantity", () => {
    createRoot((dispose) => {
      const tickets = createTicketStore();
      const sizes = createLadderSizes();
      sizes.offerDefault('m', false, '0.001');
      tickets.update('m', { quantityText: '33.4' });
      expect(sizes.text('m', false)).toBe('0.001');
      expect(sizes.text('m', true)).toBe('');
      // Cleared by the trader: stays empty, the default is not written again.
      sizes.set('m', false, '');
      sizes.offerDefault('m', false, '0.002');
      expect(sizes.text('m', false)).toBe('');
      expect(tickets.draft('m').quantityText).toBe('33.4');
      dispose();
    });
  });
});
