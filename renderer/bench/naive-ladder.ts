// The benchmark's peer: the same rows (buildLadderRows, same formatting) drawn the naive way,
// re-creating every row element on every update, with no frame coalescing and no keyed reconcile.
// With extras it draws the columns the real ladder draws in the worst case too (cumulative depth,
// own orders, fills, the last trade's size, the Turbo depth and P&L columns), so both pages show
// the same cells.
import type { BookFrame, PositionView } from '../../shared/ipc/views';
import type { TurboDepthRow } from '../../shared/ipc/views/margin-insights';
import type { Market } from '../../shared/market/market';
import { insideCentre, layoutRows, type OwnOrderInput } from '../src/features/ladder/ladder-layout';
import { bookPnlAt, buildLadderRows, type OwnFillInput } from '../src/features/ladder/ladder-model';
import { formatPrice, formatQuantity } from '../src/format/market-format';
import { pnlText, sizeText } from '../src/features/positions/positions-model';

export interface NaiveExtras {
  readonly cumulative: boolean;
  readonly ownOrders: readonly OwnOrderInput[];
  readonly ownFills: readonly OwnFillInput[];
  readonly positions: readonly PositionView[];
  /** Turbo depth rows by row price. */
  readonly turboDepth: ReadonlyMap<string, TurboDepthRow>;
}

export function createNaiveLadder(container: HTMLElement, market: Market, rowCount: number, extras: NaiveExtras | null): (frame: BookFrame) => void {
  const body = document.createElement('div');
  body.className = 'ladder-body';
  container.append(body);
  const entry = extras?.positions[0]?.averageEntry ?? null;
  const size = (quantity: bigint) => (quantity > 0n ? formatQuantity(market, quantity) : '');
  return (frame) => {
    const step = frame.precision;
    const centre = insideCentre(frame.bids[0]?.price ?? null, frame.asks[0]?.price ?? null, step, null);
    if (centre === null) return;
    const rows = buildLadderRows({
      rows: layoutRows(centre, step, rowCount),
      step,
      marketId: market.market_id,
      bids: frame.bids,
      asks: frame.asks,
      volumeAtPrice: frame.volumeAtPrice,
      flowAtPrice: extras ? frame.flowAtPrice : undefined,
      lastTrade: frame.lastTrade,
      ownOrders: extras?.ownOrders ?? [],
      cumulative: extras?.cumulative ?? false,
      ownFills: extras?.ownFills ?? [],
      entryPrice: entry,
    });
    const elements = rows.map((row) => {
      const element = document.createElement('div');
      element.className = `ladder-row${row.bestBid ? ' best-bid' : ''}${row.bestAsk ? ' best-ask' : ''}${row.ownBought > 0n ? ' own-bought' : ''}${row.ownSold > 0n ? ' own-sold' : ''}${row.entry ? ' entry' : ''}`;
      element.dataset.price = row.key;
      const cells: (readonly [string, string])[] = [
        ['own own-buy', row.ownBuyCount > 0 ? size(row.ownBuyQuantity) : ''],
        ['bid num', size(row.bid)],
        ['price num', formatPrice(market, row.price)],
        ['ask num', size(row.ask)],
        ['own own-sell', row.ownSellCount > 0 ? size(row.ownSellQuantity) : ''],
      ];
      if (extras) cells.push(['last-size num', size(row.lastSize)]);
      cells.push(['volume num', size(row.volume)]);
      if (extras) {
        const turbo = extras.turboDepth.get(row.key);
        const executable = turbo ? turbo.executableAsk + turbo.executableBid : 0n;
        cells.push(['turbo-depth num', executable > 0n ? sizeText(market, executable) : '']);
        cells.push(['pnl num', row.entry ? '◆ entry' : extras.positions.length > 0 ? pnlText(market, bookPnlAt(extras.positions, row.price, market.base.decimals)) : '']);
      }
      for (const [name, text] of cells) {
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
