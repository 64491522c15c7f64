// The fill store of one book: stream orders and REST trades meet on (order, place in order), no
// fill is ever counted twice, and a read is authoritative for what happened before it began.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AccountTrade, Order } from '../../../../../shared/api/market-schemas';
import type { B256 } from '../../../../../shared/encoding/b256';
import { compareFills, FillBook } from '../../../../../main/services/fills/fill-book';
import { FillSource } from '../../../../../main/services/fills/fill-source';
import { ok } from '../../../../../shared/result';
import { checkProperty } from '../../../../support/property';

const id = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as B256;

interface TrueFill {
  readonly order: number;
  readonly price: bigint;
  readonly quantity: bigint;
  readonly fee: bigint;
  readonly timestamp: bigint;
}

function orderOf(order: number, side: 'Buy' | 'Sell', fills: readonly TrueFill[]): Pick<Order, 'order_id' | 'side' | 'fills'> {
  return { order_id: id(order), side, fills: fills.map((fill) => ({ order_id: id(order), price: fill.price, quantity: fill.quantity, fee: fill.fee, timestamp: fill.timestamp })) };
}

function tradeOf(fill: TrueFill, sequence: number, side: 'Buy' | 'Sell'): AccountTrade {
  return {
    trade_id: `t${sequence}`,
    side,
    price: fill.price,
    quantity: fill.quantity,
    total: 0n,
    timestamp: fill.timestamp,
    role: 'maker',
    account_side: side,
    order_id: id(fill.order),
    fee: fill.fee,
  } as AccountTrade;
}

const sideOf = (order: number): 'Buy' | 'Sell' => (order % 2 === 0 ? 'Buy' : 'Sell');

describe('FillBook', () => {
  const a1: TrueFill = { order: 1, price: 100n, quantity: 5n, fee: 1n, timestamp: 10n };
  const a2: TrueFill = { order: 1, price: 101n, quantity: 3n, fee: 1n, timestamp: 11n };
  const b1: TrueFill = { order: 2, price: 99n, quantity: 2n, fee: 0n, timestamp: 12n };

  it('counts a fill the stream repeats and the read confirms once', () => {
    const book = new FillBook();
    book.take(orderOf(1, 'Sell', [a1]), 0);
    book.take(orderOf(1, 'Sell', [a1]), 1);
    book.take(orderOf(1, 'Sell', [a1, a2]), 2);
    expect(book.fills()).toHaveLength(2);
    book.applyRead([tradeOf(a1, 1, 'Sell'), tradeOf(a2, 2, 'Sell')], 3, true);
    expect(book.fills().map((fill) => [fill.index, fill.tradeId])).toEqual([
      [0, 't1'],
      [1, 't2'],
    ]);
    expect(book.unconfirmed()).toBe(0);
  });

  it('drops a streamed fill a later read does not know, keeps one reported after the read began', () => {
    const book = new FillBook();
    book.take(orderOf(2, 'Buy', [b1]), 0);
    // The read began at arrival 1: it is authoritative for the report at 0.
    book.applyRead([tradeOf(a1, 1, 'Sell')], 1, true);
    expect(book.fills().map((fill) => fill.orderId)).toEqual([id(1)]);
    book.take(orderOf(1, 'Sell', [a1, a2]), 5);
    // A read that began before that report (arrival 4) keeps the fill it did not see yet.
    book.applyRead([], 4, false);
    expect(book.fills()).toHaveLength(2);
    expect(book.unconfirmed()).toBe(1);
  });

  it('applies fills oldest first: fill time, then order id, then the place in the order', () => {
    const book = new FillBook();
    const early: TrueFill = { order: 9, price: 1n, quantity: 1n, fee: 0n, timestamp: 1n };
    book.take(orderOf(1, 'Sell', [a1, a2]), 0);
    book.take(orderOf(9, 'Buy', [early]), 1);
    expect(book.fills().map((fill) => [fill.timestamp, fill.index])).toEqual([
      [1n, 0],
      [10n, 0],
      [11n, 1],
    ]);
  });

  it('after any interleaving of stream reports and reads, a final read leaves exactly the exchange fills, and none is ever counted twice', () => {
    const history = fc.array(fc.record({ order: fc.integer({ min: 1, max: 6 }), price: fc.bigInt({ min: 1n, max: 1000n }), quantity: fc.bigInt({ min: 1n, max: 50n }), fee: fc.bigInt({ min: 0n, max: 3n }) }), { minLength: 1, maxLength: 30 });
    const events = fc.array(fc.oneof(fc.record({ kind: fc.constant('report' as const), order: fc.integer({ min: 1, max: 6 }), lag: fc.integer({ min: 0, max: 3 }) }), fc.record({ kind: fc.constant('read' as const), lag: fc.integer({ min: 0, max: 3 }) })), { maxLength: 40 });
    checkProperty(
      fc.property(history, events, (made, script) => {
        const fills: TrueFill[] = made.map((fill, index) => ({ ...fill, timestamp: BigInt(index) }));
        const book = new FillBook();
        let arrivals = 0;
        let now = 0;
        const step = Math.max(1, Math.floor(fills.length / Math.max(1, script.length)));
        for (const event of script) {
          now = Math.min(fills.length, now + step);
          const happened = fills.slice(0, now);
          if (event.kind === 'report') {
            // The stream reports the order as it was a little earlier (lag), never a fill that did not happen.
            const seen = happened.slice(0, Math.max(0, now - event.lag)).filter((fill) => fill.order === event.order);
            book.take(orderOf(event.order, sideOf(event.order), seen), arrivals++);
          } else {
            const since = arrivals;
            book.applyRead(
              happened.map((fill, sequence) => tradeOf(fill, sequence, sideOf(fill.order))),
              since,
              !book.ready || event.lag === 0,
            );
          }
          const held = book.fills();
          // Kept in order as fills are appended, as a full sort would put them.
          expect(held.map((fill) => `${fill.orderId}/${fill.index}`)).toEqual([...held].sort(compareFills).map((fill) => `${fill.orderId}/${fill.index}`));
          for (const order of new Set(held.map((fill) => fill.orderId))) {
            const count = held.filter((fill) => fill.orderId === order).length;
            expect(count).toBeLessThanOrEqual(fills.filter((fill) => id(fill.order) === order).length);
          }
        }
        book.applyRead(
          fills.map((fill, sequence) => tradeOf(fill, sequence, sideOf(fill.order))),
          arrivals,
          false,
        );
        const want = fills.map((fill) => `${id(fill.order)} ${fill.timestamp} ${fill.price} ${fill.quantity} ${fill.fee}`);
        expect(book.fills().map((fill) => `${fill.orderId} ${fill.timestamp} ${fill.price} ${fill.quantity} ${fill.fee}`)).toEqual(want);
      }),
    );
  });
});

describe('FillSource', () => {
  it('reads a book once, then serves fills from what orders report, and reads again only after a resync', async () => {
    const trades: AccountTrade[] = [];
    let reads = 0;
    const source = new FillSource({
      rest: {
        getTradesByAccount: (query) => {
          reads++;
          const newestFirst = [...trades].reverse();
          const from = query.start_trade_id === undefined ? 0 : newestFirst.findIndex((trade) => trade.trade_id === query.start_trade_id) + 1;
          return Promise.resolve(ok({ trades: newestFirst.slice(from, from + (query.count ?? 50)) }));
        },
      },
      log: () => undefined,
    });
    const account = id(77);
    const market = id(5);
    for (let n = 0; n < 120; n++) trades.push(tradeOf({ order: 100 + n, price: 10n, quantity: 1n, fee: 0n, timestamp: BigInt(n) }, n, 'Buy'));
    const first = await source.fills(account, market, false);
    expect(first.ok && first.value.length).toBe(120);
    expect(reads).toBe(3);
    // Fills on the stream: no read.
    for (let n = 0; n < 10; n++) {
      const fill: TrueFill = { order: 500 + n, price: 11n, quantity: 1n, fee: 0n, timestamp: BigInt(200 + n) };
      trades.push(tradeOf(fill, 200 + n, 'Sell'));
      source.take(account, market, false, orderOf(500 + n, 'Sell', [fill]));
      const now = await source.fills(account, market, false);
      expect(now.ok && now.value.length).toBe(121 + n);
    }
    expect(reads).toBe(3);
    // A resync while two fills went unreported: one read of the newest page finds them.
    for (const n of [10, 11]) trades.push(tradeOf({ order: 500 + n, price: 11n, quantity: 1n, fee: 0n, timestamp: BigInt(200 + n) }, 200 + n, 'Sell'));
    source.resync(account);
    const after = await source.fills(account, market, false);
    expect(after.ok && after.value.length).toBe(132);
    expect(after.ok && after.value.every((fill) => fill.tradeId !== null)).toBe(true);
    expect(reads).toBe(4);
  });
});
