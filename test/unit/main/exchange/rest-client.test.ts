import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../shared/clock';
import { b256 } from '../../../../shared/encoding/b256';
import type { SessionActionsBody } from '../../../../shared/protocol/session-actions';
import { fail, ok, type Result } from '../../../../shared/result';
import type { HttpRequest, HttpResponse } from '../../../../main/exchange/http';
import { orderPages, tradePages } from '../../../../main/exchange/pagination';
import { RateLimiter } from '../../../../main/exchange/rate-limiter';
import { ExchangeRestClient } from '../../../../main/exchange/rest-client';

const owner = b256(`0x${'0a'.repeat(32)}`);
const account = b256(`0x${'77'.repeat(32)}`);
const market = b256(`0x${'a1'.repeat(32)}`);
const asset = b256(`0x${'9c'.repeat(32)}`);
const id = (n: number) => b256(`0x${n.toString(16).padStart(64, '0')}`);

type Answer = Result<HttpResponse> | ((request: HttpRequest) => Result<HttpResponse>);

class FakeHttp {
  readonly requests: HttpRequest[] = [];
  private answers: Answer[] = [];
  answer(...answers: Answer[]): this {
    this.answers.push(...answers);
    return this;
  }
  readonly fetch = (request: HttpRequest): Promise<Result<HttpResponse>> => {
    this.requests.push(request);
    const next = this.answers.shift() ?? ok({ status: 200, body: {} });
    return Promise.resolve(typeof next === 'function' ? next(request) : next);
  };
  urls(): string[] {
    return this.requests.map((request) => request.url.replace('http://x', ''));
  }
}

const reply = (status: number, body: unknown) => ok({ status, body });

function client(http: FakeHttp, extra: { limiter?: RateLimiter; aggregatedPrefix?: 'agg' | 'aggregated' } = {}) {
  return new ExchangeRestClient({ baseUrl: 'http://x', fetch: http.fetch, faucet: { url: 'http://faucet', network: 'sandbox' }, ...extra });
}

const actionsBody = (parallel = false): SessionActionsBody =>
  ({
    actions: [],
    signature: { Secp256k1: `0x${'11'.repeat(64)}` },
    trade_account_id: account,
    session_id: { Address: owner },
    ...(parallel ? { parallel_nonce: '123' } : { nonce: '7' }),
  }) as SessionActionsBody;

const marketsBody = {
  books_registry_id: id(1),
  accounts_registry_id: id(2),
  trade_account_oracle_id: id(3),
  chain_id: '0x0',
  base_asset_id: id(4),
  markets: [
    {
      contract_id: id(5),
      market_id: market,
      maker_fee: '100',
      taker_fee: '250',
      min_order: '1000000000',
      dust: '1000',
      price_window: 20,
      base: { symbol: 'ETH', asset: id(6), decimals: 9, max_precision: 3 },
      quote: { symbol: 'USDC', asset, decimals: 9, max_precision: 2 },
    },
  ],
};

describe('REST client: responses', () => {
  it('parses markets (chain id zero is valid) with money as bigint', async () => {
    const http = new FakeHttp().answer(reply(200, marketsBody));
    const markets = await client(http).getMarkets({ turbo: true });
    expect(http.urls()).toEqual(['/v1/markets?turbo=true']);
    expect(markets.ok && markets.value.chain_id).toBe(0n);
    expect(markets.ok && markets.value.markets[0]?.min_order).toBe(1_000_000_000n);
  });

  it('accepts depth levels as objects or as pairs', async () => {
    const http = new FakeHttp().answer(
      reply(200, { market_id: market, view: { buys: [{ price: '10', quantity: '2' }], sells: [['11', '3']] } }),
      reply(200, { market_id: market, orders: { buys: [['10', '2']], sells: [{ price: '11', quantity: '3' }] } }),
    );
    const rest = client(http);
    for (let i = 0; i < 2; i++) {
      const depth = await rest.getDepth({ market_id: market, precision: 100n, depth: 25 });
      expect(depth.ok && { buys: depth.value.buys, sells: depth.value.sells }).toEqual({ buys: [{ price: 10n, quantity: 2n }], sells: [{ price: 11n, quantity: 3n }] });
    }
    expect(http.urls()[0]).toBe(`/v1/depth?market_id=${market}&precision=100&depth=25`);
  });

  it('treats "no account" as data in both forms, and accepts synced_with_network or sync_state', async () => {
    const found = { trade_account_id: account, trade_account: { nonce: '3', owner: { Address: owner }, sync_state: { height: 1 } }, session: null };
    const http = new FakeHttp().answer(
      reply(200, { trade_account_id: null, trade_account: null, session: null }),
      reply(404, { code: 4002, message: 'Account not found' }),
      reply(200, { code: 4002, message: 'Account not found' }),
      reply(200, found),
      reply(200, { ...found, trade_account: { nonce: '3', owner: { Address: owner }, synced_with_network: true } }),
    );
    const rest = client(http);
    expect(await rest.getAccount({ trade_account_id: account })).toEqual({ ok: true, value: { kind: 'none' } });
    expect(await rest.getAccount({ owner })).toEqual({ ok: true, value: { kind: 'none' } });
    expect(await rest.getAccount({ owner })).toEqual({ ok: true, value: { kind: 'none' } });
    expect(await rest.getAccount({ owner })).toMatchObject({ ok: true, value: { kind: 'found', trade_account: { nonce: 3n } } });
    expect(await rest.getAccount({ owner_contract: account })).toMatchObject({ ok: true, value: { kind: 'found' } });
    expect(http.urls()).toEqual([`/v1/accounts?trade_account_id=${account}`, `/v1/accounts?owner=${owner}`, `/v1/accounts?owner=${owner}`, `/v1/accounts?owner=${owner}`, `/v1/accounts?owner_contract=${account}`]);
  });

  it('names the field of a response that does not match the schema (BAD_RESPONSE)', async () => {
    const http = new FakeHttp().answer(reply(200, { ...marketsBody, markets: [{ ...marketsBody.markets[0], min_order: '1.5' }] }));
    const markets = await client(http).getMarkets();
    expect(markets).toMatchObject({ ok: false, code: 'BAD_RESPONSE', details: { field: 'GET /v1/markets.markets[0].min_order' } });
    expect(!markets.ok && markets.message).toContain('"1.5"');
  });

  it('sends Svc-Owner-Id on owner endpoints only', async () => {
    const http = new FakeHttp().answer(reply(200, { tx_id: '0xabc' }), reply(200, marketsBody));
    const rest = client(http);
    expect(await rest.postSessionActions(owner, actionsBody())).toEqual({ ok: true, value: { kind: 'success', tx_id: '0xabc', orders: [] } });
    await rest.getMarkets();
    expect(http.requests[0]?.headers).toEqual({ 'Svc-Owner-Id': owner });
    expect(http.requests[0]?.method).toBe('POST');
    expect(JSON.parse(http.requests[0]?.body ?? '')).toMatchObject({ nonce: '7', trade_account_id: account });
    expect(http.requests[1]?.headers).toEqual({});
  });
});

describe('REST client: error classes', () => {
  const cases: [string, Result<HttpResponse>, boolean, Record<string, unknown>][] = [
    ['SIGNATURE_INVALID', reply(400, { code: 4000, message: 'signature does not recover' }), false, {}],
    ['ACCOUNT_NOT_FOUND', reply(404, { code: 4002, message: 'Account not found' }), false, {}],
    ['RATE_LIMITED', reply(429, { code: 1003, message: 'slow down' }), false, {}],
    ['RATE_LIMITED', reply(200, { code: 1003, message: 'slow down' }), false, {}],
    ['TOO_MANY_ACTIONS', reply(400, { code: 7004, message: 'too many actions' }), false, { nonceConsumed: false }],
    ['PREFLIGHT_REFUSED', reply(200, { code: 4005, message: 'contract out of session scope' }), false, { nonceConsumed: false, exchangeCode: 4005 }],
    ['PREFLIGHT_REFUSED', reply(400, { code: 4006, message: 'Nonce in the request (3) does not match' }), false, { nonceRefusal: 'REFETCH_SEQUENTIAL' }],
    ['ONCHAIN_REVERT', reply(200, { message: 'reverted', reason: 'TraderNotWhiteListed', receipts: [{ id: 1 }] }), false, { reason: 'TraderNotWhiteListed', nonceConsumed: true, receipts: '[{"id":1}]' }],
    ['PARALLEL_NONCE_REJECTED', reply(400, { code: 4007, message: 'word position out of sliding window: word 9' }), true, { retry: 'resync-and-retry-once' }],
    ['PARALLEL_NONCE_REJECTED', reply(400, { code: 4007, message: 'Parallel nonce is not usable: it expired' }), true, { retry: 'resync-and-retry-once' }],
    ['PARALLEL_NONCE_REJECTED', reply(400, { code: 4007, message: 'nonce already used: lane 0' }), true, { retry: 'never-retry' }],
    ['PREFLIGHT_REFUSED', reply(400, { code: 1001, message: 'actions[0]: bad field' }), true, {}],
    // A write answered 5xx may have been applied (a gateway that lost the answer, an exchange that
    // failed after executing): looked up, never taken as "nothing applied".
    ['OUTCOME_UNKNOWN', reply(500, { code: 1999, message: 'internal error' }), false, { status: 500 }],
    ['OUTCOME_UNKNOWN', reply(502, null), false, { status: 502 }],
    ['OUTCOME_UNKNOWN', reply(503, null), false, { status: 503 }],
    ['OUTCOME_UNKNOWN', reply(504, null), false, { status: 504 }],
    ['OUTCOME_UNKNOWN', fail('TIMEOUT', 'POST /v1/session/actions: no answer within 10000 ms', { stage: 'exchange' }), false, { transport: 'TIMEOUT' }],
    ['OUTCOME_UNKNOWN', fail('NETWORK_ERROR', 'POST /v1/session/actions: other side closed', { stage: 'exchange', cause: 'UND_ERR_SOCKET' }), false, { transport: 'NETWORK_ERROR' }],
    ['NETWORK_ERROR', fail('NETWORK_ERROR', 'POST /v1/session/actions: connect ECONNREFUSED', { stage: 'connect', cause: 'ECONNREFUSED' }), false, { stage: 'connect' }],
    ['BAD_RESPONSE', reply(200, { tx: 1 }), false, {}],
  ];
  for (const [code, answer, parallel, details] of cases) {
    it(`POST /v1/session/actions → ${code} (${JSON.stringify(answer.ok ? answer.value : answer.code).slice(0, 60)})`, async () => {
      const http = new FakeHttp().answer(answer);
      const result = await client(http).postSessionActions(owner, actionsBody(parallel));
      expect(result).toMatchObject({ ok: false, code, details });
    });
  }

  it('reports a read that times out as TIMEOUT (reads are not "unknown outcome")', async () => {
    const http = new FakeHttp().answer(fail('TIMEOUT', 'GET /v1/markets: no answer within 10000 ms', { stage: 'exchange' }));
    expect(await client(http).getMarkets()).toMatchObject({ ok: false, code: 'TIMEOUT' });
  });

  it('passes the configured timeout to every request', async () => {
    const http = new FakeHttp();
    await new ExchangeRestClient({ baseUrl: 'http://x', fetch: http.fetch, timeoutMs: 1234 }).health();
    expect(http.requests[0]?.timeoutMs).toBe(1234);
  });

  it('faucet: minted, cooldown refused as data, and no faucet on a network without one', async () => {
    const http = new FakeHttp().answer(reply(200, { message: 'Minted' }), reply(429, { error: 'Faucet cooldown: retry in 40 s' }));
    const rest = client(http);
    expect(await rest.faucetMint({ contract: account })).toEqual({ ok: true, value: { message: 'Minted' } });
    expect(await rest.faucetMint({ address: owner })).toMatchObject({ ok: false, code: 'FAUCET_REFUSED', details: { cooldown: true } });
    expect(http.requests.map((request) => request.url)).toEqual(['http://faucet/api/sandbox/mint-v2', 'http://faucet/api/sandbox/mint-v2']);
    expect(await new ExchangeRestClient({ baseUrl: 'http://x', fetch: http.fetch }).faucetMint({ address: owner })).toMatchObject({ ok: false, code: 'NO_FAUCET' });
  });
});

describe('REST client: query rules before sending', () => {
  const refusals: [string, (rest: ExchangeRestClient) => Promise<Result<unknown>>, string][] = [
    ['owner and trade_account_id', (rest) => rest.getAccount({ owner, trade_account_id: account } as never), 'owner / owner_contract / trade_account_id: exactly one is required, got owner and trade_account_id'],
    ['account and contract', (rest) => rest.getOrders({ market_id: market, account, contract: account }), 'account / contract: exactly one is required, got account and contract'],
    ['account or contract missing', (rest) => rest.getTradesByAccount({}), 'account / contract: exactly one is required, got none'],
    ['trades page cap', (rest) => rest.getTrades({ market_id: market, count: 51 }), 'count: expected an integer from 1 to 50, got 51'],
    ['orders page cap', (rest) => rest.getOrders({ market_id: market, account, count: 201 }), 'count: expected an integer from 1 to 200, got 201'],
    ['bars count_back cap', (rest) => rest.getBars({ market_id: market, resolution: '1m', count_back: 5001 }), 'count_back: expected an integer from 1 to 5000, got 5001'],
    ['depth cap', (rest) => rest.getDepth({ market_id: market, depth: 501 }), 'depth: expected an integer from 1 to 500, got 501'],
    ['orders cursor alone', (rest) => rest.getOrders({ market_id: market, account, start_timestamp: 5n }), 'start_order_id: required together with start_timestamp'],
    ['trades cursor alone', (rest) => rest.getTrades({ market_id: market, start_trade_id: 'abc' }), 'start_timestamp: required together with start_trade_id'],
    ['precision exponent', (rest) => rest.getDepth({ market_id: market, precision: 3n }), 'precision: expected a power of ten (10, 100, 1000, …), not an exponent, got 3n'],
    ['precision not a power', (rest) => rest.getDepth({ market_id: market, precision: 250n }), 'precision: expected a power of ten'],
    ['resolution', (rest) => rest.getBars({ market_id: market, resolution: '2h' as '1h', count_back: 10 }), 'resolution: expected one of 1m, 5m, 15m, 30m, 1h, 4h, 12h, 1d, 1w, 1M, got "2h"'],
    ['bars without range', (rest) => rest.getBars({ market_id: market, resolution: '1h' }), 'a time range (from and to, unix ms) or count_back is required'],
    ['window lane', (rest) => rest.getAccountWindow({ trade_account_id: account, nonce_session_id: 5 }), 'nonce_session_id: expected an integer from 0 to 4, got 5'],
    ['balance address and contract', (rest) => rest.getBalance({ address: owner, contract: account, asset_id: asset }), 'address / contract: exactly one is required'],
    ['aggregated market_id and pair', (rest) => rest.getAggregatedTicker({ market_id: market, market_pair: 'ETH_USDC' }), 'market_id / market_pair: at most one may be given'],
    ['non-canonical id', (rest) => rest.getOrder({ market_id: market, order_id: `0x${'AB'.repeat(32)}` as never }), 'order_id: expected a lowercase 0x-prefixed 64-digit hex id'],
  ];
  for (const [name, call, message] of refusals) {
    it(`refuses ${name} without sending`, async () => {
      const http = new FakeHttp();
      const result = await call(client(http));
      expect(result).toMatchObject({ ok: false, code: 'INVALID_QUERY' });
      expect(!result.ok && result.message).toContain(message);
      expect(http.requests).toHaveLength(0);
    });
  }

  it('builds the aggregated feeds under /v1/aggregated/ or the /v1/agg/ alias', async () => {
    const http = new FakeHttp();
    await client(http).getCoingeckoTickers({ market_pair: 'ETH_USDC' });
    await client(http, { aggregatedPrefix: 'agg' }).getAggregatedOrderbook({ market_id: market });
    expect(http.urls()).toEqual(['/v1/aggregated/coingecko/tickers?market_pair=ETH_USDC', `/v1/agg/orderbook?market_id=${market}`]);
  });
});

describe('REST client: pagination', () => {
  const trade = (n: number) => ({ trade_id: id(n), side: 'Buy', price: '10', quantity: '1', total: '10', timestamp: String(1000 + n) });

  it('pages trades with the last item as the cursor until a short page', async () => {
    const http = new FakeHttp().answer(reply(200, { trades: [trade(1), trade(2)] }), reply(200, { trades: [trade(3), trade(4)] }), reply(200, { trades: [trade(5)] }));
    const seen: string[] = [];
    for await (const page of tradePages(client(http), { market_id: market, count: 2, direction: 'asc' })) {
      expect(page.ok).toBe(true);
      if (page.ok) seen.push(...page.value.map((item) => item.trade_id));
    }
    expect(seen).toEqual([id(1), id(2), id(3), id(4), id(5)]);
    expect(http.urls()).toEqual([
      `/v1/trades?market_id=${market}&direction=asc&count=2`,
      `/v1/trades?market_id=${market}&direction=asc&count=2&start_timestamp=1002&start_trade_id=${id(2)}`,
      `/v1/trades?market_id=${market}&direction=asc&count=2&start_timestamp=1004&start_trade_id=${id(4)}`,
    ]);
  });

  it('pages orders with both cursor fields, drops a repeated cursor item, and stops on a failure', async () => {
    const order = (n: number) => ({ order_id: id(n), side: 'Sell', order_type: 'Spot', quantity: '1', price: '5', timestamp: String(n) });
    const http = new FakeHttp().answer(reply(200, { orders: [order(1), order(2)] }), reply(200, { orders: [order(2), order(3)] }), reply(500, null));
    const pages: Result<unknown[]>[] = [];
    for await (const page of orderPages(client(http), { market_id: market, account, count: 2 })) pages.push(page);
    expect(pages.map((page) => (page.ok ? page.value.length : page.code))).toEqual([2, 1, 'SERVER_ERROR']);
    expect(http.urls()[1]).toBe(`/v1/orders?market_id=${market}&account=${account}&count=2&start_timestamp=2&start_order_id=${id(2)}`);
  });
});

describe('REST client: rate limits', () => {
  it('paces POST /v1/session/actions to 5 per window per owner, measured from the answers', async () => {
    const clock = new ManualClock(0);
    const limiter = new RateLimiter({ clock, safetyMarginMs: 50 });
    const http = new FakeHttp();
    const rest = client(http, { limiter });
    const sentAt: number[] = [];
    http.answer(...Array.from({ length: 12 }, () => (() => (sentAt.push(clock.now()), reply(200, { tx_id: 't' }))) as Answer));
    const all = Promise.all(Array.from({ length: 12 }, () => rest.postSessionActions(owner, actionsBody())));
    for (let step = 0; step < 300; step++) {
      for (let i = 0; i < 5; i++) await Promise.resolve();
      clock.advance(10);
    }
    const results = await all;
    expect(results.every((result) => result.ok)).toBe(true);
    expect(sentAt).toEqual([0, 0, 0, 0, 0, 1050, 1050, 1050, 1050, 1050, 2100, 2100]);
    expect(limiter.snapshot()[0]).toMatchObject({ rule: 'POST /v1/session/actions', key: owner });
  });

  it("sends the trader's own session request before the waiting ones an algorithm signed", async () => {
    const clock = new ManualClock(0);
    const limiter = new RateLimiter({ clock, safetyMarginMs: 50 });
    const http = new FakeHttp();
    const rest = client(http, { limiter });
    const sent: string[] = [];
    http.answer(...Array.from({ length: 7 }, (): Answer => (request) => (sent.push((JSON.parse(request.body ?? '{}') as { nonce: string }).nonce), reply(200, { tx_id: 't' }))));
    const body = (nonce: number) => ({ ...actionsBody(), nonce: String(nonce) }) as SessionActionsBody;
    // Five of an algorithm use the budget, a sixth of it waits; then the trader's click.
    const children = Array.from({ length: 6 }, (_, index) => rest.postSessionActions(owner, body(index)));
    for (let i = 0; i < 5; i++) await Promise.resolve();
    const click = rest.postSessionActions(owner, body(99), { ahead: true });
    for (let step = 0; step < 300; step++) {
      for (let i = 0; i < 5; i++) await Promise.resolve();
      clock.advance(10);
    }
    expect([...(await Promise.all(children)), await click].every((result) => result.ok)).toBe(true);
    expect(sent).toEqual(['0', '1', '2', '3', '4', '99', '5']);
  });

  it('window and fees use their own IP budgets', async () => {
    const clock = new ManualClock(0);
    const limiter = new RateLimiter({ clock });
    const http = new FakeHttp().answer(reply(200, { nonce_session_id: 0, base: '0', slots: [] }), reply(200, []));
    const rest = client(http, { limiter });
    expect((await rest.getAccountWindow({ trade_account_id: account })).ok).toBe(true);
    expect((await rest.getMarketFees()).ok).toBe(true);
    expect(limiter.snapshot().map((snapshot) => `${snapshot.rule}|${snapshot.key}`)).toEqual(['GET /v1/accounts/window|ip', 'GET /v1/markets/fees|ip']);
  });
});
