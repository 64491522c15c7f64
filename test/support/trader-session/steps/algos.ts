// The execution algorithms' guarantees (docs/actions.md "Execution algorithms (run by main)") as
// pure checks over the exchange's truth, for the random trader session's algorithm steps (start,
// pause, cancel, kill switch). An algorithm's children are the exchange orders its view names (by
// order id); each check returns the broken promises, empty when the contract held.
//
// What may race, and why the checks allow it: a child may fill between the read of the view and
// the read of the exchange, so the accounting checks (filled, average, counts) are meant for a
// read after the algorithm stopped (paused, cancelled, finished), or are retried within the
// session's bound while it runs; a child whose signing began before a pause or a cancel (journaled
// before it, `placedAt` not after the stop) may reach the exchange after it, and is the last one.
// Times: `since` and `placedAt` are milliseconds on the exchange's clock (the sandbox's, which
// main's injected clock follows in tests); the exchange stamps orders in nanoseconds.
import { averagePrice, slippageBps, type Fill } from '../../../../shared/algos/fill-stats';
import { planScale } from '../../../../shared/algos/scale-plan';
import type { AlgoChildView, AlgoView } from '../../../../shared/ipc/views/algos';
import type { Market } from '../../../../shared/market/market';
import { priceTick } from '../../../../shared/market/tick';
import type { Problems } from '../postconditions';
import type { TruthOrder } from '../truth';

/** When the session stopped the algorithm: cancelled from the panel, paused, or the kill switch (ms, the exchange's clock). */
export interface AlgoStops {
  readonly cancelledAt?: number;
  readonly pausedAt?: number;
  readonly killedAt?: number;
}

const NANOS_PER_MILLI = 1_000_000n;
const short = (id: string) => (id.length > 14 ? `${id.slice(0, 8)}…${id.slice(-4)}` : id);
const isOpen = (order: TruthOrder) => order.status === 'open' || order.status === 'partially-filled';

function name(view: AlgoView): string {
  return `${view.spec.params.kind} ${short(view.id)} (${view.spec.side} ${view.spec.quantity}${view.spec.limitPrice === null ? '' : `, limit ${view.spec.limitPrice}`})`;
}

/** Each child the view names with an order id, with its order on the exchange (null when the exchange has none). */
export function childOrders(view: AlgoView, orders: readonly TruthOrder[]): { child: AlgoChildView; order: TruthOrder | null }[] {
  const byId = new Map(orders.map((order) => [order.orderId, order]));
  return view.children.filter((child) => child.orderId !== null).map((child) => ({ child, order: byId.get(child.orderId ?? '') ?? null }));
}

/** The earliest stop the session made, or null while it never stopped the algorithm. */
function stoppedAt(since: AlgoStops): number | null {
  const times = [since.cancelledAt, since.pausedAt, since.killedAt].filter((time): time is number => time !== undefined);
  return times.length === 0 ? null : Math.min(...times);
}

/**
 * The guarantees every algorithm keeps, on the exchange: never more than its total filled or
 * committed (filled plus what open children may still fill); every child on the algorithm's book,
 * side and account, on the tick and never beyond its price limit; no child created after a stop
 * unless its signing had begun before; after a cancel or the kill switch no child open and the
 * algorithm cancelled (or finished first), after a pause no longer running; and the view's
 * filled, remaining, average price, slippage and counts equal to its children on the exchange.
 */
export function checkAlgoGuarantees(view: AlgoView, market: Market, ordersOnExchange: readonly TruthOrder[], since: AlgoStops = {}): Problems {
  const problems: Problems = [];
  const what = name(view);
  const { spec } = view;
  const tick = priceTick(market);
  const children = childOrders(view, ordersOnExchange);
  const found: TruthOrder[] = [];
  for (const { child, order } of children) {
    if (order === null) {
      problems.push(`${what}: child ${short(child.orderId ?? '')} (${child.status}) is not among the account's orders on the exchange`);
      continue;
    }
    found.push(order);
    const label = `${what}: child ${short(order.orderId)} (${order.side} ${order.quantity} at ${order.price}, ${order.status})`;
    if (order.marketId !== spec.marketId || order.turbo !== spec.turbo) problems.push(`${label} is on another book than the algorithm's`);
    if (order.account !== view.account) problems.push(`${label} is signed for account ${short(order.account)}, not the algorithm's ${short(view.account)}`);
    if (order.side !== spec.side) problems.push(`${label} is a ${order.side}; the algorithm ${spec.side === 'Buy' ? 'buys' : 'sells'}`);
    if (order.price % tick !== 0n) problems.push(`${label} is off the ${tick} price tick`);
    if (spec.limitPrice !== null) {
      const beyond = spec.side === 'Buy' ? order.price > spec.limitPrice : order.price < spec.limitPrice;
      if (beyond) problems.push(`${label} is beyond the algorithm's limit ${spec.limitPrice}`);
    }
    const stop = stoppedAt(since);
    if (stop !== null) {
      const createdAt = order.timestamp / NANOS_PER_MILLI;
      if (createdAt > BigInt(stop) && child.placedAt > stop) problems.push(`${label} was created at ${createdAt} ms, after the algorithm was stopped at ${stop} ms, and journaled after it (${child.placedAt} ms)`);
    }
  }

  const filled = found.reduce((sum, order) => sum + order.filled, 0n);
  const committed = found.reduce((sum, order) => sum + (isOpen(order) ? order.quantity : order.filled), 0n);
  if (filled > spec.quantity) problems.push(`${what}: its children filled ${filled}, more than its total ${spec.quantity}`);
  else if (committed > spec.quantity) problems.push(`${what}: its children filled and open come to ${committed}, more than its total ${spec.quantity}`);

  const stopping = since.cancelledAt ?? since.killedAt;
  if (stopping !== undefined) {
    if (view.state !== 'cancelled' && view.state !== 'finished') problems.push(`${what} is ${view.state} after it was ${since.killedAt === undefined ? 'cancelled' : 'stopped by the kill switch'}`);
    for (const order of found) if (isOpen(order)) problems.push(`${what}: child ${short(order.orderId)} is still ${order.status} on the exchange after the algorithm was cancelled`);
  } else if (since.pausedAt !== undefined && view.state === 'running') {
    problems.push(`${what} is still running after it was paused`);
  }

  // The view's accounting against its children on the exchange.
  if (view.filled !== filled) problems.push(`${what} shows ${view.filled} filled; its children on the exchange filled ${filled}`);
  if (view.remaining !== spec.quantity - view.filled) problems.push(`${what} shows ${view.remaining} remaining, not its total ${spec.quantity} less ${view.filled} filled`);
  const fills = found.flatMap((order): readonly Fill[] => {
    const listed = order.fills.reduce((sum, fill) => sum + fill.quantity, 0n);
    // An order whose fills are not all listed counts at its average fill price.
    return listed === order.filled ? order.fills : order.filled > 0n ? [{ price: order.averagePrice, quantity: order.filled }] : [];
  });
  const average = averagePrice(fills, market);
  // The exchange rounds each order's average fill price, and a view may sum those: within one raw
  // unit of the fills' own average is the same figure.
  const off = view.averagePrice === null || average === null ? null : view.averagePrice - average;
  if ((view.averagePrice === null) !== (average === null) || (off !== null && (off > 1n || off < -1n))) {
    problems.push(`${what} shows an average price of ${view.averagePrice ?? 'none'}; its children's fills average ${average ?? 'none'}`);
  }
  if (view.averagePrice !== null && view.arrivalPrice !== null) {
    const slippage = slippageBps(spec.side, view.averagePrice, view.arrivalPrice);
    if (view.slippageBps !== slippage) problems.push(`${what} shows a slippage of ${view.slippageBps ?? 'none'} bps; ${view.averagePrice} against the arrival ${view.arrivalPrice} is ${slippage} bps`);
  }
  const counts = {
    open: found.filter(isOpen).length,
    filled: found.filter((order) => order.status === 'filled').length,
    cancelled: found.filter((order) => order.status === 'cancelled').length,
  };
  for (const key of ['open', 'filled', 'cancelled'] as const) {
    if (view.counts[key] !== counts[key]) problems.push(`${what} counts ${view.counts[key]} ${key} children; the exchange has ${counts[key]}`);
  }
  return problems;
}

/**
 * A scale order placed its plan: the orders `planScale` gives for its spec (each price with its
 * size) are its children on the exchange, one each, and it has no other child. While it runs or once
 * it finished every planned order is there; paused or cancelled (a refused batch, the trader),
 * those placed are still each a planned one.
 */
export function checkScalePlaced(view: AlgoView, market: Market, ordersOnExchange: readonly TruthOrder[]): Problems {
  const { spec } = view;
  if (spec.params.kind !== 'scale') return [`${name(view)} is not a scale order`];
  const plan = planScale(market, { side: spec.side, quantity: spec.quantity, from: spec.params.from, to: spec.params.to, count: spec.params.count, shape: spec.params.shape });
  if (!plan.ok) return [`${name(view)} was started, but its spec cannot be planned: ${plan.code} ${plan.message}`];
  const problems: Problems = [];
  const unmatched = [...plan.value.orders];
  for (const { child, order } of childOrders(view, ordersOnExchange)) {
    if (order === null) {
      problems.push(`${name(view)}: child ${short(child.orderId ?? '')} is not among the account's orders on the exchange`);
      continue;
    }
    const index = unmatched.findIndex((planned) => planned.price === order.price && planned.quantity === order.quantity);
    if (index < 0) problems.push(`${name(view)}: child ${short(order.orderId)} (${order.quantity} at ${order.price}) is not one of the planned orders left (${unmatched.map((planned) => `${planned.quantity} at ${planned.price}`).join(', ') || 'none'})`);
    else unmatched.splice(index, 1);
  }
  if ((view.state === 'running' || view.state === 'finished') && unmatched.length > 0) {
    problems.push(`${name(view)} is ${view.state}, but ${unmatched.length} planned orders are not on the exchange: ${unmatched.map((planned) => `${planned.quantity} at ${planned.price}`).join(', ')}`);
  }
  return problems;
}
