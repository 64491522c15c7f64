// The benchmark's peer: the same rows (buildLadderRows, same formatting) drawn the naive way,
// re-creating every row element on every update, with no frame coalescing and no keyed reconcile.
import type { BookFrame } from '../../shared/ipc/views';
import type { Market } from '../../shared/market/market';
import { insideCentre, layoutRows } from '../src/features/ladder/ladder-layout';
import { buildLadderRows } from '../src/features/ladder/ladder-model';
import { formatPrice, formatQuantity } from '../src/format/market-format';

export function createNaiveLadder(container: HTMLElement, market: Market, rowCount: number): (frame: BookFrame) => void {
  const body = document.createElement('div');
  body.className = 'ladder-body';
  container.append(body);
  return (frame) => {
    const step = frame.precision;
    const centre = insideCentre(frame.bids[0]?.price ?? null, frame.asks[0]?.price ?? null, step, null);
    if (centre === null) return;
    const rows = buildLadderRows({ rows: layoutRows(centre, step, rowCount), step, marketId: market.market_id, bids: frame.bids, asks: frame.asks, volumeAtPrice: frame.volumeAtPrice, lastTrade: frame.lastTrade, ownOrders: [] });
    const elements = rows.map((row) => {
      const element = document.createElement('div');
      element.className = `ladder-row${row.bestBid ? ' best-bid' : ''}${row.bestAsk ? ' best-ask' : ''}`;
      element.dataset.price = row.key;
      for (const [name, text] of [
        ['own own-buy', ''],
        ['bid num', row.bid > 0n ? formatQuantity(market, row.bid) : ''],
        ['price num', formatPrice(market, row.price)],
        ['ask num', row.ask > 0n ? formatQuantity(market, row.ask) : ''],
        ['own own-sell', ''],
        ['volume num', row.volume > 0n ? formatQuantity(market, row.volume) : ''],
      ] as const) {
        const cell = document.createElement('span');
        cell.className = name;
        cell.textContent = text;
        element.append(cell);
      }
      return element;
    });
    body.replaceChildren(...elements);
  };
}
