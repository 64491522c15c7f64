// Query selectors shared by the read endpoints: the market (market_id, or market_pair on the
// aggregated feeds), the account (`account` = owner wallet XOR `contract` = trading account),
// and cursor pagination over (timestamp, id).
import type { SandboxApp } from '../app-types';
import type { MarketState } from '../ledger/market';
import { ErrorCode, invalid, refusal, Refusal, show } from './errors';
import { integer, oneOf, optionalB256, optionalBigInt, requiredB256 } from './query';

/** `turbo=true` on a market-scoped read selects the Turbo book (margin 4.5). */
export function wantsTurbo(query: URLSearchParams): boolean {
  return query.get('turbo') === 'true';
}

/** The market's book: canonical, or its Turbo book with `turbo=true` (MarketNotFound text of margin 7 without one). */
export function marketById(app: SandboxApp, query: URLSearchParams): MarketState | Refusal {
  const id = requiredB256(query, 'market_id');
  if (id instanceof Refusal) return id;
  const market = app.ledger.markets.get(id);
  if (market === undefined) return refusal(ErrorCode.MARKET_NOT_FOUND, wantsTurbo(query) ? `Market ${id} has no Turbo order book` : `market_id: no such market, got ${show(id)}`, 404);
  if (!wantsTurbo(query)) return market;
  return app.ledger.turbo.get(id)?.turbo ?? refusal(ErrorCode.MARKET_NOT_FOUND, `Market ${id} has no Turbo order book`, 404);
}

/**
 * market_id, or market_pair `BASE_QUOTE` (symbols, case-insensitive). Two markets may share
 * symbols (ETH/USDC and the bridged-USDC ETH/USDC): a pair names the first of them in
 * GET /v1/markets order; use market_id for the others (docs/sandbox.md).
 */
export function marketByIdOrPair(app: SandboxApp, query: URLSearchParams, required = true): MarketState | undefined | Refusal {
  const pair = query.get('market_pair') ?? query.get('ticker_id');
  if (query.get('market_id') !== null) {
    if (pair !== null) return invalid('query: market_id and market_pair are alternatives, got both');
    return marketById(app, query);
  }
  if (pair === null) return required ? invalid('query: market_id or market_pair (BASE_QUOTE) is required, got neither') : undefined;
  const match = /^([A-Za-z0-9.]+)_([A-Za-z0-9.]+)$/.exec(pair);
  if (!match) return invalid(`market_pair: expected BASE_QUOTE, got ${show(pair)}`);
  const [, base, quote] = match as unknown as [string, string, string];
  for (const market of app.ledger.markets.values()) {
    if (market.config.base.symbol.toUpperCase() === base.toUpperCase() && market.config.quote.symbol.toUpperCase() === quote.toUpperCase()) return market;
  }
  return refusal(ErrorCode.MARKET_NOT_FOUND, `market_pair: no market ${show(pair)}`, 404);
}

/** The trading account selected by `account` (owner wallet) XOR `contract` (trading account id). */
export function accountSelector(app: SandboxApp, query: URLSearchParams, required = true): string | undefined | Refusal {
  const owner = optionalB256(query, 'account');
  if (owner instanceof Refusal) return owner;
  const contract = optionalB256(query, 'contract');
  if (contract instanceof Refusal) return contract;
  if (owner !== undefined && contract !== undefined) return invalid('query: account and contract are alternatives, got both');
  if (owner === undefined && contract === undefined) return required ? invalid('query: account or contract is required, got neither') : undefined;
  if (contract !== undefined) return contract;
  // An owner without an account has no orders or trades: an id that matches nothing.
  return app.ledger.accountOfOwner({ Address: owner as NonNullable<typeof owner> })?.id ?? `none:${owner}`;
}

export interface Page {
  readonly direction: 'asc' | 'desc';
  readonly count: number;
  readonly cursor?: { readonly timestamp: bigint; readonly id: string };
}

export function pageParams(query: URLSearchParams, maxCount: number, idName: string, bothRequired: boolean): Page | Refusal {
  const direction = oneOf(query, 'direction', ['asc', 'desc'] as const, 'desc');
  if (direction instanceof Refusal) return direction;
  const count = integer(query, 'count', { min: 1, max: maxCount, fallback: maxCount });
  if (count instanceof Refusal) return count;
  const timestamp = optionalBigInt(query, 'start_timestamp');
  if (timestamp instanceof Refusal) return timestamp;
  const id = optionalB256(query, idName);
  if (id instanceof Refusal) return id;
  if ((timestamp === undefined) !== (id === undefined)) {
    if (bothRequired || timestamp === undefined) {
      return invalid(`query: start_timestamp and ${idName} are sent together or not at all, got only ${timestamp === undefined ? idName : 'start_timestamp'}`);
    }
  }
  return { direction, count, cursor: timestamp === undefined ? undefined : { timestamp, id: id ?? '' } };
}

/**
 * One page of `items` (oldest first, ordered by timestamp then sequence): the items strictly
 * after the cursor in the page's direction. A cursor id not in the list pages by time only.
 */
export function paginate<T>(items: readonly T[], page: Page, timestampOf: (item: T) => bigint, idOf: (item: T) => string): T[] {
  const out: T[] = [];
  const descending = page.direction === 'desc';
  let index = descending ? items.length - 1 : 0;
  const step = descending ? -1 : 1;
  if (page.cursor !== undefined) {
    const { timestamp, id } = page.cursor;
    const at = id === '' ? -1 : items.findIndex((item) => idOf(item) === id);
    if (at >= 0) index = at + step;
    else {
      while (index >= 0 && index < items.length) {
        const t = timestampOf(items[index] as T);
        if (descending ? t < timestamp : t > timestamp) break;
        index += step;
      }
    }
  }
  for (; index >= 0 && index < items.length && out.length < page.count; index += step) out.push(items[index] as T);
  return out;
}
