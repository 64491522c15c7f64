// The margin insights' texts and freshness, free of Solid: how current each part of main's reads
// is (main says whether its last read answered; the window ages the word it heard), the asset an
// amount is counted in, and the events' and activity's words.
import type { ActivityAmount, InsightPart, TurboEventRow } from '../../../../shared/ipc/views/margin-insights';
import type { MarginAssetRef } from '../../../../shared/ipc/views/margin';
import type { Market } from '../../../../shared/market/market';
import type { LocalFreshness } from '../../lib/freshness';
import { money } from './margin-format';

/** Reads missed before the window calls a part stale on its own (main publishes after every read). */
const MISSED_READS = 3;

export function insightFreshness(part: InsightPart<unknown> | null, intervalMs: number, sinceHeardMs: number, what: string): LocalFreshness | null {
  if (part === null) return { state: 'resyncing', detail: `asking main for the ${what}` };
  if (part.state === 'resyncing') return { state: 'resyncing', detail: part.problem ?? `first read of the ${what}` };
  if (part.state === 'stale') return { state: 'stale', detail: part.problem ?? 'the last read failed' };
  if (sinceHeardMs > MISSED_READS * intervalMs) return { state: 'stale', detail: `no read for ${Math.floor(sinceHeardMs / 1000)} s` };
  return null;
}

/** The asset of an id as the markets name it; null when no market lists it. */
export function assetRef(assetId: string | null, markets: readonly Market[]): MarginAssetRef | null {
  if (assetId === null) return null;
  for (const market of markets) {
    for (const side of [market.base, market.quote]) if (side.asset === assetId) return { assetId, symbol: side.symbol, decimals: side.decimals };
  }
  return null;
}

/** "2,500.00 USDC", or the raw units named as such when the asset is not one the markets list. */
export function amountText(raw: bigint, asset: MarginAssetRef | null): string {
  return asset === null ? `${raw.toString()} raw units` : money(raw, asset);
}

/** "drawn_total" -> "drawn total". */
export function keyText(key: string): string {
  return key.replaceAll('_', ' ');
}

export function activityAmountText(amount: ActivityAmount, markets: readonly Market[]): string {
  return `${keyText(amount.key)} ${amountText(amount.amount, assetRef(amount.assetId, markets))}`;
}

const EVENT_WORDS: Readonly<Record<TurboEventRow['type'], string>> = {
  SharedExecution: 'Shared execution',
  SharedTradePerformed: 'Shared trade',
  HouseOrderCreated: 'House quote placed',
  HouseOrderCompleted: 'House quote done',
  SidecarChanged: 'Turbo book paired',
};

export function eventText(type: TurboEventRow['type']): string {
  return EVENT_WORDS[type];
}
