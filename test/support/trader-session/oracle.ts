// The trader-session oracle: after every step, what each panel of each open page shows is held
// to the exchange's truth read over REST. A panel passes when, at some sample within the bound,
// its figures equal the truth, or it is visibly marked as not live (`data-freshness` other than
// `live`, or the ladder's own resyncing/waiting overlay, which hides every level). The invariants
// are listed in docs/reliability.md ("Trader-session oracle"); keep the two in step.
import type { Page } from 'playwright-core';
import type { Market } from '../../../shared/market/market';
import { formatPrice } from '../../../renderer/src/format/market-format';
import { ORDER_KIND_LABELS } from '../../../renderer/src/features/ticket/ticket-model';
import type { OrderTypeKind } from '../../../shared/market/order-type';
import { assetDisplayDecimals, averagePriceCell, displayDecimals, formatFixed, orderStatusCell, priceCell, quantityCell } from '../../../renderer/src/format/columns';
import { readScreen, type Screen } from './screen';
import { judgeConsistency } from './consistency';
import type { Truth, TruthOrder, TruthTrade } from './truth';

export interface OracleView {
  /** 'devnet' is the configured network nobody answers on. */
  readonly network: 'sandbox' | 'devnet';
  readonly market: Market;
  readonly turbo: boolean;
  /** The contracts whose orders the panels list: the trading account (and a Turbo Account). */
  readonly contracts: readonly string[];
  readonly tradeAccountId: string;
  /** The Turbo Account the trader trades Turbo books as, if any (its risk panel is held too). */
  readonly turboAccountId?: string | null;
  readonly turboMarkets: readonly string[];
  /** The Turbo books' own rows (their min_order decides whether a position can be closed). */
  readonly turboBooks?: ReadonlyMap<string, Market>;
}

export class OracleFailure extends Error {}

/**
 * The ladder rows the exchange's inside belongs to at rows of `precision`: the best bid's row is
 * its price floored to the row size, the best ask's raised (a row never shows a better price than
 * is on offer). A precision of 0 or 1 leaves the prices as they are.
 */
export function insideRows(inside: { bid: bigint | null; ask: bigint | null }, precision: bigint): { bid: bigint | null; ask: bigint | null } {
  if (precision <= 1n) return inside;
  const floor = (price: bigint) => (price / precision) * precision;
  const ceil = (price: bigint) => ((price + precision - 1n) / precision) * precision;
  return { bid: inside.bid === null ? null : floor(inside.bid), ask: inside.ask === null ? null : ceil(inside.ask) };
}

import { ABSENT, checkMarginRisk, checkPositions, checkTape, differs, EMPTY, EQUAL, MARKED, sameMaps, type ShownAsset, type Verdict } from './checks';
import { displayDecimalsOf } from '../../../renderer/src/features/margin/margin-format';
import type { MarketsView } from '../../../shared/ipc/views';

/** A mark other than live counts as a visible mark; no attribute at all is a claim of being live. */
const marked = (freshness: string | null) => freshness !== null && freshness !== 'live';

export interface OracleOptions {
  /** How long a panel may take to show the truth (ms). */
  readonly boundMs: number;
  readonly sampleMs?: number;
}

export interface OracleReport {
  /** Per panel, how it passed on the last sample it was judged. */
  readonly verdicts: Record<string, string>;
  readonly samples: number;
}

interface TruthCache {
  inside?: Promise<{ bid: bigint | null; ask: bigint | null }>;
  open?: Promise<TruthOrder[]>;
  book?: Promise<TruthOrder[]>;
  balances?: ReturnType<Truth['balances']>;
  positions?: ReturnType<Truth['positions']>;
  margin?: ReturnType<Truth['marginRisk']>;
  turboPositions?: ReturnType<Truth['positions']>;
  /** The selected book's newest trades, read before the pages were (the tape is held to them). */
  tapeBefore?: Promise<TruthTrade[] | null>;
  tapeAfter?: Promise<TruthTrade[] | null>;
}

const decimalsOf = (markets: readonly Market[], assetId: string) => {
  for (const market of markets) {
    if (market.base.asset === assetId) return market.base.decimals;
    if (market.quote.asset === assetId) return market.quote.decimals;
  }
  return 0;
};

export async function checkScreen(pages: readonly Page[], truth: Truth, markets: readonly Market[], view: () => OracleView, options: OracleOptions): Promise<OracleReport> {
  const deadline = Date.now() + options.boundMs;
  const pending = new Map<string, string>(); // panel -> last difference
  const passed = new Map<string, string>();
  let samples = 0;
  for (;;) {
    samples++;
    const current = view();
    const cache: TruthCache = {};
    // The tape is compared with the exchange's trades read before and after the screen.
    if (current.network === 'sandbox') cache.tapeBefore = truth.trades(current.market, current.turbo).catch(() => null);
    await cache.tapeBefore;
    const sampleDiffs = new Map<string, string>();
    for (const [index, page] of pages.entries()) {
      if (page.isClosed()) continue;
      let screen: Screen;
      try {
        screen = await readScreen(page);
      } catch (error) {
        // A page mid-navigation (a reload) has no document to read yet: sample again.
        sampleDiffs.set(`page${index}`, `could not be read: ${String(error).split('\n')[0]}`);
        continue;
      }
      const judged = await judge(screen, truth, markets, current, cache);
      // ---- cross-panel consistency (consistency.ts): a figure shown in two places agrees ----
      judged.consistency = await judgeConsistency(page, { markets, selected: { market: current.market, turbo: current.turbo } });
      // ---------------------------------------------------------------------------------------
      for (const [panel, verdict] of Object.entries(judged)) {
        const key = `page${index}.${panel}`;
        if (verdict.ok) {
          passed.set(key, verdict.how);
        } else {
          sampleDiffs.set(key, verdict.diff);
        }
      }
    }
    pending.clear();
    for (const [key, diff] of sampleDiffs) pending.set(key, diff);
    if (pending.size === 0) return { verdicts: Object.fromEntries(passed), samples };
    if (Date.now() > deadline) {
      const lines = [...pending].map(([key, diff]) => `  ${key}: ${diff}`);
      throw new OracleFailure(`the screen did not show the exchange's truth within ${options.boundMs} ms, and did not mark it stale:\n${lines.join('\n')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.sampleMs ?? 300));
  }
}

async function judge(screen: Screen, truth: Truth, markets: readonly Market[], view: OracleView, cache: TruthCache): Promise<Record<string, Verdict>> {
  const out: Record<string, Verdict> = {};
  const offline = view.network === 'devnet';
  const market = view.market;
  const inside = () => (cache.inside ??= truth.inside(market, view.turbo));
  const openOrders = () => (cache.open ??= truth.openOrders(view.contracts, view.turboMarkets));
  // History and Fills list the market's orders on both books, of the trading account and its Turbo Accounts.
  const sources = view.contracts.flatMap((contract) => [{ contract, turbo: false }, ...(view.turboMarkets.includes(market.market_id) ? [{ contract, turbo: true }] : [])]);
  const bookOrders = () => (cache.book ??= truth.historyPage(market, sources));
  const accountLabel = (account: string) => (account.toLowerCase() === view.tradeAccountId.toLowerCase() ? 'Trading' : `Turbo ${account.slice(0, 8)}…${account.slice(-4)}`);
  const bookLabel = (turbo: boolean) => (turbo ? 'Turbo' : 'Canonical');
  const balances = () => (cache.balances ??= truth.balances(view.tradeAccountId));
  const positions = () => (cache.positions ??= truth.positions(view.tradeAccountId, view.turboMarkets));

  // Header: the connection state says what the link really is.
  if (screen.connection) {
    const { state, stream, freshness } = screen.connection;
    if (offline) out.connection = state === 'up' || stream === 'up' ? (marked(freshness) ? MARKED : differs(`says rest=${state} stream=${stream} while the network answers nothing`)) : EQUAL;
    else out.connection = state === 'up' && stream === 'up' ? EQUAL : marked(freshness) || (state !== 'up' && stream !== 'up') ? MARKED : differs(`says rest=${state} stream=${stream} while the exchange is up`);
  }

  // The market bar's best bid and ask.
  if (screen.inside && screen.workspace) {
    if (marked(screen.inside.freshness)) out.inside = MARKED;
    else if (offline) out.inside = screen.inside.bid === '—' && screen.inside.ask === '—' ? EMPTY : differs(`shows bid ${screen.inside.bid} / ask ${screen.inside.ask} while the network answers nothing`);
    else {
      const truthInside = await inside();
      // A bar that says its prices are grouped (data-grouping, "≥ bid / ≤ ask") is held to the
      // exchange's inside grouped that way: the bid floored, the ask raised.
      const grouping = screen.inside.grouping === null ? null : BigInt(screen.inside.grouping);
      const floorTo = (price: bigint) => (grouping === null ? price : (price / grouping) * grouping);
      const ceilTo = (price: bigint) => (grouping === null ? price : ((price + grouping - 1n) / grouping) * grouping);
      const bid = truthInside.bid === null ? '—' : `${grouping === null ? '' : '≥ '}${formatPrice(market, floorTo(truthInside.bid))}`;
      const ask = truthInside.ask === null ? '—' : `${grouping === null ? '' : '≤ '}${formatPrice(market, ceilTo(truthInside.ask))}`;
      out.inside = screen.inside.bid === bid && screen.inside.ask === ask ? EQUAL : differs(`shows ${screen.inside.bid} / ${screen.inside.ask}, the exchange ${bid} / ${ask}`);
    }
  }

  // The ladder of the selected market: its best rows are the exchange's inside, grouped.
  if (screen.ladder) {
    const ladder = screen.ladder;
    if (ladder.marketId !== market.market_id || (ladder.book === 'turbo') !== view.turbo) out.ladderBook = differs(`shows ${ladder.marketId.slice(0, 10)} ${ladder.book}, the trader chose ${market.market_id.slice(0, 10)} ${view.turbo ? 'turbo' : 'canonical'}`);
    if (marked(ladder.freshness) || ladder.overlay) out.ladder = MARKED;
    else if (offline) out.ladder = ladder.bestBid === null && ladder.bestAsk === null && ladder.pinnedBid === null && ladder.pinnedAsk === null ? EMPTY : differs(`shows best ${ladder.bestBid} / ${ladder.bestAsk} while the network answers nothing`);
    else if (ladder.marketId === market.market_id) {
      const truthInside = await inside();
      const precision = BigInt(screen.ladderPrecision ?? '0');
      const rows = insideRows(truthInside, precision);
      const bid = rows.bid?.toString() ?? null;
      const ask = rows.ask?.toString() ?? null;
      // A best price on no row shown is pinned to the ladder's edge with its price: held to the same row.
      const pinned = insideRows({ bid: ladder.pinnedBid === null ? null : BigInt(ladder.pinnedBid), ask: ladder.pinnedAsk === null ? null : BigInt(ladder.pinnedAsk) }, precision);
      const shownBid = ladder.bestBid ?? pinned.bid?.toString() ?? null;
      const shownAsk = ladder.bestAsk ?? pinned.ask?.toString() ?? null;
      out.ladder = shownBid === bid && shownAsk === ask ? EQUAL : differs(`best rows ${shownBid} / ${shownAsk}${ladder.bestBid === null || ladder.bestAsk === null ? ' (pinned)' : ''}, the exchange ${bid} / ${ask} (rows of ${precision})`);
    }
    if (ladder.clickable === 'true' && (marked(ladder.freshness) || ladder.overlay)) out.ladderClickable = differs('accepts clicks (data-clickable=true) on a book that is not live');
  }

  // Open orders: the tab's count and every row (all markets, both books).
  if (screen.ordersTabCount !== null && screen.workspace) {
    const freshness = screen.openOrders?.freshness ?? null;
    if (marked(freshness)) out.ordersCount = MARKED;
    else if (offline) out.ordersCount = screen.ordersTabCount === 0 ? EMPTY : differs(`the tab counts ${screen.ordersTabCount} open orders while the network answers nothing`);
    else {
      const open = await openOrders();
      out.ordersCount = screen.ordersTabCount === open.length ? EQUAL : differs(`the tab counts ${screen.ordersTabCount}, the exchange has ${open.length} open`);
    }
  }
  if (screen.openOrders) {
    const panel = screen.openOrders;
    if (marked(panel.freshness)) out.openOrders = MARKED;
    else if (offline) out.openOrders = panel.rows.length === 0 ? EMPTY : differs(`lists ${panel.rows.length} orders while the network answers nothing`);
    else {
      const open = await openOrders();
      const want = new Map(
        open.map((order) => {
          const on = markets.find((candidate) => candidate.market_id === order.marketId) ?? market;
          return [order.orderId, [order.side, ORDER_KIND_LABELS[order.kind as OrderTypeKind] ?? order.kind, priceCell(on, order.price), quantityCell(on, order.quantity), quantityCell(on, order.filled)].join(' | ')];
        }),
      );
      const got = new Map(panel.rows.map((row) => [row.id, row.cells.slice(2, 7).join(' | ')]));
      out.openOrders = sameMaps('order', got, want);
    }
  }

  // History of the selected book: every order, its fill and status.
  if (screen.history && !screen.history.loading) {
    const panel = screen.history;
    if (marked(panel.freshness)) out.history = MARKED;
    else if (offline) out.history = panel.rows.length === 0 ? EMPTY : differs(`lists ${panel.rows.length} orders while the network answers nothing`);
    else {
      const orders = await bookOrders();
      const want = new Map(
        orders.map((order) => [
          `${order.turbo ? 'turbo' : 'canonical'}:${order.orderId}`,
          [bookLabel(order.turbo), accountLabel(order.account), order.side, ORDER_KIND_LABELS[order.kind as OrderTypeKind] ?? order.kind, priceCell(market, order.price), quantityCell(market, order.quantity), quantityCell(market, order.filled), order.averagePrice > 0n ? averagePriceCell(market, order.averagePrice) : '—', orderStatusCell(market, order)].join(' | '),
        ]),
      );
      const got = new Map(panel.rows.map((row) => [`${row.book ?? ''}:${row.id}`, row.cells.slice(1, 10).join(' | ')]));
      out.history = sameMaps('order', got, want);
    }
  }

  // Fills of the selected book: each fill of each order, with its fee in the asset received.
  if (screen.fills) {
    const panel = screen.fills;
    if (marked(panel.freshness)) out.fills = MARKED;
    else if (offline) out.fills = panel.rows.length === 0 ? EMPTY : differs(`lists ${panel.rows.length} fills while the network answers nothing`);
    else {
      const orders = await bookOrders();
      const want: string[] = [];
      // The fee in its own column per asset: a buy pays in the base it receives, a sale in the quote.
      const fee = (side: string, raw: bigint) =>
        side === 'Buy' ? [formatFixed(raw, market.base.decimals, displayDecimals(market.base)), ''] : ['', formatFixed(raw, market.quote.decimals, displayDecimals(market.quote))];
      for (const order of orders) for (const fill of order.fills) want.push([order.orderId, bookLabel(order.turbo), accountLabel(order.account), order.side, priceCell(market, fill.price), quantityCell(market, fill.quantity), ...fee(order.side, fill.fee)].join(' | '));
      const got = panel.rows.map((row) => [row.id, ...row.cells.slice(1, 8)].join(' | '));
      out.fills = sameBags('fill', got, want);
    }
  }

  // Balances: every column of every asset, and each book's locked / unlocked.
  if (screen.balances) {
    const panel = screen.balances;
    if (marked(panel.freshness)) out.balances = MARKED;
    else if (offline) out.balances = panel.rows.length === 0 ? EMPTY : differs(`lists ${panel.rows.length} balances while the network answers nothing`);
    else {
      const all = await balances();
      const want = new Map<string, string>();
      const none = new Set<string>();
      for (const balance of all) {
        if (balance.onAccount === 0n && balance.locked === 0n && balance.unlocked === 0n && balance.books.size === 0) none.add(balance.assetId);
        const decimals = decimalsOf(markets, balance.assetId);
        // Each asset in its display decimals (the most any market gives it), never rounded.
        const shown = (raw: bigint) => formatFixed(raw, decimals, assetDisplayDecimals(balance.assetId, decimals, markets));
        const books = [...balance.books].map(([key, book]) => `${key}=${shown(book.locked)} / ${shown(book.unlocked)}`).sort();
        want.set(balance.assetId, [shown(balance.onAccount), shown(balance.locked), shown(balance.unlocked), ...books].join(' | '));
      }
      const got = new Map(panel.rows.map((row) => [row.assetId, [...row.cells, ...row.books.map((book) => `${book.key}=${book.text}`).sort()].join(' | ')]));
      // An asset the account holds none of, on no book, may be left out (an account the exchange
      // does not know has no rows at all); shown, it must say 0.
      for (const assetId of none) if (!got.has(assetId)) want.delete(assetId);
      out.balances = sameMaps('asset', got, want);
    }
  }
  // Positions: each account's position on each book (the trading account on every book, the Turbo
  // Account traded as on its Turbo books) is what every fill the exchange lists for it makes, by
  // the oracle's own accounting (ledger.ts): size, average entry, realized P&L, fees, and the
  // unrealized P&L at the row's own mark; a book with a position has a row, a flat one shows none (or 0).
  if (screen.positions) {
    const panel = screen.positions;
    const accounts = [view.tradeAccountId, ...(view.turboAccountId ? [view.turboAccountId] : [])];
    if (marked(panel.freshness)) out.positions = MARKED;
    else if (offline) out.positions = panel.rows.every((row) => row.size === '0') ? EMPTY : differs(`shows ${panel.rows.filter((row) => row.size !== '0').length} positions while the network answers nothing`);
    else {
      for (const account of accounts) {
        const turboAccount = account !== view.tradeAccountId;
        const sizes = await (turboAccount ? (cache.turboPositions ??= truth.positions(account, view.turboMarkets)) : positions());
        // A Turbo Account trades Turbo books only.
        const marketOf = (key: string) => markets.find((candidate) => candidate.market_id === key.split(':')[0]);
        const verdict = checkPositions(panel.rows, account, sizes, marketOf, turboAccount ? (key) => key.endsWith(':turbo') : undefined);
        out[turboAccount ? 'turboPositions' : 'positions'] = verdict;
      }
    }
  }
  // Margin risk of the Turbo Account traded as: every figure it shows is the one the exchange's
  // margin state (with the account's open Turbo orders and the pool it embeds) gives at the same
  // sequence (checks.ts checkMarginRisk).
  if (screen.marginRisk && view.turboAccountId && screen.marginRisk.account.toLowerCase() === view.turboAccountId.toLowerCase()) {
    const panel = screen.marginRisk;
    if (marked(panel.freshness) || panel.status !== 'live') out.marginRisk = MARKED;
    else if (offline) out.marginRisk = differs('shows live margin figures while the network answers nothing');
    else {
      const turboBooks = [...(view.turboBooks?.values() ?? [])];
      const margin = await (cache.margin ??= truth.marginRisk(view.turboAccountId, turboBooks));
      out.marginRisk = checkMarginRisk(panel, margin, shownAssets(markets, turboBooks));
    }
  }

  // The tape of the selected book: its newest trades are the exchange's newest, in order.
  if (screen.tape && screen.workspace) {
    const panel = screen.tape;
    if (marked(panel.freshness)) out.tape = MARKED;
    else if (offline) out.tape = panel.rows.length === 0 ? EMPTY : differs(`shows ${panel.rows.length} trades while the network answers nothing`);
    else {
      const before = await cache.tapeBefore;
      const after = await (cache.tapeAfter ??= truth.trades(market, view.turbo).catch(() => null));
      out.tape = before == null || after == null ? differs("the exchange's trades could not be read") : checkTape(panel.rows, before, after, market);
    }
  }
  return out;
}

function sameBags(what: string, got: readonly string[], want: readonly string[]): Verdict {
  const count = (items: readonly string[]) => {
    const map = new Map<string, number>();
    for (const item of items) map.set(item, (map.get(item) ?? 0) + 1);
    return map;
  };
  const g = count(got);
  const w = count(want);
  const problems: string[] = [];
  for (const [item, n] of w) if ((g.get(item) ?? 0) !== n) problems.push(`${what} ${item} shown ${g.get(item) ?? 0}×, exchange ${n}×`);
  for (const [item, n] of g) if (!w.has(item)) problems.push(`${what} ${item} shown ${n}× but not on the exchange`);
  return problems.length === 0 ? EQUAL : differs(problems.slice(0, 6).join('; ') + (problems.length > 6 ? `; … ${problems.length - 6} more` : ''));
}

/** How the margin panel names each asset and how many decimals it shows (as margin-format learns them from the markets). */
function shownAssets(markets: readonly Market[], turboBooks: readonly Market[]): (assetId: string) => ShownAsset {
  const shown = displayDecimalsOf({ networkId: '', chainId: 0n, markets, turboMarkets: turboBooks } as MarketsView);
  return (assetId) => {
    for (const market of markets) {
      for (const side of [market.base, market.quote]) {
        if (side.asset.toLowerCase() === assetId.toLowerCase()) {
          const priceShown = new Map<string, number>();
          for (const pair of markets) if (pair.base.asset.toLowerCase() === assetId.toLowerCase()) priceShown.set(pair.quote.asset, Math.max(0, Math.min(pair.quote.decimals, pair.quote.max_precision)));
          return { assetId, symbol: side.symbol, decimals: side.decimals, shown: shown.get(side.asset) ?? side.decimals, priceShown };
        }
      }
    }
    return { assetId, symbol: `${assetId.slice(0, 8)}…`, decimals: 0, shown: 0 };
  };
}

export { ABSENT };
