// One ladder frame as plain data: the rows the window shows, each with its sizes, own orders and
// markers. The component applies this with `reconcile` keyed by the row's price, so a row whose
// values did not change is not touched and a row that scrolled keeps its DOM node.
import type { Side } from '../../../../shared/market/order-type';
import { aggregateOwnOrders, barPercent, rowPriceOf, sumIntoRows, type OwnOrderInput, type PriceQuantity } from './ladder-layout';

export interface LadderRow {
  /** The row price as decimal text: the stable key of the row. */
  readonly key: string;
  readonly price: bigint;
  readonly bid: bigint;
  readonly ask: bigint;
  readonly volume: bigint;
  readonly bidBar: number;
  readonly askBar: number;
  readonly ownBuyCount: number;
  readonly ownBuyQuantity: bigint;
  readonly ownSellCount: number;
  readonly ownSellQuantity: bigint;
  readonly ownBuyIds: readonly string[];
  readonly ownSellIds: readonly string[];
  readonly bestBid: boolean;
  readonly bestAsk: boolean;
  /** Side of the taker of the last trade when it printed on this row. */
  readonly lastTrade: Side | null;
  /** Between the best bid and the best ask (no resting size on either side). */
  readonly inSpread: boolean;
}

export interface LadderInput {
  readonly rows: readonly bigint[];
  readonly step: bigint;
  readonly marketId: string;
  /** Best first. */
  readonly bids: readonly PriceQuantity[];
  readonly asks: readonly PriceQuantity[];
  readonly volumeAtPrice: readonly PriceQuantity[];
  readonly lastTrade: { readonly price: bigint; readonly side: Side } | null;
  readonly ownOrders: readonly OwnOrderInput[];
}

const NO_IDS: readonly string[] = Object.freeze([]);

export function buildLadderRows(input: LadderInput): LadderRow[] {
  const { step } = input;
  const bidRows = sumIntoRows(input.bids, 'Buy', step);
  const askRows = sumIntoRows(input.asks, 'Sell', step);
  // Volume at price is merged like bids (floored): a print belongs to the row whose range holds it.
  const volumeRows = sumIntoRows(input.volumeAtPrice, 'Buy', step);
  const own = aggregateOwnOrders(input.ownOrders, input.marketId, step);
  const bestBidRow = input.bids.length > 0 ? rowPriceOf('Buy', (input.bids[0] as PriceQuantity).price, step) : null;
  const bestAskRow = input.asks.length > 0 ? rowPriceOf('Sell', (input.asks[0] as PriceQuantity).price, step) : null;
  // A trade that lifted the offer prints on the ask side of the column, one that hit the bid on the bid side.
  const lastTradeRow = input.lastTrade ? rowPriceOf(input.lastTrade.side === 'Buy' ? 'Sell' : 'Buy', input.lastTrade.price, step) : null;

  let largest = 0n;
  for (const price of input.rows) {
    const bid = bidRows.get(price) ?? 0n;
    const ask = askRows.get(price) ?? 0n;
    if (bid > largest) largest = bid;
    if (ask > largest) largest = ask;
  }

  const rows: LadderRow[] = new Array(input.rows.length);
  for (let index = 0; index < input.rows.length; index++) {
    const price = input.rows[index] as bigint;
    const bid = bidRows.get(price) ?? 0n;
    const ask = askRows.get(price) ?? 0n;
    const mine = own.get(price);
    rows[index] = {
      key: price.toString(),
      price,
      bid,
      ask,
      volume: volumeRows.get(price) ?? 0n,
      bidBar: barPercent(bid, largest),
      askBar: barPercent(ask, largest),
      ownBuyCount: mine?.buyCount ?? 0,
      ownBuyQuantity: mine?.buyQuantity ?? 0n,
      ownSellCount: mine?.sellCount ?? 0,
      ownSellQuantity: mine?.sellQuantity ?? 0n,
      ownBuyIds: mine?.buyOrderIds ?? NO_IDS,
      ownSellIds: mine?.sellOrderIds ?? NO_IDS,
      bestBid: price === bestBidRow,
      bestAsk: price === bestAskRow,
      lastTrade: price === lastTradeRow && input.lastTrade ? input.lastTrade.side : null,
      inSpread: bestBidRow !== null && bestAskRow !== null && price > bestBidRow && price < bestAskRow,
    };
  }
  return rows;
}
