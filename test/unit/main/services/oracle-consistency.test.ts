// The trader-session oracle's cross-panel consistency checks (test/support/trader-session/consistency.ts):
// a page whose panels agree passes; each way a figure can disagree with itself across panels is
// reported under the invariant it breaks.
import { describe, expect, it } from 'vitest';
import { checkConsistency, CONSISTENCY_INVARIANTS, consistencyProblems, type ConsistencyContext } from '../../../support/trader-session/consistency';
import type { PageFigures, ShownPosition } from '../../../support/trader-session/screen';
import { ethUsdc } from '../../../support/renderer/fixtures';
import { balanceColumns } from '../../../../renderer/src/format/columns';
import { pnlText } from '../../../../renderer/src/features/positions/positions-model';

const ETH = 10n ** 9n;
const USDC = 10n ** 6n;
const market = ethUsdc;
const context: ConsistencyContext = { markets: [market], selected: { market, turbo: false } };
const account = `0x${'aa'.repeat(32)}`;

// ETH: 10 on account and 0.00099975 unsettled in a book; USDC: 1,000 on account, 50 locked.
const balances = [
  { assetId: market.base.asset, decimals: 9, onAccount: 10n * ETH, locked: 0n, unlocked: 10n * ETH + 999_750n },
  { assetId: market.quote.asset, decimals: 6, onAccount: 1_000n * USDC, locked: 50n * USDC, unlocked: 1_000n * USDC },
];
const strip = (text: string) => text.replace(/[\u2007\u2008]/g, '');
const table = (columns: readonly string[]) => {
  const cells = balanceColumns(balances, [market]);
  const raw = (balance: (typeof balances)[number]): Record<string, bigint> => ({
    'on-account': balance.onAccount,
    'in-books': balance.unlocked - balance.onAccount,
    available: balance.unlocked,
    locked: balance.locked,
    total: balance.unlocked + balance.locked,
  });
  const text = (index: number): Record<string, string> => {
    const cell = cells[index]!;
    return { 'on-account': cell.onAccount, 'in-books': cell.inBooks, available: cell.available, locked: cell.locked, total: cell.total };
  };
  const names: Record<string, string> = { 'on-account': 'On account', 'in-books': 'In books', available: 'Available', locked: 'Locked in orders', total: 'Total' };
  return {
    names: Object.fromEntries(columns.map((column) => [column, names[column]!])),
    assets: balances.map((balance, index) => ({
      assetId: balance.assetId,
      columns: Object.fromEntries(columns.map((column) => [column, { raw: String(raw(balance)[column]), text: strip(text(index)[column]!) }])),
    })),
  };
};

// 0.5 ETH long, basis 1,500 USDC, best bid 2,997.00: unrealized -1.50 USDC.
const unrealized = -1_500_000n;
const position = (fields: Partial<ShownPosition> = {}): ShownPosition => ({
  marketId: market.market_id,
  turbo: false,
  account,
  size: String(ETH / 2n),
  unrealized: { raw: String(unrealized), text: pnlText(market, unrealized) },
  stale: '',
  ...fields,
});

function page(): PageFigures {
  return {
    balances: table(['on-account', 'in-books', 'available', 'locked', 'total']),
    funds: table(['total', 'available', 'locked']),
    ticketAvailable: { assetId: market.quote.asset, raw: String(1_000n * USDC), text: '1,000.00 USDC' },
    positions: [position()],
    ladderFoot: position({ account: null, sizeText: '+0.5000' }),
    ladder: { marketId: market.market_id, turbo: false, precision: '10000', bestBid: String(2_997n * USDC), bestAsk: String(2_998n * USDC), bidPnl: { raw: String(unrealized), text: pnlText(market, unrealized) }, askPnl: { raw: '-1000000', text: '-1.00' }, freshness: 'live' },
    chartPosition: { ...position(), label: `Long 0.5000 @ 3,000.00 · ${pnlText(market, unrealized)} USDC` },
    chartOrders: [{ side: 'Buy', quantity: String(ETH / 50n), label: '⋮Buy 0.0200 @ 2,950.00', marketId: market.market_id }],
    inside: { bid: '2,997.00', ask: '2,998.00', grouping: null, freshness: 'live' },
    openOrders: { tab: 2, line: '2 open', rows: 2 },
  };
}

const invariantsOf = (figures: PageFigures) => [...new Set(consistencyProblems(figures, context).map((problem) => problem.slice(0, problem.indexOf(':'))))];

describe('cross-panel consistency', () => {
  it('passes a page whose panels agree', () => {
    expect(consistencyProblems(page(), context)).toEqual([]);
    expect(checkConsistency(page(), context)).toEqual({ ok: true, how: 'equal' });
  });

  it('says a page with no figures to hold to each other compared nothing (empty), not that they are equal', () => {
    const bare: PageFigures = { ...page(), balances: null, funds: null, ticketAvailable: null, positions: null, ladderFoot: null, ladder: null, chartPosition: null, chartOrders: [], inside: null, openOrders: null };
    expect(checkConsistency(bare, context)).toEqual({ ok: true, how: 'empty' });
  });

  it('balance columns that do not add up (Unlocked with the unsettled amounts, On account without)', () => {
    const figures = page();
    const eth = figures.balances!.assets[0]!;
    (eth.columns as Record<string, { raw: string; text: string }>)['in-books'] = { raw: '0', text: '0.0000' };
    expect(invariantsOf(figures)).toContain(CONSISTENCY_INVARIANTS.balanceSums);
  });

  it('Funds showing a figure in another precision, or another figure under a name', () => {
    const precision = page();
    const usdc = precision.funds!.assets[1]!.columns as Record<string, { raw: string; text: string }>;
    usdc.total = { raw: usdc.total!.raw, text: '1,050' };
    expect(invariantsOf(precision)).toEqual(expect.arrayContaining([CONSISTENCY_INVARIANTS.balancePrecision, CONSISTENCY_INVARIANTS.balanceSame]));
    const named = page();
    (named.funds!.names as Record<string, string>).total = 'Unlocked';
    expect(invariantsOf(named)).toEqual([CONSISTENCY_INVARIANTS.balanceNames]);
  });

  it("the ticket's Available another figure or precision than Balances'", () => {
    const figures = { ...page(), ticketAvailable: { assetId: market.quote.asset, raw: String(1_000n * USDC), text: '1,000 USDC' } };
    expect(invariantsOf(figures)).toEqual([CONSISTENCY_INVARIANTS.balancePrecision]);
    const other = { ...page(), ticketAvailable: { assetId: market.quote.asset, raw: String(1_050n * USDC), text: '1,050.00 USDC' } };
    expect(invariantsOf(other)).toEqual([CONSISTENCY_INVARIANTS.balanceSame]);
  });

  it('the ladder foot or the chart marked at an older mark than Positions', () => {
    const foot = { ...page(), ladderFoot: position({ account: null, unrealized: { raw: '-1110000', text: '-1.11' } }) };
    expect(invariantsOf(foot)).toEqual(expect.arrayContaining([CONSISTENCY_INVARIANTS.unrealized, CONSISTENCY_INVARIANTS.exitRow]));
    const chart = { ...page(), chartPosition: { ...position({ unrealized: { raw: '-860000', text: '' } }), label: 'Long 0.5000 @ 3,000.00 · -0.86 USDC' } };
    expect(invariantsOf(chart)).toEqual([CONSISTENCY_INVARIANTS.unrealized]);
  });

  it('a stale mark on one panel and not on another showing the same position', () => {
    const figures = { ...page(), ladderFoot: position({ account: null, stale: 'the book is not live' }) };
    expect(invariantsOf(figures)).toEqual([CONSISTENCY_INVARIANTS.unrealized]);
  });

  it("the ladder's P&L column at the bid row differing from the foot", () => {
    const figures = page();
    const ladder = { ...figures.ladder!, bidPnl: { raw: '-390000', text: '-0.39' } };
    expect(invariantsOf({ ...figures, ladder })).toEqual([CONSISTENCY_INVARIANTS.exitRow]);
  });

  it('a P&L marked at another source, or shown in another unit or figure, on the foot or the chart than in Positions', () => {
    const named = (fields: Partial<ShownPosition> = {}) => position({ markName: 'mid', unit: 'ticks', unitText: '-30.0 ticks', ...fields });
    const agreeing: PageFigures = {
      ...page(),
      positions: [named()],
      ladderFoot: named({ account: null, sizeText: '+0.5000' }),
      chartPosition: { ...named(), label: `Long 0.5000 @ 3,000.00 · ${pnlText(market, unrealized)} USDC -30.0 ticks @ mid` },
    };
    expect(consistencyProblems(agreeing, context)).toEqual([]);
    expect(invariantsOf({ ...agreeing, ladderFoot: { ...agreeing.ladderFoot!, markName: 'bid' } })).toEqual([CONSISTENCY_INVARIANTS.markName]);
    expect(invariantsOf({ ...agreeing, ladderFoot: { ...agreeing.ladderFoot!, unit: 'percent', unitText: '-0.10 %' } })).toEqual([CONSISTENCY_INVARIANTS.pnlUnit]);
    expect(invariantsOf({ ...agreeing, ladderFoot: { ...agreeing.ladderFoot!, unitText: '-30 ticks' } })).toEqual([CONSISTENCY_INVARIANTS.pnlUnit]);
    expect(invariantsOf({ ...agreeing, chartPosition: { ...agreeing.chartPosition!, markName: 'bid' } })).toEqual([CONSISTENCY_INVARIANTS.markName]);
    expect(invariantsOf({ ...agreeing, chartPosition: { ...agreeing.chartPosition!, label: `Long 0.5000 @ 3,000.00 · ${pnlText(market, unrealized)} USDC -0.10 % @ mid` } })).toEqual([CONSISTENCY_INVARIANTS.pnlUnit]);
  });

  it('sizes that differ, and a P&L in another precision', () => {
    expect(invariantsOf({ ...page(), ladderFoot: position({ account: null, size: String(ETH), sizeText: '+1.0000' }) })).toEqual([CONSISTENCY_INVARIANTS.positionSize]);
    // A remainder the foot counts and Positions hides (under "closed").
    expect(invariantsOf({ ...page(), positions: [] })).toEqual([CONSISTENCY_INVARIANTS.positionSize]);
    expect(invariantsOf({ ...page(), positions: [position({ unrealized: { raw: String(unrealized), text: '-1.500' } })] })).toEqual([CONSISTENCY_INVARIANTS.pnlPrecision]);
  });

  it('the market bar and the ladder on different best prices, and open order counts that differ', () => {
    expect(invariantsOf({ ...page(), inside: { bid: '2,996.00', ask: '2,998.00', grouping: null, freshness: 'live' } })).toEqual([CONSISTENCY_INVARIANTS.inside]);
    // Grouped or not live: not compared.
    expect(invariantsOf({ ...page(), inside: { bid: '≥ 2,990.00', ask: '≤ 3,000.00', grouping: '1000000', freshness: 'live' } })).toEqual([]);
    expect(invariantsOf({ ...page(), openOrders: { tab: 3, line: '2 open', rows: 2 } })).toEqual([CONSISTENCY_INVARIANTS.openOrders]);
  });

  it('a size shown in another precision than the base\'s (the chart\'s trimmed "Long 0.5" against Positions\' "+0.5000")', () => {
    const figures = page();
    expect(invariantsOf({ ...figures, chartPosition: { ...figures.chartPosition!, label: `Long 0.5 @ 3,000.00 · ${pnlText(market, unrealized)} USDC` } })).toEqual([CONSISTENCY_INVARIANTS.sizePrecision]);
    expect(invariantsOf({ ...figures, chartOrders: [{ side: 'Buy', quantity: String(ETH / 50n), label: 'Buy 0.02 @ 2,950.00', marketId: market.market_id }] })).toEqual([CONSISTENCY_INVARIANTS.sizePrecision]);
    expect(invariantsOf({ ...figures, ladderFoot: { ...figures.ladderFoot!, sizeText: '+0.5' } })).toEqual([CONSISTENCY_INVARIANTS.sizePrecision]);
  });

  it('an algorithm child\'s chart line starts with its algorithm\'s tag ("Iceberg 2 · Buy 0.0200 @ …"), its size held after it', () => {
    const figures = page();
    const child = (label: string) => ({ ...figures, chartOrders: [{ side: 'Buy', quantity: String(ETH / 50n), label, marketId: market.market_id, algoTag: 'Iceberg 2' }] });
    expect(invariantsOf(child('Iceberg 2 · Buy 0.0200 @ 2,950.00'))).toEqual([]);
    expect(invariantsOf(child('Iceberg 2 · Buy 0.02 @ 2,950.00'))).toEqual([CONSISTENCY_INVARIANTS.sizePrecision]);
  });
});
