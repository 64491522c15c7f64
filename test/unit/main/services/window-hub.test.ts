// A minimised window gets no pushes; when it shows again it must not show what was true before it
// was hidden: an order that filled meanwhile, a connection that dropped, a journal entry or an
// alert it never saw.
import { describe, expect, it } from 'vitest';
import { MAX_MISSED_EVENTS, WindowHub } from '../../../../main/services/window-hub';
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
});
