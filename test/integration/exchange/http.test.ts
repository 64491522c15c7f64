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

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? '/';
    if (path === '/slow') return void setTimeout(() => response.end('{}'), 500);
    if (path === '/big') return void response.end(JSON.stringify({ data: 'x'.repeat(5_000) }));
    if (path === '/html') return void response.end('<html>oops</html>');
    if (path === '/drop') return void request.on('data', () => undefined).on('end', () => request.socket.destroy());
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ status: 'ok' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

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

  it('tells a refused connection (never sent) from a lost answer', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(await fetchJson({ method: 'POST', url: `http://127.0.0.1:${port}/v1/accounts`, body: '{}', timeoutMs: 2_000 })).toMatchObject({ ok: false, code: 'NETWORK_ERROR', details: { stage: 'connect' } });
    expect(await fetchJson({ method: 'POST', url: `${base}/drop`, body: '{}', timeoutMs: 2_000 })).toMatchObject({ ok: false, code: 'NETWORK_ERROR', details: { stage: 'exchange' } });
  });

  it('the REST client reports a write whose answer was lost as OUTCOME_UNKNOWN, and a refused connection as NETWORK_ERROR', async () => {
    const owner = `0x${'0a'.repeat(32)}` as never;
    // The fetch is the real one, pointed at the misbehaving paths.
    const lost = await new ExchangeRestClient({ baseUrl: base, timeoutMs: 2_000, fetch: (request) => fetchJson({ ...request, url: `${base}/drop` }) }).createAccount(owner);
    expect(lost).toMatchObject({ ok: false, code: 'OUTCOME_UNKNOWN' });
    const slow = await new ExchangeRestClient({ baseUrl: base, timeoutMs: 50, fetch: (request) => fetchJson({ ...request, url: `${base}/slow` }) }).createAccount(owner);
    expect(slow).toMatchObject({ ok: false, code: 'OUTCOME_UNKNOWN', details: { transport: 'TIMEOUT' } });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = await new ExchangeRestClient({ baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 2_000 }).createAccount(owner);
    expect(refused).toMatchObject({ ok: false, code: 'NETWORK_ERROR', details: { stage: 'connect' } });
  });
});
