// The REST client of one network: one typed method per endpoint of both spec documents.
// Every request: query rules checked before sending (queries.ts), paced by the spec's rate limits
// (rate-limiter.ts) so the client never causes a 429 on its own, a timeout, the answer classified
// into stable error codes (errors.ts), and success bodies parsed by the shared/api schemas
// (BAD_RESPONSE names the field). Writes are never retried here: a lost answer is OUTCOME_UNKNOWN
// and the caller (the order service) reconciles by looking the result up.
import type { z } from 'zod';
import { accountLookupSchema, actionsResultSchema, createAccountResponseSchema, faucetResponseSchema, healthResponseSchema, referralCodeInfoSchema, sessionResponseSchema, whitelistResponseSchema, windowResponseSchema, type AccountLookup } from '../../shared/api/account-schemas';
import {
  closeCleanupsResponseSchema,
  marginActivitySchema,
  marginDiscountSchema,
  marginPoolSchema,
  marginStateSchema,
  marginStatisticsSchema,
  nextMarginAccountSchema,
  tiersResponseSchema,
  turboEventsPageSchema,
} from '../../shared/api/margin-schemas';
import {
  activeOrdersResponseSchema,
  balanceResponseSchema,
  barsResponseSchema,
  depthResponseSchema,
  feesResponseSchema,
  marketsResponseSchema,
  orderResponseSchema,
  ordersResponseSchema,
  summaryResponseSchema,
  tickerResponseSchema,
  tradesResponseSchema,
  accountTradesResponseSchema,
} from '../../shared/api/market-schemas';
import type { B256 } from '../../shared/encoding/b256';
import type { OwnerActionsBody, OwnerCallBody, OwnerCallsBody, UpgradeBody, WithdrawBody } from '../../shared/protocol/owner-messages';
import type { SessionBody } from '../../shared/protocol/session';
import type { SessionActionsBody } from '../../shared/protocol/session-actions';
import { fail, ok, type Result } from '../../shared/result';
import { parseWith } from '../../shared/schema';
import { EXCHANGE_ERRORS, responseFailure, transportFailure, type RequestKind } from './errors';
import { fetchJson, type HttpFetch } from './http';
import {
  accountOrdersQuery,
  accountQuery,
  accountTradesQuery,
  accountWindowQuery,
  aggregatedQuery,
  balanceQuery,
  barsQuery,
  depthQuery,
  marginAccountQuery,
  marketScopedQuery,
  marketsQuery,
  orderQuery,
  ordersQuery,
  passThroughQuery,
  referralQuery,
  tradesQuery,
  type AccountLookup as AccountLookupQuery,
  type AccountOrdersQuery,
  type AccountTradesQuery,
  type AccountWindowQuery,
  type AggregatedQuery,
  type BalanceQuery,
  type BarsQuery,
  type DepthQuery,
  type MarketScopedQuery,
  type MarketsQuery,
  type OrderQuery,
  type OrdersQuery,
  type QueryParams,
  type TradesQuery,
} from './queries';
import type { Permit, RateLimiter } from './rate-limiter';
import { aggregatedRule, RATE_RULES, type AggregatedFeed, type RateRule } from './rate-rules';
import { unspecifiedBodySchema } from './unspecified';

export const DEFAULT_TIMEOUT_MS = 10_000;
export const OWNER_HEADER = 'Svc-Owner-Id';

export interface FaucetConfig {
  /** Base URL of the faucet service (the sandbox serves it on its own port). */
  readonly url: string;
  /** The network segment of `/api/<network>/mint-v2`: devnet, testnet, sandbox. */
  readonly network: string;
}

export interface RestClientOptions {
  /** REST base URL without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  readonly baseUrl: string;
  readonly fetch?: HttpFetch;
  /** Shared by every client of the network: the budgets are per IP and per owner, not per client. */
  readonly limiter?: RateLimiter;
  readonly timeoutMs?: number;
  /** `aggregated` (default) or the `/v1/agg/` alias; both draw from the same budget. */
  readonly aggregatedPrefix?: 'aggregated' | 'agg';
  /** Absent on mainnet (no faucet). */
  readonly faucet?: FaucetConfig;
}

type Method = 'GET' | 'POST' | 'PUT';

interface Endpoint {
  readonly method: Method;
  readonly path: string;
  readonly query?: Result<QueryParams>;
  readonly body?: unknown;
  /** The owner id sent in `Svc-Owner-Id`; also the key of owner-limited budgets. */
  readonly owner?: B256;
  readonly rule?: RateRule;
  /** Carries a nonce: refusals are pre-flight, reverts consume the nonce. */
  readonly signed?: boolean;
  /** Another origin (the faucet). */
  readonly origin?: string;
  /** Told when the request has been handed to the operating system. */
  readonly onSent?: () => void;
  /** The trader's own request: it goes before the algorithms' children waiting for the budget (rate-limiter.ts). */
  readonly ahead?: boolean;
}

type ActionsResult = z.output<typeof actionsResultSchema>;
export type WriteSuccess = Extract<ActionsResult, { kind: 'success' }>;

function carriesParallelNonce(body: unknown): boolean {
  return typeof body === 'object' && body !== null && 'parallel_nonce' in body;
}

function encodeQuery(params: QueryParams): string {
  if (params.length === 0) return '';
  return `?${params.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&')}`;
}

export class ExchangeRestClient {
  private readonly fetch: HttpFetch;
  private readonly timeoutMs: number;
  private readonly aggregatedPrefix: 'aggregated' | 'agg';

  constructor(private readonly options: RestClientOptions) {
    this.fetch = options.fetch ?? fetchJson;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.aggregatedPrefix = options.aggregatedPrefix ?? 'aggregated';
  }

  // ---- the request pipeline -------------------------------------------------------------

  private async send(endpoint: Endpoint): Promise<Result<{ status: number; body: unknown; kind: RequestKind }>> {
    const query = endpoint.query ?? ok([]);
    if (!query.ok) return query;
    const kind: RequestKind = {
      label: `${endpoint.method} ${endpoint.path}`,
      write: endpoint.method !== 'GET',
      signed: endpoint.signed === true,
      parallelNonce: carriesParallelNonce(endpoint.body),
    };
    let permit: Permit | null = null;
    if (endpoint.rule !== undefined && this.options.limiter !== undefined) {
      const key = endpoint.rule.keyedBy === 'owner' ? (endpoint.owner ?? 'anonymous') : 'ip';
      const granted = await this.options.limiter.acquire(endpoint.rule, key, { ahead: endpoint.ahead === true });
      if (!granted.ok) return granted;
      permit = granted.value;
    }
    try {
      const response = await this.fetch({
        method: endpoint.method,
        url: `${endpoint.origin ?? this.options.baseUrl}${endpoint.path}${encodeQuery(query.value)}`,
        headers: endpoint.owner === undefined ? {} : { [OWNER_HEADER]: endpoint.owner },
        ...(endpoint.body === undefined ? {} : { body: JSON.stringify(endpoint.body) }),
        timeoutMs: this.timeoutMs,
        ...(endpoint.onSent === undefined ? {} : { onSent: endpoint.onSent }),
      });
      if (!response.ok) return transportFailure(kind, response);
      return ok({ ...response.value, kind });
    } finally {
      // The window of a slot starts when the answer is back (see rate-limiter.ts).
      permit?.release();
    }
  }

  private async request<S extends z.ZodType>(endpoint: Endpoint, schema: S): Promise<Result<z.output<S>>> {
    const response = await this.send(endpoint);
    if (!response.ok) return response;
    const { status, body, kind } = response.value;
    const failure = responseFailure(kind, status, body);
    if (failure !== null) return failure;
    return parseWith(schema, body, kind.label, EXCHANGE_ERRORS.BAD_RESPONSE);
  }

  /** Signed and owner writes: success `{tx_id, orders?}`; refusals and reverts are failures. */
  private async write(endpoint: Endpoint): Promise<Result<WriteSuccess>> {
    const parsed = await this.request(endpoint, actionsResultSchema);
    if (!parsed.ok) return parsed;
    if (parsed.value.kind === 'success') return ok(parsed.value);
    // responseFailure recognises both shapes first; reaching here means the schema and it disagree.
    return fail(EXCHANGE_ERRORS.BAD_RESPONSE, `${endpoint.method} ${endpoint.path}: a ${parsed.value.kind} body passed as a success`);
  }

  // ---- reads: health and markets (spec 4.1) ---------------------------------------------

  health() {
    return this.request({ method: 'GET', path: '/health' }, healthResponseSchema);
  }

  /** GET /v1/markets; `turbo: true` lists only markets with a Turbo book, rewritten (margin 2.5). */
  getMarkets(query: MarketsQuery = {}) {
    return this.request({ method: 'GET', path: '/v1/markets', query: marketsQuery(query) }, marketsResponseSchema);
  }

  getMarketSummary(query: MarketScopedQuery = {}) {
    return this.request({ method: 'GET', path: '/v1/markets/summary', query: marketScopedQuery(query) }, summaryResponseSchema);
  }

  getMarketTicker(query: MarketScopedQuery = {}) {
    return this.request({ method: 'GET', path: '/v1/markets/ticker', query: marketScopedQuery(query) }, tickerResponseSchema);
  }

  getMarketFees(query: MarketScopedQuery = {}) {
    return this.request({ method: 'GET', path: '/v1/markets/fees', query: marketScopedQuery(query), rule: RATE_RULES.fees }, feesResponseSchema);
  }

  getDepth(query: DepthQuery) {
    return this.request({ method: 'GET', path: '/v1/depth', query: depthQuery(query) }, depthResponseSchema);
  }

  getBars(query: BarsQuery) {
    return this.request({ method: 'GET', path: '/v1/bars', query: barsQuery(query) }, barsResponseSchema);
  }

  getTrades(query: TradesQuery) {
    return this.request({ method: 'GET', path: '/v1/trades', query: tradesQuery(query) }, tradesResponseSchema);
  }

  getTradesByAccount(query: AccountTradesQuery) {
    return this.request({ method: 'GET', path: '/v1/trades_by_account', query: accountTradesQuery(query) }, accountTradesResponseSchema);
  }

  getTradeByAccount(query: AccountTradesQuery) {
    return this.request({ method: 'GET', path: '/v1/trade_by_account', query: accountTradesQuery(query) }, unspecifiedBodySchema);
  }

  getFeeForTrade(query: AccountTradesQuery) {
    return this.request({ method: 'GET', path: '/v1/fee_for_trade', query: accountTradesQuery(query) }, unspecifiedBodySchema);
  }

  getOrders(query: OrdersQuery) {
    return this.request({ method: 'GET', path: '/v1/orders', query: ordersQuery(query) }, ordersResponseSchema);
  }

  getOrder(query: OrderQuery) {
    return this.request({ method: 'GET', path: '/v1/order', query: orderQuery(query) }, orderResponseSchema);
  }

  getBookOrders(query: AccountOrdersQuery) {
    return this.request({ method: 'GET', path: '/v1/orders/book', query: accountOrdersQuery(query) }, ordersResponseSchema);
  }

  getActiveOrders(query: AccountOrdersQuery) {
    return this.request({ method: 'GET', path: '/v1/orders/active', query: accountOrdersQuery(query) }, activeOrdersResponseSchema);
  }

  getBalance(query: BalanceQuery) {
    return this.request({ method: 'GET', path: '/v1/balance', query: balanceQuery(query) }, balanceResponseSchema);
  }

  /**
   * GET /v1/accounts in any of its forms. "No account" is data (`{kind: 'none'}`), whether the
   * service says it with HTTP 200 and a null `trade_account_id` or with code 4002.
   */
  async getAccount(lookup: AccountLookupQuery): Promise<Result<AccountLookup>> {
    const found = await this.request({ method: 'GET', path: '/v1/accounts', query: accountQuery(lookup) }, accountLookupSchema);
    if (!found.ok && found.code === EXCHANGE_ERRORS.ACCOUNT_NOT_FOUND) return ok({ kind: 'none' });
    return found;
  }

  getAccountWindow(query: AccountWindowQuery) {
    return this.request({ method: 'GET', path: '/v1/accounts/window', query: accountWindowQuery(query), rule: RATE_RULES.window }, windowResponseSchema);
  }

  private aggregated(feed: AggregatedFeed, query: AggregatedQuery | undefined) {
    return this.request(
      { method: 'GET', path: `/v1/${this.aggregatedPrefix}/${feed}`, query: aggregatedQuery(feed, query), rule: aggregatedRule(feed) },
      unspecifiedBodySchema,
    );
  }

  getAggregatedAssets(query?: AggregatedQuery) {
    return this.aggregated('assets', query);
  }

  getAggregatedOrderbook(query?: AggregatedQuery) {
    return this.aggregated('orderbook', query);
  }

  getAggregatedSummary(query?: AggregatedQuery) {
    return this.aggregated('summary', query);
  }

  getAggregatedTicker(query?: AggregatedQuery) {
    return this.aggregated('ticker', query);
  }

  getAggregatedTrades(query?: AggregatedQuery) {
    return this.aggregated('trades', query);
  }

  getCoingeckoTickers(query?: AggregatedQuery) {
    return this.aggregated('coingecko/tickers', query);
  }

  getCoingeckoOrderbook(query?: AggregatedQuery) {
    return this.aggregated('coingecko/orderbook', query);
  }

  getReferralCodeInfo(code: string) {
    return this.request({ method: 'GET', path: '/analytics/v1/referral/code-info', query: referralQuery(code) }, referralCodeInfoSchema);
  }

  // ---- writes (spec 4.2) -------------------------------------------------------------------

  /** POST /v1/accounts: deploys the trading account of an owner wallet (1 per second per IP). */
  createAccount(owner: B256) {
    return this.request({ method: 'POST', path: '/v1/accounts', body: { identity: { Address: owner } }, rule: RATE_RULES.createAccount }, createAccountResponseSchema);
  }

  /** PUT /v1/session, body from shared/protocol `sessionBody`. */
  putSession(owner: B256, body: SessionBody) {
    return this.request({ method: 'PUT', path: '/v1/session', body, owner, signed: true, rule: RATE_RULES.session }, sessionResponseSchema);
  }

  /**
   * POST /v1/session/actions, body from shared/protocol `sessionActionsBody`; `onSent` is told when
   * the request has been handed to the operating system; `ahead` (the trader's own request) waits
   * for the rate limit before the algorithms' requests.
   */
  postSessionActions(owner: B256, body: SessionActionsBody, options: { readonly onSent?: () => void; readonly ahead?: boolean } = {}) {
    return this.write({
      method: 'POST',
      path: '/v1/session/actions',
      body,
      owner,
      signed: true,
      rule: RATE_RULES.sessionActions,
      ...(options.onSent === undefined ? {} : { onSent: options.onSent }),
      ...(options.ahead === undefined ? {} : { ahead: options.ahead }),
    });
  }

  postAccountActions(owner: B256, body: OwnerActionsBody) {
    return this.write({ method: 'POST', path: '/v1/accounts/actions', body, owner, signed: true, rule: RATE_RULES.accountActions });
  }

  postAccountCall(owner: B256, body: OwnerCallBody) {
    return this.write({ method: 'POST', path: '/v1/accounts/call', body, owner, signed: true, rule: RATE_RULES.calls });
  }

  postAccountCalls(owner: B256, body: OwnerCallsBody) {
    return this.write({ method: 'POST', path: '/v1/accounts/calls', body, owner, signed: true, rule: RATE_RULES.calls });
  }

  postAccountUpgrade(owner: B256, body: UpgradeBody) {
    return this.write({ method: 'POST', path: '/v1/accounts/upgrade', body, owner, signed: true, rule: RATE_RULES.upgrade });
  }

  postAccountWithdraw(owner: B256, body: WithdrawBody) {
    return this.write({ method: 'POST', path: '/v1/accounts/withdraw', body, owner, signed: true, rule: RATE_RULES.withdraw });
  }

  /** POST /analytics/v1/whitelist (non-production networks). */
  whitelist(tradeAccount: B256) {
    return this.request({ method: 'POST', path: '/analytics/v1/whitelist', body: { tradeAccount } }, whitelistResponseSchema);
  }

  /**
   * POST {faucet_url}/api/<network>/mint-v2 with `address` (a wallet) or `contract` (a trading
   * account). The faucet answers `{error}` under its 60-second cooldown: FAUCET_REFUSED.
   */
  async faucetMint(target: { readonly address: B256 } | { readonly contract: B256 }): Promise<Result<{ message: string }>> {
    const faucet = this.options.faucet;
    if (faucet === undefined) return fail('NO_FAUCET', 'This network has no faucet (mainnet): fund the trading account by an on-chain transfer.');
    const path = `/api/${encodeURIComponent(faucet.network)}/mint-v2`;
    const response = await this.send({ method: 'POST', path, body: target, origin: faucet.url });
    if (!response.ok) return response;
    const { status, body, kind } = response.value;
    // The faucet speaks `{message}` / `{error}` whatever the status; read that before the generic classes.
    const parsed = parseWith(faucetResponseSchema, body, kind.label, EXCHANGE_ERRORS.BAD_RESPONSE);
    if (parsed.ok && parsed.value.kind === 'refused') {
      return fail(EXCHANGE_ERRORS.FAUCET_REFUSED, `${kind.label}: ${parsed.value.error}`, { status, cooldown: status === 429 || /cooldown/i.test(parsed.value.error) });
    }
    const failure = responseFailure(kind, status, body);
    if (failure !== null) return failure;
    return parsed.ok ? ok({ message: parsed.value.kind === 'minted' ? parsed.value.message : '' }) : parsed;
  }

  // ---- margin (margin-api 4.1, 4.2, 6); account-wide, no `turbo` -----------------------------

  getMarginTiers() {
    return this.request({ method: 'GET', path: '/v1/margin/tiers' }, tiersResponseSchema);
  }

  getMarginTierHistory(selectors: Readonly<Record<string, string>> = {}) {
    return this.request({ method: 'GET', path: '/v1/margin/tiers/history', query: passThroughQuery(selectors) }, tiersResponseSchema);
  }

  getMarginNextAccount(parentContract: B256) {
    return this.request({ method: 'GET', path: '/v1/margin/next-account', query: marginAccountQuery('parent_contract', parentContract) }, nextMarginAccountSchema);
  }

  getMarginState(account: B256) {
    return this.request({ method: 'GET', path: '/v1/margin/state', query: marginAccountQuery('account', account) }, marginStateSchema);
  }

  getMarginPool() {
    return this.request({ method: 'GET', path: '/v1/margin/pool' }, marginPoolSchema);
  }

  getMarginStatistics() {
    return this.request({ method: 'GET', path: '/v1/margin/statistics' }, marginStatisticsSchema);
  }

  getMarginActivity(account: B256) {
    return this.request({ method: 'GET', path: '/v1/margin/activity', query: marginAccountQuery('account', account) }, marginActivitySchema);
  }

  getMarginCloseCleanups(account: B256) {
    return this.request({ method: 'GET', path: '/v1/margin/close-cleanups', query: marginAccountQuery('account', account) }, closeCleanupsResponseSchema);
  }

  getMarginDiscount(user: B256) {
    return this.request({ method: 'GET', path: '/v1/margin/discount', query: marginAccountQuery('user', user) }, marginDiscountSchema);
  }

  /**
   * POST /v1/margin/accounts: the session-actions envelope with RegisterMarginAccount. It shares the
   * session-actions budget (margin-api 8: the first document's limits apply to margin actions).
   */
  registerMarginAccount(owner: B256, body: SessionActionsBody) {
    return this.write({ method: 'POST', path: '/v1/margin/accounts', body, owner, signed: true, rule: RATE_RULES.sessionActions });
  }

  /**
   * GET /v1/events (Turbo book activity) as a page; its query parameters are not shown and pass
   * through (docs/protocol.md, Margin insights, says which the project sends).
   */
  getEvents(selectors: Readonly<Record<string, string>> = {}) {
    return this.request({ method: 'GET', path: '/v1/events', query: passThroughQuery(selectors) }, turboEventsPageSchema);
  }
}
