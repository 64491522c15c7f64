// The bridge transport of the browser host: calls and pushes over a WebSocket to the host, which
// accepts it only with the token of the URL the host printed. A panel window's tab also carries the
// key of the window main prepared for it (the `window` parameter of the URL main gave), so main
// knows which window context this connection is.
import { decodeFrame, encodeFrame } from '../../../shared/ipc/codec';
import { ORDERS_RESYNC_FRAME, OrdersWireDecoder } from '../../../shared/ipc/orders-wire';
import type { BridgeTransport } from '../../../shared/ipc/bridge';
import type { StreamName } from '../../../shared/ipc/contract';
import { fail, type Result } from '../../../shared/result';

interface Pending {
  resolve(result: Result<unknown>): void;
}

/** Where the token is kept for this tab once it is out of the URL (a reload needs it again). */
export const TOKEN_KEY = 'ledger-terminal.bridge-token';

export interface TokenPlace {
  readonly location: Pick<Location, 'search' | 'pathname' | 'hash'>;
  readonly history: Pick<History, 'replaceState' | 'state'>;
  readonly storage: Pick<Storage, 'getItem' | 'setItem'>;
}

/**
 * The bridge token of this tab: taken from the URL the host printed, then replaced out of the URL
 * and its history entry (history.replaceState), so it is not left in the address bar, the
 * browser's history or a screen share; kept in this tab's sessionStorage for a reload. Every other
 * parameter (`window`) stays.
 */
export function takeBridgeToken(place: TokenPlace): string {
  const parameters = new URLSearchParams(place.location.search);
  const fromUrl = parameters.get('token');
  if (fromUrl === null) return place.storage.getItem(TOKEN_KEY) ?? '';
  place.storage.setItem(TOKEN_KEY, fromUrl);
  parameters.delete('token');
  const rest = parameters.toString();
  place.history.replaceState(place.history.state, '', `${place.location.pathname}${rest ? `?${rest}` : ''}${place.location.hash}`);
  return fromUrl;
}

export function connectBrowserTransport(location: Location, onClosed: (reason: string) => void): Promise<BridgeTransport> {
  const windowKey = new URLSearchParams(location.search).get('window');
  const token = takeBridgeToken({ location, history: globalThis.history, storage: globalThis.sessionStorage });
  const socket = new WebSocket(`ws://${location.host}/bridge?token=${encodeURIComponent(token)}${windowKey ? `&window=${encodeURIComponent(windowKey)}` : ''}`);
  const pending = new Map<number, Pending>();
  const listeners = new Map<StreamName, Set<(payload: unknown) => void>>();
  let nextId = 0;
  let closed = false;
  let opened = false;
  const orders = new OrdersWireDecoder();

  const handle = (frame: { t?: unknown; id?: unknown; result?: unknown; stream?: unknown; payload?: unknown }) => {
    if (frame.t === 'reply' && typeof frame.id === 'number') {
      const call = pending.get(frame.id);
      pending.delete(frame.id);
      call?.resolve(frame.result as Result<unknown>);
    } else if (frame.t === 'push' && typeof frame.stream === 'string') {
      // The host sends the orders as changes; listeners get the whole state (orders-wire.ts).
      const push = orders.forListeners(frame.stream, frame.payload, () => socket.send(encodeFrame(ORDERS_RESYNC_FRAME)));
      if (push === null) return;
      for (const listener of listeners.get(frame.stream as StreamName) ?? []) listener(push.payload);
    }
  };
  socket.addEventListener('message', (event: MessageEvent<string>) => {
    let decoded: unknown;
    try {
      decoded = decodeFrame(event.data);
    } catch {
      return;
    }
    // One frame, or the frames main sent this window in one job, in order (browser-host.ts).
    const frames = Array.isArray(decoded) ? decoded : [decoded];
    for (const frame of frames) {
      if (frame === null || typeof frame !== 'object') continue;
      try {
        handle(frame as Parameters<typeof handle>[0]);
      } catch (error) {
        // A listener that throws costs its own frame only: the rest of the batch is still handled,
        // and the error is still reported as uncaught.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  });

  return new Promise((resolve, reject) => {
    socket.addEventListener('open', () => {
      opened = true;
      resolve({
        invoke(name, input) {
          if (closed) return Promise.resolve(fail('BRIDGE_CLOSED', 'The connection to the terminal host is closed; reload the page'));
          const id = ++nextId;
          return new Promise((resolveCall) => {
            pending.set(id, { resolve: resolveCall });
            socket.send(encodeFrame({ t: 'call', id, name, input }));
          });
        },
        listen(name, listener) {
          let set = listeners.get(name);
          if (!set) listeners.set(name, (set = new Set()));
          set.add(listener);
          return () => set.delete(listener);
        },
      });
    });
    socket.addEventListener('close', (event) => {
      closed = true;
      for (const call of pending.values()) call.resolve(fail('BRIDGE_CLOSED', 'The connection to the terminal host closed'));
      pending.clear();
      // Refused before it opened: most likely a stale token. After: the host stopped, or the connection dropped.
      const reason = !opened
        ? event.code === 1006
          ? 'The terminal host refused or dropped the connection (is the token in the URL right?)'
          : `closed (${event.code})`
        : event.code === 1001
          ? 'the terminal host is shutting down'
          : event.code === 1006
            ? 'the terminal host stopped or the connection dropped'
            : `the connection closed with code ${event.code}`;
      onClosed(reason);
      reject(new Error(reason));
    });
  });
}
