// The markets overview: every listed market with its last price, 24-hour change, volume, high and
// low, spread and Turbo book, from the ticker and summary main reads on a fixed cadence. Sortable by
// any column, filtered by symbol or id, starred markets first (the stars are saved in the settings
// through main); a click on a row opens that market in this window's ladder and chart, and main
// passes it on to the window's link group. Marked stale in place when main's reads stop answering.
// "Turbo books" shows the Turbo books' own figures (the same reads with turbo=true) for the markets
// that have one, and a click opens the market on its Turbo book.
import { createMemo, createSignal, For, onCleanup, Show, type Component } from 'solid-js';
import type { Market } from '../../../../shared/market/market';
import { priceCell, quantityCell } from '../../format/columns';
import { formatClock } from '../../format/time';
import { createFreshness, FreshnessBadge, windowClock } from '../../lib/freshness';
import { useBridge } from '../../stores/bridge-context';
import { useTerminal } from '../../stores/terminal-context';
import { useDesk } from '../desk/desk-context';
import { useMarketName } from '../markets/use-market-name';
import { followOverview } from './overview-source';
import { changeText, overviewFreshness, percentText } from './overview-text';
import { nextSort, overviewEntry, overviewView, toggleFavourite, type OverviewColumn, type OverviewEntry, type OverviewSort } from './overview-model';
import './overview.css';

const HEADERS: readonly { column: OverviewColumn; label: string; title: string }[] = [
  { column: 'market', label: 'Market', title: 'Sort by name' },
  { column: 'last', label: 'Last', title: 'Last traded price (quote asset)' },
  { column: 'change', label: '24 h change', title: 'Change of the last price over 24 hours, in price and percent' },
  { column: 'volume', label: '24 h volume', title: 'Base asset traded over 24 hours' },
  { column: 'high', label: '24 h high', title: 'Highest trade over 24 hours' },
  { column: 'low', label: '24 h low', title: 'Lowest trade over 24 hours' },
  { column: 'spread', label: 'Spread', title: 'Best ask less best bid, in the quote asset' },
  { column: 'turbo', label: 'Turbo', title: 'Whether the market has a Turbo book and Turbo orders can be placed on it now' },
];

const TURBO_TEXT = { tradable: 'Turbo', paused: 'paused', disconnected: 'disconnected', none: '—', unknown: '…' } as const;

export const MarketOverview: Component<{ current: Market | null; currentTurbo: boolean }> = (props) => {
  const terminal = useTerminal();
  const bridge = useBridge();
  const desk = useDesk();
  const name = useMarketName();
  const overview = followOverview(bridge);
  const view = overview.view;
  const receivedAt = overview.receivedAt;
  const problem = overview.problem;
  const [text, setText] = createSignal('');
  const [favouritesOnly, setFavouritesOnly] = createSignal(false);
  const [sort, setSort] = createSignal<OverviewSort>({ column: 'volume', descending: true });
  const [book, setBook] = createSignal<'canonical' | 'turbo'>('canonical');

  // Ages main's word on the window's own clock: reads that stop arriving turn the panel stale.
  const [now, setNow] = createSignal(windowClock.now());
  const tick = setInterval(() => setNow(windowClock.now()), 1000);
  onCleanup(() => clearInterval(tick));
  const freshness = createFreshness(
    terminal.freshness,
    (freshnessView) => [freshnessView.link],
    () => overviewFreshness(view(), now() - receivedAt()),
  );

  const favourites = () => terminal.store.state.settings?.favouriteMarkets ?? [];
  const entries = createMemo(() => {
    const turbo = book() === 'turbo';
    const rows = new Map(((turbo ? view()?.turboRows : view()?.rows) ?? []).map((row) => [row.marketId, row]));
    const starred = new Set(favourites());
    const markets = terminal.store.state.markets?.markets ?? [];
    // On Turbo books: the markets that have one (the exchange skips the others in its Turbo reads).
    const listed = turbo ? markets.filter((market) => rows.has(market.market_id) || terminal.turboBooks.row(market.market_id)?.hasTurboBook === true) : markets;
    return listed.map((market) => overviewEntry(market, rows.get(market.market_id) ?? null, starred.has(market.market_id), terminal.turboBooks.row(market.market_id)));
  });
  const shown = createMemo(() => overviewView(entries(), { text: text(), favouritesOnly: favouritesOnly(), sort: sort() }, name));

  const star = async (marketId: string) => {
    const result = await bridge.updateSettings({ favouriteMarkets: toggleFavourite(favourites(), marketId) });
    if (result.ok) terminal.store.setSettings(result.value);
    else terminal.store.notify('error', `Favourites not saved (${result.code}): ${result.message}`);
  };
  const open = (entry: OverviewEntry, turbo: boolean) => desk.openMarket({ marketId: entry.market.market_id, turbo });
  const figure = (entry: OverviewEntry, value: bigint | null | undefined, cell: (market: Market, raw: bigint) => string) => (value === null || value === undefined ? '—' : cell(entry.market, value));

  return (
    <div class="overview" data-testid="market-overview" data-freshness={freshness.state()} data-book={book()}>
      <div class="overview-bar">
        <select
          data-testid="overview-book"
          value={book()}
          title="Whose figures: the canonical books', or the Turbo books' own (last trade, 24-hour change, volume, high, low and spread of each Turbo book)"
          onChange={(event) => setBook(event.currentTarget.value === 'turbo' ? 'turbo' : 'canonical')}
        >
          <option value="canonical">Canonical books</option>
          <option value="turbo">Turbo books</option>
        </select>
        <input data-testid="overview-filter" placeholder="Filter: symbol or id" value={text()} onInput={(event) => setText(event.currentTarget.value)} />
        <label class="field-inline" title="Show only the markets you starred">
          <input type="checkbox" data-testid="overview-favourites-only" checked={favouritesOnly()} onChange={(event) => setFavouritesOnly(event.currentTarget.checked)} />★ only
        </label>
        <div class="spacer" />
        <span class="muted" data-testid="overview-read-at" title={`Read from the exchange's ticker and 24-hour summary every ${Math.round((view()?.intervalMs ?? 5000) / 1000)} s while this panel is open`}>
          {view()?.readAt ? `read ${formatClock(view()!.readAt!)}` : ''}
        </span>
        <FreshnessBadge mark={freshness} testId="overview-freshness" />
      </div>
      <table class="overview-table fresh-dim">
        <thead>
          <tr>
            <th class="star-cell" />
            <For each={HEADERS}>
              {(header) => (
                <th class={header.column === 'market' || header.column === 'turbo' ? '' : 'num'} title={header.title}>
                  <button type="button" class="sort" data-testid={`overview-sort-${header.column}`} data-sorted={sort().column === header.column ? (sort().descending ? 'descending' : 'ascending') : undefined} onClick={() => setSort(nextSort(sort(), header.column))}>
                    {header.label}
                    {sort().column === header.column ? (sort().descending ? ' ▼' : ' ▲') : ''}
                  </button>
                </th>
              )}
            </For>
          </tr>
        </thead>
        <tbody>
          <For each={shown()}>
            {(entry) => (
              <tr
                data-testid="overview-row"
                data-market-id={entry.market.market_id}
                data-favourite={entry.favourite ? 'true' : undefined}
                classList={{ current: props.current?.market_id === entry.market.market_id }}
                title={`Open ${name(entry.market)}${book() === 'turbo' ? ' on its Turbo book' : ''} in this window's ladder and chart`}
                onClick={() => open(entry, book() === 'turbo')}
              >
                <td class="star-cell">
                  <button
                    type="button"
                    class="star"
                    data-testid="overview-star"
                    classList={{ on: entry.favourite }}
                    title={entry.favourite ? 'Remove from favourites' : 'Add to favourites (listed first)'}
                    onClick={(event) => {
                      event.stopPropagation();
                      void star(entry.market.market_id);
                    }}
                  >
                    {entry.favourite ? '★' : '☆'}
                  </button>
                </td>
                <td class="pair" data-testid="overview-market">{name(entry.market)}</td>
                <td class="num" data-column="last">{figure(entry, entry.row?.last, priceCell)}</td>
                <td class="num" data-column="change" classList={{ buy: (entry.changeBps ?? 0n) > 0n, sell: (entry.changeBps ?? 0n) < 0n }}>
                  {changeText(entry)} <span class="percent">{percentText(entry)}</span>
                </td>
                <td class="num" data-column="volume">
                  {figure(entry, entry.row?.volume, quantityCell)} <span class="unit muted">{entry.market.base.symbol}</span>
                </td>
                <td class="num" data-column="high">{figure(entry, entry.row?.high, priceCell)}</td>
                <td class="num" data-column="low">{figure(entry, entry.row?.low, priceCell)}</td>
                <td class="num" data-column="spread">{figure(entry, entry.spread, priceCell)}</td>
                <td data-column="turbo">
                  <Show when={entry.turbo === 'tradable'} fallback={<span class="muted">{TURBO_TEXT[entry.turbo]}</span>}>
                    <button
                      type="button"
                      class="chip turbo-chip"
                      data-testid="overview-open-turbo"
                      title={`Open ${name(entry.market)} on its Turbo book in this window`}
                      onClick={(event) => {
                        event.stopPropagation();
                        open(entry, true);
                      }}
                    >
                      Turbo
                    </button>
                  </Show>
                </td>
              </tr>
            )}
          </For>
          <Show when={shown().length === 0}>
            <tr>
              <td colSpan={HEADERS.length + 1} class="empty">
                {problem() ?? (entries().length === 0 ? 'Loading markets…' : favouritesOnly() ? 'No starred market matches' : 'No market matches the filter')}
              </td>
            </tr>
          </Show>
        </tbody>
      </table>
      <Show when={view()?.problem}>{(text) => <div class="muted overview-problem" data-testid="overview-problem">Last read: {text()}</div>}</Show>
    </div>
  );
};
