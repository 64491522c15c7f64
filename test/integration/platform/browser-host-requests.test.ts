// The browser host's HTTP and upgrade checks against a real host (startBrowserHost with recording
// handlers and a temporary renderer directory) over real sockets: a malformed percent-escape is a
// 400 (not a 500), the WebSocket upgrade checks Host as well as Origin and the token, and the
// number of authenticated bridge connections is capped. Pushes: a broadcast reaches every window
// as the same text, a payload changed and pushed again is sent as it is now, and the frames of one
// job for a window leave as one message. The orders stream: the whole state to a window that holds
// none, then changes, the whole state again to a window shown after states went by or that asks.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { MAX_BRIDGE_CONNECTIONS, startBrowserHost, type BrowserHost } from '../../../main/host/browser-host';
import { createDispatcher, type Handlers } from '../../../main/ipc/dispatcher';
import { WindowHub } from '../../../main/services/window-hub';
import { requestNames } from '../../../shared/ipc/contract';
import { decodeFrame, encodeFrame } from '../../../shared/ipc/codec';
import { ORDERS_RESYNC_FRAME, OrdersWireDecoder } from '../../../shared/ipc/orders-wire';
import type { OrdersSnapshot, OrderView } from '../../../shared/ipc/views/trading';
import { ok } from '../../../shared/result';

const TOKEN = 'e'.repeat(64);
const CAP = 4;
let host: BrowserHost;
let port: number;
const windows = new WindowHub();

beforeAll(async () => {
  const rendererDir = mkdtempSync(join(tmpdir(), 'lt-host-requests-'));
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>host</title>');
  const handlers = Object.fromEntries(requestNames.map((name) => [name, () => ok(null)])) as unknown as Handlers;
  host = await startBrowserHost({ createDispatch: (origin) => createDispatcher(handlers, { allowedOrigins: [origin] }), windows, rendererDir, token: TOKEN, maxConnections: CAP });
  port = Number(new URL(host.origin).port);
});

afterAll(async () => {
  await host.close();
});

function get(path: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}`, ...headers } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject);
    request.end();
  });
}

/** An upgrade request with the given Host and Origin: 101 when accepted, else the refusal's status. */
function upgrade(options: { host?: string; origin?: string; token?: string }): Promise<{ status: number; socket: { destroy(): void } | null }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {
      connection: 'Upgrade',
      upgrade: 'websocket',
      'sec-websocket-version': '13',
      'sec-websocket-key': randomBytes(16).toString('base64'),
      host: options.host ?? `127.0.0.1:${port}`,
    };
    if (options.origin !== undefined) headers.origin = options.origin;
    const request = httpRequest({ host: '127.0.0.1', port, path: `/bridge?token=${options.token ?? TOKEN}`, headers });
    request.on('upgrade', (response, socket) => resolve({ status: response.statusCode ?? 0, socket }));
    request.on('response', (response) => {
      response.resume();
      resolve({ status: response.statusCode ?? 0, socket: null });
    });
    request.on('error', reject);
    request.end();
  });
}

describe('browser host requests', () => {
  it('answers a malformed percent-escape with 400 and keeps serving', async () => {
    expect(await get('/%E0%A4%A')).toBe(400);
    expect(await get('/%')).toBe(400);
    expect(await get('/index.html')).toBe(200);
    expect(await get('/%2e%2e/%2e%2e/etc/passwd')).toBe(404);
  });

  it('refuses an upgrade whose Host is not its own, even with the right Origin and token', async () => {
    for (const name of ['evil.example', `evil.example:${port}`, `localhost:${port}`, `127.0.0.1:${port + 1}`]) {
      expect((await upgrade({ host: name, origin: host.origin })).status, name).toBe(421);
    }
    expect((await upgrade({ origin: 'http://evil.example' })).status).toBe(403);
    expect((await upgrade({})).status).toBe(403);
    expect((await upgrade({ origin: host.origin, token: '0'.repeat(64) })).status).toBe(401);
    const accepted = await upgrade({ origin: host.origin });
    expect(accepted.status).toBe(101);
    accepted.socket?.destroy();
  });

  it('caps the authenticated bridge connections and frees a place when one closes', async () => {
    expect(MAX_BRIDGE_CONNECTIONS).toBeGreaterThanOrEqual(17);
    const open = (): Promise<WebSocket | number> =>
      new Promise((resolve) => {
        const socket = new WebSocket(`ws://127.0.0.1:${port}/bridge?token=${TOKEN}`, { origin: host.origin });
        socket.once('open', () => resolve(socket));
        socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      });
    const sockets: WebSocket[] = [];
    for (let index = 0; index < CAP; index++) {
      const socket = await open();
      expect(socket).toBeInstanceOf(WebSocket);
      sockets.push(socket as WebSocket);
    }
    expect(await open()).toBe(503);
    const first = sockets.shift()!;
    await new Promise<void>((resolve) => {
      first.once('close', () => resolve());
      first.close();
    });
    // The host sees the close a moment later: wait for the place to be free, never for a fixed time.
    let again: WebSocket | number = 503;
    for (let attempt = 0; attempt < 50 && again === 503; attempt++) {
      again = await open();
      if (again === 503) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(again).toBeInstanceOf(WebSocket);
    sockets.push(again as WebSocket);
    for (const socket of sockets) socket.close();
  });

  it('pushes one broadcast to every window as the same text, a payload changed since as it is now, and one job\'s frames for a window as one message', async () => {
    // The sockets of the test before close a moment later: wait for the host to let them go.
    for (let attempt = 0; attempt < 100 && windows.ids().length > 0; attempt++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(windows.ids()).toHaveLength(0);
    const sockets = await Promise.all(
      [0, 1, 2].map(
        () =>
          new Promise<{ socket: WebSocket; frames: string[] }>((resolve) => {
            const socket = new WebSocket(`ws://127.0.0.1:${port}/bridge?token=${TOKEN}`, { origin: host.origin });
            const frames: string[] = [];
            socket.on('message', (data) => frames.push(data.toString()));
            socket.once('open', () => resolve({ socket, frames }));
          }),
      ),
    );
    // The host attaches a window on upgrade; the client's open can come first.
    for (let attempt = 0; attempt < 50 && windows.ids().length < 3; attempt++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(windows.ids()).toHaveLength(3);
    const payload = { state: 'live', quantity: 5n, nested: [{ price: 123_456_789_012_345_678_901n }] };
    const [first, second, third] = windows.ids() as [string, string, string];
    windows.broadcast('connection', payload as never);
    // In the same job: one window gets another payload of the same stream, another the same payload again.
    windows.sendTo(second, 'connection', { state: 'other', quantity: 6n } as never);
    windows.sendTo(third, 'connection', payload as never);
    await Promise.resolve();
    payload.quantity = 7n;
    windows.sendTo(first, 'connection', payload as never);
    // Socket 1: two jobs, two messages. Sockets 2 and 3: two frames of one job, one message (an array, in order).
    const want = [2, 1, 1];
    for (let attempt = 0; attempt < 100 && sockets.some(({ frames }, index) => frames.length < want[index]!); attempt++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sockets.map(({ frames }) => frames.length)).toEqual(want);
    const live = { t: 'push', stream: 'connection', payload: { state: 'live', quantity: 5n, nested: [{ price: 123_456_789_012_345_678_901n }] } };
    expect(sockets[0]!.frames.map((text) => decodeFrame(text))).toEqual([live, { ...live, payload: { ...live.payload, quantity: 7n } }]);
    expect(decodeFrame(sockets[1]!.frames[0]!)).toEqual([live, { t: 'push', stream: 'connection', payload: { state: 'other', quantity: 6n } }]);
    expect(decodeFrame(sockets[2]!.frames[0]!)).toEqual([live, live]);
    // The broadcast's text is the same text in every window's message.
    expect(sockets[1]!.frames[0]!.startsWith(`[${sockets[0]!.frames[0]!},`)).toBe(true);
    for (const { socket } of sockets) socket.close();
  });

  it('sends the orders as the whole state to a window that holds none, then as changes; the whole state again to a window shown after states went by, or that asks', async () => {
    for (let attempt = 0; attempt < 100 && windows.ids().length > 0; attempt++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(windows.ids()).toHaveLength(0);
    const open = () =>
      new Promise<{ socket: WebSocket; kinds: string[]; states: OrdersSnapshot[]; asked: number }>((resolve) => {
        const socket = new WebSocket(`ws://127.0.0.1:${port}/bridge?token=${TOKEN}`, { origin: host.origin });
        const client = { socket, kinds: [] as string[], states: [] as OrdersSnapshot[], asked: 0 };
        const decoder = new OrdersWireDecoder();
        socket.on('message', (data) => {
          const decoded = decodeFrame(data.toString());
          for (const frame of (Array.isArray(decoded) ? decoded : [decoded]) as { stream?: string; payload?: { kind: string } }[]) {
            if (frame.stream !== 'orders') continue;
            client.kinds.push(frame.payload!.kind);
            const state = decoder.receive(frame.payload);
            if (state === 'resync') client.asked++;
            else if (state !== null) client.states.push(state);
          }
        });
        socket.once('open', () => resolve(client));
      });
    const view = (id: string, filled = 0n): OrderView =>
      Object.freeze({ orderId: id, marketId: 'eth-usdc', side: 'Buy', orderType: 'Limit', price: 3_000n, quantity: 10n, filled, averagePrice: 0n, status: 'open', turbo: false, account: '', time: 1 }) as OrderView;
    const until = async (what: () => boolean) => {
      for (let attempt = 0; attempt < 100 && !what(); attempt++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(what()).toBe(true);
    };
    const first = await open();
    await until(() => windows.ids().length === 1);
    const one: OrdersSnapshot = { open: [view('a'), view('b')], fills: [] };
    windows.broadcast('orders', one);
    await until(() => first.states.length === 1);
    const second = await open();
    await until(() => windows.ids().length === 2);
    const [firstId, secondId] = windows.ids() as [string, string];
    expect(firstId).not.toBe(secondId);
    const two: OrdersSnapshot = { open: [view('c'), view('a', 5n), view('b')], fills: [] };
    windows.broadcast('orders', two);
    await until(() => first.states.length === 2 && second.states.length === 1);
    expect(first.kinds).toEqual(['all', 'change']);
    expect(second.kinds).toEqual(['all']);
    expect(first.states).toEqual([one, two]);
    expect(second.states).toEqual([two]);
    // Hidden while two states go by: shown, it gets the whole latest state, not a change it cannot apply.
    windows.setVisible(secondId, false);
    const three: OrdersSnapshot = { open: [view('c'), view('b')], fills: [] };
    const four: OrdersSnapshot = { open: [view('d'), view('c')], fills: [] };
    windows.broadcast('orders', three);
    windows.broadcast('orders', four);
    windows.setVisible(secondId, true);
    await until(() => first.states.length === 4 && second.states.length === 2);
    expect(first.kinds).toEqual(['all', 'change', 'change', 'change']);
    expect(second.kinds).toEqual(['all', 'all']);
    expect(second.states.at(-1)).toEqual(four);
    expect(first.states.at(-1)).toEqual(four);
    // A window that asks gets the whole latest state.
    first.socket.send(encodeFrame(ORDERS_RESYNC_FRAME));
    await until(() => first.states.length === 5);
    expect(first.kinds.at(-1)).toBe('all');
    expect(first.states.at(-1)).toEqual(four);
    expect(first.asked + second.asked).toBe(0);
    for (const socket of [first.socket, second.socket]) socket.close();
  });
});
