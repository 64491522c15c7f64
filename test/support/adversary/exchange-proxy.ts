// The adversarial exchange: a proxy on loopback between the terminal's main process and a real
// sandbox, REST and WebSocket, honest until told to lie. `lie(restLie, count)` and `lieOnStream`
// switch a mode at runtime; `inject` pushes a frame the exchange never sent (fills of an order it
// does not have). Every request reaches the sandbox: the lies are about answers and streams.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { RestLie, UpstreamAnswer } from './rest-lies';
import type { FrameFilter, StreamLie } from './stream-lies';

export interface ExchangeProxy {
  /** The proxy's REST base URL (the WebSocket is `/v1/ws` under it). */
  readonly url: string;
  /**
   * Tell `lie` for the next `count` requests it applies to (Infinity: until `honest`), beside the
   * lies already told; the first lie set that applies to a request answers it.
   */
  lie(lie: RestLie, count?: number): void;
  /** Filter every connection's frames through `lie`, open ones and later ones, until `honest`. */
  lieOnStream(lie: StreamLie): void;
  /** Stop lying, REST and stream. */
  honest(): void;
  /** How many times a REST lie was told since the proxy was last honest. */
  told(): number;
  /** Send a frame to every open connection, as if the exchange had sent it. */
  inject(frame: unknown): number;
  /** Close every WebSocket of the terminal (it reconnects, through the proxy). */
  closeStreams(): void;
  stop(): Promise<void>;
}

interface Pair {
  readonly client: WebSocket;
  readonly upstream: WebSocket;
  readonly send: (frame: string) => void;
  filter: FrameFilter | null;
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function forward(upstream: URL, request: IncomingMessage, body: Buffer): Promise<{ status: number; text: string; contentType: string | undefined }> {
  return new Promise((resolve, reject) => {
    const headers = { ...request.headers, host: upstream.host, connection: 'close' };
    const outgoing = httpRequest({ host: upstream.hostname, port: upstream.port, method: request.method, path: request.url, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 502, text: Buffer.concat(chunks).toString('utf8'), contentType: response.headers['content-type'] }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

export async function startExchangeProxy(upstreamUrl: string): Promise<ExchangeProxy> {
  const upstream = new URL(upstreamUrl);
  let restLies: { lie: RestLie; remaining: number }[] = [];
  let toldCount = 0;
  let streamLie: StreamLie | null = null;
  const pairs = new Set<Pair>();
  const sockets = new Set<Socket>();

  const answer = async (request: IncomingMessage, response: ServerResponse) => {
    const body = await readBody(request);
    const path = new URL(request.url ?? '/', 'http://proxy').pathname;
    const method = request.method ?? 'GET';
    const chosen = restLies.find((candidate) => candidate.remaining > 0 && candidate.lie.applies(method, path));
    if (chosen !== undefined) {
      chosen.remaining--;
      toldCount++;
    }
    const lie = chosen?.lie ?? null;
    let real: Awaited<ReturnType<typeof forward>>;
    try {
      real = await forward(upstream, request, body);
    } catch {
      response.destroy();
      return;
    }
    if (lie === null) {
      response.writeHead(real.status, real.contentType === undefined ? {} : { 'content-type': real.contentType });
      response.end(real.text);
      return;
    }
    let parsedBody: unknown = real.text;
    try {
      parsedBody = JSON.parse(real.text) as unknown;
    } catch {
      // Not JSON: the lie sees the text.
    }
    const verdict = lie.answer({ status: real.status, body: parsedBody } satisfies UpstreamAnswer);
    if (verdict.kind === 'drop') return void request.socket.destroy();
    if (verdict.kind === 'hang') return;
    response.writeHead(verdict.status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(verdict.body));
  };

  const server = createServer((request, response) => void answer(request, response));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  const websockets = new WebSocketServer({ noServer: true });
  server.on('upgrade', (request, socket, head) => {
    const upstreamSocket = new WebSocket(`ws://${upstream.host}${request.url ?? '/v1/ws'}`);
    upstreamSocket.once('error', () => socket.destroy());
    upstreamSocket.once('open', () => {
      websockets.handleUpgrade(request, socket, head, (client) => {
        const send = (frame: string) => {
          if (client.readyState === WebSocket.OPEN) client.send(frame);
        };
        const pair: Pair = { client, upstream: upstreamSocket, send, filter: streamLie?.open(send) ?? null };
        pairs.add(pair);
        const close = () => {
          pairs.delete(pair);
          if (client.readyState === WebSocket.OPEN) client.close();
          if (upstreamSocket.readyState === WebSocket.OPEN) upstreamSocket.close();
        };
        client.on('message', (data: RawData) => {
          if (upstreamSocket.readyState === WebSocket.OPEN) upstreamSocket.send(data.toString());
        });
        upstreamSocket.on('message', (data: RawData) => {
          const text = data.toString();
          const frames = pair.filter === null ? [text] : pair.filter(text);
          for (const frame of frames) send(frame);
        });
        client.on('close', close);
        client.on('error', close);
        upstreamSocket.on('close', close);
        upstreamSocket.on('error', close);
      });
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    lie(lie, count = 1) {
      restLies.push({ lie, remaining: count });
    },
    lieOnStream(lie) {
      streamLie = lie;
      for (const pair of pairs) pair.filter = lie.open(pair.send);
    },
    honest() {
      restLies = [];
      toldCount = 0;
      streamLie = null;
      for (const pair of pairs) pair.filter = null;
    },
    told: () => toldCount,
    inject(frame) {
      const text = typeof frame === 'string' ? frame : JSON.stringify(frame);
      let sent = 0;
      for (const pair of pairs) {
        if (pair.client.readyState !== WebSocket.OPEN) continue;
        pair.client.send(text);
        sent++;
      }
      return sent;
    },
    closeStreams() {
      for (const pair of [...pairs]) pair.client.close(1001);
    },
    async stop() {
      for (const pair of [...pairs]) {
        pair.client.terminate();
        pair.upstream.terminate();
      }
      websockets.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
