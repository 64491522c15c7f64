// The markets overview's rows: figures from main's ticker rows, starred markets first, sorting by
// any column (markets without the figure last), filtering by symbol or id, and its freshness.
import { describe, expect, it } from 'vitest';
import type { MarketOverviewRow, MarketOverviewView, TurboMarketView } from '../../shared/ipc/views';
import { nextSort, overviewEntry, overviewView, percentTextToBps, toggleFavourite, turboAvailability, type OverviewEntry } from '../../renderer/src/features/overview/overview-model';
import { changeText, headerFigures, overviewFreshness, percentText, priceWindowText } from '../../renderer/src/features/overview/overview-text';
import { priceCell } from '../../renderer/src/format/columns';
import { marketName } from '../../renderer/src/features/markets/market-label';
import { ethUsdc, ethUsdcOther, ethUsdt } from '../support/renderer/fixtures';
import { withLastTrades } from '../../main/services/market-data/overview-last-trade';

const markets = [ethUsdc, ethUsdt, ethUsdcOther];
const name = (market: (typeof markets)[number]) => marketName(market, markets);

const row = (marketId: string, fields: Partial<MarketOverviewRow>): MarketOverviewRow => ({ marketId, last: null, open: null, high: null, low: null, bid: null, ask: null, volume: null, changePercent: null, ...fields });
const turbo = (fields: Partial<TurboMarketView>): TurboMarketView => ({ marketId: ethUsdc.market_id, pair: 'ETH/USDC', hasTurboBook: true, turboContractId: null, connected: true, paused: false, tradable: true, reason: null, tierIds: [], ...fields });

function entries(favourites: readonly string[] = []): OverviewEntry[] {
  return [
    overviewEntry(ethUsdc, row(ethUsdc.market_id, { last: 3_000_000_000n, open: 2_900_000_000n, bid: 2_999_000_000n, ask: 3_001_000_000n, volume: 5_000_000_000n, changePercent: '3.44' }), favourites.includes(ethUsdc.market_id), turbo({})),
    overviewEntry(ethUsdt, row(ethUsdt.market_id, { last: 2_950_000_000n, open: 3_000_000_000n, volume: 9_000_000_000n }), favourites.includes(ethUsdt.market_id), turbo({ hasTurboBook: false })),
    overviewEntry(ethUsdcOther, null, favourites.includes(ethUsdcOther.market_id), null),
  ];
}

describe('overview entries', () => {
  it('spread is ask less bid; the change is last less open, its percent the exchange text else computed in bps', () => {
    const [eth, usdt, other] = entries();
    expect(eth!.spread).toBe(2_000_000n);
    expect(eth!.change).toBe(100_000_000n);
    expect(eth!.changeBps).toBe(344n);
    expect(usdt!.spread).toBeNull();
    expect(usdt!.changeBps).toBe(-166n);
    expect(other!.change).toBeNull();
    expect(changeText(eth!)).toBe(`+${priceCell(ethUsdc, 100_000_000n)}`);
    expect(changeText(usdt!)).toBe(`−${priceCell(ethUsdt, 50_000_000n)}`);
    expect(percentText(eth!)).toBe('+3.44 %');
    expect(percentText(usdt!)).toBe('−1.66 %');
    expect(percentText(other!)).toBe('');
  });

  it('reads percent text in basis points, cut toward zero, and refuses what is not a decimal', () => {
    expect(percentTextToBps('3.449')).toBe(344n);
    expect(percentTextToBps('-0.5')).toBe(-50n);
    expect(percentTextToBps('12')).toBe(1200n);
    expect(percentTextToBps('1e3')).toBeNull();
    expect(percentTextToBps(null)).toBeNull();
  });

  it('Turbo availability from the Turbo rows', () => {
    expect(turboAvailability(turbo({}))).toBe('tradable');
    expect(turboAvailability(turbo({ paused: true }))).toBe('paused');
    expect(turboAvailability(turbo({ connected: false }))).toBe('disconnected');
    expect(turboAvailability(turbo({ hasTurboBook: false }))).toBe('none');
    expect(turboAvailability(null)).toBe('unknown');
  });
});

describe('overview sorting, filtering and favourites', () => {
  const ids = (list: readonly OverviewEntry[]) => list.map((entry) => entry.market.market_id);

  it('sorts by a figure, markets without it last in either direction', () => {
    const byVolume = overviewView(entries(), { text: '', favouritesOnly: false, sort: { column: 'volume', descending: true } }, name);
    expect(ids(byVolume)).toEqual([ethUsdt.market_id, ethUsdc.market_id, ethUsdcOther.market_id]);
    const ascending = overviewView(entries(), { text: '', favouritesOnly: false, sort: { column: 'volume', descending: false } }, name);
    expect(ids(ascending)).toEqual([ethUsdc.market_id, ethUsdt.market_id, ethUsdcOther.market_id]);
    const byChange = overviewView(entries(), { text: '', favouritesOnly: false, sort: { column: 'change', descending: true } }, name);
    expect(ids(byChange)).toEqual([ethUsdc.market_id, ethUsdt.market_id, ethUsdcOther.market_id]);
  });

  it('starred markets come first whatever the sort, and can be shown alone', () => {
    const starred = entries([ethUsdcOther.market_id]);
    expect(ids(overviewView(starred, { text: '', favouritesOnly: false, sort: { column: 'volume', descending: true } }, name))[0]).toBe(ethUsdcOther.market_id);
    expect(ids(overviewView(starred, { text: '', favouritesOnly: true, sort: { column: 'volume', descending: true } }, name))).toEqual([ethUsdcOther.market_id]);
  });

  it('filters by symbol (and keeps both markets that share one)', () => {
    expect(ids(overviewView(entries(), { text: 'usdt', favouritesOnly: false, sort: { column: 'market', descending: false } }, name))).toEqual([ethUsdt.market_id]);
    expect(overviewView(entries(), { text: 'usdc', favouritesOnly: false, sort: { column: 'market', descending: false } }, name)).toHaveLength(2);
  });

  it('header clicks flip the direction of the same column; stars toggle', () => {
    expect(nextSort({ column: 'volume', descending: true }, 'volume')).toEqual({ column: 'volume', descending: false });
    expect(nextSort({ column: 'volume', descending: true }, 'market')).toEqual({ column: 'market', descending: false });
    expect(nextSort({ column: 'market', descending: false }, 'last')).toEqual({ column: 'last', descending: true });
    expect(toggleFavourite(['a'], 'b')).toEqual(['a', 'b']);
    expect(toggleFavourite(['a', 'b'], 'a')).toEqual(['b']);
  });
});

describe('overview freshness', () => {
  const view = (fields: Partial<MarketOverviewView>): MarketOverviewView => ({ networkId: 'sandbox', state: 'live', readAt: 1, intervalMs: 5_000, problem: null, rows: [], ...fields });
  it('main says resyncing or stale; the window calls it stale when reads stop arriving', () => {
    expect(overviewFreshness(null, 0)?.state).toBe('resyncing');
    expect(overviewFreshness(view({ state: 'resyncing' }), 0)?.state).toBe('resyncing');
    expect(overviewFreshness(view({ state: 'stale', problem: 'HTTP_500' }), 0)).toEqual({ state: 'stale', detail: 'HTTP_500' });
    expect(overviewFreshness(view({}), 14_000)).toBeNull();
    expect(overviewFreshness(view({}), 16_000)?.state).toBe('stale');
  });
});

describe('market bar figures', () => {
  it('the live last trade wins over the ticker; the change is measured from the ticker price 24 hours ago', () => {
    const ticker = row(ethUsdc.market_id, { last: 3_000_000_000n, open: 2_900_000_000n, changePercent: '9.99' });
    expect(headerFigures(ethUsdc, 3_045_000_000n, ticker)).toEqual({ last: priceCell(ethUsdc, 3_045_000_000n), change: `+${priceCell(ethUsdc, 145_000_000n)} (+5.00 %)`, sign: 1 });
    expect(headerFigures(ethUsdc, null, ticker).last).toBe(priceCell(ethUsdc, 3_000_000_000n));
    // Without the open price: the exchange's own percentage.
    expect(headerFigures(ethUsdc, 2_000_000n, row(ethUsdc.market_id, { changePercent: '-0.25' }))).toEqual({ last: priceCell(ethUsdc, 2_000_000n), change: '(−0.25 %)', sign: -1 });
    expect(headerFigures(ethUsdc, null, null)).toEqual({ last: null, change: null, sign: 0 });
  });

  it('the price window as a percentage, with its band around the last trade', () => {
    const market = { ...ethUsdc, price_window: 25 };
    expect(priceWindowText(market, null)).toEqual({ text: '±25 %', band: null });
    expect(priceWindowText(market, 3_000_000_000n)).toEqual({ text: '±25 %', band: `${priceCell(market, 2_250_000_000n)} – ${priceCell(market, 3_750_000_000n)}` });
  });
});

describe('one last price in the overview and the market bar', () => {
  it('after a trade the two figures agree: main lays the trade stream\'s last over the row the ticker read', () => {
    // The ticker read says 2,998.50; the stream's newest trade (the bar's) is 3,001.55.
    const read = row(ethUsdc.market_id, { last: 2_998_500_000n, open: 2_900_000_000n, high: 3_000_000_000n, changePercent: '3.39' });
    const trade = 3_001_550_000n;
    const [laid] = withLastTrades([read], () => trade);
    const entry = overviewEntry(ethUsdc, laid!, false, null);
    const bar = headerFigures(ethUsdc, trade, laid!);
    expect(priceCell(ethUsdc, entry.row!.last!)).toBe(bar.last);
    // The change in both: the same amount and the same percentage.
    expect(bar.change).toBe(`${changeText(entry)} (${percentText(entry)})`);
    // Before: the row as read disagreed with the bar.
    expect(priceCell(ethUsdc, read.last!)).not.toBe(bar.last);
  });
});
