// Cross-panel consistency of one page at one moment: a figure shown in two places (the ladder's
// foot and P&L column, the chart's position line, Positions, Balances, Funds, the ticket's
// Available, the market bar, the open orders) is the same value, under the same name, in the
// asset's or market's one display precision, and columns that sum do sum. A position's P&L is
// marked at one named source (its market's choice) and shown in one unit beside the quote figure,
// the same text in every panel. Pure: the page is read
// by screen.ts `readFigures`; the oracle (oracle.ts checkScreen) runs `judgeConsistency` after
// every step beside its checks against the exchange, sampling again within its bound (a panel may
// be one animation frame behind another). Each problem starts with the name of the invariant it
// breaks (CONSISTENCY_INVARIANTS, listed in docs/reliability.md). Unit tests:
// test/unit/main/services/oracle-consistency.test.ts.
import type { Page } from 'playwright-core';
import type { Market } from '../../../shared/market/market';
import { priceTick } from '../../../shared/market/tick';
import { balanceText, quantityCell } from '../../../renderer/src/format/columns';
import { formatPrice } from '../../../renderer/src/format/market-format';
import { pnlText, signedSizeText, sizeText } from '../../../renderer/src/features/positions/positions-model';
import { differs, EMPTY, EQUAL, type Verdict } from './checks';
import { readFigures, type BalanceTable, type PageFigures, type ShownFigure, type ShownPosition } from './screen';

export const CONSISTENCY_INVARIANTS = {
  balanceSums: 'balance columns add up',
  balancePrecision: "balance in the asset's display precision",
  balanceSame: 'balance the same in every panel',
  balanceNames: 'balance columns named alike',
  positionSize: 'position size the same in every panel',
  unrealized: 'unrealized P&L the same in every panel',
  pnlPrecision: "P&L in the quote's display precision",
  sizePrecision: "size in the base's display precision",
  exitRow: "ladder's P&L at the exit row is the foot's",
  markName: 'P&L marked at one named source in every panel',
  pnlUnit: "P&L in the market's one unit, the same figure in every panel",
  inside: 'best bid and ask the same in the market bar and the ladder',
  openOrders: 'open order count the same in the tab, the panel and its rows',
} as const;

/** The names each balance column goes by wherever it is shown (docs/protocol.md, "Balance figures"). */
export const BALANCE_COLUMN_NAMES: Readonly<Record<string, string>> = {
  'on-account': 'On account',
  'in-books': 'In books',
  available: 'Available',
  locked: 'Locked in orders',
  total: 'Total',
};

export interface ConsistencyContext {
  /** The canonical markets (display decimals, and the market each book's figures are formatted with). */
  readonly markets: readonly Market[];
  /** The market and book the page has selected (the market bar's). */
  readonly selected: { readonly market: Market; readonly turbo: boolean } | null;
}

const bigintOf = (raw: string): bigint | null => (/^-?\d+$/.test(raw) ? BigInt(raw) : null);

function decimalsOf(markets: readonly Market[], assetId: string): number | null {
  for (const market of markets) {
    if (market.base.asset === assetId) return market.base.decimals;
    if (market.quote.asset === assetId) return market.quote.decimals;
  }
  return null;
}

function balanceProblems(figures: PageFigures, markets: readonly Market[]): string[] {
  const problems: string[] = [];
  const { balanceSums, balancePrecision, balanceSame, balanceNames } = CONSISTENCY_INVARIANTS;
  const short = (assetId: string) => assetId.slice(0, 10);
  const tables: [string, BalanceTable | null][] = [
    ['Balances', figures.balances],
    ['Funds', figures.funds],
  ];
  for (const [panel, table] of tables) {
    if (!table) continue;
    for (const [column, name] of Object.entries(table.names)) {
      const want = BALANCE_COLUMN_NAMES[column];
      if (want === undefined) problems.push(`${balanceNames}: ${panel} has a column "${name}" (${column}) that no other panel defines`);
      else if (name !== want) problems.push(`${balanceNames}: ${panel} calls ${column} "${name}", elsewhere "${want}"`);
    }
    for (const asset of table.assets) {
      const decimals = decimalsOf(markets, asset.assetId);
      const raw = (column: string) => {
        const figure = asset.columns[column];
        return figure === undefined ? null : bigintOf(figure.raw);
      };
      for (const [column, figure] of Object.entries(asset.columns)) {
        const value = bigintOf(figure.raw);
        if (value === null) problems.push(`${balancePrecision}: ${panel} ${short(asset.assetId)} ${column} "${figure.text}" has no raw value`);
        else if (decimals !== null && figure.text !== balanceText(asset.assetId, decimals, value, markets)) {
          problems.push(`${balancePrecision}: ${panel} ${short(asset.assetId)} ${column} shows "${figure.text}", the asset's precision gives "${balanceText(asset.assetId, decimals, value, markets)}"`);
        }
      }
      const sum = (parts: string[], whole: string) => {
        const values = parts.map(raw);
        const total = raw(whole);
        if (total === null || values.some((value) => value === null)) return;
        const added = values.reduce<bigint>((sumSoFar, value) => sumSoFar + value!, 0n);
        if (added !== total) problems.push(`${balanceSums}: ${panel} ${short(asset.assetId)} ${parts.join(' + ')} = ${added}, ${whole} shows ${total}`);
      };
      sum(['on-account', 'in-books'], 'available');
      sum(['available', 'locked'], 'total');
    }
  }
  // The same asset's same column in Balances and Funds: one value, one text.
  if (figures.balances && figures.funds) {
    for (const asset of figures.funds.assets) {
      const other = figures.balances.assets.find((candidate) => candidate.assetId === asset.assetId);
      if (!other) {
        problems.push(`${balanceSame}: Funds lists ${short(asset.assetId)}, Balances does not`);
        continue;
      }
      for (const [column, figure] of Object.entries(asset.columns)) {
        const there = other.columns[column];
        if (there && (there.raw !== figure.raw || there.text !== figure.text)) problems.push(`${balanceSame}: ${short(asset.assetId)} ${column} is "${figure.text}" (${figure.raw}) in Funds, "${there.text}" (${there.raw}) in Balances`);
      }
    }
  }
  // The ticket's Available is the Balances panel's.
  const ticket = figures.ticketAvailable;
  if (ticket) {
    const decimals = decimalsOf(markets, ticket.assetId);
    const value = bigintOf(ticket.raw);
    const number = ticket.text.replace(/\s+\S+$/, '');
    if (value !== null && decimals !== null && number !== balanceText(ticket.assetId, decimals, value, markets)) {
      problems.push(`${balancePrecision}: the ticket's Available shows "${number}", the asset's precision gives "${balanceText(ticket.assetId, decimals, value, markets)}"`);
    }
    const there = figures.balances?.assets.find((asset) => asset.assetId === ticket.assetId)?.columns.available;
    if (there && there.raw !== ticket.raw) problems.push(`${balanceSame}: ${short(ticket.assetId)} available is ${ticket.raw} in the ticket, ${there.raw} in Balances`);
  }
  return problems;
}

const sameBook = (position: Pick<ShownPosition, 'marketId' | 'turbo'>, marketId: string, turbo: boolean) => position.marketId.toLowerCase() === marketId.toLowerCase() && position.turbo === turbo;

function positionProblems(figures: PageFigures, markets: readonly Market[]): string[] {
  const problems: string[] = [];
  const { positionSize, unrealized, pnlPrecision, exitRow, pnlUnit } = CONSISTENCY_INVARIANTS;
  const markNameInvariant = CONSISTENCY_INVARIANTS.markName;
  const marketOf = (marketId: string) => markets.find((market) => market.market_id.toLowerCase() === marketId.toLowerCase()) ?? null;
  const precisionProblem = (where: string, marketId: string, figure: ShownFigure) => {
    const market = marketOf(marketId);
    const value = bigintOf(figure.raw);
    if (market === null || value === null || figure.text === '') return;
    if (figure.text !== pnlText(market, value)) problems.push(`${pnlPrecision}: ${where} shows "${figure.text}", the quote's precision gives "${pnlText(market, value)}"`);
  };
  const rows = figures.positions ?? [];
  for (const row of rows) precisionProblem(`Positions ${row.marketId.slice(0, 10)}`, row.marketId, row.unrealized);
  // A figure is compared only with a panel that lists the same positions (Positions present).
  const foot = figures.ladderFoot;
  if (foot) {
    precisionProblem('the ladder foot', foot.marketId, foot.unrealized);
    if (figures.positions !== null) {
      const book = rows.filter((row) => sameBook(row, foot.marketId, foot.turbo) && row.size !== '0');
      const size = book.reduce((total, row) => total + (bigintOf(row.size) ?? 0n), 0n);
      if (book.length === 0) problems.push(`${positionSize}: the ladder foot shows a position of ${foot.size} that Positions does not list`);
      else if (String(size) !== foot.size) problems.push(`${positionSize}: the ladder foot shows ${foot.size}, Positions ${size} on the book`);
      if (book.length > 0) {
        const values = book.map((row) => bigintOf(row.unrealized.raw));
        const sum = values.some((value) => value === null) ? '' : String(values.reduce<bigint>((total, value) => total + value!, 0n));
        if (sum !== foot.unrealized.raw) problems.push(`${unrealized}: the ladder foot shows ${foot.unrealized.raw || 'none'} (${foot.unrealized.text}), Positions ${sum || 'none'} on the book`);
        const staleRows = book.filter((row) => row.stale !== '').length;
        if ((foot.stale !== '') !== (staleRows > 0)) problems.push(`${unrealized}: the ladder foot is ${foot.stale === '' ? 'live' : `stale (${foot.stale})`}, Positions ${staleRows > 0 ? 'stale' : 'live'} on the book`);
        // One position on the book: the foot is its figure, under its name and in its unit.
        const only = book.length === 1 ? book[0]! : null;
        if (only !== null && foot.markName !== undefined && only.markName !== undefined && foot.markName !== only.markName) problems.push(`${markNameInvariant}: the ladder foot is marked at "${foot.markName}", Positions at "${only.markName}"`);
        if (only !== null && foot.unit !== undefined && only.unit !== undefined && (foot.unit !== only.unit || foot.unitText !== only.unitText)) {
          problems.push(`${pnlUnit}: the ladder foot shows "${foot.unitText ?? ''}" (${foot.unit}), Positions "${only.unitText ?? ''}" (${only.unit})`);
        }
      }
    }
    // The P&L column at the exit row (the bid of a long, the ask of a short) is the foot's figure.
    const ladder = figures.ladder;
    const market = marketOf(foot.marketId);
    const size = bigintOf(foot.size);
    // Only where the foot is marked at the exit side (a mark at the last trade or the mid is not a row's price).
    const atExit = foot.markName === undefined || foot.markName === (size !== null && size > 0n ? 'bid' : 'ask');
    if (ladder && market && size !== null && size !== 0n && atExit && foot.stale === '' && ladder.freshness === 'live' && ladder.precision === String(priceTick(market))) {
      const row = size > 0n ? ladder.bidPnl : ladder.askPnl;
      if (row && row.raw !== '' && row.raw !== foot.unrealized.raw) problems.push(`${exitRow}: the ${size > 0n ? 'best bid' : 'best ask'} row (${size > 0n ? ladder.bestBid : ladder.bestAsk}) shows ${row.raw} (${row.text}), the foot ${foot.unrealized.raw} (${foot.unrealized.text})`);
    }
  }
  // Sizes as shown apart from their raw value: the foot's, the chart's position and order labels.
  const { sizePrecision } = CONSISTENCY_INVARIANTS;
  if (foot?.sizeText) {
    const market = marketOf(foot.marketId);
    const size = bigintOf(foot.size);
    if (market && size !== null && foot.sizeText !== signedSizeText(market, size)) problems.push(`${sizePrecision}: the ladder foot shows ${foot.sizeText}, the base's precision gives ${signedSizeText(market, size)}`);
  }
  for (const line of figures.chartOrders) {
    const market = marketOf(line.marketId);
    const quantity = bigintOf(line.quantity);
    // The label starts with the drag grip ("⋮") of a draggable line, or the tag of the algorithm
    // the order is a child of ("Iceberg 2 · ").
    const tag = line.algoTag ? `${line.algoTag} · ` : '';
    const label = line.label.replace(/^[^A-Za-z]+/, '');
    if (market && quantity !== null && !(label.startsWith(tag) ? label.slice(tag.length) : label).startsWith(`${line.side} ${quantityCell(market, quantity)} @`)) problems.push(`${sizePrecision}: the chart's order line reads "${line.label}", the base's precision gives "${line.side} ${quantityCell(market, quantity)}"`);
  }
  const chart = figures.chartPosition;
  if (chart) {
    const market = marketOf(chart.marketId);
    const size = bigintOf(chart.size);
    if (market && size !== null && size !== 0n) {
      const want = `${size > 0n ? 'Long' : 'Short'} ${sizeText(market, size < 0n ? -size : size)} @`;
      if (!chart.label.startsWith(want)) problems.push(`${sizePrecision}: the chart's position line reads "${chart.label}", the base's precision gives "${want}"`);
    }
    const value = bigintOf(chart.unrealized.raw);
    if (market && value !== null && !chart.label.includes(`${pnlText(market, value)} ${market.quote.symbol}`)) problems.push(`${pnlPrecision}: the chart's position line reads "${chart.label}", the quote's precision gives "${pnlText(market, value)}"`);
    if (figures.positions !== null) {
      const row = rows.find((candidate) => sameBook(candidate, chart.marketId, chart.turbo) && candidate.account?.toLowerCase() === chart.account?.toLowerCase());
      if (!row) problems.push(`${positionSize}: the chart shows a position of ${chart.size} that Positions does not list`);
      else {
        if (row.size !== chart.size) problems.push(`${positionSize}: the chart shows ${chart.size}, Positions ${row.size}`);
        if (row.unrealized.raw !== chart.unrealized.raw) problems.push(`${unrealized}: the chart shows ${chart.unrealized.raw || 'none'}, Positions ${row.unrealized.raw || 'none'} (${row.unrealized.text})`);
        if ((row.stale !== '') !== (chart.stale !== '')) problems.push(`${unrealized}: the chart's line is ${chart.stale === '' ? 'live' : 'stale'}, the Positions row ${row.stale === '' ? 'live' : 'stale'}`);
        if (chart.markName !== undefined && row.markName !== undefined && chart.markName !== row.markName) problems.push(`${markNameInvariant}: the chart's line is marked at "${chart.markName}", Positions at "${row.markName}"`);
        // The chart shows the unit's figure inside its label, before the mark's name.
        if (row.unitText !== undefined && row.unitText !== '' && row.markName !== undefined && !chart.label.includes(`${row.unitText} @ ${row.markName}`)) problems.push(`${pnlUnit}: the chart's position line reads "${chart.label}", Positions "${row.unitText} @ ${row.markName}"`);
      }
    }
  }
  return problems;
}

function marketProblems(figures: PageFigures, context: ConsistencyContext): string[] {
  const problems: string[] = [];
  const { inside, openOrders } = CONSISTENCY_INVARIANTS;
  const ladder = figures.ladder;
  const selected = context.selected;
  if (figures.inside && ladder && selected && ladder.marketId.toLowerCase() === selected.market.market_id.toLowerCase() && ladder.turbo === selected.turbo) {
    // Both ungrouped and both live: the same best prices, formatted alike.
    if (figures.inside.grouping === null && figures.inside.freshness === 'live' && ladder.freshness === 'live' && ladder.precision === String(priceTick(selected.market))) {
      const shown = (raw: string | null) => (raw === null ? '—' : formatPrice(selected.market, BigInt(raw)));
      if (ladder.bestBid !== null && figures.inside.bid !== shown(ladder.bestBid)) problems.push(`${inside}: the market bar's bid is ${figures.inside.bid}, the ladder's ${shown(ladder.bestBid)}`);
      if (ladder.bestAsk !== null && figures.inside.ask !== shown(ladder.bestAsk)) problems.push(`${inside}: the market bar's ask is ${figures.inside.ask}, the ladder's ${shown(ladder.bestAsk)}`);
    }
  }
  const orders = figures.openOrders;
  if (orders && orders.rows !== null) {
    if (orders.tab !== null && orders.tab !== orders.rows) problems.push(`${openOrders}: the tab says ${orders.tab}, the panel lists ${orders.rows}`);
    if (orders.line !== null && orders.line !== `${orders.rows} open`) problems.push(`${openOrders}: the panel says "${orders.line}", it lists ${orders.rows}`);
  }
  return problems;
}

/** Every disagreement between panels of one page (empty when they agree). */
export function consistencyProblems(figures: PageFigures, context: ConsistencyContext): string[] {
  return [...balanceProblems(figures, context.markets), ...positionProblems(figures, context.markets), ...marketProblems(figures, context)];
}

/**
 * Whether the page shows two figures the invariants can hold to each other: a page with one panel
 * of figures (or none) agrees with nothing, and says so (`empty`) instead of `equal`.
 */
export function hasComparableFigures(figures: PageFigures): boolean {
  const rows = figures.positions?.length ?? 0;
  const balanceCells = [figures.balances, figures.funds].reduce((total, table) => total + (table?.assets.length ?? 0), 0);
  const beside = [figures.ticketAvailable, figures.ladderFoot, figures.chartPosition, figures.ladder && figures.inside, figures.openOrders].filter((part) => part !== null && part !== undefined).length;
  return balanceCells > 0 || rows > 0 || beside > 0 || figures.chartOrders.length > 0;
}

export function checkConsistency(figures: PageFigures, context: ConsistencyContext): Verdict {
  const problems = consistencyProblems(figures, context);
  if (problems.length === 0) return hasComparableFigures(figures) ? EQUAL : EMPTY;
  return differs(problems.slice(0, 6).join('; ') + (problems.length > 6 ? `; … ${problems.length - 6} more` : ''));
}

/** Read one page's figures and hold them to each other. */
export async function judgeConsistency(page: Page, context: ConsistencyContext): Promise<Verdict> {
  let figures: PageFigures;
  try {
    figures = await readFigures(page);
  } catch (error) {
    // A page mid-navigation has no document to read yet: the oracle samples again.
    return differs(`could not be read: ${String(error).split('\n')[0]}`);
  }
  return checkConsistency(figures, context);
}
