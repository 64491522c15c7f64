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

/** Depth precisions a market offers: powers of ten from its price tick up to 10^9 (spec 4.1). */
/**
 * The row sizes a ladder offers: from the finer of nothing below the stream's grouping. The depth
 * stream groups prices by at least 10 raw units (bids floored, asks raised), so on a market whose
 * tick is finer (FUEL/USDC, tick 1) rows of the tick would show a grouped level as an exact price:
 * a best ask row 0.020000 where the exchange's best ask is 0.019998 (trader-session long run,
 * issue 14). Rows start at the coarser of the tick and the stream's grouping.
 */
export function ladderPrecisionOptions(tick: bigint): bigint[] {
  return precisionOptions(tick < FINEST_STREAM_GROUPING ? FINEST_STREAM_GROUPING : tick);
}

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
 * ladder, or off it. A one-sided or empty book never forces a recenter by itself.
 */
export function needsRecenter(input: RecenterInput): boolean {
  const { rows, step, margin } = input;
  if (rows.length === 0) return false;
  const top = rows[0] as bigint;
  const indexOf = (price: bigint) => Number((top - price) / step);
  const edges: number[] = [];
  if (input.bestAsk !== null) edges.push(indexOf(rowPriceOf('Sell', input.bestAsk, step)));
  if (input.bestBid !== null) edges.push(indexOf(rowPriceOf('Buy', input.bestBid, step)));
  return edges.some((index) => index < margin || index > rows.length - 1 - margin);
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

/**
 * The finest precision at which the whole inside market (best bid row to best ask row) takes at
 * most half the rows shown, so both sides of a wide spread are on screen at once. The ladder uses
 * it once, when a market opens, until the trader picks a grouping.
 */
export function fitPrecision(options: readonly bigint[], bestBid: bigint | null, bestAsk: bigint | null, rowCount: number): bigint | null {
  if (options.length === 0) return null;
  if (bestBid === null || bestAsk === null || bestAsk <= bestBid) return options[0] as bigint;
  const budget = BigInt(Math.max(1, Math.floor(rowCount / 2)));
  for (const step of options) {
    const rows = (rowPriceOf('Sell', bestAsk, step) - rowPriceOf('Buy', bestBid, step)) / step;
    if (rows <= budget) return step;
  }
  return options[options.length - 1] as bigint;
}
