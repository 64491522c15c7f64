// Bad answers from the exchange, property-based: every public method of ExchangeRestClient, with
// an injected fetch that answers arbitrary statuses and bodies (and lost answers). Every method
// resolves to a Result and never throws; a failure carries a code of EXCHANGE_ERRORS, BAD_RESPONSE
// names the field; an HTTP error status never reads as a success; a write whose answer was lost is
// OUTCOME_UNKNOWN (never an invitation to resend); no rate-limit slot is left held; and a valid
// body still parses on the same client afterwards.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EXCHANGE_ERRORS } from '../../../main/exchange/errors';
import type { HttpFetch, HttpResponse } from '../../../main/exchange/http';
import { RateLimiter } from '../../../main/exchange/rate-limiter';
import { ExchangeRestClient } from '../../../main/exchange/rest-client';
import { ManualClock } from '../../../shared/clock';
import { b256 } from '../../../shared/encoding/b256';
import type { OwnerActionsBody, OwnerCallBody, OwnerCallsBody, UpgradeBody, WithdrawBody } from '../../../shared/protocol/owner-messages';
import type { SessionBody } from '../../../shared/protocol/session';
import type { SessionActionsBody } from '../../../shared/protocol/session-actions';
import { fail, ok, type Result } from '../../../shared/result';
import { asJson, hostileJson, mutationOf, pollutedObject } from '../../support/fuzz/hostile';
import { checkProperty } from '../../support/property';

const id = (byte: string) => b256(`0x${byte.repeat(32)}`);
const owner = id('0a');
const account = id('77');
const market = id('a1');
const asset = id('9c');
const order = id('0c');

const sequentialBody = { actions: [], signature: { Secp256k1: `0x${'11'.repeat(64)}` }, trade_account_id: account, nonce: '7' };
const parallelBody = { ...sequentialBody, nonce: undefined, parallel_nonce: '123' };

const assetRow = (symbol: string, assetId: string) => ({ symbol, asset: assetId, decimals: 9, max_precision: 3 });
const marketRow = { contract_id: id('c1'), market_id: market, maker_fee: '100', taker_fee: '250', min_order: '1000000000', dust: '1000', price_window: 20, base: assetRow('ETH', id('e7')), quote: assetRow('USDC', asset) };
const orderRow = { order_id: order, owner: { ContractId: account }, side: 'Buy', order_type: { Limit: ['5', '6'] }, market_id: market, quantity: '10', quantity_fill: '0', price: '5', timestamp: '1', fills: [{ order_id: order, quantity: '1', price: '5', timestamp: '2', fee: '0' }] };
const trade = { trade_id: '9', side: 'Sell', price: '5', quantity: '2', total: '10', timestamp: '1' };
const tier = { tier_id: '1', version: 2, line: '1000', max_credit_line_bps: '5000', threshold: '10', open_buffer: '20', maintenance: '5', profit_share_bps: 0, duration: '86400' };
const success = { tx_id: '0xabc', orders: [orderRow] };

interface Endpoint {
  readonly label: string;
  readonly write: boolean;
  readonly call: (rest: ExchangeRestClient) => Promise<Result<unknown>>;
  /** A body the endpoint parses (with HTTP 200). */
  readonly valid: unknown;
}

const get = (label: string, call: Endpoint['call'], valid: unknown): Endpoint => ({ label: `GET ${label}`, write: false, call, valid });
const post = (label: string, call: Endpoint['call'], valid: unknown, method = 'POST'): Endpoint => ({ label: `${method} ${label}`, write: true, call, valid });

/** Every public method, by name: the completeness check below compares with the class. */
const endpoints: Record<string, Endpoint> = {
  health: get('/health', (rest) => rest.health(), { status: 'ok' }),
  getMarkets: get('/v1/markets', (rest) => rest.getMarkets(), { books_registry_id: id('01'), accounts_registry_id: id('02'), trade_account_oracle_id: id('03'), chain_id: '0x0', base_asset_id: asset, markets: [marketRow] }),
  getMarketSummary: get('/v1/markets/summary', (rest) => rest.getMarketSummary({ market_id: market }), [{ market_id: market, last_price: '2000.5', volume_24h: 12 }]),
  getMarketTicker: get('/v1/markets/ticker', (rest) => rest.getMarketTicker(), [{ market_id: market, bid: '1', ask: 2, timestamp: 5 }]),
  getMarketFees: get('/v1/markets/fees', (rest) => rest.getMarketFees(), [{ market_id: market, maker_fee: '1', extra: true }]),
  getDepth: get('/v1/depth', (rest) => rest.getDepth({ market_id: market, precision: 10n, depth: 50 }), { market_id: market, view: { buys: [{ price: '10', quantity: '2' }], sells: [['11', '3']] } }),
  getBars: get('/v1/bars', (rest) => rest.getBars({ market_id: market, resolution: '1m', count_back: 10 }), { bars: [{ timestamp: 60, open: '1', high: '2', low: '1', close: '2', volume: '5' }] }),
  getTrades: get('/v1/trades', (rest) => rest.getTrades({ market_id: market, count: 50 }), { market_id: market, trades: [trade] }),
  getTradesByAccount: get('/v1/trades_by_account', (rest) => rest.getTradesByAccount({ contract: account }), { trades: [{ ...trade, role: 'taker', account_side: 'Sell', order_id: order, fee: '1' }] }),
  getTradeByAccount: get('/v1/trade_by_account', (rest) => rest.getTradeByAccount({ contract: account, trade_id: '9' }), { trade: trade }),
  getFeeForTrade: get('/v1/fee_for_trade', (rest) => rest.getFeeForTrade({ contract: account, trade_id: '9' }), { fee: '1' }),
  getOrders: get('/v1/orders', (rest) => rest.getOrders({ market_id: market, contract: account }), { orders: [orderRow] }),
  getOrder: get('/v1/order', (rest) => rest.getOrder({ market_id: market, order_id: order }), { order: orderRow }),
  getBookOrders: get('/v1/orders/book', (rest) => rest.getBookOrders({ market_id: market }), { orders: [] }),
  getActiveOrders: get('/v1/orders/active', (rest) => rest.getActiveOrders({ contract: account }), { entries: [{ kind: 'order', order_id: order }, { kind: 'trigger', order_id: id('0d'), side: 'Sell', trigger_price: '4' }] }),
  getBalance: get('/v1/balance', (rest) => rest.getBalance({ contract: account, asset_id: asset }), { order_books: { [id('c1')]: { locked: '1', unlocked: '2' } }, total_locked: '1', total_unlocked: '3', trading_account_balance: '1' }),
  getAccount: get('/v1/accounts', (rest) => rest.getAccount({ owner }), { trade_account_id: account, trade_account: { nonce: '3', owner: { Address: owner } }, session: null }),
  getAccountWindow: get('/v1/accounts/window', (rest) => rest.getAccountWindow({ trade_account_id: account, nonce_session_id: 1 }), { nonce_session_id: 1, base: '0', slots: [{ word_position: '0', bitmap: '5' }] }),
  getAggregatedAssets: get('/v1/aggregated/assets', (rest) => rest.getAggregatedAssets(), { ETH: {} }),
  getAggregatedOrderbook: get('/v1/aggregated/orderbook', (rest) => rest.getAggregatedOrderbook({ market_pair: 'ETH_USDC' }), { bids: [], asks: [] }),
  getAggregatedSummary: get('/v1/aggregated/summary', (rest) => rest.getAggregatedSummary(), []),
  getAggregatedTicker: get('/v1/aggregated/ticker', (rest) => rest.getAggregatedTicker(), {}),
  getAggregatedTrades: get('/v1/aggregated/trades', (rest) => rest.getAggregatedTrades({ market_id: market }), []),
  getCoingeckoTickers: get('/v1/aggregated/coingecko/tickers', (rest) => rest.getCoingeckoTickers(), []),
  getCoingeckoOrderbook: get('/v1/aggregated/coingecko/orderbook', (rest) => rest.getCoingeckoOrderbook({ market_pair: 'ETH_USDC' }), { bids: [] }),
  getReferralCodeInfo: get('/analytics/v1/referral/code-info', (rest) => rest.getReferralCodeInfo('FRIEND'), { valid: true, ownerAddress: owner, isActive: true }),
  createAccount: post('/v1/accounts', (rest) => rest.createAccount(owner), { trade_account_id: account, nonce: '0x0' }),
  putSession: post('/v1/session', (rest) => rest.putSession(owner, {} as SessionBody), { tx_id: '0x1', trade_account_id: account, contract_ids: [id('c1')], session_id: { Address: owner }, session_expiry: '1700003600' }, 'PUT'),
  postSessionActions: post('/v1/session/actions', (rest) => rest.postSessionActions(owner, sequentialBody as unknown as SessionActionsBody), success),
  postSessionActionsParallel: post('/v1/session/actions', (rest) => rest.postSessionActions(owner, parallelBody as unknown as SessionActionsBody), success),
  postAccountActions: post('/v1/accounts/actions', (rest) => rest.postAccountActions(owner, sequentialBody as unknown as OwnerActionsBody), { tx_id: '0x2' }),
  postAccountCall: post('/v1/accounts/call', (rest) => rest.postAccountCall(owner, sequentialBody as unknown as OwnerCallBody), { tx_id: '0x3' }),
  postAccountCalls: post('/v1/accounts/calls', (rest) => rest.postAccountCalls(owner, parallelBody as unknown as OwnerCallsBody), { tx_id: '0x4' }),
  postAccountUpgrade: post('/v1/accounts/upgrade', (rest) => rest.postAccountUpgrade(owner, sequentialBody as unknown as UpgradeBody), { tx_id: '0x5' }),
  postAccountWithdraw: post('/v1/accounts/withdraw', (rest) => rest.postAccountWithdraw(owner, parallelBody as unknown as WithdrawBody), { tx_id: '0x6' }),
  whitelist: post('/analytics/v1/whitelist', (rest) => rest.whitelist(account), { success: true, tradeAccount: account, alreadyWhitelisted: false }),
  faucetMint: post('/api/sandbox/mint-v2', (rest) => rest.faucetMint({ contract: account }), { message: 'Minted' }),
  getMarginTiers: get('/v1/margin/tiers', (rest) => rest.getMarginTiers(), [tier]),
  getMarginTierHistory: get('/v1/margin/tiers/history', (rest) => rest.getMarginTierHistory({ tier_id: '1' }), { tiers: [tier] }),
  getMarginNextAccount: get('/v1/margin/next-account', (rest) => rest.getMarginNextAccount(account), { contract_id: id('c9'), index: '0' }),
  getMarginState: get('/v1/margin/state', (rest) => rest.getMarginState(id('c9')), { session: null, balances: { [asset]: { on_account: '1', received: '0', locked: '0', settled: '0', debt: '0' } }, prices: { [id('e7')]: { bid: '1', ask: '2', decimals: 9 } }, collateral_decimals: 9 }),
  getMarginPool: get('/v1/margin/pool', (rest) => rest.getMarginPool(), { paused: false, inventory: { [asset]: '10' } }),
  getMarginStatistics: get('/v1/margin/statistics', (rest) => rest.getMarginStatistics(), { active_sessions: 1, lent: {}, bad_debt: '0', pool_paused: false }),
  getMarginActivity: get('/v1/margin/activity', (rest) => rest.getMarginActivity(id('c9')), { activity: [{ sequence: '1', kind: 'Draw', timestamp: '5', details: { amount: '10' } }] }),
  getMarginCloseCleanups: get('/v1/margin/close-cleanups', (rest) => rest.getMarginCloseCleanups(id('c9')), { cleanups: [{ order_book_id: id('c1'), order_ids: [order] }] }),
  getMarginDiscount: get('/v1/margin/discount', (rest) => rest.getMarginDiscount(owner), { discount_bps: 10 }),
  registerMarginAccount: post('/v1/margin/accounts', (rest) => rest.registerMarginAccount(owner, sequentialBody as unknown as SessionActionsBody), { tx_id: '0x7' }),
  getEvents: get('/v1/events', (rest) => rest.getEvents({ market_id: market }), { events: [{ type: 'HouseOrderCompleted', order_id: order, timestamp: '3' }] }),
};

/** The methods the pipeline uses internally (TypeScript-private, so still on the prototype). */
const INTERNAL = new Set(['constructor', 'send', 'request', 'write', 'aggregated']);
const CODES = new Set<string>(Object.values(EXCHANGE_ERRORS));

const status = fc.oneof(fc.constantFrom(200, 200, 201, 204, 400, 401, 403, 404, 409, 413, 429, 500, 502, 503, 504), fc.integer({ min: 100, max: 599 }), fc.constantFrom(0, 999));

/** Bodies shaped like the exchange's own answers, with their members wrong in every way. */
const shaped = fc.oneof(
  fc.record({ code: fc.oneof(fc.constantFrom(4000, 4002, 1003, 7004, 4006, 4007, 1.5, -1), hostileJson), message: fc.oneof(fc.constantFrom('Nonce in the request (3) does not match', 'nonce already used', 'word position out of sliding window'), hostileJson) }, { requiredKeys: [] }),
  fc.record({ message: fc.oneof(fc.string(), hostileJson), reason: hostileJson, receipts: hostileJson }, { requiredKeys: ['message'] }),
  fc.record({ error: hostileJson }),
  fc.record({ tx_id: hostileJson, orders: hostileJson }, { requiredKeys: [] }),
  pollutedObject.map(asJson),
);

type Answer = { readonly kind: 'answer'; readonly status: number; readonly body: unknown } | { readonly kind: 'lost'; readonly code: 'TIMEOUT' | 'NETWORK_ERROR'; readonly stage: 'connect' | 'exchange' };

function answers(valid: unknown): fc.Arbitrary<Answer> {
  const answer = fc.record({ kind: fc.constant('answer' as const), status, body: fc.oneof({ arbitrary: mutationOf(asJson(valid), hostileJson).map(asJson), weight: 3 }, { arbitrary: hostileJson, weight: 2 }, { arbitrary: shaped, weight: 2 }) });
  const lost = fc.record({ kind: fc.constant('lost' as const), code: fc.constantFrom('TIMEOUT' as const, 'NETWORK_ERROR' as const), stage: fc.constantFrom('connect' as const, 'exchange' as const) });
  return fc.oneof({ arbitrary: answer, weight: 9 }, { arbitrary: lost, weight: 1 });
}

function scriptedClient(): { rest: ExchangeRestClient; limiter: RateLimiter; clock: ManualClock; next: (answer: Answer) => void } {
  let pending: Answer = { kind: 'answer', status: 200, body: {} };
  const fetch: HttpFetch = (request) =>
    Promise.resolve(
      pending.kind === 'lost'
        ? fail(pending.code, `${request.method} ${request.url}: lost`, { stage: pending.stage })
        : ok<HttpResponse>({ status: pending.status, body: pending.body }),
    );
  const clock = new ManualClock(1_700_000_000_000);
  const limiter = new RateLimiter({ clock });
  const rest = new ExchangeRestClient({ baseUrl: 'http://exchange.test', fetch, limiter, faucet: { url: 'http://faucet.test', network: 'sandbox' } });
  return { rest, limiter, clock, next: (answer) => (pending = answer) };
}

async function within<T>(promise: Promise<T>, ms = 2_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no result within ${ms} ms`)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

describe('REST client with hostile answers', () => {
  it('a 2xx revert-like body whose reason is not text is BAD_RESPONSE naming the field, not an unnamed disagreement', async () => {
    const { rest, next } = scriptedClient();
    for (const body of [{ message: 'm', reason: null, receipts: [] }, { message: 'm', reason: 7, receipts: null }]) {
      next({ kind: 'answer', status: 200, body });
      const result = await rest.postSessionActions(owner, sequentialBody as unknown as SessionActionsBody);
      expect(result).toMatchObject({ ok: false, code: 'BAD_RESPONSE', details: { field: 'POST /v1/session/actions' } });
    }
  });

  it('the table covers every public method of the client', () => {
    const methods = Object.getOwnPropertyNames(ExchangeRestClient.prototype).filter((name) => !INTERNAL.has(name));
    const covered = new Set(Object.keys(endpoints).map((name) => name.replace(/Parallel$/, '')));
    expect(methods.filter((name) => !covered.has(name))).toEqual([]);
  });

  for (const [name, endpoint] of Object.entries(endpoints)) {
    it(`${name}: always a Result with an exchange code; errors never read as success; a valid body still parses`, async () => {
      const { rest, limiter, clock, next } = scriptedClient();
      await checkProperty(
        fc.asyncProperty(answers(endpoint.valid), async (answer) => {
          next(answer);
          const result = await within(endpoint.call(rest));
          // Every slot is given back, whatever the answer: nothing in flight, nothing queued.
          expect(limiter.snapshot().every((lane) => lane.inFlight === 0 && lane.queued === 0)).toBe(true);
          clock.advance(3_600_000);
          expect(typeof result.ok).toBe('boolean');
          if (result.ok) {
            expect(answer.kind).toBe('answer');
            if (answer.kind !== 'answer') return;
            const noAccountAnswer = name === 'getAccount' && (result.value as { kind?: string }).kind === 'none';
            if (!noAccountAnswer) expect(answer.status >= 200 && answer.status < 300, `HTTP ${answer.status} read as a success`).toBe(true);
            return;
          }
          expect(CODES.has(result.code), `${result.code} is not an exchange error code`).toBe(true);
          expect(result.message.length).toBeGreaterThan(0);
          if (result.code === EXCHANGE_ERRORS.BAD_RESPONSE) {
            const field = result.details?.field;
            expect(typeof field, `BAD_RESPONSE without a field: ${result.message}`).toBe('string');
            expect(String(field).startsWith(endpoint.label)).toBe(true);
            expect(result.message.startsWith(`${String(field)}:`)).toBe(true);
          }
          if (answer.kind === 'lost' && endpoint.write && answer.stage === 'exchange') expect(result.code).toBe(EXCHANGE_ERRORS.OUTCOME_UNKNOWN);
          if (answer.kind === 'lost' && answer.stage === 'connect') expect(result.code).toBe(answer.code);
        }),
        { numRuns: 100 },
      );
      next({ kind: 'answer', status: 200, body: endpoint.valid });
      const parsed = await within(endpoint.call(rest));
      expect(parsed.ok, parsed.ok ? '' : parsed.message).toBe(true);
    });
  }
});
