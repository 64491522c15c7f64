// The overview's texts and its own freshness: a change with its sign, a percentage, and how current
// main's reads are (main says whether its last read answered; the window ages the word it heard).
import type { MarketOverviewView } from '../../../../shared/ipc/views';
import { priceCell } from '../../format/columns';
import type { LocalFreshness } from '../../lib/freshness';
import type { OverviewEntry } from './overview-model';

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
export function changeText(entry: OverviewEntry): string {
  if (entry.change === null) return '—';
  if (entry.change === 0n) return priceCell(entry.market, 0n);
  return `${entry.change > 0n ? '+' : '−'}${priceCell(entry.market, entry.change > 0n ? entry.change : -entry.change)}`;
}

/** "+1.25 %" from basis points; empty when unknown. */
export function percentText(entry: OverviewEntry): string {
  const bps = entry.changeBps;
  if (bps === null) return '';
  const magnitude = bps < 0n ? -bps : bps;
  const sign = bps > 0n ? '+' : bps < 0n ? '−' : '';
  return `${sign}${magnitude / 100n}.${(magnitude % 100n).toString().padStart(2, '0')} %`;
}
