import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FlowWindow, TradeView } from '../../../../../shared/ipc/views';
import { keepNearest, OrderFlow } from '../../../../../main/services/market-data/order-flow';
import { checkProperty } from '../../../../support/property';

const MINUTE = 60_000;
const trade = (price: bigint, quantity: bigint, side: 'Buy' | 'Sell', time: number) => ({ price, quantity, side, time }) satisfies Pick<TradeView, 'price' | 'quantity' | 'side' | 'time'>;

type Trade = ReturnType<typeof trade>;
type Read = { readonly window: FlowWindow; readonly now: number };

/** Trades (times up to `maxTime`) and reads of `windows` (at times up to `maxNow`), mixed. */
const tradesAndReads = (maxTime: number, maxNow: number, windows: readonly FlowWindow[], maxLength: number) =>
  fc.array(
    fc.oneof(
      fc.record({ price: fc.bigInt({ min: 1n, max: 6n }), quantity: fc.bigInt({ min: 1n, max: 9n }), side: fc.constantFrom('Buy' as const, 'Sell' as const), time: fc.integer({ min: 0, max: maxTime }) }),
      fc.record({ window: fc.constantFrom(...windows), now: fc.integer({ min: 0, max: maxNow }) }),
    ),
    { maxLength },
  );

/** Feed the trades to one flow in order; at each read, check it against the trades added so far. */
function replay(steps: readonly (Trade | Read)[], check: (flow: OrderFlow, read: Read, added: readonly Trade[]) => void): void {
  const flow = new OrderFlow();
  const added: Trade[] = [];
  for (const item of steps) {
    if ('price' in item) {
      flow.add(item);
      added.push(item);
    } else check(flow, item, added);
  }
}

describe('order flow', () => {
  it('splits volume at each price by the taker side, for the session and recent windows', () => {
    const flow = new OrderFlow();
    flow.add(trade(100n, 3n, 'Buy', 0));
    flow.add(trade(100n, 2n, 'Sell', 10 * MINUTE));
    flow.add(trade(101n, 1n, 'Buy', 58 * MINUTE));
    flow.add(trade(100n, 5n, 'Buy', 62 * MINUTE));
    const now = 62 * MINUTE + 1;
    expect(flow.rows('session', now)).toEqual(new Map([[100n, { bought: 8n, sold: 2n }], [101n, { bought: 1n, sold: 0n }]]));
    // The last hour: minutes 3..62 (the trade at minute 0 is out).
    expect(flow.rows('1h', now)).toEqual(new Map([[100n, { bought: 5n, sold: 2n }], [101n, { bought: 1n, sold: 0n }]]));
    // The last 5 minutes: minutes 58..62.
    expect(flow.rows('5m', now)).toEqual(new Map([[100n, { bought: 5n, sold: 0n }], [101n, { bought: 1n, sold: 0n }]]));
    // Time passing empties a window without any trade.
    expect(flow.rows('5m', 70 * MINUTE).size).toBe(0);
  });

  it('a window ends at the newest trade when the exchange clock runs ahead of ours', () => {
    const flow = new OrderFlow();
    flow.add(trade(100n, 1n, 'Buy', 500 * MINUTE));
    expect(flow.rows('5m', 0)).toEqual(new Map([[100n, { bought: 1n, sold: 0n }]]));
  });

  it('keeps at most its row cap, dropping the prices farthest from the last trade', () => {
    const flow = new OrderFlow(8);
    for (let price = 1n; price <= 9n; price++) flow.add(trade(price * 10n, 1n, 'Buy', 0));
    const prices = [...flow.rows('session', 0).keys()].sort((a, b) => (a < b ? -1 : 1));
    expect(prices).toEqual([40n, 50n, 60n, 70n, 80n, 90n]);
    const table = new Map([[5n, 1], [1n, 1], [9n, 1]]);
    keepNearest(table, 5n, 2);
    expect([...table.keys()].sort()).toEqual([1n, 5n]);
  });

  it('for any trades: the session is every trade once per side, and each window is within the session and the hour within it', () => {
    const trades = fc.array(
      fc.record({ price: fc.bigInt({ min: 1n, max: 20n }), quantity: fc.bigInt({ min: 1n, max: 1_000n }), side: fc.constantFrom('Buy' as const, 'Sell' as const), time: fc.integer({ min: 0, max: 180 * MINUTE }) }),
      { maxLength: 60 },
    );
    checkProperty(
      fc.property(trades, fc.integer({ min: 0, max: 200 * MINUTE }), (list, now) => {
        const flow = new OrderFlow();
        for (const item of list) flow.add(item);
        const session = flow.rows('session', now);
        const sum = (side: 'Buy' | 'Sell') => list.filter((item) => item.side === side).reduce((total, item) => total + item.quantity, 0n);
        const total = (rows: ReadonlyMap<bigint, { bought: bigint; sold: bigint }>, key: 'bought' | 'sold') => [...rows.values()].reduce((acc, cell) => acc + cell[key], 0n);
        expect(total(session, 'bought')).toBe(sum('Buy'));
        expect(total(session, 'sold')).toBe(sum('Sell'));
        const hour = flow.rows('1h', now);
        const five = flow.rows('5m', now);
        for (const [price, cell] of five) {
          expect(cell.bought).toBeLessThanOrEqual(hour.get(price)!.bought);
          expect(cell.sold).toBeLessThanOrEqual(hour.get(price)!.sold);
        }
        for (const [price, cell] of hour) {
          expect(cell.bought).toBeLessThanOrEqual(session.get(price)!.bought);
          expect(cell.sold).toBeLessThanOrEqual(session.get(price)!.sold);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('for any trades, late ones included, and reads between them: each window is the trades of its minutes summed (sealed minutes reopened by a late trade)', () => {
    checkProperty(
      fc.property(tradesAndReads(150 * MINUTE, 200 * MINUTE, ['5m', '1h'], 60), (steps) =>
        replay(steps, (flow, read, added) => {
          const newest = Math.max(0, ...added.map((earlier) => earlier.time));
          const end = Math.floor(Math.max(read.now, newest) / MINUTE);
          const from = end - (read.window === '5m' ? 5 : 60) + 1;
          const want = new Map<bigint, { bought: bigint; sold: bigint }>();
          for (const earlier of added) {
            const minute = Math.floor(earlier.time / MINUTE);
            if (minute < from || minute > end) continue;
            const cell = want.get(earlier.price) ?? { bought: 0n, sold: 0n };
            want.set(earlier.price, earlier.side === 'Buy' ? { bought: cell.bought + earlier.quantity, sold: cell.sold } : { bought: cell.bought, sold: cell.sold + earlier.quantity });
          }
          expect(flow.rows(read.window, read.now)).toEqual(want);
        }),
      ),
      { numRuns: 300 },
    );
  });

  it('for any trades and reads in any order: each read equals the window summed afresh from the trades so far (no stale sum)', () => {
    checkProperty(
      fc.property(tradesAndReads(20 * MINUTE, 90 * MINUTE, ['5m', '1h', 'session'], 40), (steps) =>
        replay(steps, (flow, read, added) => {
          const fresh = new OrderFlow();
          for (const earlier of added) fresh.add(earlier);
          expect(flow.rows(read.window, read.now)).toEqual(fresh.rows(read.window, read.now));
        }),
      ),
      { numRuns: 300 },
    );
  });
});
