// What the screen shows, read from the page's DOM in one pass: the figures as the trader reads
// them (the cell texts) and, for each panel, the freshness mark it carries. A panel's mark is the
// `data-freshness` of its root or the nearest element around it that has one (docs/reliability.md,
// "Trader-session oracle"); none at all means the panel claims to be live.
import type { Page } from 'playwright-core';

export interface PanelMark {
  /** `data-freshness` of the panel, or null when the panel carries none. */
  readonly freshness: string | null;
}

export interface ScreenRow {
  readonly id: string;
  readonly marketId: string | null;
  readonly book: string | null;
  readonly cells: readonly string[];
}

export interface BalanceRow {
  readonly assetId: string;
  /** On account, locked in orders, available (the exchange's trading_account_balance, total_locked, total_unlocked). */
  readonly cells: readonly string[];
  readonly books: readonly { key: string; text: string }[];
}

export interface Screen {
  readonly url: string;
  readonly workspace: boolean;
  readonly setupOpen: boolean;
  readonly connection: (PanelMark & { state: string | null; stream: string | null }) | null;
  readonly marketBook: string | null;
  readonly inside: (PanelMark & { bid: string; ask: string; grouping: string | null }) | null;
  readonly ladder: (PanelMark & { marketId: string; book: string; bestBid: string | null; bestAsk: string | null; pinnedBid: string | null; pinnedAsk: string | null; overlay: boolean; armed: string | null; clickable: string | null }) | null;
  readonly ladderPrecision: string | null;
  readonly ordersTabCount: number | null;
  readonly tab: string | null;
  readonly openOrders: (PanelMark & { rows: ScreenRow[]; empty: string | null }) | null;
  readonly history: (PanelMark & { rows: ScreenRow[]; empty: string | null; loading: boolean }) | null;
  readonly fills: (PanelMark & { rows: ScreenRow[]; empty: string | null }) | null;
  readonly balances: (PanelMark & { rows: BalanceRow[]; empty: string | null }) | null;
  /** The Positions panel: each row's book, signing account, size (raw base, `data-size`) and money columns (raw and as shown). */
  readonly positions: (PanelMark & { rows: PositionRow[] }) | null;
  /** The margin risk panel: whose, its status, and every figure it shows (see MarginRiskScreen). */
  readonly marginRisk: MarginRiskScreen | null;
  /** The tape (time and sales) of the selected book: its rows, newest first. */
  readonly tape: (PanelMark & { rows: TapeRow[] }) | null;
}

export interface TapeRow {
  readonly tradeId: string;
  readonly side: string;
  /** The price and size cells as shown. */
  readonly price: string;
  readonly quantity: string;
}

/** The margin risk panel as the trader reads it. */
export interface MarginRiskScreen extends PanelMark {
  readonly account: string;
  readonly status: string;
  /** The drawn quote as shown (null when not shown). */
  readonly drawn: string | null;
  /** "#41": the margin state's sequence the figures are of (null before a frame). */
  readonly sequence: string | null;
  /** Every figure of the figures grid, by its testid without the `margin-risk-` prefix ("value", "equity", …). */
  readonly figures: Readonly<Record<string, string>>;
  /** The health rule line (rule, loss floor, absorption cost, withdrawable value). */
  readonly rule: string | null;
  /** Alerts and badges shown, by testid without the prefix: liquidatable, frozen, stale-prices, pool-paused, no-session, problem, cohort, last-session. */
  readonly shown: readonly string[];
  readonly cohort: string | null;
  /** The expiry badge: "No expiry" or "Expires in …". */
  readonly expiry: string | null;
  /** Per asset row of the assets table: the asset id and every cell. */
  readonly assets: readonly { assetId: string; cells: readonly string[] }[];
}

export interface PositionRow {
  readonly marketId: string;
  readonly turbo: boolean;
  readonly account: string;
  readonly size: string;
  /** The raw figures behind the money columns (`data-*` of the row; '' where the panel has none). */
  readonly raw: PositionRaw;
  /** The money cells as shown: average entry, unrealized P&L and its %, realized P&L and its %, fees. */
  readonly text: { entry: string; unrealized: string; unrealizedUnit: string; realized: string; realizedPercent: string; fees: string };
}

export interface PositionRaw {
  readonly entry: string;
  readonly mark: string;
  readonly markSide: string;
  /** The market's chosen mark source and unit (settings.pnlDisplay) the row's figures were made for. */
  readonly markChoice: string;
  readonly pnlUnit: string;
  readonly unrealized: string;
  readonly unrealizedBps: string;
  readonly realized: string;
  readonly realizedBps: string;
  readonly feesBase: string;
  readonly feesQuote: string;
}

/** The page's document as functions sent to the page see it (test files compile without the DOM library). */
interface El {
  getAttribute(name: string): string | null;
  querySelector(selector: string): El | null;
  querySelectorAll(selector: string): ArrayLike<El> & Iterable<El>;
  closest(selector: string): El | null;
  readonly textContent: string | null;
  readonly children: ArrayLike<El> & Iterable<El>;
}
declare const document: El;
declare const location: { href: string };

export async function readScreen(page: Page): Promise<Screen> {
  // tsx (the bench) compiles with esbuild's keepNames, which wraps the named functions below in
  // `__name(...)`: give the page that helper, as the identity, before sending them.
  await page.evaluate('globalThis.__name ??= (fn) => fn');
  return page.evaluate((): Screen => {
    const one = (selector: string, root: El = document) => root.querySelector(selector);
    const text = (element: El | null) => (element?.textContent ?? '').replace(/\s+/g, ' ').trim();
    const freshness = (element: El): string | null => {
      const around = element.closest('[data-freshness]');
      if (around) return around.getAttribute('data-freshness');
      return element.querySelector('[data-freshness]')?.getAttribute('data-freshness') ?? null;
    };
    const rows = (root: El, selector: string, idAttribute: string) =>
      [...root.querySelectorAll(selector)].map((row) => ({ id: row.getAttribute(idAttribute) ?? '', marketId: row.getAttribute('data-market-id'), book: row.getAttribute('data-book'), cells: [...row.children].map((cell) => text(cell)) }));
    const emptyText = (root: El) => {
      const empty = one('td.empty', root);
      return empty ? text(empty) : null;
    };

    const connectionEl = one('[data-testid=connection]');
    const insideEl = one('[data-testid=inside-market]');
    const ladderEl = one('[data-testid=ladder]');
    const ordersEl = one('[data-testid=open-orders]');
    const historyEl = one('[data-testid=order-history]');
    const fillsEl = one('[data-testid=fills]');
    const balancesEl = one('[data-testid=balances]');
    const positionsEl = one('[data-testid=positions]');
    const riskEl = one('[data-testid=margin-risk]');
    const tapeEl = one('[data-testid=tape]');
    const tabLabel = text(one('[data-testid=tab-orders]'));
    const tabCount = /\((\d+)(?: \+ \d+ legs?)?\)/.exec(tabLabel);
    const insideParts = insideEl ? [...insideEl.querySelectorAll('span')].map((span) => text(span)) : [];
    return {
      url: location.href,
      workspace: one('[data-testid=workspace]') !== null,
      setupOpen: one('[data-testid=onboarding]') !== null,
      connection: connectionEl ? { freshness: freshness(connectionEl), state: connectionEl.getAttribute('data-state'), stream: one('[data-testid=stream-state]')?.getAttribute('data-state') ?? null } : null,
      marketBook: one('[data-testid=market-bar]')?.getAttribute('data-book') ?? null,
      inside: insideEl ? { freshness: freshness(insideEl), bid: insideParts[0] ?? '', ask: insideParts[2] ?? '', grouping: insideEl.getAttribute('data-grouping') } : null,
      ladder: ladderEl
        ? {
            freshness: freshness(ladderEl),
            marketId: ladderEl.getAttribute('data-market-id') ?? '',
            book: ladderEl.getAttribute('data-book') ?? '',
            bestBid: one('[data-testid=ladder-row].best-bid', ladderEl)?.getAttribute('data-price') ?? null,
            bestAsk: one('[data-testid=ladder-row].best-ask', ladderEl)?.getAttribute('data-price') ?? null,
            // A best price on no row shown (the ladder held under the pointer) is pinned to an edge, with its price.
            pinnedBid: one('[data-testid=ladder-pinned-bid]', ladderEl)?.getAttribute('data-price') ?? null,
            pinnedAsk: one('[data-testid=ladder-pinned-ask]', ladderEl)?.getAttribute('data-price') ?? null,
            overlay: one('[data-testid=ladder-resyncing]', ladderEl) !== null || one('[data-testid=ladder-waiting]', ladderEl) !== null,
            armed: ladderEl.getAttribute('data-armed'),
            clickable: ladderEl.getAttribute('data-clickable'),
          }
        : null,
      ladderPrecision: (one('[data-testid=ladder-precision]') as unknown as { value?: string } | null)?.value ?? null,
      ordersTabCount: tabCount ? Number(tabCount[1]) : null,
      tab: one('[data-testid=blotter]')?.getAttribute('data-tab') ?? null,
      openOrders: ordersEl ? { freshness: freshness(ordersEl), rows: rows(ordersEl, '[data-testid=open-order-row]', 'data-order-id'), empty: emptyText(ordersEl) } : null,
      history: historyEl ? { freshness: freshness(historyEl), rows: rows(historyEl, '[data-testid=history-row]', 'data-order-id'), empty: emptyText(historyEl), loading: text(one('[data-testid=load-more]', historyEl)) === 'Loading…' } : null,
      fills: fillsEl ? { freshness: freshness(fillsEl), rows: rows(fillsEl, '[data-testid=fill-row]', 'data-order-id'), empty: emptyText(fillsEl) } : null,
      balances: balancesEl
        ? {
            freshness: freshness(balancesEl),
            rows: [...balancesEl.querySelectorAll('[data-testid=balance-row]')].map((row) => {
              // The exchange's three figures by column (docs/protocol.md "Balance figures"): on account, locked, available (total_unlocked).
              const cell = (column: string) => text(one(`td[data-column=${column}]`, row));
              return {
                assetId: row.getAttribute('data-asset-id') ?? '',
                cells: [cell('on-account'), cell('locked'), cell('available')],
                books: [...row.querySelectorAll('[data-testid=balance-book]')].map((book) => ({
                  key: `${book.getAttribute('data-market-id') ?? ''}${book.getAttribute('data-turbo') === 'true' ? ':turbo' : ''}`,
                  text: text(one('.mono', book)),
                })),
              };
            }),
            empty: emptyText(balancesEl),
          }
        : null,
      marginRisk: riskEl
        ? {
            freshness: freshness(riskEl),
            account: riskEl.getAttribute('data-account') ?? '',
            status: riskEl.getAttribute('data-status') ?? '',
            drawn: one('[data-testid=margin-risk-drawn]', riskEl) ? text(one('[data-testid=margin-risk-drawn]', riskEl)) : null,
            sequence: one('[data-testid=margin-risk-sequence]', riskEl) ? text(one('[data-testid=margin-risk-sequence]', riskEl)) : null,
            figures: Object.fromEntries(
              [...riskEl.querySelectorAll('[data-testid=margin-risk-figures] > dd[data-testid]')].map((figure) => [(figure.getAttribute('data-testid') ?? '').replace(/^margin-risk-/, ''), text(figure)]),
            ),
            rule: one('[data-testid=margin-risk-rule]', riskEl) ? text(one('[data-testid=margin-risk-rule]', riskEl)) : null,
            shown: ['liquidatable', 'frozen', 'stale-prices', 'pool-paused', 'no-session', 'problem', 'cohort', 'last-session', 'rollover'].filter((name) => one(`[data-testid=margin-risk-${name}]`, riskEl) !== null),
            cohort: one('[data-testid=margin-risk-cohort]', riskEl) ? text(one('[data-testid=margin-risk-cohort]', riskEl)) : null,
            expiry: one('[data-testid=margin-risk-expiry]', riskEl) ? text(one('[data-testid=margin-risk-expiry]', riskEl)) : null,
            assets: [...riskEl.querySelectorAll('[data-testid=margin-risk-asset]')].map((row) => ({ assetId: row.getAttribute('data-asset') ?? '', cells: [...row.children].map((cell) => text(cell)) })),
          }
        : null,
      tape: tapeEl
        ? {
            freshness: freshness(tapeEl),
            rows: [...tapeEl.querySelectorAll('[data-testid=tape-row]')].map((row) => {
              const cells = [...row.children].map((cell) => text(cell));
              return { tradeId: row.getAttribute('data-trade-id') ?? '', side: row.getAttribute('data-side') ?? '', price: cells[1] ?? '', quantity: cells[2] ?? '' };
            }),
          }
        : null,
      positions: positionsEl
        ? {
            freshness: freshness(positionsEl),
            rows: [...positionsEl.querySelectorAll('[data-testid=position-row]')].map((row) => ({
              marketId: row.getAttribute('data-market-id') ?? '',
              turbo: row.getAttribute('data-turbo') === 'true',
              account: row.getAttribute('data-account') ?? '',
              size: row.getAttribute('data-size') ?? '',
              raw: {
                entry: row.getAttribute('data-entry') ?? '(none)',
                mark: row.getAttribute('data-mark') ?? '(none)',
                markSide: row.getAttribute('data-mark-side') ?? '(none)',
                markChoice: row.getAttribute('data-mark-choice') ?? '(none)',
                pnlUnit: row.getAttribute('data-pnl-unit') ?? '(none)',
                unrealized: row.getAttribute('data-unrealized') ?? '(none)',
                unrealizedBps: row.getAttribute('data-unrealized-bps') ?? '(none)',
                realized: row.getAttribute('data-realized') ?? '(none)',
                realizedBps: row.getAttribute('data-realized-bps') ?? '(none)',
                feesBase: row.getAttribute('data-fees-base') ?? '(none)',
                feesQuote: row.getAttribute('data-fees-quote') ?? '(none)',
              },
              text: {
                entry: text(one('[data-testid=position-entry]', row)),
                unrealized: text(one('[data-testid=position-unrealized]', row)),
                unrealizedUnit: text(one('[data-testid=position-unrealized-unit]', row)),
                realized: text(one('[data-testid=position-realized]', row)),
                realizedPercent: text(one('[data-testid=position-realized-percent]', row)),
                // One line per asset the fees were paid in.
                fees: [...(one('[data-testid=position-fees]', row)?.children ?? [])].map((line) => text(line)).join(' + '),
              },
            })),
          }
        : null,
    };
  });
}

// ---- the figures shown in more than one place (consistency.ts holds them to each other) ---------

/** One figure as shown: its raw value (`data-raw` or the panel's raw attribute; '' where none) and its text. */
export interface ShownFigure {
  readonly raw: string;
  readonly text: string;
}

/** A balances table (the Balances or the Funds panel): column names by `data-column`, and per asset its figures by column. */
export interface BalanceTable {
  readonly names: Readonly<Record<string, string>>;
  readonly assets: readonly { readonly assetId: string; readonly columns: Readonly<Record<string, ShownFigure>> }[];
}

/** A position figure of one panel: whose, on which book, its signed raw size, its unrealized P&L, and why it is marked stale ('' when live). */
export interface ShownPosition {
  readonly marketId: string;
  readonly turbo: boolean;
  readonly account: string | null;
  readonly size: string;
  readonly unrealized: ShownFigure;
  readonly stale: string;
  /** The size as shown, where the panel shows it apart (the ladder's foot: "+0.1000"). */
  readonly sizeText?: string;
  /** The name of the mark the P&L is valued at ("bid", "ask", "last", "mid"; '' without one). */
  readonly markName?: string;
  /** The market's unit beside the quote figure ("percent", "bps", "ticks") and the figure in it as shown ('' where the panel shows it only inside a label). */
  readonly unit?: string;
  readonly unitText?: string;
}

export interface PageFigures {
  readonly balances: BalanceTable | null;
  readonly funds: BalanceTable | null;
  /** The ticket's "Available" of the trading account: the asset, raw and text (with its symbol). */
  readonly ticketAvailable: (ShownFigure & { assetId: string }) | null;
  /** Every row of the Positions panel. */
  readonly positions: readonly ShownPosition[] | null;
  /** The ladder's foot (every signing account of its book summed; account null). */
  readonly ladderFoot: ShownPosition | null;
  /** The ladder: its book, row grouping, and the P&L cells of the best bid's and best ask's rows. */
  readonly ladder: { marketId: string; turbo: boolean; precision: string; bestBid: string | null; bestAsk: string | null; bidPnl: ShownFigure | null; askPnl: ShownFigure | null; freshness: string | null } | null;
  /** The chart's position line (the signing account's position on the chart's book). */
  readonly chartPosition: (ShownPosition & { label: string }) | null;
  /** The chart's order lines: side, remaining quantity (raw), label, and the tag of the algorithm an order is a child of ('' for none). */
  readonly chartOrders: readonly { side: string; quantity: string; label: string; marketId: string; algoTag?: string }[];
  /** The inside market of the market bar: bid and ask as shown, and its grouping. */
  readonly inside: { bid: string; ask: string; grouping: string | null; freshness: string | null } | null;
  /** Open orders: the tab's count, the panel's count line, and its rows. */
  readonly openOrders: { tab: number | null; line: string | null; rows: number | null } | null;
}

export async function readFigures(page: Page): Promise<PageFigures> {
  await page.evaluate('globalThis.__name ??= (fn) => fn');
  return page.evaluate((): PageFigures => {
    const one = (selector: string, root: El = document) => root.querySelector(selector);
    const text = (element: El | null) => (element?.textContent ?? '').replace(/\s+/g, ' ').trim();
    // Figure spaces pad columns to line up; they are layout, not digits.
    const figureText = (element: El | null) => text(element).replace(/[\u2007\u2008]/g, '');
    const table = (root: El | null, rowSelector: string): BalanceTable | null => {
      if (!root) return null;
      const names: Record<string, string> = {};
      for (const head of root.querySelectorAll('th[data-column]')) names[head.getAttribute('data-column') ?? ''] = text(head);
      const assets = [...root.querySelectorAll(rowSelector)].map((row) => {
        const columns: Record<string, ShownFigure> = {};
        for (const cell of row.querySelectorAll('td[data-column]')) columns[cell.getAttribute('data-column') ?? ''] = { raw: cell.getAttribute('data-raw') ?? '', text: figureText(cell) };
        return { assetId: row.getAttribute('data-asset-id') ?? '', columns };
      });
      return { names, assets };
    };
    const ladderEl = one('[data-testid=ladder]');
    const footEl = one('[data-testid=ladder-position]');
    const chartEl = one('[data-testid=chart-position]');
    const chartPanel = one('[data-testid=chart-panel]');
    const insideEl = one('[data-testid=inside-market]');
    const ticketEl = one('[data-testid=ticket-available][data-signer=trading-account]');
    const positionsEl = one('[data-testid=positions]');
    const ordersEl = one('[data-testid=open-orders]');
    const rowPnl = (row: El | null): ShownFigure | null => {
      const cell = row ? one('[data-testid=pnl-cell]', row) : null;
      return cell ? { raw: cell.getAttribute('data-raw') ?? '', text: text(cell) } : null;
    };
    const bidRow = ladderEl ? one('[data-testid=ladder-row].best-bid', ladderEl) : null;
    const askRow = ladderEl ? one('[data-testid=ladder-row].best-ask', ladderEl) : null;
    const insideParts = insideEl ? [...insideEl.querySelectorAll('span')].map((span) => text(span)) : [];
    const tabCount = /\((\d+)(?: \+ \d+ legs?)?\)/.exec(text(one('[data-testid=tab-orders]')));
    return {
      balances: table(one('[data-testid=balances]'), '[data-testid=balance-row]'),
      funds: table(one('[data-testid=funds-balances]'), '[data-testid=funds-balance]'),
      ticketAvailable: ticketEl && ticketEl.getAttribute('data-raw') ? { assetId: ticketEl.getAttribute('data-asset-id') ?? '', raw: ticketEl.getAttribute('data-raw') ?? '', text: text(ticketEl) } : null,
      positions: positionsEl
        ? [...positionsEl.querySelectorAll('[data-testid=position-row]')].map((row) => ({
            marketId: row.getAttribute('data-market-id') ?? '',
            turbo: row.getAttribute('data-turbo') === 'true',
            account: row.getAttribute('data-account'),
            size: row.getAttribute('data-size') ?? '',
            unrealized: { raw: row.getAttribute('data-unrealized') ?? '', text: figureText(one('[data-testid=position-unrealized]', row)) },
            stale: row.getAttribute('data-stale') ?? '',
            markName: row.getAttribute('data-mark-side') ?? '',
            unit: row.getAttribute('data-pnl-unit') ?? '',
            unitText: text(one('[data-testid=position-unrealized-unit]', row)),
          }))
        : null,
      ladderFoot:
        ladderEl && footEl
          ? {
              marketId: ladderEl.getAttribute('data-market-id') ?? '',
              turbo: ladderEl.getAttribute('data-book') === 'turbo',
              account: null,
              size: footEl.getAttribute('data-size') ?? '',
              unrealized: { raw: footEl.getAttribute('data-unrealized') ?? '', text: text(one('[data-testid=ladder-unrealized]', footEl)) },
              stale: footEl.getAttribute('data-stale') ?? '',
              sizeText: text(one('[data-testid=ladder-position-size]', footEl)),
              markName: footEl.getAttribute('data-mark-side') ?? '',
              unit: footEl.getAttribute('data-pnl-unit') ?? '',
              unitText: text(one('[data-testid=ladder-unrealized-unit]', footEl)),
            }
          : null,
      ladder: ladderEl
        ? {
            marketId: ladderEl.getAttribute('data-market-id') ?? '',
            turbo: ladderEl.getAttribute('data-book') === 'turbo',
            precision: ladderEl.getAttribute('data-precision') ?? '',
            bestBid: bidRow?.getAttribute('data-price') ?? null,
            bestAsk: askRow?.getAttribute('data-price') ?? null,
            bidPnl: rowPnl(bidRow),
            askPnl: rowPnl(askRow),
            freshness: ladderEl.getAttribute('data-freshness'),
          }
        : null,
      chartPosition:
        chartEl && chartPanel
          ? {
              marketId: chartPanel.getAttribute('data-market-id') ?? '',
              turbo: chartPanel.getAttribute('data-book') === 'turbo',
              account: chartEl.getAttribute('data-account'),
              size: chartEl.getAttribute('data-size') ?? '',
              unrealized: { raw: chartEl.getAttribute('data-unrealized') ?? '', text: '' },
              stale: chartEl.getAttribute('data-stale') ?? '',
              label: text(one('[data-testid=chart-line-label]', chartEl)),
              markName: chartEl.getAttribute('data-mark-side') ?? '',
              unit: chartEl.getAttribute('data-pnl-unit') ?? '',
            }
          : null,
      chartOrders: chartPanel
        ? [...chartPanel.querySelectorAll('[data-testid=chart-order]')].map((line) => ({
            side: line.getAttribute('data-side') ?? '',
            quantity: line.getAttribute('data-quantity') ?? '',
            label: text(one('[data-testid=chart-line-label]', line)),
            marketId: chartPanel.getAttribute('data-market-id') ?? '',
            algoTag: line.getAttribute('data-algo-tag') ?? '',
          }))
        : [],
      inside: insideEl ? { bid: insideParts[0] ?? '', ask: insideParts[2] ?? '', grouping: insideEl.getAttribute('data-grouping'), freshness: insideEl.closest('[data-freshness]')?.getAttribute('data-freshness') ?? null } : null,
      openOrders: ordersEl || tabCount ? { tab: tabCount ? Number(tabCount[1]) : null, line: ordersEl ? text(one('[data-testid=open-orders-count]', ordersEl)) || null : null, rows: ordersEl ? ordersEl.querySelectorAll('[data-testid=open-order-row]').length : null } : null,
    };
  });
}
