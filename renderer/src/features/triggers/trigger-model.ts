// Trigger forms and overlays as pure functions: text fields in, either the exact request for the
// triggers area of the contract or the first reason it would be refused; the lines of the legs to
// draw on a ladder or a chart, and the move request a drag ends with. Parsing is shared/encoding's
// parseUnits (exact, never rounded); a price off the step is refused by name, never moved, as main
// and the exchange refuse it (docs/protocol.md "Trigger orders").
import { parseUnits } from '../../../../shared/encoding/units';
import type { RequestInput } from '../../../../shared/ipc/contract';
import type { OrderView, TriggerView, TriggersSnapshot } from '../../../../shared/ipc/views';
import type { Market } from '../../../../shared/market/market';
import { oppositeSide, type Side } from '../../../../shared/market/order-type';
import { isOnTick, priceTick } from '../../../../shared/market/tick';
import { fail, ok, type Result } from '../../../../shared/result';
import { formatPrice } from '../../format/market-format';

export type ExecutionChoice = 'market' | 'limit' | 'slippage';

/** One leg as the trader types it. */
export interface LegDraft {
  readonly enabled: boolean;
  readonly triggerText: string;
  readonly execution: ExecutionChoice;
  readonly limitText: string;
  /** Basis points, 1 to 5,000 (50 is 0.5 %). */
  readonly slippageText: string;
}

export const EXECUTION_LABELS: Record<ExecutionChoice, string> = {
  slippage: 'Market with slippage',
  limit: 'Limit',
  market: 'Market',
};

export const EXECUTION_HELP: Record<ExecutionChoice, string> = {
  slippage: 'When it fires, sells or buys at market within the slippage around the trigger price (a bounded market order).',
  limit: 'When it fires, places a limit order at your limit price; what does not fill rests on the book.',
  market: 'When it fires, a market order no worse than the trigger price; what does not fill is cancelled. Refused on margin accounts.',
};

export function emptyLeg(enabled = false): LegDraft {
  return { enabled, triggerText: '', execution: 'slippage', limitText: '', slippageText: '50' };
}

export type LegInput = RequestInput<'placeStopOrder'>['leg'];
export type BracketInput = RequestInput<'placeBracketOrder'>;
export type StopInput = RequestInput<'placeStopOrder'>;
export type OcoInput = RequestInput<'placeOcoOrder'>;
export type MoveInput = RequestInput<'moveTrigger'>;

function price(market: Market, text: string, field: string): Result<bigint> {
  // An empty field is named as such, never "\"\" is not a plain decimal number".
  if (text.trim() === '') return fail('MISSING', `${field} is empty: enter it, or turn this leg off.`, { field });
  const parsed = parseUnits(text.trim(), market.quote.decimals, field);
  if (!parsed.ok) return parsed;
  if (parsed.value === 0n) return fail('ZERO_PRICE', `${field} must be above zero.`, { field });
  const tick = priceTick(market);
  if (!isOnTick(parsed.value, tick)) {
    return fail('PRICE_PRECISION', `${field} ${text.trim()} is finer than the market allows: prices move in steps of ${formatPrice(market, tick)} ${market.quote.symbol}.`, { field });
  }
  return ok(parsed.value);
}

/** A leg's fields to the contract's leg input. `label` names the leg in messages (`Take-profit`). */
export function parseLeg(market: Market, draft: LegDraft, label: string): Result<LegInput> {
  const trigger = price(market, draft.triggerText, `${label} trigger price`);
  if (!trigger.ok) return trigger;
  switch (draft.execution) {
    case 'market':
      return ok({ triggerPrice: trigger.value, execution: { kind: 'market' } });
    case 'limit': {
      const limit = price(market, draft.limitText, `${label} limit price`);
      return limit.ok ? ok({ triggerPrice: trigger.value, execution: { kind: 'limit', price: limit.value } }) : limit;
    }
    case 'slippage': {
      const text = draft.slippageText.trim();
      const bps = /^\d{1,4}$/.test(text) ? Number(text) : Number.NaN;
      if (!(bps >= 1 && bps <= 5_000)) return fail('INVALID_SLIPPAGE', `${label} slippage: expected whole basis points from 1 to 5000 (50 is 0.5 %), got ${JSON.stringify(text)}.`, { field: `${label} slippage` });
      return ok({ triggerPrice: trigger.value, execution: { kind: 'slippage', bps } });
    }
  }
}

/** The entry of a bracket: what the order ticket would place. */
export interface BracketEntry {
  readonly side: Side;
  readonly orderType: BracketInput['orderType'];
  readonly price: bigint;
  readonly quantity: bigint;
}

/**
 * The bracket request: the entry with its enabled legs. A take-profit must stand beyond the entry
 * price in the trade's favour and a stop-loss against it (a buy: take-profit above, stop-loss below).
 */
export function bracketInput(market: Market, turbo: boolean, entry: BracketEntry, takeProfit: LegDraft, stopLoss: LegDraft): Result<BracketInput> {
  if (!takeProfit.enabled && !stopLoss.enabled) return fail('NO_LEGS', 'Add a take-profit, a stop-loss or both.');
  const buy = entry.side === 'Buy';
  let profit: LegInput | undefined;
  let loss: LegInput | undefined;
  if (takeProfit.enabled) {
    const parsed = parseLeg(market, takeProfit, 'Take-profit');
    if (!parsed.ok) return parsed;
    if (buy ? parsed.value.triggerPrice <= entry.price : parsed.value.triggerPrice >= entry.price) {
      return fail('TAKE_PROFIT_SIDE', `Take-profit trigger must be ${buy ? 'above' : 'below'} the entry price ${formatPrice(market, entry.price)} for a ${entry.side.toLowerCase()}.`, { field: 'Take-profit trigger price' });
    }
    profit = parsed.value;
  }
  if (stopLoss.enabled) {
    const parsed = parseLeg(market, stopLoss, 'Stop-loss');
    if (!parsed.ok) return parsed;
    if (buy ? parsed.value.triggerPrice >= entry.price : parsed.value.triggerPrice <= entry.price) {
      return fail('STOP_LOSS_SIDE', `Stop-loss trigger must be ${buy ? 'below' : 'above'} the entry price ${formatPrice(market, entry.price)} for a ${entry.side.toLowerCase()}.`, { field: 'Stop-loss trigger price' });
    }
    loss = parsed.value;
  }
  return ok({
    marketId: market.market_id,
    ...(turbo ? { turbo: true } : {}),
    side: entry.side,
    orderType: entry.orderType,
    price: entry.price,
    quantity: entry.quantity,
    ...(profit === undefined ? {} : { takeProfit: profit }),
    ...(loss === undefined ? {} : { stopLoss: loss }),
  });
}

/** A standalone leg's size: a quantity typed by the trader, or an order of the market to size from. */
export type SizeDraft = { readonly kind: 'quantity'; readonly quantityText: string } | { readonly kind: 'parent'; readonly orderId: string };

function size(market: Market, draft: SizeDraft): Result<StopInput['size']> {
  if (draft.kind === 'parent') {
    if (!/^0x[0-9a-f]{64}$/.test(draft.orderId)) return fail('NO_PARENT', 'Choose the order the legs protect.', { field: 'order' });
    return ok({ kind: 'parent', orderId: draft.orderId });
  }
  const quantity = parseUnits(draft.quantityText.trim(), market.base.decimals, 'Quantity');
  if (!quantity.ok) return quantity;
  if (quantity.value === 0n) return fail('ZERO_QUANTITY', 'Quantity must be above zero.', { field: 'Quantity' });
  return ok({ kind: 'quantity', quantity: quantity.value });
}

export function stopInput(market: Market, turbo: boolean, side: Side, leg: LegDraft, sizeDraft: SizeDraft): Result<StopInput> {
  const parsed = parseLeg(market, leg, 'Stop');
  if (!parsed.ok) return parsed;
  const sized = size(market, sizeDraft);
  if (!sized.ok) return sized;
  return ok({ marketId: market.market_id, ...(turbo ? { turbo: true } : {}), side, leg: parsed.value, size: sized.value });
}

export function ocoInput(market: Market, turbo: boolean, side: Side, first: LegDraft, second: LegDraft, sizeDraft: SizeDraft): Result<OcoInput> {
  const one = parseLeg(market, first, 'First leg');
  if (!one.ok) return one;
  const two = parseLeg(market, second, 'Second leg');
  if (!two.ok) return two;
  if (one.value.triggerPrice === two.value.triggerPrice) return fail('SAME_TRIGGER', 'The two legs of an OCO pair need different trigger prices.', { field: 'Second leg trigger price' });
  const sized = size(market, sizeDraft);
  if (!sized.ok) return sized;
  return ok({ marketId: market.market_id, ...(turbo ? { turbo: true } : {}), side, first: one.value, second: two.value, size: sized.value });
}

/** The side a protective leg of `order` takes: the other side. */
export function protectiveSide(order: Pick<OrderView, 'side'>): Side {
  return oppositeSide(order.side);
}

// ---- the list ----------------------------------------------------------------------------------

export interface TriggerGroup {
  /** The order the legs belong to (open, or known from history), or null for legs on their own. */
  readonly parentOrderId: string | null;
  readonly parent: OrderView | null;
  readonly legs: readonly TriggerView[];
}

/** Pending legs grouped under their parent orders (open orders first, in the given order), then the rest. */
export function groupUnderOrders(legs: readonly TriggerView[], openOrders: readonly OrderView[]): TriggerGroup[] {
  const groups: TriggerGroup[] = [];
  const used = new Set<string>();
  for (const order of openOrders) {
    const mine = legs.filter((leg) => leg.parentOrderId === order.orderId);
    if (mine.length === 0) continue;
    groups.push({ parentOrderId: order.orderId, parent: order, legs: mine });
    for (const leg of mine) used.add(leg.triggerId);
  }
  const byParent = new Map<string | null, TriggerView[]>();
  for (const leg of legs) {
    if (used.has(leg.triggerId)) continue;
    const list = byParent.get(leg.parentOrderId) ?? [];
    list.push(leg);
    byParent.set(leg.parentOrderId, list);
  }
  for (const [parentOrderId, mine] of byParent) if (parentOrderId !== null) groups.push({ parentOrderId, parent: null, legs: mine });
  const alone = byParent.get(null);
  if (alone) groups.push({ parentOrderId: null, parent: null, legs: alone });
  return groups;
}

/** "TP" / "SL" and how it executes, for a row or a line label. */
export function legLabel(market: Market, leg: TriggerView): string {
  const role = leg.parentOrderId === null && leg.ocoId === null ? 'Stop' : leg.role === 'take-profit' ? 'TP' : 'SL';
  const execution =
    leg.kind === 'limit' && leg.limitPrice !== null
      ? `limit ${formatPrice(market, leg.limitPrice)}`
      : leg.kind === 'bounded' && leg.minPrice !== null && leg.maxPrice !== null
        ? `${formatPrice(market, leg.minPrice)}–${formatPrice(market, leg.maxPrice)}`
        : 'market';
  const dormant = leg.state === 'pending' && !leg.armed;
  return `${role} ${leg.side} @ ${formatPrice(market, leg.triggerPrice)} (${execution})${dormant ? ' · waiting for its order to fill' : ''}`;
}

// ---- overlays ----------------------------------------------------------------------------------

/** A horizontal line at a leg's trigger price, for the ladder and the chart. */
export interface TriggerLine {
  readonly triggerId: string;
  readonly price: bigint;
  readonly side: Side;
  readonly role: TriggerView['role'];
  /** `tp` or `sl`: the class a host colours the line with. */
  readonly tone: 'tp' | 'sl';
  readonly label: string;
  readonly armed: boolean;
  readonly parentOrderId: string | null;
  /** The limit or the bounds a host may shade next to the line. */
  readonly limitPrice: bigint | null;
  readonly band: { readonly min: bigint; readonly max: bigint } | null;
  /** Main moves this stop (a trailing stop, or one waiting for break-even), or keeps this leg sized to the position (position TP/SL). */
  readonly managed?: 'trailing' | 'break-even' | 'position';
}

/** Lines of the pending legs of one book, lowest price first. */
export function triggerLines(snapshot: TriggersSnapshot, market: Market, turbo: boolean): TriggerLine[] {
  return snapshot.pending
    .filter((leg) => leg.marketId === market.market_id && leg.turbo === turbo)
    .map((leg) => ({
      triggerId: leg.triggerId,
      price: leg.triggerPrice,
      side: leg.side,
      role: leg.role,
      tone: leg.role === 'take-profit' ? ('tp' as const) : ('sl' as const),
      label: legLabel(market, leg),
      armed: leg.armed,
      parentOrderId: leg.parentOrderId,
      limitPrice: leg.limitPrice,
      band: leg.minPrice !== null && leg.maxPrice !== null ? { min: leg.minPrice, max: leg.maxPrice } : null,
    }))
    .sort((left, right) => (left.price < right.price ? -1 : left.price > right.price ? 1 : 0));
}

/**
 * The ladder row a price falls in, for rows `rowStep` raw units apart: floored to the row (a row
 * shows the prices from its own up to the next). A line is drawn in the row its trigger falls in.
 */
export function rowOf(priceValue: bigint, rowStep: bigint): bigint {
  return rowStep <= 1n ? priceValue : priceValue - (priceValue % rowStep);
}

/** Lines per ladder row (a merged row may hold several legs). */
export function linesByRow(lines: readonly TriggerLine[], rowStep: bigint): Map<bigint, TriggerLine[]> {
  const rows = new Map<bigint, TriggerLine[]>();
  for (const line of lines) {
    const row = rowOf(line.price, rowStep);
    const list = rows.get(row) ?? [];
    list.push(line);
    rows.set(row, list);
  }
  return rows;
}

/**
 * Where a drag lands: floored onto the price step (a dragged line never asks for an off-step
 * price), at least one step. A chart passes the value under the pointer; a ladder its row's price.
 */
export function snapToStep(market: Market, priceValue: bigint): bigint {
  const tick = priceTick(market);
  const floored = priceValue - (priceValue % tick);
  return floored < tick ? tick : floored;
}

/** The move a drag ends with: the leg to its new trigger price (limits and bounds keep their distances in main). */
export function moveInput(market: Market, turbo: boolean, line: Pick<TriggerLine, 'triggerId'>, priceValue: bigint): MoveInput {
  return { marketId: market.market_id, ...(turbo ? { turbo: true } : {}), triggerId: line.triggerId, triggerPrice: snapToStep(market, priceValue) };
}
