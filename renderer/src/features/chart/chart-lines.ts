// What the chart draws besides the bars, as data: a line per working order of the book (its
// remaining quantity at its price), per pending trigger leg (take-profit / stop-loss, with the
// quantity it closes), and the position line at the average entry. Each has its label (side,
// quantity, price) and says whether it can be dragged. Pure: test/renderer/chart-lines.test.ts.
import type { FillView, OrderView, PositionView, TriggerView, TriggersSnapshot } from '../../../../shared/ipc/views';
import type { Market } from '../../../../shared/market/market';
import { formatPrice } from '../../format/market-format';
import { entryText, pnlText, pnlUnitText, sizeText } from '../positions/positions-model';
import type { PositionFigures } from '../positions/live-figures';

export type ChartLineKind = 'order' | 'leg' | 'position';

export interface ChartLine {
  /** `order:<id>`, `leg:<id>`, `position:<account>`: stable across redraws. */
  readonly key: string;
  readonly kind: ChartLineKind;
  /** The order id, the trigger id, or the account of the position. */
  readonly id: string;
  readonly price: bigint;
  readonly side: 'Buy' | 'Sell';
  /** Colour class: buy / sell orders, tp / sl legs, long / short position. */
  readonly tone: 'buy' | 'sell' | 'tp' | 'sl' | 'long' | 'short';
  /** The label beside the line: "Buy 0.02 @ 3,000.00" (`prefix` @ price `suffix`). */
  readonly label: string;
  readonly prefix: string;
  readonly suffix: string;
  /** Dashed: a leg waiting for its order to fill, and the position line. */
  readonly dashed: boolean;
  readonly draggable: boolean;
  /** Bounds a bounded leg executes within (shaded). */
  readonly band: { readonly min: bigint; readonly max: bigint } | null;
  /** An order line's remaining quantity (raw base), on its element. */
  readonly quantity?: bigint;
  /** An order placed by an algorithm main runs: its parent's id and tag ("TWAP 3fa2"). */
  readonly algo?: { readonly id: string; readonly tag: string };
  /** The position line's figures (signed size, unrealized P&L, why not live), as raw values on its element. */
  readonly figures?: { readonly size: bigint; readonly unrealized: bigint | null; readonly stale: string | null; readonly markSide: string | null; readonly unit: string };
}

function labelled(market: Market, prefix: string, price: bigint, suffix: string): { label: string; prefix: string; suffix: string } {
  return { prefix, suffix, label: `${prefix} @ ${formatPrice(market, price)}${suffix}` };
}

/** A line moved to `price` (a drag in progress): its label says the new price. */
export function lineAt(market: Market, line: ChartLine, price: bigint): ChartLine {
  return { ...line, price, label: `${line.prefix} @ ${formatPrice(market, price)}${line.suffix}` };
}

function remainingOf(order: OrderView): bigint {
  return order.quantity - order.filled;
}

/** The resting orders of one book (open or partly filled, with something left), as lines. */
export function orderLines(market: Market, turbo: boolean, orders: readonly OrderView[]): ChartLine[] {
  return orders
    .filter((order) => order.marketId === market.market_id && order.turbo === turbo && (order.status === 'open' || order.status === 'partially-filled') && remainingOf(order) > 0n && order.price > 0n)
    .map((order) => ({
      key: `order:${order.orderId}`,
      kind: 'order' as const,
      id: order.orderId,
      price: order.price,
      side: order.side,
      tone: order.side === 'Buy' ? ('buy' as const) : ('sell' as const),
      ...labelled(market, `${order.side} ${sizeText(market, remainingOf(order))}`, order.price, order.filled > 0n ? ` (${sizeText(market, order.filled)} filled)` : ''),
      dashed: false,
      draggable: true,
      band: null,
      quantity: remainingOf(order),
    }));
}

/**
 * Order lines of children of the algorithms main runs, marked with their parent's tag and not
 * draggable: main follows and amends its own children, and a hand-made amend would replace one
 * behind its back.
 */
export function withAlgoTags(lines: readonly ChartLine[], tags: ReadonlyMap<string, { readonly algoId: string; readonly tag: string }>): ChartLine[] {
  return lines.map((line) => {
    const tag = line.kind === 'order' ? tags.get(line.id) : undefined;
    if (tag === undefined) return line;
    return { ...line, algo: { id: tag.algoId, tag: tag.tag }, prefix: `${tag.tag} · ${line.prefix}`, label: `${tag.tag} · ${line.label}`, draggable: false };
  });
}

/**
 * The quantity a leg closes, in words: its own size, or what its order has filled (an open order:
 * so far, "up to" its size before any fill; a closed one: the fills the window knows).
 */
function legQuantity(market: Market, leg: TriggerView, orders: readonly OrderView[], fills: readonly Pick<FillView, 'orderId' | 'quantity'>[]): string {
  if (leg.quantity !== null) return sizeText(market, leg.quantity);
  const parent = orders.find((order) => order.orderId === leg.parentOrderId);
  if (parent === undefined) {
    const filled = fills.filter((fill) => fill.orderId === leg.parentOrderId).reduce((sum, fill) => sum + fill.quantity, 0n);
    return filled > 0n ? sizeText(market, filled) : 'its order\u2019s fill';
  }
  return parent.filled > 0n ? sizeText(market, parent.filled) : `up to ${sizeText(market, parent.quantity)}`;
}

/** The pending legs of one book, as lines: "TP Sell 0.02 @ 3,100.00". */
export function legLines(
  market: Market,
  turbo: boolean,
  snapshot: TriggersSnapshot,
  orders: readonly OrderView[],
  fills: readonly Pick<FillView, 'orderId' | 'quantity'>[] = [],
  /** Legs main moves (trailing, or waiting for break-even) or keeps sized to the position, by trigger id: named on the line. */
  managed: ReadonlyMap<string, 'trailing' | 'break-even' | 'position'> = new Map(),
): ChartLine[] {
  return snapshot.pending
    .filter((leg) => leg.marketId === market.market_id && leg.turbo === turbo && leg.state === 'pending')
    .map((leg) => {
      const kind = managed.get(leg.triggerId);
      const role = `${kind === 'trailing' ? 'Trailing ' : kind === 'position' ? 'Position ' : ''}${leg.parentOrderId === null && leg.ocoId === null ? 'Stop' : leg.role === 'take-profit' ? 'TP' : 'SL'}${kind === 'break-even' ? ' (break-even)' : ''}`;
      return {
        key: `leg:${leg.triggerId}`,
        kind: 'leg' as const,
        id: leg.triggerId,
        price: leg.triggerPrice,
        side: leg.side,
        tone: leg.role === 'take-profit' ? ('tp' as const) : ('sl' as const),
        ...labelled(market, `${role} ${leg.side} ${legQuantity(market, leg, orders, fills)}`, leg.triggerPrice, leg.armed ? '' : ' · waits for its order'),
        dashed: !leg.armed,
        draggable: true,
        band: leg.minPrice !== null && leg.maxPrice !== null ? { min: leg.minPrice, max: leg.maxPrice } : null,
      };
    });
}

/**
 * The position of the signing account on this book at its average entry, with its unrealized P&L
 * from the window's one mark (`figures`: stores/mark-source.ts), marked stale in place when the
 * mark or the position is not live.
 */
export function positionLine(market: Market, turbo: boolean, account: string | null, positions: readonly PositionView[], figures: (position: PositionView) => PositionFigures): ChartLine | null {
  const position = positions.find((candidate) => candidate.marketId === market.market_id && candidate.turbo === turbo && (account === null || candidate.account === account) && candidate.size !== 0n);
  if (position === undefined || position.averageEntry === null) return null;
  const long = position.size > 0n;
  const size = long ? position.size : -position.size;
  const figure = figures(position);
  // The quote figure, the market's unit and the mark's name: as the Positions row and the ladder's foot show them.
  const pnl = figure.unrealized === null ? '' : ` · ${pnlText(market, figure.unrealized)} ${market.quote.symbol} ${pnlUnitText(figure)} @ ${figure.markSide ?? ''}${figure.stale === null ? '' : ' (stale)'}`;
  return {
    key: `position:${position.account}`,
    kind: 'position',
    id: position.account,
    price: position.averageEntry,
    side: long ? 'Buy' : 'Sell',
    tone: long ? 'long' : 'short',
    prefix: `${long ? 'Long' : 'Short'} ${sizeText(market, size)}`,
    suffix: pnl,
    label: `${long ? 'Long' : 'Short'} ${sizeText(market, size)} @ ${entryText(market, position.averageEntry)}${pnl}`,
    dashed: true,
    draggable: false,
    band: null,
    figures: { size: position.size, unrealized: figure.unrealized, stale: figure.stale, markSide: figure.markSide, unit: figure.display.unit },
  };
}

/** Two lines that draw and label the same (every field the chart shows or puts on the line's element). */
export function sameLine(left: ChartLine, right: ChartLine): boolean {
  if (left === right) return true;
  return (
    left.key === right.key &&
    left.kind === right.kind &&
    left.id === right.id &&
    left.price === right.price &&
    left.side === right.side &&
    left.tone === right.tone &&
    left.label === right.label &&
    left.prefix === right.prefix &&
    left.suffix === right.suffix &&
    left.dashed === right.dashed &&
    left.draggable === right.draggable &&
    left.band?.min === right.band?.min &&
    left.band?.max === right.band?.max &&
    left.quantity === right.quantity &&
    left.algo?.id === right.algo?.id &&
    left.algo?.tag === right.algo?.tag &&
    left.figures?.size === right.figures?.size &&
    left.figures?.unrealized === right.figures?.unrealized &&
    left.figures?.stale === right.figures?.stale &&
    left.figures?.markSide === right.figures?.markSide &&
    left.figures?.unit === right.figures?.unit
  );
}

/**
 * `next`, with each line that is the same as the previous line of its key replaced by that very
 * object: a line's element then re-renders only when the line changed, not on every change of any
 * order (a chart with 500 orders resting re-ran every line's effects on each push).
 */
export function keepUnchanged(previous: readonly ChartLine[], next: readonly ChartLine[]): ChartLine[] {
  if (previous.length === 0) return [...next];
  const before = new Map(previous.map((line) => [line.key, line] as const));
  return next.map((line) => {
    const old = before.get(line.key);
    return old !== undefined && sameLine(old, line) ? old : line;
  });
}
