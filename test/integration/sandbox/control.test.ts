// The control surface: 404 without --control; faults (delay, fail, drop after commit), closing
// every WebSocket, moving a price through the book, reading the ledger, reset, pinning the maker.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Market } from '../../../shared/market/market';
import { startSandbox, type RunningSandbox } from '../../../sandbox/server';
import { HOUR, order, SandboxClient, secondsFromNow, Trader } from '../../support/sandbox/client';
import { StreamClient } from '../../support/sandbox/stream-client';

let sandbox: RunningSandbox;
let client: SandboxClient;
let market: Market;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, makerProfile: 'thin-legacy', maker: true, makerRate: 0, rateLimits: false, control: true });
  client = new SandboxClient(sandbox.url);
  market = (await client.markets()).markets[0] as Market;
});

afterAll(async () => {
  await sandbox.close();
});

describe('control surface', () => {
  it('is not served without --control', async () => {
    const plain = await startSandbox({ port: 0, makerProfile: 'thin-legacy', maker: false });
    const response = await fetch(`${plain.url}/control/ledger`);
    expect(response.status).toBe(404);
    await plain.close();
  });

  it('delays, fails and drops the next matching requests', async () => {
    await client.request('POST', '/control/faults/delay', { count: 1, path_prefix: '/v1/markets', delay_ms: 200 });
    const started = Date.now();
    expect((await client.get('/v1/markets')).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    await client.request('POST', '/control/faults/fail', { count: 2, method: 'GET', path_prefix: '/health', status: 503 });
    expect((await client.get('/health')).status).toBe(503);
    expect((await client.get('/health')).status).toBe(503);
    expect((await client.get('/health')).status).toBe(200);

    const trader = await Trader.create(client);
    await trader.openSession([market.contract_id], secondsFromNow(2n * HOUR));
    await client.request('POST', '/control/faults/drop', { count: 1, path_prefix: '/v1/session/actions' });
    await expect(trader.act(market, [order('Buy', 2_900_000_000n, 1_000_000_000n)])).rejects.toThrow();
    // The dropped request was committed: the nonce moved and the order rests.
    expect(await trader.readNonce()).toBe(2n);
    const orders = await client.get<{ orders: unknown[] }>(`/v1/orders?market_id=${market.market_id}&contract=${trader.accountId}&is_open=true`);
    expect(orders.body.orders).toHaveLength(1);
  });

  it('closes every WebSocket and moves a market price through the book', async () => {
    const stream = await StreamClient.open(sandbox.url);
    const closed = await client.request('POST', '/control/ws/close-all');
    expect(closed.body.closed).toBeGreaterThanOrEqual(1);
    await expect.poll(() => stream.closed).toBeDefined();
    const moved = await client.request('POST', '/control/markets/price', { market_id: market.market_id, price: '3100000000' });
    expect(moved.body, JSON.stringify(moved.body)).toMatchObject({ last_price: '3100000000' });
    const trades = await client.get<{ trades: { price: string }[] }>(`/v1/trades?market_id=${market.market_id}&count=1`);
    expect(trades.body.trades[0]?.price).toBe('3100000000');
    const ledger = await client.get<{ invariant_problems: string[]; accounts: unknown[] }>('/control/ledger');
    expect(ledger.body.invariant_problems).toEqual([]);
    expect((await client.request('POST', '/control/reset')).status).toBe(200);
    const after = await client.get<{ accounts: { house: boolean }[] }>('/control/ledger');
    expect(after.body.accounts.every((account) => account.house)).toBe(true);
  });

  it('watches the inside of a book: the extremes of every committed state, not samples', async () => {
    const inside = async () => {
      const depth = await client.get<{ view: { buys: { price: string }[]; sells: { price: string }[] } }>(`/v1/depth?market_id=${market.market_id}&precision=1&depth=1`);
      return { bid: BigInt(depth.body.view.buys[0]?.price ?? '0'), ask: BigInt(depth.body.view.sells[0]?.price ?? '0') };
    };
    expect((await client.request('POST', '/control/markets/inside-watch', { market_id: '0x' + '00'.repeat(32) })).status).toBe(404);
    expect((await client.get('/control/markets/inside-watch?watch_id=nope')).status).toBe(404);
    const started = await client.request('POST', '/control/markets/inside-watch', { market_id: market.market_id });
    const watchId = (started.body as { watch_id: string }).watch_id;
    const before = await inside();
    // Up through the book and back: the ask the book passed through is no longer the inside when read.
    const high = before.ask + (before.ask / 50n);
    expect((await client.request('POST', '/control/markets/price', { market_id: market.market_id, price: high.toString() })).status).toBe(200);
    expect((await client.request('POST', '/control/markets/price', { market_id: market.market_id, price: before.bid.toString() })).status).toBe(200);
    const read = await client.get<{ max_ask: string; min_bid: string; changes: number }>(`/control/markets/inside-watch?watch_id=${watchId}`);
    expect(read.status).toBe(200);
    expect(BigInt(read.body.max_ask)).toBeGreaterThanOrEqual(high);
    expect((await inside()).ask).toBeLessThan(high);
    expect(read.body.changes).toBeGreaterThanOrEqual(2);
    expect((await client.request('POST', '/control/markets/inside-watch/stop', { watch_id: watchId })).body).toEqual({ stopped: true });
    expect((await client.get(`/control/markets/inside-watch?watch_id=${watchId}`)).status).toBe(404);
  });

  it('pins the maker: a full book quoted again at the same prices and sizes past its quote interval, until it runs again', async () => {
    // The house's resting quotes as side@price×quantity (order ids change at each re-quote).
    const book = async () => {
      const listed = await client.get<{ orders: { side: string; price: string; quantity: string; filled: string; close: boolean }[] }>(`/control/ledger/orders?market_id=${market.market_id}`);
      return listed.body.orders.filter((entry) => !entry.close).map((entry) => `${entry.side}@${entry.price}x${entry.quantity}`).sort();
    };
    expect((await client.request('POST', '/control/maker', { pinned: 'yes' })).status).toBe(400);
    expect((await client.request('POST', '/control/maker', { pinned: true })).body).toEqual({ pinned: true });
    const pinned = await book();
    // Up to five levels a side (a level whose size is not valid there is left out).
    expect(pinned.length).toBeGreaterThanOrEqual(2);
    expect(pinned.length).toBeLessThanOrEqual(10);
    // Past two quote intervals (2 s each): re-quoted, at the same prices and sizes.
    await new Promise((resolve) => setTimeout(resolve, 4_500));
    expect(await book()).toEqual(pinned);
    expect((await client.request('POST', '/control/maker', { pinned: false })).body).toEqual({ pinned: false });
    await expect.poll(book, { timeout: 8_000 }).not.toEqual(pinned);
  });
});
