// A minimised window gets no pushes; when it shows again it must not show what was true before it
// was hidden: an order that filled meanwhile, a connection that dropped, a journal entry or an
// alert it never saw.
import { describe, expect, it } from 'vitest';
import { MAX_MISSED_EVENTS, sameData, WindowHub } from '../../../../main/services/window-hub';
import type { StreamName } from '../../../../shared/ipc/contract';

function sink() {
  const received: { stream: StreamName; payload: unknown }[] = [];
  return { received, send: (stream: StreamName, payload: unknown) => received.push({ stream, payload }) };
}

// The hub passes payloads through untouched; their shape is the contract's business, not this test's.
const payload = <T>(value: unknown) => value as T;

describe('window hub', () => {
  it('sends a hidden window nothing, then the latest state of each stream and the events it missed, once', () => {
    const hub = new WindowHub();
    const shown = sink();
    const hidden = sink();
    hub.attach('a', shown);
    hub.attach('b', hidden);
    hub.setVisible('b', false);

    hub.broadcast('orders', payload({ open: ['o1'], fills: [] }));
    hub.broadcast('connection', payload({ rest: 'up' }));
    hub.broadcast('journal', payload({ seq: 1 }));
    hub.broadcast('orders', payload({ open: [], fills: ['f1'] }));
    hub.broadcast('notice', payload({ id: 'n1' }));
    hub.broadcast('fill', payload({ orderId: 'o1' }));
    hub.broadcast('connection', payload({ rest: 'down' }));
    expect(shown.received).toHaveLength(7);
    expect(hidden.received).toEqual([]);

    hub.setVisible('b', true);
    expect(hidden.received).toEqual([
      { stream: 'orders', payload: { open: [], fills: ['f1'] } },
      { stream: 'connection', payload: { rest: 'down' } },
      { stream: 'journal', payload: { seq: 1 } },
      { stream: 'notice', payload: { id: 'n1' } },
    ]);
    // Shown again (or told twice that it is visible): nothing is sent twice.
    hub.setVisible('b', true);
    expect(hidden.received).toHaveLength(4);
    hub.broadcast('balances', payload({ total: 1 }));
    expect(hidden.received.at(-1)).toEqual({ stream: 'balances', payload: { total: 1 } });
  });

  it('keeps at most MAX_MISSED_EVENTS events for a hidden window, the newest', () => {
    const hub = new WindowHub();
    const hidden = sink();
    hub.attach('b', hidden, false);
    for (let seq = 0; seq < MAX_MISSED_EVENTS + 50; seq++) hub.broadcast('journal', payload({ seq }));
    hub.setVisible('b', true);
    expect(hidden.received).toHaveLength(MAX_MISSED_EVENTS);
    expect(hidden.received[0]).toEqual({ stream: 'journal', payload: { seq: 50 } });
    expect(hidden.received.at(-1)).toEqual({ stream: 'journal', payload: { seq: MAX_MISSED_EVENTS + 49 } });
  });

  it('a window that closed while hidden is sent nothing', () => {
    const hub = new WindowHub();
    const hidden = sink();
    hub.attach('b', hidden, false);
    hub.broadcast('orders', payload({ open: [] }));
    hub.detach('b');
    hub.setVisible('b', true);
    expect(hidden.received).toEqual([]);
  });

  it('does not send an orders, balances or rate-limits push equal to the last one, and sends every change', () => {
    const hub = new WindowHub();
    const shown = sink();
    const hidden = sink();
    hub.attach('a', shown);
    hub.attach('b', hidden, false);
    const order = (filled: bigint) => ({ orderId: 'o1', price: 3_000_000_000n, quantity: 10n, filled, status: 'open', turbo: false });
    const snapshot = (filled: bigint) => payload<never>({ open: [order(filled)], fills: [] });

    hub.broadcast('orders', snapshot(0n));
    // The same orders in new objects (main builds a fresh snapshot each time): not sent again.
    hub.broadcast('orders', snapshot(0n));
    hub.broadcast('orders', snapshot(0n));
    expect(shown.received).toHaveLength(1);
    // A fill of one unit is a change.
    hub.broadcast('orders', snapshot(1n));
    expect(shown.received.map((entry) => (entry.payload as { open: { filled: bigint }[] }).open[0]!.filled)).toEqual([0n, 1n]);
    // Back to what was sent two pushes ago is a change too (only the last push counts).
    hub.broadcast('orders', snapshot(0n));
    expect(shown.received).toHaveLength(3);
    // The hidden window gets the latest state when shown, whatever was skipped meanwhile.
    hub.setVisible('b', true);
    expect(hidden.received).toEqual([{ stream: 'orders', payload: snapshot(0n) }]);

    // Other streams are sent as often as they are broadcast.
    hub.broadcast('connection', payload({ rest: 'up' }));
    hub.broadcast('connection', payload({ rest: 'up' }));
    expect(shown.received.filter((entry) => entry.stream === 'connection')).toHaveLength(2);
  });

  it('keeps its own copy of the last push: a payload changed in place after its broadcast is still sent', () => {
    const hub = new WindowHub();
    const shown = sink();
    hub.attach('a', shown);
    const balances = [{ assetId: 'usdc', onAccount: 5n, locked: 0n, unlocked: 5n, books: [] as unknown[] }];
    hub.broadcast('balances', payload(balances));
    balances[0]!.onAccount = 7n;
    hub.broadcast('balances', payload(balances));
    expect(shown.received).toHaveLength(2);
    expect(hub.isVisible('a')).toBe(true);
  });

  it('keeps frozen order views by reference and copies the rest: every change is sent, even one made in place', () => {
    const hub = new WindowHub();
    const shown = sink();
    hub.attach('a', shown);
    const order = (id: string, filled: bigint) => Object.freeze({ orderId: id, price: 3_000_000_000n, quantity: 10n, filled, status: 'open', turbo: false });
    const open = [order('o1', 0n), order('o2', 0n)];
    const fills: { orderId: string; quantity: bigint }[] = [];
    hub.broadcast('orders', payload({ open, fills }));
    // The same frozen views in new arrays: nothing changed, not sent.
    hub.broadcast('orders', payload({ open: [...open], fills: [...fills] }));
    expect(shown.received).toHaveLength(1);
    // One view replaced by a new frozen one (a fill): sent.
    open[1] = order('o2', 4n);
    hub.broadcast('orders', payload({ open: [...open], fills }));
    expect(shown.received).toHaveLength(2);
    // The arrays and plain members are the hub's own copies: a list changed in place is still a change.
    fills.push({ orderId: 'o2', quantity: 4n });
    hub.broadcast('orders', payload({ open, fills }));
    expect(shown.received).toHaveLength(3);
    fills[0]!.quantity = 5n;
    hub.broadcast('orders', payload({ open, fills }));
    expect(shown.received).toHaveLength(4);
    // A frozen object holding a mutable one is copied, not kept: its inside can still change.
    const books = [{ locked: 1n }];
    const balance = Object.freeze({ assetId: 'usdc', books });
    hub.broadcast('balances', payload([balance]));
    books[0]!.locked = 2n;
    hub.broadcast('balances', payload([balance]));
    expect(shown.received.filter((entry) => entry.stream === 'balances')).toHaveLength(2);
  });

  it('compares plain data member by member and anything else by identity', () => {
    expect(sameData({ a: [1n, 'x', null, true] }, { a: [1n, 'x', null, true] })).toBe(true);
    expect(sameData({ a: 1n }, { a: 2n })).toBe(false);
    expect(sameData({ a: 1n }, { a: 1 })).toBe(false);
    expect(sameData({ a: 1, b: undefined }, { a: 1 })).toBe(false);
    expect(sameData({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(sameData([1, 2], [1, 2, 3])).toBe(false);
    expect(sameData([1, 2], { 0: 1, 1: 2 })).toBe(false);
    expect(sameData({ 0: 1, 1: 2 }, [1, 2])).toBe(false);
    const map = new Map([[1, 1]]);
    expect(sameData(map, map)).toBe(true);
    expect(sameData(map, new Map([[1, 1]]))).toBe(false);
    expect(sameData(Number.NaN, Number.NaN)).toBe(false);
  });
});
