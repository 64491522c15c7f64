// The WebSocket endpoint: every subscription's first and later messages, the spec's error
// texts, PING/PONG, identity limits, nonce stream exclusivity and the inactivity close.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Market } from '../../../shared/market/market';
import { startSandbox, type RunningSandbox } from '../../../sandbox/server';
import { HOUR, order, SandboxClient, secondsFromNow, Trader } from '../../support/sandbox/client';
import { StreamClient } from '../../support/sandbox/stream-client';

let sandbox: RunningSandbox;
let client: SandboxClient;
let market: Market;
const ETH = 1_000_000_000n;
const USDC = 1_000_000n;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, makerProfile: 'thin-legacy', maker: false, rateLimits: false, wsIdleMs: 400 });
  client = new SandboxClient(sandbox.url);
  market = (await client.markets()).markets.find((m) => m.base.symbol === 'ETH' && m.quote.symbol === 'USDC') as Market;
});

afterAll(async () => {
  await sandbox.close();
});

describe('stream basics', () => {
  it('answers PING with PONG and malformed JSON with the spec text', async () => {
    const stream = await StreamClient.open(sandbox.url);
    stream.send('PING');
    await expect.poll(() => stream.messages.includes('PONG')).toBe(true);
    stream.send('{"action": }');
    expect(await stream.waitFor((m) => 'error' in m)).toEqual({ error: 'expected value at line 1 column 12' });
    stream.send('{\n  "action": "subscribe_depth_view", "market_id": "' + market.market_id + '", "precision": "10", "frequency": "2s"}');
    expect(await stream.waitFor((m) => 'error' in m)).toEqual({ error: 'Invalid subscription frequency: 2s' });
    const identities = Array.from({ length: 11 }, (_, i) => ({ ContractId: `0x${i.toString(16).padStart(64, '0')}` }));
    stream.send({ action: 'subscribe_orders', identities });
    expect(await stream.waitFor((m) => 'error' in m)).toEqual({ error: 'Cannot subscribe to more than 10 topics at once' });
    stream.close();
  });

  it('closes an inactive client with "Client is inactive"', async () => {
    const stream = await StreamClient.open(sandbox.url);
    expect(await stream.waitFor((m) => 'error' in m, 3000)).toEqual({ error: 'Client is inactive' });
    await expect.poll(() => stream.closed).toBeDefined();
  });
});

describe('market streams', () => {
  it('sends a depth snapshot then deltas, a level at 0 when it empties, and trades', async () => {
    const maker = await Trader.create(client);
    const taker = await Trader.create(client);
    for (const trader of [maker, taker]) await trader.openSession([market.contract_id], secondsFromNow(2n * HOUR));
    const stream = await StreamClient.open(sandbox.url);
    const keepAlive = setInterval(() => stream.send('PING'), 100);
    try {
      stream.send({ action: 'subscribe_depth', market_id: market.market_id, precision: '10' });
      stream.send({ action: 'subscribe_trades', market_id: market.market_id });
      const first = await stream.waitFor((m) => m.action === 'subscribe_depth');
      expect(first).toMatchObject({ market_id: market.market_id, view: { buys: [], sells: [] } });
      expect(typeof first.seen_timestamp).toBe('string');
      expect(String(first.seen_timestamp)).toMatch(/^\d{19}$/);
      expect(String(first.onchain_timestamp)).toMatch(/^\d{10}$/);
      await stream.waitFor((m) => m.action === 'subscribe_trades');
      await maker.act(market, [order('Sell', 3000n * USDC, ETH)]);
      const added = await stream.waitFor((m) => m.action === 'subscribe_depth_update');
      expect(added.changes).toEqual({ buys: [], sells: [{ price: String(3000n * USDC), quantity: String(ETH) }] });
      await taker.act(market, [order('Buy', 3000n * USDC, ETH)]);
      const removed = await stream.waitFor((m) => m.action === 'subscribe_depth_update');
      expect(removed.changes).toEqual({ buys: [], sells: [{ price: String(3000n * USDC), quantity: '0' }] });
      const trades = await stream.waitFor<{ trades: Record<string, unknown>[] }>((m) => m.action === 'subscribe_trades');
      expect(trades.trades[0]).toMatchObject({ side: 'Buy', price: String(3000n * USDC), quantity: String(ETH) });
      stream.send({ action: 'subscribe_depth_view', market_id: market.market_id, precision: '100', frequency: '100ms' });
      await stream.waitFor((m) => m.action === 'subscribe_depth_view');
      await stream.waitFor((m) => m.action === 'subscribe_depth_view');
      stream.send({ action: 'unsubscribe_depth_view', market_id: market.market_id, precision: '100' });
    } finally {
      clearInterval(keepAlive);
      stream.close();
    }
  });
});

describe('account streams', () => {
  it('streams orders, balances and nonce_v2, and keeps nonce and nonce_v2 exclusive', async () => {
    const trader = await Trader.create(client);
    await trader.openSession([market.contract_id], secondsFromNow(2n * HOUR));
    const stream = await StreamClient.open(sandbox.url);
    const keepAlive = setInterval(() => stream.send('PING'), 100);
    try {
      const identities = [{ ContractId: trader.accountId }];
      stream.send({ action: 'subscribe_orders', identities });
      stream.send({ action: 'subscribe_balances', identities: [{ Address: trader.owner.address }] });
      stream.send({ action: 'subscribe_nonce_v2', identities });
      expect(await stream.waitFor((m) => m.action === 'subscribe_orders')).toMatchObject({ orders: [] });
      const balances = await stream.waitFor<{ balance: Record<string, unknown>[] }>((m) => m.action === 'subscribe_balances');
      expect(balances.balance.find((b) => b.asset_id === market.quote.asset)).toMatchObject({ trading_account_balance: String(100_000n * USDC) });
      const sequential = await stream.waitFor((m) => m.action === 'subscribe_nonce_v2' && 'sequential' in (m.update as object));
      expect(sequential.update).toEqual({ sequential: { contract_id: trader.accountId, nonce: '1' } });
      await stream.waitFor((m) => m.action === 'subscribe_nonce_v2' && 'parallel' in (m.update as object));
      stream.send({ action: 'subscribe_nonce', identities });
      expect(await stream.waitFor((m) => 'error' in m)).toMatchObject({ error: expect.stringContaining('subscribe_nonce') });
      await trader.act(market, [order('Buy', 2900n * USDC, ETH)]);
      const orders = await stream.waitFor<{ orders: Record<string, unknown>[] }>((m) => m.action === 'subscribe_orders');
      expect(orders.orders[0]).toMatchObject({ side: 'Buy', close: false });
      const locked = await stream.waitFor<{ balance: Record<string, unknown>[] }>((m) => m.action === 'subscribe_balances');
      expect(locked.balance.find((b) => b.asset_id === market.quote.asset)).toMatchObject({ total_locked: String(2900n * USDC) });
      expect((await stream.waitFor((m) => m.action === 'subscribe_nonce_v2' && 'sequential' in (m.update as object))).update).toEqual({ sequential: { contract_id: trader.accountId, nonce: '2' } });
    } finally {
      clearInterval(keepAlive);
      stream.close();
    }
  });
});
