// The depth ladder's arithmetic, kept free of Solid and the DOM so every rule is tested as a plain
// function. All prices are bigint raw quote units per whole base unit.
//
// Grouping rule (one price column, a row every `step` raw units, step = the depth precision):
// - a bid at price p belongs to the row floor(p / step) * step: the row holds bids in [row, row + step);
// - an ask at price p belongs to the row ceil(p / step) * step: the row holds asks in (row - step, row].
// Each row's label is therefore the side's conservative edge: every bid merged into the row is at
// or above its label, every ask at or below it. An uncrossed book (best bid < best ask) can never
// put the best bid's row at or above the best ask's row, so the merged ladder is never crossed.
//
// Click rule: a click on a row places the order at the row's label price, made valid for the
// market: a buy at the row price floored to the price tick, a sell at the row price raised to the
// tick. Since the step is a power of ten no finer than the tick, the row price is already on the
// tick and both are simply the row price. A buy at the bid row's label never pays more than any
// bid merged into it; a sell at the ask row's label never sells below any ask merged into it.
import { FINEST_STREAM_GROUPING } from '../markets/inside-text';
import type { Side } from '../../../../shared/market/order-type';

export function floorToStep(value: bigint, step: bigint): bigint {
  const remainder = value % step;
  return remainder >= 0n ? value - remainder : value - remainder - step;
}

export function ceilToStep(value: bigint, step: bigint): bigint {
  const floored = floorToStep(value, step);
  return floored === value ? value : floored + step;
}

/** The row a resting level of `side` is merged into (Buy = bids, Sell = asks). */
export function rowPriceOf(side: Side, price: bigint, step: bigint): bigint {
  return side === 'Buy' ? floorToStep(price, step) : ceilToStep(price, step);
}

/** The price a click on a row uses: buys floored to the tick, sells raised to it. */
export function clickPrice(side: Side, rowPrice: bigint, tick: bigint): bigint {
  return side === 'Buy' ? floorToStep(rowPrice, tick) : ceilToStep(rowPrice, tick);
}

/**
 * The row sizes a ladder offers: none finer than the stream's grouping. The depth stream groups
 * prices by at least 10 raw units (bids floored, asks raised), so on a market whose tick is finer
 * (FUEL/USDC, tick 1) rows of the tick would show a grouped level as an exact price: a best ask row
 * 0.020000 where the exchange's best ask is 0.019998. Rows start at the coarser of the tick and the
 * stream's grouping.
 */
export function ladderPrecisionOptions(tick: bigint): bigint[] {
  return precisionOptions(tick < FINEST_STREAM_GROUPING ? FINEST_STREAM_GROUPING : tick);
}

/** Depth precisions a market offers: powers of ten from its price tick up to 10^9 (spec 4.1). */
export function precisionOptions(tick: bigint, largest = 1_000_000_000n): bigint[] {
  const options: bigint[] = [];
  let step = 1n;
  while (step < tick) step *= 10n;
  for (; step <= largest; step *= 10n) options.push(step);
  return options;
}

/**
 * Row prices from the top of the ladder down: `count` rows, the centre row at index
 * floor(count / 2). The centre is raised when needed so the lowest row stays at one step or more
 * (a price of zero or below is never a row).
 */
export function layoutRows(centre: bigint, step: bigint, count: number): bigint[] {
  const half = Math.floor(count / 2);
  const below = BigInt(count - 1 - half);
  const lowestAllowed = step * (below + 1n);
  const centreRow = floorToStep(centre < lowestAllowed ? lowestAllowed : centre, step);
  const top = centreRow + BigInt(half) * step;
  const rows = new Array<bigint>(count);
  for (let index = 0; index < count; index++) rows[index] = top - BigInt(index) * step;
  return rows;
}

/** The centre row for an inside market: halfway between the best bid's row and the best ask's row. */
export function insideCentre(bestBid: bigint | null, bestAsk: bigint | null, step: bigint, fallback: bigint | null): bigint | null {
  const bidRow = bestBid === null ? null : rowPriceOf('Buy', bestBid, step);
  const askRow = bestAsk === null ? null : rowPriceOf('Sell', bestAsk, step);
  if (bidRow !== null && askRow !== null) return floorToStep((bidRow + askRow) / 2n, step);
  if (bidRow !== null) return bidRow;
  if (askRow !== null) return askRow;
  return fallback === null ? null : floorToStep(fallback, step);
}

export interface RecenterInput {
  readonly rows: readonly bigint[];
  readonly step: bigint;
  readonly bestBid: bigint | null;
  readonly bestAsk: bigint | null;
  /** Recenter when the inside market is within this many rows of the top or bottom edge. */
  readonly margin: number;
}

/**
 * True when the best bid's row or the best ask's row is within `margin` rows of an edge of the
 * ladder, or not shown at all (off the ladder, or inside the part of a wide spread that a split
 * ladder leaves out). A one-sided or empty book never forces a recenter by itself.
 */
export function needsRecenter(input: RecenterInput): boolean {
  const { rows, step, margin } = input;
  if (rows.length === 0) return false;
  const indexOf = rowIndexer(rows, step);
  const edges: number[] = [];
  if (input.bestAsk !== null) edges.push(indexOf(rowPriceOf('Sell', input.bestAsk, step)));
  if (input.bestBid !== null) edges.push(indexOf(rowPriceOf('Buy', input.bestBid, step)));
  return edges.some((index) => index < 0 || index < margin || index > rows.length - 1 - margin);
}

/**
 * Whether the ladder may move by itself now. Never while the trader holds it, while the pointer is
 * over it (the row under the pointer must stay the row the trader aimed at), while a dialog is open
 * (the order being confirmed was aimed at the rows shown), or during a drag.
 */
export function mayAutoRecenter(state: { readonly held: boolean; readonly pointerOver: boolean; readonly dialogOpen: boolean; readonly dragging: boolean }): boolean {
  return !state.held && !state.pointerOver && !state.dialogOpen && !state.dragging;
}

/**
 * Where the ladder sits. `centre`: contiguous rows around a price (recentred on a narrow inside
 * market, or wherever the trader scrolled). `split`: the inside market is wider than the ladder can
 * show with depth on both sides (at the market's tick a spread of several USDC is hundreds of
 * rows), so the ladder shows the ask side down to the best ask and the bid side from the best bid
 * down, each with SPLIT_PAD_ROWS empty rows of the spread next to it, and leaves out the rest of
 * the spread (the row under it says how many rows are left out). It never sits on empty rows only.
 */
export type LadderView = { readonly kind: 'centre'; readonly centre: bigint } | { readonly kind: 'split'; readonly askRow: bigint; readonly bidRow: bigint };

export const SPLIT_PAD_ROWS = 2n;

/** Rows of book wanted on each side of the inside market before the ladder splits a wide spread. */
export function depthRowsWanted(count: number): bigint {
  return BigInt(Math.max(2, Math.floor(count / 4)));
}

/**
 * The view a recenter picks for this inside market: centred when the inside market fits with
 * `depthRowsWanted` rows of book on each side and clear of the recenter margin, split otherwise.
 */
export function insideView(bestBid: bigint | null, bestAsk: bigint | null, step: bigint, count: number, fallback: bigint | null, margin = 4): LadderView | null {
  const centre = insideCentre(bestBid, bestAsk, step, fallback);
  if (bestBid !== null && bestAsk !== null && centre !== null) {
    const bidRow = rowPriceOf('Buy', bestBid, step);
    const askRow = rowPriceOf('Sell', bestAsk, step);
    const inside = (askRow - bidRow) / step + 1n; // rows from the best bid's to the best ask's, both included
    const fits = inside + 2n * depthRowsWanted(count) <= BigInt(count) && !needsRecenter({ rows: layoutRows(centre, step, count), step, bestBid, bestAsk, margin });
    if (askRow > bidRow && !fits) {
      const split: LadderView = { kind: 'split', askRow, bidRow };
      if (splitRows(split, step, count) !== null) return split;
    }
  }
  return centre === null ? null : { kind: 'centre', centre };
}

function splitRows(view: { readonly askRow: bigint; readonly bidRow: bigint }, step: bigint, count: number): bigint[] | null {
  const upper = Math.floor(count / 2);
  const lower = count - upper;
  const empty = (view.askRow - view.bidRow) / step - 1n;
  const pad = empty / 2n < SPLIT_PAD_ROWS ? empty / 2n : SPLIT_PAD_ROWS;
  const upperBottom = view.askRow - pad * step;
  const lowerTop = view.bidRow + pad * step;
  // Nothing left out, or the bid side would reach zero: not a split.
  if (upperBottom - lowerTop <= step || lowerTop - BigInt(lower - 1) * step < step || upper === 0) return null;
  const rows = new Array<bigint>(count);
  for (let index = 0; index < upper; index++) rows[index] = upperBottom + BigInt(upper - 1 - index) * step;
  for (let index = 0; index < lower; index++) rows[upper + index] = lowerTop - BigInt(index) * step;
  return rows;
}

/** The row prices of a view, top down. */
export function viewRows(view: LadderView, step: bigint, count: number): bigint[] {
  if (view.kind === 'split') {
    // A view kept across a change of grouping is snapped to the new rows (asks up, bids down).
    const rows = splitRows({ askRow: ceilToStep(view.askRow, step), bidRow: floorToStep(view.bidRow, step) }, step, count);
    if (rows !== null) return rows;
    return layoutRows((view.askRow + view.bidRow) / 2n, step, count);
  }
  return layoutRows(view.centre, step, count);
}

/**
 * Index of a row price among rows shown top down (contiguous runs one step apart, at most a few
 * runs), or -1 when the price has no row. Rows must be on the step grid and strictly descending.
 */
export function rowIndexer(rows: readonly bigint[], step: bigint): (rowPrice: bigint) => number {
  const runs: { top: bigint; bottom: bigint; start: number }[] = [];
  for (let index = 0; index < rows.length; index++) {
    const price = rows[index] as bigint;
    const run = runs[runs.length - 1];
    if (run && run.bottom - step === price) run.bottom = price;
    else runs.push({ top: price, bottom: price, start: index });
  }
  return (rowPrice) => {
    for (const run of runs) {
      if (rowPrice <= run.top && rowPrice >= run.bottom) return run.start + Number((run.top - rowPrice) / step);
    }
    return -1;
  };
}

/** Rows left out above each row (a split ladder's hidden spread), 0n where the row follows the one above it. */
export function hiddenAbove(rows: readonly bigint[], step: bigint, index: number): bigint {
  if (index === 0) return 0n;
  return ((rows[index - 1] as bigint) - (rows[index] as bigint)) / step - 1n;
}

export interface OwnOrderInput {
  readonly orderId: string;
  readonly marketId: string;
  readonly side: Side;
  readonly price: bigint;
  /** Remaining (unfilled) quantity. */
  readonly remaining: bigint;
}

export interface OwnRow {
  readonly buyCount: number;
  readonly buyQuantity: bigint;
  readonly sellCount: number;
  readonly sellQuantity: bigint;
  /** Order ids on the row, oldest first per side: buys then sells. */
  readonly buyOrderIds: readonly string[];
  readonly sellOrderIds: readonly string[];
}

/** Own open orders of one market merged per row with the same rule as the book. */
export function aggregateOwnOrders(orders: readonly OwnOrderInput[], marketId: string, step: bigint): Map<bigint, OwnRow> {
  const rows = new Map<bigint, { buyCount: number; buyQuantity: bigint; sellCount: number; sellQuantity: bigint; buyOrderIds: string[]; sellOrderIds: string[] }>();
  for (const order of orders) {
    if (order.marketId !== marketId || order.remaining <= 0n) continue;
    const row = rowPriceOf(order.side, order.price, step);
    let entry = rows.get(row);
    if (!entry) rows.set(row, (entry = { buyCount: 0, buyQuantity: 0n, sellCount: 0, sellQuantity: 0n, buyOrderIds: [], sellOrderIds: [] }));
    if (order.side === 'Buy') {
      entry.buyCount++;
      entry.buyQuantity += order.remaining;
      entry.buyOrderIds.push(order.orderId);
    } else {
      entry.sellCount++;
      entry.sellQuantity += order.remaining;
      entry.sellOrderIds.push(order.orderId);
    }
  }
  return rows;
}

export interface PriceQuantity {
  readonly price: bigint;
  readonly quantity: bigint;
}

/** Sum levels of one side into their rows. */
export function sumIntoRows(levels: readonly PriceQuantity[], side: Side, step: bigint): Map<bigint, bigint> {
  const rows = new Map<bigint, bigint>();
  for (const level of levels) {
    if (level.quantity <= 0n) continue;
    const row = rowPriceOf(side, level.price, step);
    rows.set(row, (rows.get(row) ?? 0n) + level.quantity);
  }
  return rows;
}

/** Width of a depth bar in whole percent of the largest size shown, computed in bigint. */
export function barPercent(quantity: bigint, largest: bigint): number {
  if (quantity <= 0n || largest <= 0n) return 0;
  const percent = (quantity * 100n) / largest;
  return Number(percent > 100n ? 100n : percent < 1n ? 1n : percent);
}
