// The bridge the renderer uses (shared/ipc createBridge), carried over the browser host's
// WebSocket from Node: the same frames, the same token and origin checks, no page.
import WebSocket from 'ws';
import { createBridge, type BridgeTransport } from '../../shared/ipc/bridge';
import { decodeFrame, encodeFrame } from '../../shared/ipc/codec';
import { ORDERS_RESYNC_FRAME, OrdersWireDecoder } from '../../shared/ipc/orders-wire';
import type { StreamName, TerminalApi } from '../../shared/ipc/contract';
import { fail, type Result } from '../../shared/result';
import type { RunningHost } from './browser-host';

export interface BridgeClient {
  readonly api: TerminalApi;
  close(): void;
}

export function connectBridge(host: RunningHost): Promise<BridgeClient> {
  const socket = new WebSocket(`${host.origin.replace('http', 'ws')}/bridge?token=${host.token}`, { origin: host.origin });
  const pending = new Map<number, (result: Result<unknown>) => void>();
  const listeners = new Map<StreamName, Set<(payload: unknown) => void>>();
  let nextId = 0;
  const orders = new OrdersWireDecoder();
  socket.on('message', (data) => {
    // One frame, or the frames main sent in one job, in order (main/host/browser-host.ts).
    const decoded = decodeFrame(data.toString());
    for (const frame of (Array.isArray(decoded) ? decoded : [decoded]) as { t?: unknown; id?: unknown; result?: unknown; stream?: unknown; payload?: unknown }[]) {
      if (frame.t === 'reply' && typeof frame.id === 'number') {
        pending.get(frame.id)?.(frame.result as Result<unknown>);
        pending.delete(frame.id);
      } else if (frame.t === 'push' && typeof frame.stream === 'string') {
        // As the page's transport does (renderer/src/bridge/browser-transport.ts).
        const push = orders.forListeners(frame.stream, frame.payload, () => socket.send(encodeFrame(ORDERS_RESYNC_FRAME)));
        if (push === null) continue;
        for (const listener of listeners.get(frame.stream as StreamName) ?? []) listener(push.payload);
      }
    }
  });
  socket.on('close', () => {
    for (const resolve of pending.values()) resolve(fail('BRIDGE_CLOSED', 'closed'));
    pending.clear();
  });
  const transport: BridgeTransport = {
    invoke: (name, input) =>
      new Promise((resolve) => {
        const id = ++nextId;
        pending.set(id, resolve);
        socket.send(encodeFrame({ t: 'call', id, name, input }));
      }),
    listen: (name, listener) => {
      let set = listeners.get(name);
      if (!set) listeners.set(name, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    },
  };
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve({ api: createBridge(transport), close: () => socket.close() }));
    socket.once('error', reject);
  });
}
