// Main's preview of an algorithm in one plain sentence for the ticket: how many children, their
// total, how many signed batches the first placement takes, and what follows by itself.
import type { AlgoPlannedChild, AlgoPreview } from '../../../../shared/ipc/views/algos';
import type { MarketRules } from '../../../../shared/market/market';
import { formatPrice, formatQuantity } from '../../format/market-format';

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

export function previewSummary(market: MarketRules, preview: AlgoPreview): string {
  const params = preview.spec.params;
  const children = preview.children;
  const total = children.reduce((sum, child) => sum + child.quantity, 0n);
  const base = market.base.symbol;
  const quote = market.quote.symbol;
  const first = children[0];
  const batches = plural(preview.batches, 'signed batch', 'signed batches');
  switch (params.kind) {
    case 'scale':
      return `${plural(children.length, 'limit order', 'limit orders')}${params.postOnly ? ' (post only)' : ''}, ${formatQuantity(market, total)} ${base} in all, placed in ${batches} of at most 5.`;
    case 'twap':
      return `${plural(children.length, 'slice', 'slices')}, ${formatQuantity(market, total)} ${base} in all, one about every ${Math.round(params.intervalMs / 1000)} s over ${Math.round(params.durationMs / 60_000)} min; sizes shown at the touch now${first ? ` (${formatPrice(market, first.price)} ${quote})` : ''}.`;
    case 'iceberg':
      return first ? `Shows ${formatQuantity(market, first.quantity)} ${base} at ${formatPrice(market, first.price)} ${quote} at a time, refreshed as it fills, up to ${formatQuantity(market, preview.spec.quantity)} ${base}.` : 'Nothing to place.';
    case 'chase':
      return first ? `First order ${formatQuantity(market, first.quantity)} ${base} at ${formatPrice(market, first.price)} ${quote}, then amended as the touch moves, at most ${params.maxAmendsPerMinute} times a minute.` : 'Nothing to place now.';
  }
}

export interface PreviewRow extends AlgoPlannedChild {
  /** How many children have this price and size (a TWAP's slices are a row or two). */
  readonly count: number;
}

/**
 * The planned children with equal ones (same price and size) folded into one row, in the order each
 * first appears: a scale's orders each stay a row (their prices differ); a TWAP's thirty slices,
 * spread over two sizes, read as two rows.
 */
export function previewRows(children: readonly AlgoPlannedChild[]): PreviewRow[] {
  const rows = new Map<string, PreviewRow>();
  for (const child of children) {
    const key = `${child.price}:${child.quantity}`;
    const row = rows.get(key);
    rows.set(key, row === undefined ? { price: child.price, quantity: child.quantity, count: 1 } : { ...row, count: row.count + 1 });
  }
  return [...rows.values()];
}
