// The HTTP client of main: a timeout on every request, a bound on the response size, JSON in and out,
// and failures as data. It sits on node:http / node:https with a keep-alive agent rather than on
// fetch (undici), which added about 0.3 ms and a long tail to every signed order
// (bench/order-path.bench.ts). A failure says whether the request can have reached the server
// (`details.stage`): `connect` means it never left (refused, unknown host), `exchange` means it
// may have been received and applied; the REST client reports a lost write of the second kind as
// OUTCOME_UNKNOWN.
import { Agent as HttpAgent, request as httpRequest, type AgentOptions, type ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { fail, ok, type Result } from '../../shared/result';

export const NETWORK_ERROR = 'NETWORK_ERROR';
export const TIMEOUT = 'TIMEOUT';
export const BAD_RESPONSE = 'BAD_RESPONSE';

/** Large enough for a 500-level depth or a full market list, small enough to bound memory. */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

export interface HttpResponse {
  readonly status: number;
  readonly body: unknown;
}

export interface HttpRequest {
  readonly method: 'GET' | 'POST' | 'PUT';
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly timeoutMs: number;
  /** Refuse (BAD_RESPONSE) a body larger than this; default DEFAULT_MAX_RESPONSE_BYTES. */
  readonly maxResponseBytes?: number;
  /** Told once the request's last byte was handed to the operating system (the order path's timing). */
  readonly onSent?: () => void;
}

export type HttpFetch = (request: HttpRequest) => Promise<Result<HttpResponse>>;

/** Where a transport failure happened: before anything was sent, or possibly after. */
export type FailureStage = 'connect' | 'exchange';

/**
 * An idle connection is never kept longer than this (servers commonly close at 5 s). Reusing a
 * connection the server is closing at that moment loses the request in flight: a POST then has an
 * unknown outcome and must be looked up. With a `timeout` set, Node's agent also retires an idle
 * connection a second before the server's own `Keep-Alive: timeout=N` (without one it ignores the
 * hint); test/integration/exchange/http.test.ts holds it to that.
 */
export const IDLE_SOCKET_MS = 4_000;

const agentOptions: AgentOptions = { keepAlive: true, keepAliveMsecs: 1_000, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' };
const httpAgent = new HttpAgent(agentOptions);
const httpsAgent = new HttpsAgent(agentOptions);

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

export const fetchJson: HttpFetch = (request) =>
  new Promise((resolve) => {
    const label = `${request.method} ${pathOf(request.url)}`;
    const limit = request.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    let target: URL;
    try {
      target = new URL(request.url);
    } catch {
      resolve(fail(NETWORK_ERROR, `${label}: ${request.url} is not a valid URL`, { stage: 'connect' satisfies FailureStage, cause: 'ERR_INVALID_URL' }));
      return;
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') {
      resolve(fail(NETWORK_ERROR, `${label}: the protocol ${target.protocol} is not supported (http: or https:)`, { stage: 'connect' satisfies FailureStage, cause: 'ERR_INVALID_URL' }));
      return;
    }
    const secure = target.protocol === 'https:';
    const payload = request.body === undefined ? undefined : Buffer.from(request.body, 'utf8');
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(payload.byteLength) }),
      ...request.headers,
    };
    // Whether the request can have reached the server: only once the connection (and its TLS
    // handshake) is up can a byte of it leave.
    let connected = false;
    let settled = false;
    let outgoing: ClientRequest | null = null;
    const finish = (result: Result<HttpResponse>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const stage = (): FailureStage => (connected ? 'exchange' : 'connect');
    const timer = setTimeout(() => {
      finish(fail(TIMEOUT, `${label}: no answer within ${request.timeoutMs} ms`, { stage: stage(), timeoutMs: request.timeoutMs }));
      outgoing?.destroy();
    }, request.timeoutMs);

    const onResponse = (response: IncomingMessage): void => {
      const status = response.statusCode ?? 0;
      const declared = Number(response.headers['content-length'] ?? NaN);
      const tooLarge = () => fail(BAD_RESPONSE, `${label}: the server answered HTTP ${status} with a body larger than ${limit} bytes`, { status });
      if (Number.isFinite(declared) && declared > limit) {
        finish(tooLarge());
        response.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      let total = 0;
      response.on('data', (chunk: Buffer) => {
        total += chunk.byteLength;
        if (total > limit) {
          finish(tooLarge());
          response.destroy();
          return;
        }
        chunks.push(chunk);
      });
      response.on('error', (error) => finish(fail(NETWORK_ERROR, `${label}: the answer was cut off: ${error.message}`, { stage: 'exchange' satisfies FailureStage, cause: (error as NodeJS.ErrnoException).code ?? null })));
      response.on('aborted', () => finish(fail(NETWORK_ERROR, `${label}: the answer was cut off`, { stage: 'exchange' satisfies FailureStage, cause: 'ECONNRESET' })));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = null;
        if (text.length > 0) {
          try {
            body = JSON.parse(text) as unknown;
          } catch {
            finish(fail(BAD_RESPONSE, `${label}: the server answered HTTP ${status} with a body that is not JSON`, { status }));
            return;
          }
        }
        finish(ok({ status, body }));
      });
    };

    try {
      outgoing = (secure ? httpsRequest : httpRequest)(target, { method: request.method, headers, agent: secure ? httpsAgent : httpAgent }, onResponse);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? null;
      finish(fail(NETWORK_ERROR, `${label}: ${error instanceof Error ? error.message : String(error)}`, { stage: 'connect' satisfies FailureStage, cause: code }));
      return;
    }
    outgoing.on('socket', (socket: Socket) => {
      // A reused keep-alive connection is up already; a new one once its TCP (and TLS) set-up is done.
      if (outgoing?.reusedSocket === true) connected = true;
      else socket.once(secure ? 'secureConnect' : 'connect', () => (connected = true));
    });
    const onSent = request.onSent;
    if (onSent !== undefined) outgoing.once('finish', () => onSent());
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      const code = typeof error.code === 'string' ? error.code : null;
      // Once the connection is up a byte of the request may have left, whatever the code says
      // (a route lost after sending reports EHOSTUNREACH too): only a request that never
      // connected is known not to have reached the server.
      const where: FailureStage = connected ? 'exchange' : 'connect';
      finish(fail(NETWORK_ERROR, `${label}: ${error.message}`, { stage: where, cause: code }));
    });
    outgoing.end(payload);
  });
