// fetchJson against a real loopback HTTP server: timeouts, size bound, non-JSON bodies, and which
// transport failures can have reached the server (a lost POST must be OUTCOME_UNKNOWN, a refused
// connection must not).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchJson } from '../../../main/exchange/http';
import { ExchangeRestClient } from '../../../main/exchange/rest-client';

let server: Server;
let base: string;

/** Listen on a free loopback port; the origin of the server. */
async function listen(target: Server): Promise<string> {
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
}

async function shut(target: Server): Promise<void> {
  target.closeAllConnections();
  await new Promise((resolve) => target.close(resolve));
}

/** The origin of a port nothing listens on (any more). */
async function closedOrigin(): Promise<string> {
  const closed = createServer();
  const origin = await listen(closed);
  await shut(closed);
  return origin;
}

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? '/';
    if (path === '/slow') return void setTimeout(() => response.end('{}'), 500);
    if (path === '/big') return void response.end(JSON.stringify({ data: 'x'.repeat(5_000) }));
    if (path === '/big-chunked') {
      // No content-length: the bound has to hold while the body streams in.
      for (let chunk = 0; chunk < 10; chunk++) response.write('x'.repeat(1_000));
      return void response.end();
    }
    if (path === '/html') return void response.end('<html>oops</html>');
    if (path === '/drop') return void request.on('data', () => undefined).on('end', () => request.socket.destroy());
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ status: 'ok' }));
  });
  base = await listen(server);
});

afterAll(() => shut(server));

describe('fetchJson', () => {
  it('answers JSON with its status', async () => {
    expect(await fetchJson({ method: 'GET', url: `${base}/health`, timeoutMs: 2_000 })).toEqual({ ok: true, value: { status: 200, body: { status: 'ok' } } });
  });

  it('times out (stage exchange)', async () => {
    expect(await fetchJson({ method: 'GET', url: `${base}/slow`, timeoutMs: 50 })).toMatchObject({ ok: false, code: 'TIMEOUT', details: { stage: 'exchange', timeoutMs: 50 } });
  });

  it('refuses a body above the bound and a body that is not JSON', async () => {
    expect(await fetchJson({ method: 'GET', url: `${base}/big`, timeoutMs: 2_000, maxResponseBytes: 1_000 })).toMatchObject({ ok: false, code: 'BAD_RESPONSE', message: expect.stringContaining('larger than 1000 bytes') as string });
    expect(await fetchJson({ method: 'GET', url: `${base}/html`, timeoutMs: 2_000 })).toMatchObject({ ok: false, code: 'BAD_RESPONSE', message: expect.stringContaining('not JSON') as string });
  });

  it('refuses a streamed body once it passes the bound, without a declared length', async () => {
    expect(await fetchJson({ method: 'GET', url: `${base}/big-chunked`, timeoutMs: 2_000, maxResponseBytes: 2_500 })).toMatchObject({ ok: false, code: 'BAD_RESPONSE', message: expect.stringContaining('larger than 2500 bytes') as string });
  });

  it('sends POST bodies with their length and the owner header, and reads the answer', async () => {
    const seen: { length: string | undefined; owner: string | undefined; body: string }[] = [];
    const echo = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        seen.push({ length: request.headers['content-length'], owner: request.headers['x-owner'] as string | undefined, body });
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ tx_id: '0x01', orders: [] }));
      });
    });
    const url = `${await listen(echo)}/v1/session/actions`;
    const body = JSON.stringify({ actions: [{ note: 'ünïcode counts in bytes' }] });
    expect(await fetchJson({ method: 'POST', url, body, headers: { 'x-owner': '0xab' }, timeoutMs: 2_000 })).toEqual({ ok: true, value: { status: 200, body: { tx_id: '0x01', orders: [] } } });
    expect(seen).toEqual([{ length: String(Buffer.byteLength(body)), owner: '0xab', body }]);
    await shut(echo);
  });

  it('tells onSent once the request was handed over, before its answer, and never for a request that could not leave', async () => {
    const order: string[] = [];
    const answered = fetchJson({ method: 'POST', url: `${base}/health`, body: '{}', timeoutMs: 2_000, onSent: () => order.push('sent') }).then((result) => {
      order.push('answered');
      return result;
    });
    expect(await answered).toMatchObject({ ok: true });
    expect(order).toEqual(['sent', 'answered']);
    let told = 0;
    expect(await fetchJson({ method: 'POST', url: `${await closedOrigin()}/health`, body: '{}', timeoutMs: 2_000, onSent: () => told++ })).toMatchObject({ ok: false, details: { stage: 'connect' } });
    expect(told).toBe(0);
  });

  it('keeps one connection for a burst of requests, and retires an idle one before the server closes it', async () => {
    let connections = 0;
    const keeper = createServer((_request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end('{"ok":true}');
    });
    // The server advertises `Keep-Alive: timeout=2` and closes an idle connection after 2 s.
    keeper.keepAliveTimeout = 2_000;
    keeper.on('connection', () => connections++);
    const url = `${await listen(keeper)}/health`;
    for (let request = 0; request < 5; request++) expect(await fetchJson({ method: 'GET', url, timeoutMs: 2_000 })).toMatchObject({ ok: true });
    expect(connections).toBe(1);
    // After 1.9 s idle the server is about to close the connection: the client must not reuse it.
    await new Promise((resolve) => setTimeout(resolve, 1_900));
    expect(await fetchJson({ method: 'POST', url, body: '{}', timeoutMs: 2_000 })).toMatchObject({ ok: true });
    expect(connections).toBe(2);
    await shut(keeper);
  });

  it('a connection the server dropped while idle costs a new connection, not a lost request', async () => {
    let connections = 0;
    const dropper = createServer((_request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end('{"ok":true}');
    });
    dropper.on('connection', () => connections++);
    const url = `${await listen(dropper)}/health`;
    expect(await fetchJson({ method: 'GET', url, timeoutMs: 2_000 })).toMatchObject({ ok: true });
    dropper.closeIdleConnections();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await fetchJson({ method: 'POST', url, body: '{}', timeoutMs: 2_000 })).toMatchObject({ ok: true });
    expect(connections).toBe(2);
    await shut(dropper);
  });

  it('an unsupported protocol or a malformed URL never leaves (stage connect)', async () => {
    expect(await fetchJson({ method: 'GET', url: 'ftp://127.0.0.1/x', timeoutMs: 2_000 })).toMatchObject({ ok: false, code: 'NETWORK_ERROR', details: { stage: 'connect' } });
    expect(await fetchJson({ method: 'GET', url: 'not a url', timeoutMs: 2_000 })).toMatchObject({ ok: false, code: 'NETWORK_ERROR', details: { stage: 'connect' } });
  });

  it('tells a refused connection (never sent) from a lost answer', async () => {
    expect(await fetchJson({ method: 'POST', url: `${await closedOrigin()}/v1/accounts`, body: '{}', timeoutMs: 2_000 })).toMatchObject({ ok: false, code: 'NETWORK_ERROR', details: { stage: 'connect' } });
    expect(await fetchJson({ method: 'POST', url: `${base}/drop`, body: '{}', timeoutMs: 2_000 })).toMatchObject({ ok: false, code: 'NETWORK_ERROR', details: { stage: 'exchange' } });
  });

  it('the REST client reports a write whose answer was lost as OUTCOME_UNKNOWN, and a refused connection as NETWORK_ERROR', async () => {
    const owner = `0x${'0a'.repeat(32)}` as never;
    // The fetch is the real one, pointed at the misbehaving paths.
    const lost = await new ExchangeRestClient({ baseUrl: base, timeoutMs: 2_000, fetch: (request) => fetchJson({ ...request, url: `${base}/drop` }) }).createAccount(owner);
    expect(lost).toMatchObject({ ok: false, code: 'OUTCOME_UNKNOWN' });
    const slow = await new ExchangeRestClient({ baseUrl: base, timeoutMs: 50, fetch: (request) => fetchJson({ ...request, url: `${base}/slow` }) }).createAccount(owner);
    expect(slow).toMatchObject({ ok: false, code: 'OUTCOME_UNKNOWN', details: { transport: 'TIMEOUT' } });
    const refused = await new ExchangeRestClient({ baseUrl: await closedOrigin(), timeoutMs: 2_000 }).createAccount(owner);
    expect(refused).toMatchObject({ ok: false, code: 'NETWORK_ERROR', details: { stage: 'connect' } });
  });
});
