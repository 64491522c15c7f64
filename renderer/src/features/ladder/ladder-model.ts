// One ladder frame as plain data: the rows the window shows, each with its sizes, own orders and
// markers. The component keeps one cell per row price (keyed by price, like a keyed reconcile) and
// hands each row its new value only when `sameRow` says it changed, so an unchanged row is not
// touched and a row that scrolled keeps its DOM node.
import type { FlowLevelView, PositionView } from '../../../../shared/ipc/views';
import type { Side } from '../../../../shared/market/order-type';
import { aggregateOwnOrders, barPercent, floorToStep, hiddenAbove, rowIndexer, rowPriceOf, type OwnOrderInput, type PriceQuantity } from './ladder-layout';
import { unrealizedAtPrice, type PositionFigures } from '../positions/live-figures';
import { percentBps } from '../../../../shared/positions/accounting';
import { DEFAULT_PNL_DISPLAY, pnlTickTenths, type PnlDisplay } from '../../../../shared/positions/pnl-display';

export interface LadderRow {
  /** The row price as decimal text: the stable key of the row. */
  readonly key: string;
  readonly price: bigint;
  readonly bid: bigint;
  readonly ask: bigint;
  readonly volume: bigint;
  /** The volume split by the taker's side: bought by takers (lifting offers), sold by takers (hitting bids). */
  readonly bought: bigint;
  readonly sold: bigint;
  /** The bought and sold parts of the flow bar, in percent of the largest row volume shown. */
  readonly boughtBar: number;
  readonly soldBar: number;
  /** The last trade's size when it printed on this row, else 0n. */
  readonly lastSize: bigint;
  /** The last trade on this row is a large lot (at or above the trader's size). */
  readonly largeLot: boolean;
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
  /** Rows of a wide spread left out just above this row (a split ladder), 0n otherwise. */
  readonly hiddenAbove: bigint;
  /** The account's own recent fills on this row (merged like volume: floored), per taker-or-maker side of the account. */
  readonly ownBought: bigint;
  readonly ownSold: bigint;
  /** The row holding the position's average entry price (floored to the row). */
  readonly entry: boolean;
}

/** One of the account's own fills, for the own-trades highlight. */
export interface OwnFillInput {
  readonly side: Side;
  readonly price: bigint;
  readonly quantity: bigint;
}

export interface LadderInput {
  readonly rows: readonly bigint[];
  readonly step: bigint;
  readonly marketId: string;
  /** Best first. */
  readonly bids: readonly PriceQuantity[];
  readonly asks: readonly PriceQuantity[];
  readonly volumeAtPrice: readonly PriceQuantity[];
  /** Volume split by taker side (rows as volumeAtPrice); absent: every row's split is 0. */
  readonly flowAtPrice?: readonly FlowLevelView[];
  readonly lastTrade: { readonly price: bigint; readonly side: Side; readonly quantity?: bigint } | null;
  /** Trades of this size (raw base units) or more are large lots; null or absent: none is. */
  readonly largeLot?: bigint | null;
  readonly ownOrders: readonly OwnOrderInput[];
  /**
   * The row this price had in the previous frame, if any: returned as is when nothing of it
   * changed, so a steady ladder allocates almost nothing per frame (fewer garbage-collection
   * pauses inside the frame budget) and the row's cell sees the same object.
   */
  readonly previous?: (price: bigint, index: number) => LadderRow | undefined;
  /** The bar scale of the previous frame (see nextBarScale); by default bars scale to the largest size shown. */
  readonly barScale?: bigint;
  /**
   * Cumulative depth: each bid row shows the size of every bid at its price or better (the bid
   * row price or above), each ask row every ask at its price or better, summed in bigint from the
   * best level (levels off the rows shown count too).
   */
  readonly cumulative?: boolean;
  /** The account's recent fills in this book. */
  readonly ownFills?: readonly OwnFillInput[];
  /** The position's average entry price, raw quote; null when flat. */
  readonly entryPrice?: bigint | null;
}

/**
 * The depth-bar scale with hysteresis: it grows at once but shrinks only when the largest size
 * falls below half of it, so one level changing does not redraw every bar of the ladder.
 */
export function nextBarScale(previous: bigint, largest: bigint): bigint {
  if (largest > previous || largest * 2n < previous) return largest;
  return previous;
}

export function sameIds(left: readonly string[], right: readonly string[]): boolean {
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
    left.bought === right.bought &&
    left.sold === right.sold &&
    left.boughtBar === right.boughtBar &&
    left.soldBar === right.soldBar &&
    left.lastSize === right.lastSize &&
    left.largeLot === right.largeLot &&
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
    left.hiddenAbove === right.hiddenAbove &&
    left.ownBought === right.ownBought &&
    left.ownSold === right.ownSold &&
    left.entry === right.entry &&
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
 * Sum one side's levels into per-row totals by row index. Levels arrive best first, so the scan
 * stops at the first level past the ladder's far edge; a level whose row is not shown (above the
 * top, or in the left-out part of a split ladder) is skipped.
 */
function sumByIndex(levels: readonly PriceQuantity[], side: Side, step: bigint, rows: readonly bigint[], indexOf: (price: bigint) => number): bigint[] {
  const count = rows.length;
  const sums = new Array<bigint>(count).fill(0n);
  if (count === 0) return sums;
  const top = rows[0] as bigint;
  const bottom = rows[count - 1] as bigint;
  for (const level of levels) {
    if (level.quantity <= 0n) continue;
    const row = rowPriceOf(side, level.price, step);
    // Bids get worse downwards and asks upwards: past the edge no later level can come back.
    if ((side === 'Buy' && row < bottom) || (side === 'Sell' && row > top)) break;
    const index = indexOf(row);
    if (index >= 0) sums[index]! += level.quantity;
  }
  return sums;
}

/**
 * Cumulative depth per row: for bids, everything bid at the row price or above; for asks,
 * everything offered at the row price or below. Levels are best first; one pass over rows and
 * levels together.
 */
export function cumulativeByIndex(levels: readonly PriceQuantity[], side: Side, step: bigint, rows: readonly bigint[]): bigint[] {
  const count = rows.length;
  const sums = new Array<bigint>(count).fill(0n);
  let running = 0n;
  let next = 0;
  const take = (rowPrice: bigint) => {
    while (next < levels.length) {
      const level = levels[next] as PriceQuantity;
      const row = rowPriceOf(side, level.price, step);
      if (side === 'Buy' ? row < rowPrice : row > rowPrice) break;
      if (level.quantity > 0n) running += level.quantity;
      next++;
    }
    return running;
  };
  if (side === 'Buy') for (let index = 0; index < count; index++) sums[index] = take(rows[index] as bigint);
  else for (let index = count - 1; index >= 0; index--) sums[index] = take(rows[index] as bigint);
  return sums;
}

function checkRows(rows: readonly bigint[], step: bigint): void {
  for (let index = 0; index < rows.length; index++) {
    const price = rows[index] as bigint;
    if (price % step !== 0n || (index > 0 && price >= (rows[index - 1] as bigint))) {
      throw new Error('buildLadderFrame: rows must be on the step grid and strictly descending (viewRows)');
    }
  }
}

export function buildLadderFrame(input: LadderInput): LadderFrame {
  const { step } = input;
  const count = input.rows.length;
  checkRows(input.rows, step);
  const indexOf = rowIndexer(input.rows, step);
  const bidSums = input.cumulative ? cumulativeByIndex(input.bids, 'Buy', step, input.rows) : sumByIndex(input.bids, 'Buy', step, input.rows, indexOf);
  const askSums = input.cumulative ? cumulativeByIndex(input.asks, 'Sell', step, input.rows) : sumByIndex(input.asks, 'Sell', step, input.rows, indexOf);
  // Volume at price and own fills are merged like bids (floored): a print belongs to the row whose
  // range holds it. They are not sorted, so every entry is placed.
  const volumeSums = new Array<bigint>(count).fill(0n);
  for (const level of input.volumeAtPrice) {
    const index = indexOf(rowPriceOf('Buy', level.price, step));
    if (index >= 0 && level.quantity > 0n) volumeSums[index]! += level.quantity;
  }
  const flowBought = new Array<bigint>(count).fill(0n);
  const flowSold = new Array<bigint>(count).fill(0n);
  for (const level of input.flowAtPrice ?? []) {
    const index = indexOf(rowPriceOf('Buy', level.price, step));
    if (index < 0) continue;
    flowBought[index]! += level.bought;
    flowSold[index]! += level.sold;
  }
  let flowLargest = 0n;
  for (let index = 0; index < count; index++) if (flowBought[index]! + flowSold[index]! > flowLargest) flowLargest = flowBought[index]! + flowSold[index]!;
  const bought = new Array<bigint>(count).fill(0n);
  const sold = new Array<bigint>(count).fill(0n);
  for (const fill of input.ownFills ?? []) {
    const index = indexOf(rowPriceOf('Buy', fill.price, step));
    if (index < 0 || fill.quantity <= 0n) continue;
    if (fill.side === 'Buy') bought[index]! += fill.quantity;
    else sold[index]! += fill.quantity;
  }
  const entryRow = input.entryPrice === undefined || input.entryPrice === null ? null : floorToStep(input.entryPrice, step);
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
    const rowBought = flowBought[index]!;
    const rowSold = flowSold[index]!;
    const boughtBar = barPercent(rowBought, flowLargest);
    const soldBar = barPercent(rowSold, flowLargest);
    const lastSize = lastTrade !== null ? (input.lastTrade?.quantity ?? 0n) : 0n;
    const largeLot = lastSize > 0n && input.largeLot !== undefined && input.largeLot !== null && lastSize >= input.largeLot;
    const inSpread = bestBidRow !== null && bestAskRow !== null && price > bestBidRow && price < bestAskRow;
    const hidden = hiddenAbove(input.rows, step, index);
    const ownBought = bought[index]!;
    const ownSold = sold[index]!;
    const entry = price === entryRow;
    const old = input.previous?.(price, index);
    if (
      old !== undefined &&
      old.price === price &&
      old.bid === bid &&
      old.ask === ask &&
      old.volume === volume &&
      old.bought === rowBought &&
      old.sold === rowSold &&
      old.boughtBar === boughtBar &&
      old.soldBar === soldBar &&
      old.lastSize === lastSize &&
      old.largeLot === largeLot &&
      old.bidBar === bidBar &&
      old.askBar === askBar &&
      old.bestBid === bestBid &&
      old.bestAsk === bestAsk &&
      old.lastTrade === lastTrade &&
      old.inSpread === inSpread &&
      old.hiddenAbove === hidden &&
      old.ownBought === ownBought &&
      old.ownSold === ownSold &&
      old.entry === entry &&
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
      bought: rowBought,
      sold: rowSold,
      boughtBar,
      soldBar,
      lastSize,
      largeLot,
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
      hiddenAbove: hidden,
      ownBought,
      ownSold,
      entry,
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

/** The position of one book as the ladder shows it: every signing account's position summed; entry when they agree in sign. */
export function bookPosition(positions: readonly PositionView[], marketId: string, turbo: boolean): { size: bigint; entry: bigint | null; open: readonly PositionView[] } | null {
  const open = positions.filter((position) => position.marketId === marketId && position.turbo === turbo && position.size !== 0n && position.averageEntry !== null);
  if (open.length === 0) return null;
  let size = 0n;
  let cost = 0n;
  for (const position of open) {
    size += position.size;
    cost += position.size * position.averageEntry!;
  }
  const sameSign = open.every((position) => position.size > 0n) || open.every((position) => position.size < 0n);
  return { size, entry: sameSign && size !== 0n ? cost / size : null, open };
}

/** The foot's figure of a book: its positions' unrealized P&L summed, under one mark name and in the market's unit. */
export interface BookUnrealized {
  readonly unrealized: bigint | null;
  readonly stale: string | null;
  /** The mark's name when every position is marked alike (null otherwise, or without a mark). */
  readonly markSide: PositionFigures['markSide'];
  readonly display: PnlDisplay;
  readonly unrealizedBps: bigint | null;
  readonly unrealizedTickTenths: bigint | null;
}

/**
 * The unrealized P&L of a book's positions summed, each from the window's one mark
 * (stores/mark-source.ts), and why it is not live (the first reason), so the ladder's foot shows
 * what the Positions panel and the chart show. One position is its figure as it is; several (the
 * trading account and a Turbo Account on one Turbo book) give the sum's ratio to their summed
 * cost and size.
 */
export function bookUnrealized(open: readonly PositionView[], figures: (position: PositionView) => PositionFigures, scale?: { baseDecimals: number; priceTick: bigint }): BookUnrealized {
  const each = open.map((position) => figures(position));
  if (each.length === 1) {
    const only = each[0]!;
    return { unrealized: only.unrealized, stale: only.stale, markSide: only.markSide, display: only.display, unrealizedBps: only.unrealizedBps, unrealizedTickTenths: only.unrealizedTickTenths };
  }
  let unrealized: bigint | null = 0n;
  let stale: string | null = null;
  let basis = 0n;
  let size = 0n;
  for (const [index, figure] of each.entries()) {
    unrealized = unrealized === null || figure.unrealized === null ? null : unrealized + figure.unrealized;
    stale ??= figure.stale;
    const position = open[index]!;
    basis += position.basis < 0n ? -position.basis : position.basis;
    size += position.size < 0n ? -position.size : position.size;
  }
  const names = new Set(each.map((figure) => figure.markSide));
  const display = each[0]?.display ?? DEFAULT_PNL_DISPLAY;
  return {
    unrealized,
    stale,
    markSide: names.size === 1 ? (each[0]?.markSide ?? null) : null,
    display,
    unrealizedBps: unrealized === null ? null : percentBps(unrealized, basis),
    unrealizedTickTenths: unrealized === null || scale === undefined ? null : pnlTickTenths(unrealized, size, 10n ** BigInt(scale.baseDecimals), scale.priceTick),
  };
}

/** The P&L of a book's positions if closed at `price`: the same computation as the foot's at its mark. */
export function bookPnlAt(open: readonly PositionView[], price: bigint, baseDecimals: number): bigint {
  let total = 0n;
  for (const position of open) total += unrealizedAtPrice(position, price, baseDecimals);
  return total;
}
