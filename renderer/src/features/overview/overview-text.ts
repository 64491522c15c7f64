// The overview's texts and its own freshness: a change with its sign, a percentage, and how current
// main's reads are (main says whether its last read answered; the window ages the word it heard).
import type { MarketOverviewRow, MarketOverviewView } from '../../../../shared/ipc/views';
import type { Market } from '../../../../shared/market/market';
import { priceCell } from '../../format/columns';
import type { LocalFreshness } from '../../lib/freshness';
import { percentTextToBps, type OverviewEntry } from './overview-model';

/** Reads missed before the window calls the overview stale on its own (main publishes after every read). */
const MISSED_READS = 3;

export function overviewFreshness(view: MarketOverviewView | null, sinceHeardMs: number): LocalFreshness | null {
  if (view === null) return { state: 'resyncing', detail: 'asking main for the overview' };
  if (view.state === 'resyncing') return { state: 'resyncing', detail: view.problem ?? 'first read of the ticker' };
  if (view.state === 'stale') return { state: 'stale', detail: view.problem ?? 'the last read failed' };
  if (sinceHeardMs > MISSED_READS * view.intervalMs) return { state: 'stale', detail: `no read for ${Math.floor(sinceHeardMs / 1000)} s` };
  return null;
}

/** "+12.50" / "−3.00" in the market's price decimals; a dash when unknown. */
export function changeText(entry: Pick<OverviewEntry, 'market' | 'change'>): string {
  if (entry.change === null) return '—';
  if (entry.change === 0n) return priceCell(entry.market, 0n);
  return `${entry.change > 0n ? '+' : '−'}${priceCell(entry.market, entry.change > 0n ? entry.change : -entry.change)}`;
}

/** "+1.25 %" from basis points; empty when unknown. */
export function percentText(entry: Pick<OverviewEntry, 'changeBps'>): string {
  const bps = entry.changeBps;
  if (bps === null) return '';
  const magnitude = bps < 0n ? -bps : bps;
  const sign = bps > 0n ? '+' : bps < 0n ? '−' : '';
  return `${sign}${magnitude / 100n}.${(magnitude % 100n).toString().padStart(2, '0')} %`;
}

export interface HeaderFigures {
  /** The last price, in the market's price decimals; null when none is known. */
  readonly last: string | null;
  /** "+12.50 (+0.42 %)" over 24 hours; null when unknown. */
  readonly change: string | null;
  readonly sign: -1 | 0 | 1;
}

/**
 * The market bar's last price and 24-hour change: the last trade of the live stream when there is
 * one (it moves before the next read of the ticker), else the ticker's; the change measured from
 * the ticker's price 24 hours ago, else the exchange's own percentage.
 */
export function headerFigures(market: Market, lastTrade: bigint | null, row: MarketOverviewRow | null): HeaderFigures {
  const last = lastTrade ?? row?.last ?? null;
  if (last === null) return { last: null, change: null, sign: 0 };
  const lastText = priceCell(market, last);
  const open = row?.open ?? null;
  if (open !== null && open > 0n) {
    const change = last - open;
    return { last: lastText, change: `${changeText({ market, change })} (${percentText({ changeBps: (change * 10_000n) / open })})`, sign: last > open ? 1 : last < open ? -1 : 0 };
  }
  const bps = percentTextToBps(row?.changePercent ?? null);
  if (bps === null) return { last: lastText, change: null, sign: 0 };
  return { last: lastText, change: `(${percentText({ changeBps: bps })})`, sign: bps > 0n ? 1 : bps < 0n ? -1 : 0 };
}

/**
 * The market's price window as the bar writes it. The spec gives `price_window` as a bare number;
 * the terminal reads it as a percentage around the exchange's reference price, as the refusal
 * texts do (shared/errors/trader-text.ts), and shows the band around the last trade as a guide.
 */
export function priceWindowText(market: Market, last: bigint | null): { readonly text: string; readonly band: string | null } {
  const percent = market.price_window;
  const text = `±${percent} %`;
  if (last === null || !Number.isInteger(percent) || percent <= 0) return { text, band: null };
  const width = (last * BigInt(percent)) / 100n;
  const low = last > width ? last - width : 0n;
  return { text, band: `${priceCell(market, low)} – ${priceCell(market, last + width)}` };
}
