// The transport of the sandbox: one HTTP server on 127.0.0.1 serving REST and, on the same
// port, the WebSocket endpoint /v1/ws. Everything else (ledger, engine, streams, routes)
// is built by app.ts; this file only moves bytes and owns the listening socket.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createApp } from './app';
import type { SandboxApp } from './app-types';
import { readJsonBody } from './http/body';
import { ErrorCode, refusal } from './http/errors';
import { refuse, type Reply } from './http/reply';
import type { ApiRequest } from './http/request';
import { DEFAULT_OPTIONS, type SandboxOptions } from './options';

export interface RunningSandbox {
  readonly url: string;
  readonly port: number;
  /** The in-process app (tests may read it; clients must not). */
  readonly app: SandboxApp;
  close(): Promise<void>;
}

function send(response: ServerResponse, reply: Reply): void {
  const text = JSON.stringify(reply.body);
  response.writeHead(reply.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

async function handle(app: SandboxApp, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  const method = request.method ?? 'GET';
  const ip = request.socket.remoteAddress ?? 'unknown';
  const fault = app.faults.take(method, url.pathname);
  // The body is read before any injected delay: a request the exchange has received is processed
  // even if its client goes away meanwhile (a crashed app), as a real service would.
  const body = await readJsonBody(request);
  if (fault.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
  if (fault.failStatus !== undefined) {
    send(response, refuse(refusal(ErrorCode.INJECTED_FAILURE, `control: injected failure ${fault.failStatus}`, fault.failStatus)));
    return;
  }
  if (!body.ok) {
    response.setHeader('connection', 'close');
    send(response, refuse(body.refusal));
    return;
  }
  const apiRequest: ApiRequest = { method, path: url.pathname, query: url.searchParams, headers: request.headers, ip, body: body.body };
  let reply: Reply;
  try {
    reply = await app.dispatch(apiRequest);
  } catch (error) {
    // A bug, not an expected failure: answer 500 and keep serving. Batches are applied
    // inside a journal (ledger/journal.ts), so a throw mid-batch leaves nothing half-done.
    app.log(`bug while serving ${method} ${url.pathname}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    reply = { status: 500, body: { code: 1999, name: 'InternalError', message: 'internal error' } };
  }
  if (fault.drop) {
    // The request was applied; the client never learns the outcome (control surface).
    request.socket.destroy();
    return;
  }
  send(response, reply);
}

/** In-process options: the CLI's, plus the time source (tests freeze it; default Date.now). */
export interface StartOptions extends Partial<SandboxOptions> {
  readonly now?: () => number;
}

export async function startSandbox(overrides: StartOptions = {}): Promise<RunningSandbox> {
  const { now, ...rest } = overrides;
  const options: SandboxOptions = { ...DEFAULT_OPTIONS, ...rest };
  const app = createApp(options, now);
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    handle(app, request, response).catch((error: unknown) => {
      app.log(`bug in the transport: ${String(error)}`);
      if (!response.headersSent) send(response, { status: 500, body: { code: 1999, name: 'InternalError', message: 'internal error' } });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('upgrade', (request, socket, head) => app.streams.upgrade(request, socket, head));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  app.start();
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      app.stop();
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
    return closing;
  };
  return { url: `http://127.0.0.1:${port}`, port, app, close };
}
