// The query rules of the read endpoints (spec 4.1, 4.5 and margin 4.1), enforced before anything is
// sent: a request the exchange would refuse, or answer with a clipped page, is refused here as data
// (INVALID_QUERY) with the field and the value named. Each builder returns the query string pairs
// in a fixed order, so the same query always produces the same URL.
import { isB256, type B256 } from '../../shared/encoding/b256';
import { fail, ok, type Failure, type Result } from '../../shared/result';
import { showValue } from '../../shared/schema';
import { EXCHANGE_ERRORS } from './errors';
import { RESOLUTIONS, type Resolution } from '../../shared/ipc/views/market-data';
import type { AggregatedFeed } from './rate-rules';

export type QueryParams = readonly (readonly [string, string])[];

// Page sizes of spec section 8.
export const MAX_TRADES_PAGE = 50;
export const MAX_ORDERS_PAGE = 200;
export const MAX_BARS_COUNT_BACK = 5_000;
export const MAX_DEPTH_LEVELS = 500;
export const NONCE_LANES = 5;

// The spec's bar resolutions are declared once, with the IPC contract's market-data views.
export { RESOLUTIONS, type Resolution } from '../../shared/ipc/views/market-data';
export type Direction = 'asc' | 'desc';
export type TurboDepthView = 'executable' | 'demand';


function refuse(field: string, problem: string, value: unknown): Failure {
  return fail(EXCHANGE_ERRORS.INVALID_QUERY, `${field}: ${problem}, got ${showValue(value)}`, { field });
}

/** Collects parameters in order and stops at the first problem. */
class Query {
  private readonly params: [string, string][] = [];
  private problem: Failure | null = null;

  private set(name: string, value: string): this {
    this.params.push([name, value]);
    return this;
  }

  private check(field: string, valid: boolean, problem: string, value: unknown): boolean {
    if (!valid && this.problem === null) this.problem = refuse(field, problem, value);
    return valid && this.problem === null;
  }

  refuse(failure: Failure): this {
    this.problem ??= failure;
    return this;
  }

  b256(name: string, value: B256 | undefined, required: boolean): this {
    if (value === undefined) {
      this.check(name, !required, 'required', value);
      return this;
    }
    return this.check(name, isB256(value), 'expected a lowercase 0x-prefixed 64-digit hex id', value) ? this.set(name, value) : this;
  }

  integer(name: string, value: number | undefined, min: number, max: number): this {
    if (value === undefined) return this;
    return this.check(name, Number.isSafeInteger(value) && value >= min && value <= max, `expected an integer from ${min} to ${max}`, value) ? this.set(name, String(value)) : this;
  }

  unsigned(name: string, value: bigint | undefined): this {
    if (value === undefined) return this;
    return this.check(name, value >= 0n, 'expected a non-negative integer', value) ? this.set(name, value.toString()) : this;
  }

  text(name: string, value: string | undefined, required: boolean, pattern?: RegExp, what?: string): this {
    if (value === undefined) {
      this.check(name, !required, 'required', value);
      return this;
    }
    const valid = value.length > 0 && value.length <= 256 && (pattern === undefined || pattern.test(value));
    return this.check(name, valid, what ?? 'expected a non-empty text', value) ? this.set(name, value) : this;
  }

  oneOf<T extends string>(name: string, value: T | undefined, allowed: readonly T[]): this {
    if (value === undefined) return this;
    return this.check(name, allowed.includes(value), `expected one of ${allowed.join(', ')}`, value) ? this.set(name, value) : this;
  }

  flag(name: string, value: boolean | undefined): this {
    return value === undefined ? this : this.set(name, String(value));
  }

  /** `turbo=true` selects the Turbo book; false is the default and is not sent (canonical URLs stay unchanged). */
  turbo(value: boolean | undefined): this {
    return value === true ? this.set('turbo', 'true') : this;
  }

  done(): Result<QueryParams> {
    return this.problem ?? ok(this.params);
  }
}

function exactlyOne(query: Query, names: readonly string[], values: readonly unknown[]): boolean {
  const given = names.filter((_, index) => values[index] !== undefined);
  if (given.length === 1) return true;
  query.refuse(
    fail(EXCHANGE_ERRORS.INVALID_QUERY, `${names.join(' / ')}: exactly one is required, got ${given.length === 0 ? 'none' : given.join(' and ')}`, { field: names.join(',') }),
  );
  return false;
}

function atMostOne(query: Query, names: readonly string[], values: readonly unknown[]): boolean {
  const given = names.filter((_, index) => values[index] !== undefined);
  if (given.length <= 1) return true;
  query.refuse(fail(EXCHANGE_ERRORS.INVALID_QUERY, `${names.join(' / ')}: at most one may be given, got ${given.join(' and ')}`, { field: names.join(',') }));
  return false;
}

/** Pagination cursors go together (spec 4.1): both, or neither on the first page. */
function bothOrNone(query: Query, names: readonly [string, string], values: readonly [unknown, unknown]): boolean {
  if ((values[0] === undefined) === (values[1] === undefined)) return true;
  const missing = values[0] === undefined ? names[0] : names[1];
  const present = values[0] === undefined ? names[1] : names[0];
  query.refuse(fail(EXCHANGE_ERRORS.INVALID_QUERY, `${missing}: required together with ${present} (both cursor fields or neither), got nothing`, { field: missing }));
  return false;
}

export function isPowerOfTen(value: bigint): boolean {
  if (value < 10n) return false;
  let rest = value;
  while (rest % 10n === 0n) rest /= 10n;
  return rest === 1n;
}

// Market-scoped reads (summary, ticker, fees): their query parameters are "not shown"; the market
// and the Turbo switch are what the margin document names.
export interface MarketsQuery {
  readonly turbo?: boolean;
}
export interface MarketScopedQuery {
  readonly market_id?: B256;
  readonly turbo?: boolean;
}

export function marketsQuery(query: MarketsQuery = {}): Result<QueryParams> {
  return new Query().turbo(query.turbo).done();
}

export function marketScopedQuery(query: MarketScopedQuery = {}): Result<QueryParams> {
  return new Query().b256('market_id', query.market_id, false).turbo(query.turbo).done();
}

export interface DepthQuery {
  readonly market_id: B256;
  /** A power of ten (10, 100, …), never the exponent. */
  readonly precision?: bigint;
  /** Levels per side, default 500, at most 500. */
  readonly depth?: number;
  /** 2 aggregated (default), 3 full depth. */
  readonly level?: 2 | 3;
  readonly turbo?: boolean;
  /** Turbo books: executable or demand depth. */
  readonly view?: TurboDepthView;
}

export function depthQuery(query: DepthQuery): Result<QueryParams> {
  const built = new Query().b256('market_id', query.market_id, true);
  if (query.precision !== undefined && !isPowerOfTen(query.precision)) {
    return refuse('precision', 'expected a power of ten (10, 100, 1000, …), not an exponent', query.precision);
  }
  if (query.view !== undefined && query.turbo !== true) return refuse('view', 'a depth view is only for a Turbo book (turbo: true)', query.view);
  return built
    .unsigned('precision', query.precision)
    .integer('depth', query.depth, 1, MAX_DEPTH_LEVELS)
    .integer('level', query.level, 2, 3)
    .turbo(query.turbo)
    .oneOf('view', query.view, ['executable', 'demand'])
    .done();
}

export interface BarsQuery {
  readonly market_id: B256;
  readonly resolution: Resolution;
  /** Unix milliseconds. */
  readonly from?: number;
  readonly to?: number;
  /** At most 5000; overrides the time range. */
  readonly count_back?: number;
  readonly turbo?: boolean;
}

export function barsQuery(query: BarsQuery): Result<QueryParams> {
  const built = new Query().b256('market_id', query.market_id, true).oneOf('resolution', query.resolution, RESOLUTIONS);
  if ((query.resolution as string | undefined) === undefined) return refuse('resolution', `required (one of ${RESOLUTIONS.join(', ')})`, undefined);
  if (query.count_back === undefined && (query.from === undefined || query.to === undefined)) {
    return refuse(query.from === undefined ? 'from' : 'to', 'a time range (from and to, unix ms) or count_back is required', undefined);
  }
  if (query.from !== undefined && query.to !== undefined && query.from > query.to) return refuse('from', `must not be after to (${query.to})`, query.from);
  return built
    .integer('from', query.from, 0, Number.MAX_SAFE_INTEGER)
    .integer('to', query.to, 0, Number.MAX_SAFE_INTEGER)
    .integer('count_back', query.count_back, 1, MAX_BARS_COUNT_BACK)
    .turbo(query.turbo)
    .done();
}

export interface TradesQuery {
  readonly market_id: B256;
  readonly direction?: Direction;
  /** At most 50. */
  readonly count?: number;
  readonly start_timestamp?: bigint;
  readonly start_trade_id?: string;
  readonly turbo?: boolean;
}

const CURSOR_ID = /^[0-9A-Za-z_:x-]{1,128}$/;

export function tradesQuery(query: TradesQuery): Result<QueryParams> {
  const built = new Query().b256('market_id', query.market_id, true);
  bothOrNone(built, ['start_timestamp', 'start_trade_id'], [query.start_timestamp, query.start_trade_id]);
  return built
    .oneOf('direction', query.direction, ['asc', 'desc'])
    .integer('count', query.count, 1, MAX_TRADES_PAGE)
    .unsigned('start_timestamp', query.start_timestamp)
    .text('start_trade_id', query.start_trade_id, false, CURSOR_ID, 'expected a trade id')
    .turbo(query.turbo)
    .done();
}

/** trades_by_account, trade_by_account, fee_for_trade: `account` or `contract`, never both. */
export interface AccountTradesQuery {
  readonly account?: B256;
  readonly contract?: B256;
  readonly market_id?: B256;
  readonly trade_id?: string;
  readonly order_id?: B256;
  readonly direction?: Direction;
  /** At most 50 (the trades page size). */
  readonly count?: number;
  readonly start_timestamp?: bigint;
  readonly start_trade_id?: string;
  readonly turbo?: boolean;
}

export function accountTradesQuery(query: AccountTradesQuery): Result<QueryParams> {
  const built = new Query();
  exactlyOne(built, ['account', 'contract'], [query.account, query.contract]);
  bothOrNone(built, ['start_timestamp', 'start_trade_id'], [query.start_timestamp, query.start_trade_id]);
  return built
    .b256('account', query.account, false)
    .b256('contract', query.contract, false)
    .b256('market_id', query.market_id, false)
    .text('trade_id', query.trade_id, false, CURSOR_ID, 'expected a trade id')
    .b256('order_id', query.order_id, false)
    .oneOf('direction', query.direction, ['asc', 'desc'])
    .integer('count', query.count, 1, MAX_TRADES_PAGE)
    .unsigned('start_timestamp', query.start_timestamp)
    .text('start_trade_id', query.start_trade_id, false, CURSOR_ID, 'expected a trade id')
    .turbo(query.turbo)
    .done();
}

export interface OrdersQuery {
  readonly market_id: B256;
  readonly account?: B256;
  readonly contract?: B256;
  /** true: only active orders; false: all. */
  readonly is_open?: boolean;
  readonly direction?: Direction;
  /** At most 200. */
  readonly count?: number;
  readonly start_timestamp?: bigint;
  readonly start_order_id?: B256;
  readonly turbo?: boolean;
}

export function ordersQuery(query: OrdersQuery): Result<QueryParams> {
  const built = new Query().b256('market_id', query.market_id, true);
  exactlyOne(built, ['account', 'contract'], [query.account, query.contract]);
  bothOrNone(built, ['start_timestamp', 'start_order_id'], [query.start_timestamp, query.start_order_id]);
  return built
    .b256('account', query.account, false)
    .b256('contract', query.contract, false)
    .flag('is_open', query.is_open)
    .oneOf('direction', query.direction, ['asc', 'desc'])
    .integer('count', query.count, 1, MAX_ORDERS_PAGE)
    .unsigned('start_timestamp', query.start_timestamp)
    .b256('start_order_id', query.start_order_id, false)
    .turbo(query.turbo)
    .done();
}

export interface OrderQuery {
  readonly market_id: B256;
  readonly order_id: B256;
  readonly turbo?: boolean;
}

export function orderQuery(query: OrderQuery): Result<QueryParams> {
  return new Query().b256('market_id', query.market_id, true).b256('order_id', query.order_id, true).turbo(query.turbo).done();
}

/** orders/book and orders/active: a market and, at most one of, an account or a contract. */
export interface AccountOrdersQuery {
  readonly market_id?: B256;
  readonly account?: B256;
  readonly contract?: B256;
  readonly turbo?: boolean;
}

export function accountOrdersQuery(query: AccountOrdersQuery): Result<QueryParams> {
  const built = new Query();
  atMostOne(built, ['account', 'contract'], [query.account, query.contract]);
  return built.b256('market_id', query.market_id, false).b256('account', query.account, false).b256('contract', query.contract, false).turbo(query.turbo).done();
}

export interface BalanceQuery {
  readonly address?: B256;
  readonly contract?: B256;
  readonly asset_id: B256;
}

export function balanceQuery(query: BalanceQuery): Result<QueryParams> {
  const built = new Query();
  exactlyOne(built, ['address', 'contract'], [query.address, query.contract]);
  return built.b256('address', query.address, false).b256('contract', query.contract, false).b256('asset_id', query.asset_id, true).done();
}

/** GET /v1/accounts in its three forms: by owner wallet, by owner contract, or by trading account. */
export type AccountLookup = { readonly owner: B256 } | { readonly owner_contract: B256 } | { readonly trade_account_id: B256 };

export function accountQuery(lookup: AccountLookup): Result<QueryParams> {
  const record = lookup as { owner?: B256; owner_contract?: B256; trade_account_id?: B256 };
  const built = new Query();
  exactlyOne(built, ['owner', 'owner_contract', 'trade_account_id'], [record.owner, record.owner_contract, record.trade_account_id]);
  return built.b256('owner', record.owner, false).b256('owner_contract', record.owner_contract, false).b256('trade_account_id', record.trade_account_id, false).done();
}

export interface AccountWindowQuery {
  readonly trade_account_id: B256;
  /** Lane 0-4, default 0. */
  readonly nonce_session_id?: number;
}

export function accountWindowQuery(query: AccountWindowQuery): Result<QueryParams> {
  return new Query().b256('trade_account_id', query.trade_account_id, true).integer('nonce_session_id', query.nonce_session_id, 0, NONCE_LANES - 1).done();
}

/** The aggregated feeds take `market_pair` (BASE_QUOTE) as an alternative to `market_id`. */
export interface AggregatedQuery {
  readonly market_id?: B256;
  readonly market_pair?: string;
  /** Further feed-specific parameters (not shown in the spec), passed through as given. */
  readonly extra?: Readonly<Record<string, string>>;
}

const MARKET_PAIR = /^[A-Za-z0-9.]{1,32}_[A-Za-z0-9.]{1,32}$/;

export function aggregatedQuery(_feed: AggregatedFeed, query: AggregatedQuery = {}): Result<QueryParams> {
  const built = new Query();
  atMostOne(built, ['market_id', 'market_pair'], [query.market_id, query.market_pair]);
  built.b256('market_id', query.market_id, false).text('market_pair', query.market_pair, false, MARKET_PAIR, 'expected BASE_QUOTE');
  for (const [name, value] of Object.entries(query.extra ?? {})) {
    if (name === 'market_id' || name === 'market_pair') return refuse(`extra.${name}`, 'use the named field', value);
    built.text(name, value, true);
  }
  return built.done();
}

export function referralQuery(code: string): Result<QueryParams> {
  return new Query().text('code', code, true, /^[0-9A-Za-z_-]{1,64}$/, 'expected a referral code (letters, digits, _ or -)').done();
}

// Margin reads (margin-api 4.1). They are account-wide and take no `turbo`.
export function marginAccountQuery(name: 'account' | 'parent_contract' | 'user', value: B256): Result<QueryParams> {
  return new Query().b256(name, value, true).done();
}

/** tiers/history and /v1/events: selectors "not shown"; passed through, each checked as text. */
export function passThroughQuery(query: Readonly<Record<string, string>> = {}): Result<QueryParams> {
  const built = new Query();
  for (const [name, value] of Object.entries(query)) built.text(name, value, true);
  return built.done();
}
