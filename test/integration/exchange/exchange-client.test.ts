// main/exchange against a real sandbox on 127.0.0.1 (in-process, port 0): the REST client, the
// rate limiter, the WebSocket client and the order books, with nothing faked.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { windowFromSnapshot } from '../../../shared/nonce/lane-window';
import { ParallelNonceAllocator } from '../../../shared/nonce/allocator';
import { addressOf, generatePrivateKey, publicKeyOf, signDigest } from '../../../shared/crypto/index';
import type { B256 } from '../../../shared/encoding/b256';
import { contractIdentity } from '../../../shared/encoding/identity';
import type { Market } from '../../../shared/market/market';
import { prepareSessionActions, sessionActionsBody } from '../../../shared/protocol/session-actions';
import { sessionBody, sessionDigest } from '../../../shared/protocol/session';
import { parallelNonce } from '../../../shared/protocol/nonce-choice';
import type { Clock, TimerHandle } from '../../../shared/clock';
import { startSandbox, type RunningSandbox } from '../../../sandbox/server';
import { OrderBookFeed, type BookHandle } from '../../../main/exchange/book-feed';
import { orderPages, tradePages } from '../../../main/exchange/pagination';
import { RateLimiter } from '../../../main/exchange/rate-limiter';
import { ExchangeRestClient } from '../../../main/exchange/rest-client';
import { wsSocketFactory } from '../../../main/exchange/socket';
import { ExchangeStream } from '../../../main/exchange/stream-client';

const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms) as unknown as TimerHandle,
  clearTimeout: (handle) => clearTimeout(handle as unknown as NodeJS.Timeout),
};

let sandbox: RunningSandbox;
let rest: ExchangeRestClient;
let limiter: RateLimiter;
let market: Market;

async function waitFor(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function wsUrl(httpUrl: string): string {
  return `${httpUrl.replace(/^http/, 'ws')}/v1/ws`;
}

function openStream(): ExchangeStream {
  // A short first retry keeps the test fast; the spec schedule itself is covered by the unit tests.
  return new ExchangeStream({ url: wsUrl(sandbox.url), clock: systemClock, socketFactory: wsSocketFactory(), reconnect: { firstDelayMs: 100, stepMs: 100, maxDelayMs: 500, maxRetries: 10 } });
}

async function restTop(precision: bigint, levels: number) {
  const depth = await rest.getDepth({ market_id: market.market_id, precision, depth: levels });
  if (!depth.ok) throw new Error(depth.message);
  return { buys: depth.value.buys.map((level) => [level.price, level.quantity]), sells: depth.value.sells.map((level) => [level.price, level.quantity]) };
}

/** The streamed book equals the REST depth at a quiet moment (retried while the maker moves it). */
async function expectConsistent(book: BookHandle, levels: number): Promise<void> {
  let last = '';
  for (let attempt = 0; attempt < 50; attempt++) {
    const streamed = book.top(levels);
    if (streamed.ok) {
      const fetched = await restTop(book.precision, levels);
      const again = book.top(levels);
      if (again.ok && JSON.stringify(again.value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) === JSON.stringify(fetched, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))) return;
      last = `${JSON.stringify(again.ok && again.value.buys.slice(0, 2), (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the streamed book never matched GET /v1/depth (last: ${last})`);
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, makerProfile: 'thin-legacy', control: true, maker: true, makerRate: 20, seed: 7 });
  limiter = new RateLimiter({ clock: systemClock });
  rest = new ExchangeRestClient({ baseUrl: sandbox.url, limiter, faucet: { url: sandbox.url, network: 'sandbox' } });
  const markets = await rest.getMarkets();
  if (!markets.ok) throw new Error(markets.message);
  market = markets.value.markets.find((row) => row.base.symbol === 'ETH' && row.quote.symbol === 'USDC') as Market;
});

afterAll(async () => {
  limiter.close();
  await sandbox.close();
});

describe('exchange client against the sandbox', () => {
  it('reads markets, health and the no-account answer', async () => {
    expect(await rest.health()).toEqual({ ok: true, value: { status: 'ok' } });
    const markets = await rest.getMarkets();
    expect(markets.ok && markets.value.markets.length).toBeGreaterThan(0);
    expect(typeof market.min_order).toBe('bigint');
    const stranger = `0x${'ab'.repeat(32)}` as B256;
    expect(await rest.getAccount({ owner: stranger })).toEqual({ ok: true, value: { kind: 'none' } });
    expect(await rest.getAccount({ trade_account_id: stranger })).toEqual({ ok: true, value: { kind: 'none' } });
  });

  it('builds a consistent book from the snapshot and live deltas, and resyncs it after the sandbox drops the socket', async () => {
    const stream = openStream();
    const problems: string[] = [];
    stream.onEvent((event) => {
      if (event.type === 'invalid_frame') problems.push(event.message);
      if (event.type === 'stream_error') problems.push(event.error);
    });
    const feed = new OrderBookFeed(stream);
    let changes = 0;
    const opened = feed.open(market.market_id, 10_000n, { onChange: () => changes++ });
    if (!opened.ok) throw new Error(opened.message);
    const book = opened.value;
    stream.connect();
    await waitFor(() => book.state() === 'live', 'the first snapshot');
    const afterSnapshot = changes;
    await waitFor(() => changes >= afterSnapshot + 5, 'live depth updates');
    const read = book.top(25);
    expect(read.ok).toBe(true);
    if (read.ok) {
      const bid = read.value.buys[0]?.[0] ?? 0n;
      const ask = read.value.sells[0]?.[0] ?? 2n ** 64n;
      expect(bid < ask).toBe(true);
    }
    await expectConsistent(book, 100);

    const control = await fetch(`${sandbox.url}/control/ws/close-all`, { method: 'POST' });
    expect(((await control.json()) as { closed: number }).closed).toBe(1);
    await waitFor(() => stream.status().state !== 'up' && stream.status().state !== 'resyncing', 'the disconnect');
    expect(book.state()).toBe('resyncing');
    expect(book.top(5)).toMatchObject({ ok: false, code: 'BOOK_RESYNCING' });
    await waitFor(() => book.state() === 'live', 'the snapshot after the reconnect');
    expect(stream.status()).toMatchObject({ state: 'up', retry: 0 });
    await expectConsistent(book, 100);
    expect(problems).toEqual([]);
    expect(book.resyncs()).toBe(1);
    stream.close();
    feed.dispose();
  });

  it('measures the PING round trip on a live connection', async () => {
    const stream = new ExchangeStream({ url: wsUrl(sandbox.url), clock: systemClock, socketFactory: wsSocketFactory(), pingIntervalMs: 50 });
    stream.connect();
    await waitFor(() => stream.status().pingRoundTripMs !== null, 'a PONG');
    expect(stream.status().pingRoundTripMs).toBeLessThan(1_000);
    stream.close();
  });

  it('pages through trades and orders with the last item as the cursor', async () => {
    // The house maker trades 20 times a second; wait for enough history.
    for (let attempt = 0; attempt < 100; attempt++) {
      const recent = await rest.getTrades({ market_id: market.market_id, count: 50 });
      if (recent.ok && recent.value.trades.length >= 30) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const cutoffTrades = await rest.getTrades({ market_id: market.market_id, count: 30, direction: 'asc' });
    if (!cutoffTrades.ok) throw new Error(cutoffTrades.message);
    const paged: string[] = [];
    let pages = 0;
    for await (const page of tradePages(rest, { market_id: market.market_id, count: 7, direction: 'asc' }, { maxPages: 5 })) {
      if (!page.ok) throw new Error(page.message);
      pages++;
      paged.push(...page.value.map((trade) => trade.trade_id));
    }
    expect(pages).toBe(5);
    expect(new Set(paged).size).toBe(paged.length);
    expect(paged.slice(0, 30)).toEqual(cutoffTrades.value.trades.map((trade) => trade.trade_id));

    const ledger = (await (await fetch(`${sandbox.url}/control/ledger`)).json()) as { accounts: { trade_account_id: B256; house: boolean }[] };
    const house = ledger.accounts.find((account) => account.house);
    if (house === undefined) throw new Error('no house account');
    const all = await rest.getOrders({ market_id: market.market_id, contract: house.trade_account_id, count: 200, direction: 'asc' });
    if (!all.ok) throw new Error(all.message);
    expect(all.value.orders.length).toBeGreaterThan(10);
    const orderIds: string[] = [];
    for await (const page of orderPages(rest, { market_id: market.market_id, contract: house.trade_account_id, count: 4, direction: 'asc' }, { maxPages: 3 })) {
      if (!page.ok) throw new Error(page.message);
      orderIds.push(...page.value.map((order) => order.order_id));
    }
    expect(orderIds).toEqual(all.value.orders.slice(0, 12).map((order) => order.order_id));
  });

  it('refuses a bad query before it reaches the sandbox', async () => {
    expect(await rest.getOrders({ market_id: market.market_id, count: 201, contract: market.contract_id })).toMatchObject({ ok: false, code: 'INVALID_QUERY' });
  });

  it('paces a burst of 30 signed POST /v1/session/actions so that none is rate limited', async () => {
    const ownerKey = generatePrivateKey((n) => new Uint8Array(randomBytes(n)));
    const owner = addressOf(publicKeyOf(ownerKey), 'ledger');
    const created = await rest.createAccount(owner);
    if (!created.ok) throw new Error(created.message);
    const account = created.value.trade_account_id;
    const chain = await rest.getMarkets();
    if (!chain.ok) throw new Error(chain.message);

    const sessionKey = generatePrivateKey((n) => new Uint8Array(randomBytes(n)));
    const sessionAddress = addressOf(publicKeyOf(sessionKey), 'ledger');
    const grant = { nonce: created.value.nonce, chain_id: chain.value.chain_id, session_address: sessionAddress, expiry: BigInt(Math.floor(Date.now() / 1000) + 86_400), contract_ids: [market.contract_id] };
    const session = await rest.putSession(owner, sessionBody(account, grant, signDigest(sessionDigest(grant, 'ledger'), ownerKey)));
    if (!session.ok) throw new Error(session.message);

    const window = await rest.getAccountWindow({ trade_account_id: account });
    if (!window.ok) throw new Error(window.message);
    const allocator = new ParallelNonceAllocator(0);
    expect(allocator.observeWindow(windowFromSnapshot(window.value)).ok).toBe(true);

    const signedSettle = () => {
      const issued = allocator.issue(BigInt(Math.floor(Date.now() / 1000)));
      if (!issued.ok) throw new Error(issued.message);
      const prepared = prepareSessionActions({
        trade_account_id: account,
        session_id: { Address: sessionAddress },
        nonce: parallelNonce(issued.value.packed),
        groups: [{ market_id: market.market_id, market, actions: [{ kind: 'SettleBalance', to: contractIdentity(account) }] }],
      });
      if (!prepared.ok) throw new Error(prepared.message);
      return { body: sessionActionsBody(prepared.value, signDigest(prepared.value.digest, sessionKey)), fields: issued.value.fields };
    };
    const bodies = Array.from({ length: 30 }, () => signedSettle().body);
    const started = Date.now();
    const results = await Promise.all(bodies.map((body) => rest.postSessionActions(owner, body)));
    const elapsed = Date.now() - started;
    const codes = results.map((result) => (result.ok ? 'ok' : result.code));
    expect(codes.filter((code) => code === 'RATE_LIMITED')).toEqual([]);
    expect(codes).toEqual(Array.from({ length: 30 }, () => 'ok'));
    // 30 requests at 5 per second: six windows, the last starting after five full windows.
    expect(elapsed).toBeGreaterThanOrEqual(5 * 1_000);

    // The sandbox applies the next request and then drops the connection: the answer is lost.
    await fetch(`${sandbox.url}/control/faults/drop`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ count: 1, method: 'POST', path_prefix: '/v1/session/actions' }) });
    const lost = signedSettle();
    const outcome = await rest.postSessionActions(owner, lost.body);
    expect(outcome).toMatchObject({ ok: false, code: 'OUTCOME_UNKNOWN' });
    // Reconciling by looking it up: the position of its parallel nonce is consumed, so it landed.
    const after = await rest.getAccountWindow({ trade_account_id: account });
    if (!after.ok) throw new Error(after.message);
    const slot = after.value.slots.find((entry) => entry.word_position === lost.fields.word_position);
    expect(((slot?.bitmap ?? 0n) >> BigInt(lost.fields.bit_position)) & 1n).toBe(1n);
  }, 20_000);
});
