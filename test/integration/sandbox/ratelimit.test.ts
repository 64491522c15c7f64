// Rate limits of spec section 8: HTTP 429 with {code: 1003}, keyed by Svc-Owner-Id or by IP,
// on the sandbox clock (advancing it opens the window again).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Market } from '../../../shared/market/market';
import { startSandbox, type RunningSandbox } from '../../../sandbox/server';
import { HOUR, SandboxClient, secondsFromNow, Trader } from '../../support/sandbox/client';

let sandbox: RunningSandbox;
let client: SandboxClient;
let market: Market;

beforeAll(async () => {
  // A frozen clock: the windows only move when the test advances them, however slow the machine.
  const frozen = Date.now();
  sandbox = await startSandbox({ port: 0, makerProfile: 'thin-legacy', maker: false, control: true, now: () => frozen });
  client = new SandboxClient(sandbox.url);
  market = (await client.markets()).markets[0] as Market;
});

afterAll(async () => {
  await sandbox.close();
});

describe('rate limits', () => {
  it('allows one account deployment per second per IP', async () => {
    const first = await Trader.create(client, { fund: false });
    expect(first.accountId).toMatch(/^0x/);
    const second = await client.request('POST', '/v1/accounts', { identity: { Address: `0x${'42'.repeat(32)}` } });
    expect(second.status).toBe(429);
    expect(second.body).toMatchObject({ code: 1003 });
    expect(String(second.body.message)).toContain('POST /v1/accounts');
    await client.request('POST', '/control/clock/advance', { ms: 1000 });
    expect((await client.request('POST', '/v1/accounts', { identity: { Address: `0x${'42'.repeat(32)}` } })).status).toBe(200);
  });

  it('limits session actions to 5 per second per owner, not across owners', async () => {
    await client.request('POST', '/control/clock/advance', { ms: 1000 });
    const alice = await Trader.create(client);
    await client.request('POST', '/control/clock/advance', { ms: 1000 });
    const bob = await Trader.create(client);
    await alice.openSession([market.contract_id], secondsFromNow(2n * HOUR));
    await bob.openSession([market.contract_id], secondsFromNow(2n * HOUR));
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await alice.act(market, [alice.settle()])).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect((await bob.act(market, [bob.settle()])).status).toBe(200);
  });

  it('limits GET /v1/markets/fees and each aggregated feed to 5 per second per IP', async () => {
    await client.request('POST', '/control/clock/advance', { ms: 1000 });
    const fees: number[] = [];
    for (let i = 0; i < 6; i++) fees.push((await client.get('/v1/markets/fees')).status);
    expect(fees).toEqual([200, 200, 200, 200, 200, 429]);
    const feed: number[] = [];
    for (let i = 0; i < 3; i++) feed.push((await client.get('/v1/aggregated/assets')).status);
    for (let i = 0; i < 3; i++) feed.push((await client.get('/v1/agg/assets')).status);
    expect(feed).toEqual([200, 200, 200, 200, 200, 429]);
    expect((await client.get('/v1/agg/ticker')).status).toBe(200);
  });
});
