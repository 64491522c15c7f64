// Robustness: many random and mutated requests against a running sandbox (maker on). Every
// answer is a 2xx or a 4xx with a JSON body (never a 5xx, never a hang), and afterwards the
// sandbox still answers /health and its ledger invariants hold: for every asset, what all
// accounts, wallets and books hold plus the fees collected equals what was minted.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Market } from '../../../shared/market/market';
import { MAX_BODY_BYTES } from '../../../sandbox/http/body';
import { startSandbox, type RunningSandbox } from '../../../sandbox/server';
import { HOUR, order, SandboxClient, secondsFromNow, Trader } from '../../support/sandbox/client';
import { checkProperty } from '../../support/property';

let sandbox: RunningSandbox;
let client: SandboxClient;
let market: Market;
let trader: Trader;
let validActions: Record<string, unknown>;

const PATHS = [
  '/health', '/v1/markets', '/v1/markets/summary', '/v1/markets/ticker', '/v1/markets/fees', '/v1/depth', '/v1/bars', '/v1/trades', '/v1/orders', '/v1/order',
  '/v1/orders/book', '/v1/orders/active', '/v1/balance', '/v1/accounts', '/v1/accounts/window', '/v1/trades_by_account', '/v1/trade_by_account', '/v1/fee_for_trade',
  '/v1/session', '/v1/session/actions', '/v1/accounts/actions', '/v1/accounts/call', '/v1/accounts/calls', '/v1/accounts/upgrade', '/v1/accounts/withdraw',
  '/analytics/v1/whitelist', '/analytics/v1/referral/code-info', '/api/sandbox/mint-v2', '/v1/aggregated/orderbook', '/v1/agg/trades', '/v1/agg/coingecko/orderbook', '/nope',
];
const QUERY_KEYS = ['market_id', 'market_pair', 'precision', 'depth', 'level', 'resolution', 'from', 'to', 'count_back', 'count', 'direction', 'start_timestamp', 'start_trade_id', 'start_order_id', 'account', 'contract', 'owner', 'trade_account_id', 'owner_contract', 'order_id', 'trade_id', 'is_open', 'asset_id', 'address', 'nonce_session_id', 'code'];

/** Replace the value at a random path of a JSON value with another value. */
function mutate(value: unknown, path: readonly number[], replacement: unknown): unknown {
  if (path.length === 0 || typeof value !== 'object' || value === null) return replacement;
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  if (entries.length === 0) return replacement;
  const index = (path[0] as number) % entries.length;
  const [key, child] = entries[index] as readonly [string, unknown];
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? [...value] : { ...(value as Record<string, unknown>) };
  (copy as Record<string, unknown>)[key] = mutate(child, path.slice(1), replacement);
  return copy;
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, makerProfile: 'thin-legacy', maker: true, makerRate: 10, rateLimits: false, control: true });
  client = new SandboxClient(sandbox.url);
  market = (await client.markets()).markets[0] as Market;
  trader = await Trader.create(client);
  await trader.openSession([market.contract_id], secondsFromNow(2n * HOUR));
  validActions = trader.actionsBody(market, [trader.settle(), order('Buy', 2_990_000_000n, 1_000_000_000n)]);
});

afterAll(async () => {
  await sandbox.close();
});

describe('robustness', () => {
  it('answers every malformed request with a 4xx {code, message} and keeps its invariants', async () => {
    const values = [market.market_id, market.quote.asset, trader.accountId, trader.owner.address, '0', '1', '-1', '1.5', 'abc', '', '99999999999999999999999999', 'true', '1m', 'desc', '100', '3'];
    const queryArbitrary = fc.dictionary(fc.constantFrom(...QUERY_KEYS), fc.oneof(fc.constantFrom(...values), fc.string({ maxLength: 12 })), { maxKeys: 5 });
    const bodyArbitrary = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.tuple(fc.array(fc.nat(), { maxLength: 4 }), fc.jsonValue({ maxDepth: 2 })).map(([path, replacement]) => mutate(validActions, path, replacement)),
      fc.constantFrom('{"actions": [', 'null', '[]', '{"identity": {"Address": "0x1"}}', '\u0000', '{"a":1}{'),
    );
    const requestArbitrary = fc.record({
      method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
      path: fc.constantFrom(...PATHS),
      query: queryArbitrary,
      body: fc.option(bodyArbitrary, { nil: undefined }),
      owner: fc.option(fc.constantFrom(trader.owner.address, trader.owner.address.slice(2), 'zz', ''), { nil: undefined }),
    });
    const statuses = new Map<number, number>();
    await checkProperty(
      fc.asyncProperty(requestArbitrary, async (request) => {
        const query = new URLSearchParams(request.query).toString();
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (request.owner !== undefined) headers['Svc-Owner-Id'] = request.owner;
        const hasBody = request.body !== undefined && request.method !== 'GET';
        const response = await fetch(`${sandbox.url}${request.path}${query ? `?${query}` : ''}`, {
          method: request.method,
          headers,
          body: hasBody ? (typeof request.body === 'string' ? request.body : JSON.stringify(request.body)) : undefined,
        });
        const text = await response.text();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        expect(response.status, `${request.method} ${request.path}?${query} -> ${text.slice(0, 300)}`).toBeLessThan(500);
        const body = JSON.parse(text) as Record<string, unknown>;
        if (response.status >= 400 && !('error' in body) && !('reason' in body)) {
          expect(typeof body.code).toBe('number');
          expect(typeof body.message).toBe('string');
        }
      }),
      { numRuns: 400, seed: 20_261_121 },
    );
    expect([...statuses.keys()].some((status) => status >= 400)).toBe(true);

    const huge = await client.request('POST', '/v1/session/actions', `{"pad":"${'x'.repeat(MAX_BODY_BYTES)}"}`, trader.headers);
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ code: 1004 });

    // A 30,000-deep array (60 KB, under the size limit) on every body-reading route: a clean 400
    // naming the problem, never a stack overflow answered with a 500.
    const deep = `${'['.repeat(30_000)}${']'.repeat(30_000)}`;
    for (const path of ['/v1/session/actions', '/v1/accounts/withdraw', '/v1/accounts/calls', '/api/sandbox/mint-v2', '/analytics/v1/whitelist']) {
      const answer = await client.request('POST', path, deep, trader.headers);
      expect(answer.status, `${path} -> ${JSON.stringify(answer.body).slice(0, 200)}`).toBe(400);
      expect(answer.body).toMatchObject({ code: 1000, message: expect.stringContaining('nested 30000 levels deep') });
    }
    const deepObject = `${'{"a":'.repeat(40)}1${'}'.repeat(40)}`;
    const objectAnswer = await client.request('POST', '/v1/session/actions', deepObject, trader.headers);
    expect(objectAnswer.status).toBe(400);
    expect(objectAnswer.body).toMatchObject({ code: 1000, message: expect.stringContaining('nested 40 levels deep') });

    expect((await client.get('/health')).body).toEqual({ status: 'ok' });
    const ledger = await client.get<{ invariant_problems: string[]; minted: Record<string, string>; held_plus_fees: Record<string, string> }>('/control/ledger');
    expect(ledger.body.invariant_problems).toEqual([]);
    expect(ledger.body.held_plus_fees).toEqual(ledger.body.minted);
  });
});
