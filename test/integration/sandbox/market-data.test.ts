// Market-data reads over HTTP: depth grouping and levels, trades and orders pages with cursors,
// bars, market_pair resolution on the aggregated feeds under both prefixes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Market } from '../../../shared/market/market';
import { startSandbox, type RunningSandbox } from '../../../sandbox/server';
import { HOUR, order, SandboxClient, secondsFromNow, Trader } from '../../support/sandbox/client';

let sandbox: RunningSandbox;
let client: SandboxClient;
let markets: Market[];
let market: Market;
let maker: Trader;
let taker: Trader;
const ETH = 1_000_000_000n;
const USDC = 1_000_000n;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, makerProfile: 'thin-legacy', maker: false, rateLimits: false });
  client = new SandboxClient(sandbox.url);
  markets = (await client.markets()).markets;
  market = markets[0] as Market;
  maker = await Trader.create(client);
  taker = await Trader.create(client);
  for (const trader of [maker, taker]) await trader.openSession([market.contract_id], secondsFromNow(2n * HOUR));
  // Asks at 3000.00, 3000.05 and 3000.15; bids at 2999.95 and 2999.10.
  await maker.act(market, [order('Sell', 3000n * USDC, ETH), order('Sell', 3000n * USDC + 50_000n, ETH), order('Sell', 3000n * USDC + 150_000n, ETH)]);
  await maker.act(market, [order('Buy', 2999n * USDC + 950_000n, ETH), order('Buy', 2999n * USDC + 100_000n, ETH)]);
  // Three trades against the best ask.
  for (let i = 0; i < 3; i++) await taker.act(market, [order('Buy', 3000n * USDC, ETH / 4n)]);
});

afterAll(async () => {
  await sandbox.close();
});

describe('depth', () => {
  it('groups bids down and asks up to the precision, and lists orders at level 3', async () => {
    const grouped = await client.get<{ view: { buys: { price: string; quantity: string }[]; sells: { price: string; quantity: string }[] } }>(
      `/v1/depth?market_id=${market.market_id}&precision=100000`,
    );
    expect(grouped.body.view.sells).toEqual([
      { price: String(3000n * USDC), quantity: String(ETH / 4n) },
      { price: String(3000n * USDC + 100_000n), quantity: String(ETH) },
      { price: String(3000n * USDC + 200_000n), quantity: String(ETH) },
    ]);
    expect(grouped.body.view.buys).toEqual([
      { price: String(2999n * USDC + 900_000n), quantity: String(ETH) },
      { price: String(2999n * USDC + 100_000n), quantity: String(ETH) },
    ]);
    const one = await client.get<{ view: { buys: unknown[] } }>(`/v1/depth?market_id=${market.market_id}&depth=1`);
    expect(one.body.view.buys).toHaveLength(1);
    const full = await client.get<{ orders: { sells: { order_id: string }[] } }>(`/v1/depth?market_id=${market.market_id}&level=3`);
    expect(full.body.orders.sells).toHaveLength(3);
    expect((await client.get(`/v1/depth?market_id=${market.market_id}&precision=30`)).body.message).toContain('precision');
    expect((await client.get(`/v1/depth?market_id=${market.market_id}&depth=501`)).status).toBe(400);
  });
});

describe('trades, orders and bars', () => {
  it('pages trades with direction and cursors', async () => {
    const all = await client.get<{ trades: { trade_id: string; timestamp: string }[] }>(`/v1/trades?market_id=${market.market_id}`);
    expect(all.body.trades).toHaveLength(3);
    const [newest, middle, oldest] = all.body.trades as [{ trade_id: string; timestamp: string }, { trade_id: string; timestamp: string }, { trade_id: string; timestamp: string }];
    const page = await client.get<{ trades: { trade_id: string }[] }>(`/v1/trades?market_id=${market.market_id}&count=1&start_timestamp=${newest.timestamp}&start_trade_id=${newest.trade_id}`);
    expect(page.body.trades.map((t) => t.trade_id)).toEqual([middle.trade_id]);
    const ascending = await client.get<{ trades: { trade_id: string }[] }>(`/v1/trades?market_id=${market.market_id}&direction=asc&count=2`);
    expect(ascending.body.trades.map((t) => t.trade_id)).toEqual([oldest.trade_id, middle.trade_id]);
    expect((await client.get(`/v1/trades?market_id=${market.market_id}&count=51`)).status).toBe(400);
    const mine = await client.get<{ trades: { role: string; fee: string }[] }>(`/v1/trades_by_account?market_id=${market.market_id}&contract=${taker.accountId}`);
    expect(mine.body.trades).toHaveLength(3);
    expect(mine.body.trades[0]?.role).toBe('taker');
    const fee = await client.get<{ fee: string; asset_id: string }>(`/v1/fee_for_trade?market_id=${market.market_id}&account=${taker.owner.address}&trade_id=${newest.trade_id}`);
    expect(fee.body).toMatchObject({ fee: String((ETH / 4n) * 250n / 1_000_000n), asset_id: market.base.asset });
  });

  it('pages orders and refuses one cursor without the other', async () => {
    const open = await client.get<{ orders: { order_id: string; timestamp: string }[] }>(`/v1/orders?market_id=${market.market_id}&contract=${maker.accountId}&is_open=true`);
    expect(open.body.orders).toHaveLength(5);
    const all = await client.get<{ orders: unknown[] }>(`/v1/orders?market_id=${market.market_id}&account=${maker.owner.address}`);
    expect(all.body.orders).toHaveLength(5);
    const first = open.body.orders[0] as { order_id: string; timestamp: string };
    const half = await client.get(`/v1/orders?market_id=${market.market_id}&contract=${maker.accountId}&start_order_id=${first.order_id}`);
    expect(half.status).toBe(400);
    expect(String(half.body.message)).toContain('start_timestamp and start_order_id');
    const both = await client.get(`/v1/orders?market_id=${market.market_id}&contract=${maker.accountId}&account=${maker.owner.address}`);
    expect(both.status).toBe(400);
    const page = await client.get<{ orders: unknown[] }>(`/v1/orders?market_id=${market.market_id}&contract=${maker.accountId}&count=2&start_timestamp=${first.timestamp}&start_order_id=${first.order_id}`);
    expect(page.body.orders).toHaveLength(2);
  });

  it('builds bars from trades and honours count_back', async () => {
    const bars = await client.get<{ bars: { open: string; close: string; volume: string }[] }>(`/v1/bars?market_id=${market.market_id}&resolution=1m&count_back=5`);
    expect(bars.body.bars).toHaveLength(1);
    expect(bars.body.bars[0]).toMatchObject({ open: String(3000n * USDC), close: String(3000n * USDC), volume: String((3n * ETH) / 4n) });
    const week = await client.get<{ bars: unknown[] }>(`/v1/bars?market_id=${market.market_id}&resolution=1w&from=0&to=${Date.now() + 60_000}`);
    expect(week.body.bars).toHaveLength(1);
    expect((await client.get(`/v1/bars?market_id=${market.market_id}&resolution=2m&count_back=5`)).status).toBe(400);
    expect((await client.get(`/v1/bars?market_id=${market.market_id}&resolution=1m&count_back=5001`)).status).toBe(400);
  });
});

describe('aggregated feeds', () => {
  it('serves both prefixes and resolves market_pair to the first market with those symbols', async () => {
    const twins = markets.filter((m) => m.base.symbol === 'ETH' && m.quote.symbol === 'USDC');
    expect(twins).toHaveLength(2);
    expect(twins[0]?.quote.asset).not.toBe(twins[1]?.quote.asset);
    for (const prefix of ['/v1/aggregated', '/v1/agg']) {
      const book = await client.get<{ market_id: string; bids: string[][] }>(`${prefix}/orderbook?market_pair=ETH_USDC`);
      expect(book.body.market_id).toBe(twins[0]?.market_id);
      expect(book.body.bids[0]).toEqual(['2999.95', '1']);
    }
    const second = await client.get<{ market_id: string }>(`/v1/agg/orderbook?market_id=${twins[1]?.market_id}`);
    expect(second.body.market_id).toBe(twins[1]?.market_id);
    const trades = await client.get<{ type: string; price: string }[]>('/v1/agg/trades?market_pair=eth_usdc');
    expect(trades.body[0]).toMatchObject({ type: 'buy', price: '3000' });
    expect((await client.get('/v1/agg/orderbook?market_pair=ETH_EUR')).status).toBe(404);
  });
});
