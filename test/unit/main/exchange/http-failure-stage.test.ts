// Once the connection is up, a request may have reached the server whatever the error that ends
// it: an error code that usually means "never connected" (EHOSTUNREACH, ENETUNREACH, …) after the
// request left is a lost answer (stage `exchange`), so a signed write is looked up, never assumed
// unsent.
import type * as http from 'node:http';
import { createServer, type ClientRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const hooks: { onRequest: ((request: ClientRequest) => void) | null } = { onRequest: null };

vi.mock('node:http', async (importOriginal) => {
  const actual = await importOriginal<typeof http>();
  return {
    ...actual,
    request: (...args: Parameters<typeof actual.request>) => {
      const request = actual.request(...args);
      hooks.onRequest?.(request);
      return request;
    },
  };
});

const { fetchJson } = await import('../../../../main/exchange/http');

describe('the stage of a transport failure', () => {
  let server: Server;
  let base = '';
  let received = 0;

  beforeAll(async () => {
    // Reads the request and never answers.
    server = createServer((request) => {
      request.resume();
      request.on('end', () => received++);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  for (const code of ['EHOSTUNREACH', 'ENETUNREACH', 'ECONNREFUSED', 'ECONNRESET']) {
    it(`${code} after the request was sent is stage exchange (the request may have been applied)`, async () => {
      const before = received;
      hooks.onRequest = (request) => {
        request.once('finish', () => {
          const wait = setInterval(() => {
            if (received === before) return;
            clearInterval(wait);
            request.destroy(Object.assign(new Error(`simulated ${code}`), { code }));
          }, 5);
        });
      };
      const answer = await fetchJson({ method: 'POST', url: `${base}/v1/session/actions`, body: '{}', timeoutMs: 5_000 });
      hooks.onRequest = null;
      expect(received).toBe(before + 1);
      expect(answer).toMatchObject({ ok: false, code: 'NETWORK_ERROR', details: { stage: 'exchange', cause: code } });
    });
  }
});
