// One ladder frame as plain data: the rows the window shows, each with its sizes, own orders and
// markers. The component keeps one cell per row price (keyed by price, like a keyed reconcile) and
// hands each row its new value only when `sameRow` says it changed, so an unchanged row is not
// touched and a row that scrolled keeps its DOM node.
import type { Side } from '../../../../shared/market/order-type';
import { aggregateOwnOrders, barPercent, rowPriceOf, type OwnOrderInput, type PriceQuantity } from './ladder-layout';

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
  /**
   * The row this price had in the previous frame, if any: returned as is when nothing of it
   * changed, so a steady ladder allocates almost nothing per frame (fewer garbage-collection
   * pauses inside the frame budget) and the row's cell sees the same object.
   */
  readonly previous?: (price: bigint, index: number) => LadderRow | undefined;
  /** The bar scale of the previous frame (see nextBarScale); by default bars scale to the largest size shown. */
  readonly barScale?: bigint;
}

/**
 * The depth-bar scale with hysteresis: it grows at once but shrinks only when the largest size
 * falls below half of it, so one level changing does not redraw every bar of the ladder.
 */
export function nextBarScale(previous: bigint, largest: bigint): bigint {
  if (largest > previous || largest * 2n < previous) return largest;
  return previous;
}

function sameIds(left: readonly string[], right: readonly string[]): boolean {
  if (left === right) return true;
  if (left.length !== right.length) return false;
  for (let index = 0; index < left.length; index++) if (left[index] !== right[index]) return false;
  return true;
}

/** Field-by-field equality: a row is redrawn only when one of these changed. */
export function sameRow(left: LadderRow, right: LadderRow): boolean {
  return (
    left.key === right.key &&
    left.bid === right.bid &&
    left.ask === right.ask &&
    left.volume === right.volume &&
    left.bidBar === right.bidBar &&
    left.askBar === right.askBar &&
    left.ownBuyCount === right.ownBuyCount &&
    left.ownBuyQuantity === right.ownBuyQuantity &&
    left.ownSellCount === right.ownSellCount &&
    left.ownSellQuantity === right.ownSellQuantity &&
    left.bestBid === right.bestBid &&
    left.bestAsk === right.bestAsk &&
    left.lastTrade === right.lastTrade &&
    left.inSpread === right.inSpread &&
    sameIds(left.ownBuyIds, right.ownBuyIds) &&
    sameIds(left.ownSellIds, right.ownSellIds)
  );
}

const NO_IDS: readonly string[] = Object.freeze([]);

export function buildLadderRows(input: LadderInput): LadderRow[] {
  return buildLadderFrame(input).rows;
}

export interface LadderFrame {
  readonly rows: LadderRow[];
  /** The size that filled a depth bar in this frame: pass it as the next frame's barScale. */
  readonly barScale: bigint;
}

/**
 * Sum one side's levels into per-row totals by row index. The rows are contiguous (layoutRows),
 * so a level's row is an index computed from the top price: no hashing of bigint keys, and the
 * scan stops at the first level past the ladder's edge (levels arrive best first).
 */
function sumByIndex(levels: readonly PriceQuantity[], side: Side, step: bigint, top: bigint, count: number): bigint[] {
  const sums = new Array<bigint>(count).fill(0n);
  for (const level of levels) {
    if (level.quantity <= 0n) continue;
    const index = Number((top - rowPriceOf(side, level.price, step)) / step);
    if (index >= 0 && index < count) sums[index]! += level.quantity;
    // Bids get worse downwards and asks upwards: past the edge no later level can come back.
    else if ((side === 'Buy' && index >= count) || (side === 'Sell' && index < 0)) break;
  }
  return sums;
}

function isContiguous(rows: readonly bigint[], step: bigint): boolean {
  return rows.length === 0 || (rows[0] as bigint) - BigInt(rows.length - 1) * step === rows[rows.length - 1];
}

export function buildLadderFrame(input: LadderInput): LadderFrame {
  const { step } = input;
  const count = input.rows.length;
  const top = count > 0 ? (input.rows[0] as bigint) : 0n;
  if (!isContiguous(input.rows, step)) throw new Error('buildLadderFrame: rows must be contiguous, one step apart (layoutRows)');
  const bidSums = sumByIndex(input.bids, 'Buy', step, top, count);
  const askSums = sumByIndex(input.asks, 'Sell', step, top, count);
  // Volume at price is merged like bids (floored): a print belongs to the row whose range holds it.
  // Volume is not sorted, so every entry is placed.
  const volumeSums = new Array<bigint>(count).fill(0n);
  for (const level of input.volumeAtPrice) {
    const index = Number((top - rowPriceOf('Buy', level.price, step)) / step);
    if (index >= 0 && index < count && level.quantity > 0n) volumeSums[index]! += level.quantity;
  }
  const own = aggregateOwnOrders(input.ownOrders, input.marketId, step);
  const bestBidRow = input.bids.length > 0 ? rowPriceOf('Buy', (input.bids[0] as PriceQuantity).price, step) : null;
  const bestAskRow = input.asks.length > 0 ? rowPriceOf('Sell', (input.asks[0] as PriceQuantity).price, step) : null;
  // A trade that lifted the offer prints on the ask side of the column, one that hit the bid on the bid side.
  const lastTradeRow = input.lastTrade ? rowPriceOf(input.lastTrade.side === 'Buy' ? 'Sell' : 'Buy', input.lastTrade.price, step) : null;

  let shownLargest = 0n;
  for (let index = 0; index < count; index++) {
    if (bidSums[index]! > shownLargest) shownLargest = bidSums[index]!;
    if (askSums[index]! > shownLargest) shownLargest = askSums[index]!;
  }
  const largest = input.barScale === undefined ? shownLargest : nextBarScale(input.barScale, shownLargest);

  const rows: LadderRow[] = new Array(input.rows.length);
  for (let index = 0; index < input.rows.length; index++) {
    const price = input.rows[index] as bigint;
    const bid = bidSums[index]!;
    const ask = askSums[index]!;
    const volume = volumeSums[index]!;
    const mine = own.get(price);
    const bidBar = barPercent(bid, largest);
    const askBar = barPercent(ask, largest);
    const bestBid = price === bestBidRow;
    const bestAsk = price === bestAskRow;
    const lastTrade = price === lastTradeRow && input.lastTrade ? input.lastTrade.side : null;
    const inSpread = bestBidRow !== null && bestAskRow !== null && price > bestBidRow && price < bestAskRow;
    const old = input.previous?.(price, index);
    if (
      old !== undefined &&
      old.price === price &&
      old.bid === bid &&
      old.ask === ask &&
      old.volume === volume &&
      old.bidBar === bidBar &&
      old.askBar === askBar &&
      old.bestBid === bestBid &&
      old.bestAsk === bestAsk &&
      old.lastTrade === lastTrade &&
      old.inSpread === inSpread &&
      mine === undefined &&
      old.ownBuyCount === 0 &&
      old.ownSellCount === 0
    ) {
      rows[index] = old;
      continue;
    }
    rows[index] = {
      key: old?.price === price ? old.key : price.toString(),
      price,
      bid,
      ask,
      volume,
      bidBar,
      askBar,
      ownBuyCount: mine?.buyCount ?? 0,
      ownBuyQuantity: mine?.buyQuantity ?? 0n,
      ownSellCount: mine?.sellCount ?? 0,
      ownSellQuantity: mine?.sellQuantity ?? 0n,
      ownBuyIds: mine?.buyOrderIds ?? NO_IDS,
      ownSellIds: mine?.sellOrderIds ?? NO_IDS,
      bestBid,
      bestAsk,
      lastTrade,
      inSpread,
    };
  }
  return { rows, barScale: largest };
}

export type BookHealth = 'live' | 'resyncing' | 'crossed' | 'stream-down';

/**
 * Whether a frame may be shown and traded from. Main only sends checked books, but the ladder
 * hides levels on its own too when a frame is crossed (a best bid at or above the best ask) or
 * the market-data stream is down (the last frame may be stale): a trader never clicks into them.
 */
export function bookHealth(frame: { readonly state: 'live' | 'resyncing'; readonly bids: readonly PriceQuantity[]; readonly asks: readonly PriceQuantity[] }, streamDown: boolean): BookHealth {
  if (frame.state === 'resyncing') return 'resyncing';
  if (streamDown) return 'stream-down';
  const bid = frame.bids[0];
  const ask = frame.asks[0];
  if (bid && ask && bid.price >= ask.price) return 'crossed';
  return 'live';
}
