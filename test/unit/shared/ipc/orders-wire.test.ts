// The orders stream as changes (shared/ipc/orders-wire.ts, main/host/orders-wire-encoder.ts): the
// state a receiver builds from a change is the sender's, member for member, on any two states; the
// orders and fills that did not change stay the objects the receiver held; a change that does not
// fit is refused and the receiver waits for the whole state; the encoder numbers each state once
// for every connection and sends each the change or the whole state it needs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OrdersWireEncoder } from '../../../../main/host/orders-wire-encoder';
import { decodeFrame, encodeFrame } from '../../../../shared/ipc/codec';
import { applyOrdersChange, diffOrders, OrdersWireDecoder, type OrdersWire } from '../../../../shared/ipc/orders-wire';
import type { FillView, OrdersSnapshot, OrderView } from '../../../../shared/ipc/views/trading';
import { checkProperty } from '../../../support/property';

function order(id: string, more: Partial<OrderView> = {}): OrderView {
  return Object.freeze({
    orderId: id,
    marketId: 'eth-usdc',
    side: 'Buy',
    orderType: 'Limit',
    price: 3_000_000_000n,
    quantity: 5_000_000_000n,
    filled: 0n,
    averagePrice: 0n,
    status: 'open',
    turbo: false,
    account: '',
    time: 1_700_000_000_000,
    ...more,
  } as OrderView);
}

function fill(id: string, more: Partial<FillView> = {}): FillView {
  return Object.freeze({ orderId: id, marketId: 'eth-usdc', side: 'Buy', price: 3_000_000_000n, quantity: 1_000n, fee: 1n, turbo: false, account: '', time: 1_700_000_000_000, ...more } as FillView);
}

/** Through the wire's text and back, as the page receives it (bigints tagged, new objects). */
function overTheWire<T>(value: T): T {
  return decodeFrame(encodeFrame(value)) as T;
}

describe('orders changes', () => {
  it('a new order and a fill: only they travel, and the rest stay the objects held', () => {
    const held: OrdersSnapshot = { open: [order('a'), order('b')], fills: [fill('x')] };
    const placed = order('c', { time: 1_700_000_000_500 });
    const partly = order('a', { filled: 1_000n, status: 'partially-filled' });
    const next: OrdersSnapshot = { open: [placed, held.open[1]!, partly], fills: [fill('a', { time: 2 }), held.fills[0]!] };
    const change = diffOrders(held, next)!;
    expect(change.upserted).toEqual([placed, partly]);
    expect(change.removed).toEqual([]);
    // The rule puts the new one first and keeps b before a: the order must be said.
    expect(change.order).toEqual(['c', 'b', 'a']);
    expect(change.fills).toEqual({ added: [next.fills[0]], count: 2 });
    const applied = applyOrdersChange(held, overTheWire(change))!;
    expect(applied).toEqual(next);
    expect(applied.open[1]).toBe(held.open[1]);
    expect(applied.fills[1]).toBe(held.fills[0]);
  });

  it('an order placed on top of 500 resting: the change is a small part of the whole list', () => {
    const resting = Array.from({ length: 500 }, (_, index) => order(`o${index}`, { time: 1_000 - index }));
    const held: OrdersSnapshot = { open: resting, fills: Array.from({ length: 200 }, (_, index) => fill(`f${index}`)) };
    const next: OrdersSnapshot = { open: [order('new', { time: 2_000 }), ...resting], fills: held.fills };
    const change = diffOrders(held, next)!;
    expect(change).toEqual({ upserted: [next.open[0]], removed: [], order: null, fills: { added: [], count: 200 } });
    expect(encodeFrame(change).length * 50).toBeLessThan(encodeFrame(next).length);
    expect(applyOrdersChange(held, change)!.fills).toBe(held.fills);
  });

  it('refuses a change that does not fit what is held', () => {
    const held: OrdersSnapshot = { open: [order('a')], fills: [fill('x')] };
    expect(applyOrdersChange(held, { upserted: [], removed: ['zz'], order: null, fills: { added: [], count: 1 } })).toBeNull();
    expect(applyOrdersChange(held, { upserted: [order('a')], removed: ['a'], order: null, fills: { added: [], count: 1 } })).toBeNull();
    expect(applyOrdersChange(held, { upserted: [order('b'), order('b')], removed: [], order: null, fills: { added: [], count: 1 } })).toBeNull();
    expect(applyOrdersChange(held, { upserted: [], removed: [], order: ['a', 'a'], fills: { added: [], count: 1 } })).toBeNull();
    expect(applyOrdersChange(held, { upserted: [], removed: [], order: ['b'], fills: { added: [], count: 1 } })).toBeNull();
    expect(applyOrdersChange(held, { upserted: [], removed: [], order: null, fills: { added: [], count: 2 } })).toBeNull();
    expect(applyOrdersChange(held, { upserted: [], removed: [], order: null, fills: { added: [fill('y'), fill('z')], count: 1 } })).toBeNull();
    // A list naming an order twice has no change: the whole state says it.
    expect(diffOrders(held, { open: [order('a'), order('a')], fills: [] })).toBeNull();
  });

  it('the receiver builds the sender\'s state from any two states, keeping what did not change', () => {
    const ids = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    const anOrder = fc.record({ id: fc.constantFrom(...ids), filled: fc.constantFrom(0n, 1n, 2n), time: fc.integer({ min: 0, max: 3 }) }).map(({ id, filled, time }) => order(id, { filled, time }));
    const aFill = fc.record({ id: fc.constantFrom(...ids), quantity: fc.constantFrom(1n, 2n) }).map(({ id, quantity }) => fill(id, { quantity }));
    const orders = fc.uniqueArray(anOrder, { selector: (view) => view.orderId, maxLength: 7 });
    const fills = fc.array(aFill, { maxLength: 6 });
    // The next state: some of the held orders as the same objects, some as equal copies, some
    // changed, some gone, new ones, in any order; the fills new ones ahead of a cut of the held ones, or any list.
    const step = fc.record({
      keep: fc.array(fc.constantFrom('same', 'copy', 'gone'), { minLength: 7, maxLength: 7 }),
      fresh: orders,
      shuffle: fc.array(fc.nat(), { minLength: 14, maxLength: 14 }),
      newFills: fills,
      cut: fc.nat({ max: 6 }),
      anyFills: fc.option(fills, { nil: undefined }),
    });
    checkProperty(
      fc.property(orders, fills, step, (heldOpen, heldFills, plan) => {
        const held: OrdersSnapshot = { open: heldOpen, fills: heldFills };
        const kept = heldOpen.flatMap((view, index) => (plan.keep[index] === 'gone' ? [] : [plan.keep[index] === 'same' ? view : { ...view }]));
        const keptIds = new Set(kept.map((view) => view.orderId));
        const listed = [...kept, ...plan.fresh.filter((view) => !keptIds.has(view.orderId))];
        const open = listed.map((view, index) => ({ view, key: plan.shuffle[index] ?? 0 })).sort((left, right) => left.key - right.key).map(({ view }) => view);
        const next: OrdersSnapshot = { open, fills: plan.anyFills ?? [...plan.newFills, ...heldFills.slice(0, plan.cut)] };
        const change = diffOrders(held, next);
        expect(change).not.toBeNull();
        const applied = applyOrdersChange(held, overTheWire(change!));
        expect(applied).toEqual(next);
        // Every order that did not change is the object held, not a copy off the wire.
        const heldById = new Map(heldOpen.map((view) => [view.orderId, view]));
        for (const view of applied!.open) {
          const before = heldById.get(view.orderId);
          if (before !== undefined && JSON.stringify(before, (_, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value)) === JSON.stringify(view, (_, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value))) expect(view).toBe(before);
        }
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('the receiving end', () => {
  it('takes the whole state, applies changes on it, and on a change of another base asks for the whole state and waits for it', () => {
    const decoder = new OrdersWireDecoder();
    const first: OrdersSnapshot = { open: [order('a')], fills: [] };
    const second: OrdersSnapshot = { open: [order('b'), order('a')], fills: [] };
    expect(decoder.receive(overTheWire({ kind: 'change', version: 2, base: 1, ...diffOrders(first, second)! }))).toBe('resync');
    expect(decoder.receive(overTheWire({ kind: 'all', version: 1, ...first }))).toEqual(first);
    const applied = decoder.receive(overTheWire({ kind: 'change', version: 2, base: 1, ...diffOrders(first, second)! }));
    expect(applied).toEqual(second);
    // A change that skips a state: refused once, then changes are ignored until the whole state comes.
    expect(decoder.receive(overTheWire({ kind: 'change', version: 4, base: 3, ...diffOrders(second, first)! }))).toBe('resync');
    expect(decoder.receive(overTheWire({ kind: 'change', version: 5, base: 4, ...diffOrders(first, second)! }))).toBeNull();
    expect(decoder.receive(overTheWire({ kind: 'all', version: 5, ...second }))).toEqual(second);
    // A base that matches but a change that does not fit (an order removed that is not held).
    expect(decoder.receive({ kind: 'change', version: 6, base: 5, upserted: [], removed: ['zz'], order: null, fills: { added: [], count: 0 } })).toBe('resync');
    for (const malformed of [null, 'x', { kind: 'all', version: 'v', open: [], fills: [] }, { kind: 'all', version: 7, open: {}, fills: [] }, { kind: 'other', version: 8 }]) expect(decoder.receive(malformed)).toBeNull();
  });

  it('hands a transport\'s listeners other streams as they came, the orders as the whole state, and asks once for the whole state when a change does not fit', () => {
    const decoder = new OrdersWireDecoder();
    let asked = 0;
    const askAll = () => asked++;
    const book = { marketId: 'eth-usdc' };
    expect(decoder.forListeners('book', book, askAll)).toEqual({ payload: book });
    const first: OrdersSnapshot = { open: [order('a')], fills: [] };
    const second: OrdersSnapshot = { open: [order('b'), order('a')], fills: [] };
    const change = { kind: 'change', version: 2, base: 1, ...diffOrders(first, second)! };
    expect(decoder.forListeners('orders', change, askAll)).toBeNull();
    expect(decoder.forListeners('orders', change, askAll)).toBeNull();
    expect(asked).toBe(1);
    expect(decoder.forListeners('orders', { kind: 'all', version: 1, ...first }, askAll)).toEqual({ payload: first });
    expect(decoder.forListeners('orders', change, askAll)).toEqual({ payload: second });
    expect(asked).toBe(1);
  });
});

describe('the sending end', () => {
  const encoder = () => {
    const written: OrdersWire[] = [];
    const sender = new OrdersWireEncoder((wire) => {
      written.push(wire);
      return encodeFrame(wire);
    });
    return { sender, written };
  };

  it('numbers a state once for every connection, sends the change to those that had the state before and the whole state to the others', () => {
    const { sender, written } = encoder();
    const first: OrdersSnapshot = { open: [order('a')], fills: [] };
    const one = sender.frameFor(first, 0)!;
    expect(decodeFrame(one.text)).toEqual({ kind: 'all', version: 1, ...first });
    expect(sender.frameFor(first, one.version)).toBeNull();
    const second: OrdersSnapshot = { open: [order('b'), ...first.open], fills: [] };
    const changed = sender.frameFor(second, one.version)!;
    const again = sender.frameFor(second, one.version)!;
    expect(again.text).toBe(changed.text);
    expect(decodeFrame(changed.text)).toMatchObject({ kind: 'change', version: 2, base: 1, upserted: [order('b')], removed: [] });
    // A connection that held nothing, or an older state, gets the whole state.
    expect(decodeFrame(sender.frameFor(second, 0)!.text)).toEqual({ kind: 'all', version: 2, ...second });
    // An equal state in a new payload keeps its number; a resync is the whole latest state.
    expect(sender.frameFor({ open: [order('b'), order('a')], fills: [] }, 2)).toBeNull();
    expect(decodeFrame(sender.resync()!.text)).toEqual({ kind: 'all', version: 2, ...second });
    // Each frame was written once: the whole first, the change, the whole second.
    expect(written.map((wire) => wire.kind)).toEqual(['all', 'change', 'all']);
  });

  it('a payload changed in place after it was sent is a new state, its change taken against what was sent', () => {
    const { sender } = encoder();
    const fills: FillView[] = [fill('x')];
    const first = sender.frameFor({ open: [], fills }, 0)!;
    fills.unshift(fill('y'));
    const second = sender.frameFor({ open: [], fills }, first.version)!;
    const decoder = new OrdersWireDecoder();
    decoder.receive(decodeFrame(first.text));
    expect(decoder.receive(decodeFrame(second.text))).toEqual({ open: [], fills: [fill('y'), fill('x')] });
  });
});
