// The markets overview as rows a table shows: each listed market with main's ticker figures, its
// spread, its 24-hour change, whether it has a Turbo book, and whether the trader starred it; sorted
// (starred markets first, then by the chosen column) and filtered, all in bigint.
import type { MarketOverviewRow, TurboMarketView } from '../../../../shared/ipc/views';
import type { Market } from '../../../../shared/market/market';
import { marketMatches } from '../markets/market-label';

/** Whether Turbo orders can be placed on the market's Turbo book, as the Turbo rows say. */
export type TurboAvailability = 'tradable' | 'paused' | 'disconnected' | 'none' | 'unknown';

export interface OverviewEntry {
  readonly market: Market;
  readonly row: MarketOverviewRow | null;
  readonly favourite: boolean;
  /** ask - bid, raw quote units; null without both sides. */
  readonly spread: bigint | null;
  /** last - open (24 h), raw quote units, signed; null without both. */
  readonly change: bigint | null;
  /** The 24-hour change in hundredths of a percent (basis points), for sorting and the sign; null when unknown. */
  readonly changeBps: bigint | null;
  readonly turbo: TurboAvailability;
}

export const OVERVIEW_COLUMNS = ['market', 'last', 'change', 'volume', 'high', 'low', 'spread', 'turbo'] as const;
export type OverviewColumn = (typeof OVERVIEW_COLUMNS)[number];

export interface OverviewSort {
  readonly column: OverviewColumn;
  readonly descending: boolean;
}

/** Decimal percent text ("-1.25") in basis points (-125), cut toward zero past two decimals; null when not a decimal. */
export function percentTextToBps(text: string | null): bigint | null {
  if (text === null) return null;
  const match = /^([+-]?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return null;
  const fraction = `${match[3] ?? ''}00`.slice(0, 2);
  const value = BigInt(match[2]!) * 100n + BigInt(fraction);
  return match[1] === '-' ? -value : value;
}

export function turboAvailability(row: TurboMarketView | null): TurboAvailability {
  if (row === null) return 'unknown';
  if (!row.hasTurboBook) return 'none';
  if (row.paused) return 'paused';
  if (row.connected === false) return 'disconnected';
  return 'tradable';
}

export function overviewEntry(market: Market, row: MarketOverviewRow | null, favourite: boolean, turbo: TurboMarketView | null): OverviewEntry {
  const spread = row && row.bid !== null && row.ask !== null && row.ask >= row.bid ? row.ask - row.bid : null;
  const change = row && row.last !== null && row.open !== null ? row.last - row.open : null;
  // The exchange's own percentage first; computed from open and last only where it sent none.
  const changeBps = percentTextToBps(row?.changePercent ?? null) ?? (change !== null && row!.open! > 0n ? (change * 10_000n) / row!.open! : null);
  return { market, row, favourite, spread, change, changeBps, turbo: turboAvailability(turbo) };
}

const TURBO_ORDER: Record<TurboAvailability, number> = { tradable: 0, paused: 1, disconnected: 2, unknown: 3, none: 4 };

function figure(entry: OverviewEntry, column: Exclude<OverviewColumn, 'market' | 'turbo'>): bigint | null {
  switch (column) {
    case 'last':
      return entry.row?.last ?? null;
    case 'change':
      return entry.changeBps;
    case 'volume':
      return entry.row?.volume ?? null;
    case 'high':
      return entry.row?.high ?? null;
    case 'low':
      return entry.row?.low ?? null;
    case 'spread':
      return entry.spread;
  }
}

function compare(left: OverviewEntry, right: OverviewEntry, sort: OverviewSort, name: (market: Market) => string): number {
  if (sort.column === 'market') {
    const order = name(left.market).localeCompare(name(right.market));
    return sort.descending ? -order : order;
  }
  if (sort.column === 'turbo') {
    const order = TURBO_ORDER[left.turbo] - TURBO_ORDER[right.turbo];
    return sort.descending ? -order : order;
  }
  const a = figure(left, sort.column);
  const b = figure(right, sort.column);
  // A market without the figure goes last whichever way the column is sorted.
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  const order = a < b ? -1 : a > b ? 1 : 0;
  return sort.descending ? -order : order;
}

export interface OverviewQuery {
  readonly text: string;
  readonly favouritesOnly: boolean;
  readonly sort: OverviewSort;
}

/** The entries shown: filtered by the text (symbols or ids) and the star, starred first, then by the sort (ties keep the listing order). */
export function overviewView(entries: readonly OverviewEntry[], query: OverviewQuery, name: (market: Market) => string): OverviewEntry[] {
  const shown = entries.filter((entry) => (!query.favouritesOnly || entry.favourite) && marketMatches(entry.market, query.text));
  return shown
    .map((entry, index) => ({ entry, index }))
    .sort((left, right) => {
      if (left.entry.favourite !== right.entry.favourite) return left.entry.favourite ? -1 : 1;
      return compare(left.entry, right.entry, query.sort, name) || left.index - right.index;
    })
    .map(({ entry }) => entry);
}

/** A click on a column header: the same column flips its direction, another starts descending (figures) or ascending (names). */
export function nextSort(current: OverviewSort, column: OverviewColumn): OverviewSort {
  if (current.column === column) return { column, descending: !current.descending };
  return { column, descending: column !== 'market' };
}

/** The starred list after a click on a market's star. */
export function toggleFavourite(favourites: readonly string[], marketId: string): string[] {
  return favourites.includes(marketId) ? favourites.filter((id) => id !== marketId) : [...favourites, marketId];
}
