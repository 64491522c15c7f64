// The browser host: the same main services, with the renderer served to a browser and the bridge
// carried over a WebSocket. It binds to 127.0.0.1 only, and a bridge connection is accepted only
// from a loopback address, from the host's own origin, with the random token of the printed URL.
// A web page the user happens to visit can neither guess the token nor pass the origin check.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { decodeFrame, encodeFrame, FrameTooDeepError } from '../../shared/ipc/codec';
import { ORDERS_RESYNC_FRAME } from '../../shared/ipc/orders-wire';
import type { OrdersSnapshot } from '../../shared/ipc/views/trading';
import { fail } from '../../shared/result';
import type { Dispatch } from '../ipc/dispatcher';
import { contentSecurityPolicy } from '../platform/security';
import type { WindowHub } from '../services/window-hub';
import { OrdersWireEncoder } from './orders-wire-encoder';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.wav': 'audio/wav',
};

const MAX_FRAME_BYTES = 1 << 20;

/**
 * Authenticated bridge connections at once: the main window, 16 panel windows (the desk's limit)
 * and room for reloads whose old connection has not closed yet. A holder of the token cannot open
 * more and grow main's memory or its per-page state without bound.
 */
export const MAX_BRIDGE_CONNECTIONS = 40;

export interface BrowserHostOptions {
  /** Builds the dispatcher once the host's origin (and so the allowed sender) is known. */
  readonly createDispatch: (origin: string) => Dispatch;
  readonly windows: WindowHub;
  /** The built renderer (out/renderer). */
  readonly rendererDir: string;
  readonly port?: number;
  /** Fixed token for tests; random otherwise. */
  readonly token?: string;
  /**
   * A page connected: `windowKey` is the desk window it was opened for (the `window` parameter of
   * its bridge URL), null for the main window.
   */
  readonly onPage?: (pageId: string, windowKey: string | null) => void;
  /** Sees every bridge frame, both ways, as sent (the security test records and scans them). */
  readonly record?: (direction: 'in' | 'out', text: string) => void;
  readonly log?: (line: string) => void;
  /** At most this many bridge connections at once (MAX_BRIDGE_CONNECTIONS by default). */
  readonly maxConnections?: number;
}

export interface BrowserHost {
  readonly url: string;
  readonly origin: string;
  readonly token: string;
  close(): Promise<void>;
}

export function isLoopback(address: string | undefined): boolean {
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}

function tokensEqual(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

interface CallFrame {
  readonly t: 'call';
  readonly id: number;
  readonly name: unknown;
  readonly input: unknown;
}

function asCallFrame(value: unknown): CallFrame | null {
  if (value === null || typeof value !== 'object') return null;
  const frame = value as Record<string, unknown>;
  if (frame.t !== 'call' || typeof frame.id !== 'number' || !Number.isSafeInteger(frame.id)) return null;
  return { t: 'call', id: frame.id, name: frame.name, input: frame.input };
}

/** A page's request for the whole orders state: a change did not fit what it held. */
function isOrdersResync(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  const frame = value as Record<string, unknown>;
  return frame.t === ORDERS_RESYNC_FRAME.t && frame.stream === ORDERS_RESYNC_FRAME.stream;
}

export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const token = options.token ?? randomBytes(32).toString('hex');
  const log = options.log ?? (() => undefined);
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  const csp = contentSecurityPolicy([`ws://127.0.0.1:${port}`]);
  const root = normalize(options.rendererDir + sep);
  const dispatch = options.createDispatch(origin);

  const serveFile = async (request: IncomingMessage, response: ServerResponse) => {
    // A Host header other than our own means a DNS-rebinding page is asking: refuse.
    if (request.headers.host !== `127.0.0.1:${port}`) {
      response.writeHead(421).end('misdirected request');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(request.url ?? '/', origin).pathname);
    } catch {
      // A malformed percent-escape (`/%E0%A4%A`) is the client's mistake, not a failure of ours.
      response.writeHead(400, { 'content-type': 'text/plain' }).end('bad request: the path has a malformed percent-escape');
      return;
    }
    const relative = pathname === '/' ? 'index.html' : pathname.slice(1);
    const file = normalize(join(root, relative));
    if (!file.startsWith(root)) {
      response.writeHead(404).end();
      return;
    }
    try {
      const info = await stat(file);
      if (!info.isFile()) throw new Error('not a file');
      const body = await readFile(file);
      response.writeHead(200, {
        'content-type': MIME[extname(file)] ?? 'application/octet-stream',
        'content-security-policy': csp,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'cross-origin-opener-policy': 'same-origin',
        'cache-control': 'no-store',
      });
      response.end(request.method === 'HEAD' ? undefined : body);
    } catch {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  };
  server.on('request', (request, response) => {
    serveFile(request, response).catch(() => response.writeHead(500).end());
  });

  const bridge = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  let nextWindow = 0;
  const maxConnections = options.maxConnections ?? MAX_BRIDGE_CONNECTIONS;

  server.on('upgrade', (request: IncomingMessage, socket: Socket, head: Buffer) => {
    // After 'upgrade' the socket is ours: without a listener, a peer resetting it while we refuse
    // throws an unhandled 'error' and ends the host (any local process could do that).
    socket.on('error', (error) => log(`bridge socket error: ${error.message}`));
    const refuse = (status: number, reason: string) => {
      log(`bridge connection refused: ${reason}`);
      socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\n\r\n`);
    };
    let url: URL;
    try {
      url = new URL(request.url ?? '/', origin);
    } catch {
      return refuse(400, 'Bad Request');
    }
    if (!isLoopback(socket.remoteAddress)) return refuse(403, 'Forbidden');
    // As for files: a Host other than our own is a DNS-rebinding page, whatever its Origin says.
    if (request.headers.host !== `127.0.0.1:${port}`) return refuse(421, 'Misdirected Request');
    if (url.pathname !== '/bridge') return refuse(404, 'Not Found');
    if (request.headers.origin !== origin) return refuse(403, 'Forbidden');
    if (!tokensEqual(url.searchParams.get('token') ?? '', token)) return refuse(401, 'Unauthorized');
    if (bridge.clients.size >= maxConnections) return refuse(503, 'Service Unavailable');
    // A panel window's tab names the window main prepared for it (16 random bytes, hex).
    const windowKey = url.searchParams.get('window');
    if (windowKey !== null && !/^[0-9a-f]{32}$/.test(windowKey)) return refuse(400, 'Bad Request');
    // ws completes the upgrade synchronously (no verifyClient, no compression), so `clients`
    // already counts this connection when the next upgrade is checked.
    bridge.handleUpgrade(request, socket, head, (ws) => attach(ws, windowKey));
  });

  // A broadcast hands one payload to every window in one synchronous loop: it is encoded once,
  // for the first window, and the text is reused until the loop's job ends.
  let lastPush: { readonly stream: string; readonly payload: unknown; readonly text: string } | null = null;
  const pushText = (stream: string, payload: unknown): string => {
    if (lastPush !== null && lastPush.stream === stream && lastPush.payload === payload) return lastPush.text;
    const text = encodeFrame({ t: 'push', stream, payload });
    if (lastPush === null)
      queueMicrotask(() => {
        lastPush = null;
      });
    lastPush = { stream, payload, text };
    return text;
  };

  // The orders stream goes as changes (shared/ipc/orders-wire.ts): with hundreds of orders
  // resting, each push was the whole list, encoded, written and decoded by every window.
  const ordersWire = new OrdersWireEncoder((payload) => encodeFrame({ t: 'push', stream: 'orders', payload }));

  const attach = (ws: WebSocket, windowKey: string | null) => {
    const windowId = `tab-${++nextWindow}`;
    const frameUrl = `${origin}/`;
    // The frames for this window of one job (a pacer's flush: book, trades and bars; a broadcast
    // and the reply after it) leave as one WebSocket message, a JSON array of them in order: one
    // write to the socket and one message event in the page instead of one each.
    let queued: string[] = [];
    const flushQueued = () => {
      const texts = queued;
      queued = [];
      ws.send(texts.length === 1 ? texts[0]! : `[${texts.join(',')}]`);
    };
    const sendText = (text: string) => {
      options.record?.('out', text);
      if (queued.push(text) === 1) queueMicrotask(flushQueued);
    };
    const send = (frame: unknown) => sendText(encodeFrame(frame));
    // ws reports a frame over maxPayload, bad UTF-8 and other protocol errors here, then closes
    // the connection; unhandled, the error would end the host.
    ws.on('error', (error) => log(`bridge connection ${windowId}: ${error.message}`));
    // The number of the orders state this window holds (0: none yet).
    let ordersHeld = 0;
    const sendOrders = (frame: { readonly text: string; readonly version: number } | null) => {
      if (frame === null) return;
      ordersHeld = frame.version;
      sendText(frame.text);
    };
    options.windows.attach(windowId, {
      send: (stream, payload) => (stream === 'orders' ? sendOrders(ordersWire.frameFor(payload as OrdersSnapshot, ordersHeld)) : sendText(pushText(stream, payload))),
    });
    options.onPage?.(windowId, windowKey);
    ws.on('message', (data, isBinary) => {
      if (isBinary) return ws.close(1003, 'text frames only');
      const text = data.toString();
      options.record?.('in', text);
      let frame: CallFrame | null;
      try {
        const decoded = decodeFrame(text);
        if (isOrdersResync(decoded)) {
          log(`bridge connection ${windowId}: asked for the whole orders state (a change did not fit what it held)`);
          return sendOrders(ordersWire.resync());
        }
        frame = asCallFrame(decoded);
      } catch (error) {
        if (error instanceof FrameTooDeepError) return send({ t: 'error', result: fail('INVALID_FRAME', error.message) });
        frame = null;
      }
      if (frame === null) {
        send({ t: 'error', result: fail('INVALID_FRAME', 'bridge frame: expected {"t":"call","id":<integer>,"name":...,"input":...}') });
        return;
      }
      const { id } = frame;
      dispatch(frame.name, frame.input, { windowId, frameUrl })
        .then((result) => send({ t: 'reply', id, result }))
        .catch((error: unknown) => log(`bridge dispatch failed: ${String(error)}`));
    });
    ws.on('close', () => options.windows.detach(windowId));
  };

  return {
    url: `${origin}/?token=${token}`,
    origin,
    token,
    close: async () => {
      for (const client of bridge.clients) client.terminate();
      bridge.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
