// The orders stream as the browser host carries it over a window's WebSocket: the whole list once,
// then only what changed. The contract's `orders` push is the whole state (open orders and recent
// fills) and stays so for every listener: the host encodes each push as a change against the one
// this connection received before it, and the page's transport applies the change to the state it
// holds and hands its listeners the whole state again, with every unchanged order and fill the very
// object it was before (so the stores' identity checks skip them).
//
// A change is exact: the receiver's state after it equals the sender's, member for member (a
// property test holds diffOrders and applyOrdersChange to that on any two states). A change whose
// base is not the state the receiver holds (which an ordered, reliable WebSocket never gives) is not
// applied: the receiver asks for the whole state again (a `resync` frame) and ignores changes until
// it comes.
import { sameFlatRecord as sameRecord } from '../frozen-record';
import type { FillView, OrdersSnapshot, OrderView } from './views/trading';

/** The whole state, numbered. */
export interface OrdersWireAll {
  readonly kind: 'all';
  readonly version: number;
  readonly open: readonly OrderView[];
  readonly fills: readonly FillView[];
}

/** The fills of a change: new ones ahead of the fills held, cut to `count` in all; or the whole list. */
export type FillsChange = { readonly added: readonly FillView[]; readonly count: number } | { readonly all: readonly FillView[] };

/** What changed between two states. */
export interface OrdersChange {
  /** Orders new or changed, each whole; new ones in the order they are listed in. */
  readonly upserted: readonly OrderView[];
  /** Ids of orders listed before and no longer. */
  readonly removed: readonly string[];
  /**
   * Every open order's id in the order listed, when the receiver's rule (new orders first, in the
   * order of `upserted`, then the orders it held, in their order) would not give that order.
   */
  readonly order: readonly string[] | null;
  readonly fills: FillsChange;
}

/** A change from the state numbered `base` to the one numbered `version`. */
export interface OrdersWireChange extends OrdersChange {
  readonly kind: 'change';
  readonly version: number;
  readonly base: number;
}

export type OrdersWire = OrdersWireAll | OrdersWireChange;

/** The frame a page sends when a change cannot be applied: send me the whole state. */
export const ORDERS_RESYNC_FRAME = { t: 'resync', stream: 'orders' } as const;

/** Ids of a list, or null when one repeats. */
function idsOf(orders: readonly OrderView[]): Map<string, OrderView> | null {
  const byId = new Map<string, OrderView>();
  for (const order of orders) {
    if (byId.has(order.orderId)) return null;
    byId.set(order.orderId, order);
  }
  return byId;
}

/** The receiver's rule: new orders first, in the order of `upserted`, then the held ones (changed ones replaced, removed ones out), in their order. */
function arranged(held: readonly OrderView[], heldIds: ReadonlyMap<string, OrderView>, upserted: readonly OrderView[], removed: ReadonlySet<string>): OrderView[] {
  const replaced = new Map<string, OrderView>();
  const list: OrderView[] = [];
  for (const order of upserted) {
    if (heldIds.has(order.orderId)) replaced.set(order.orderId, order);
    else list.push(order);
  }
  for (const order of held) if (!removed.has(order.orderId)) list.push(replaced.get(order.orderId) ?? order);
  return list;
}

/** How many fills of `next` are new ahead of `held`'s, when `next` is that many new ones followed by the first of `held`; else null. */
function addedFills(held: readonly FillView[], next: readonly FillView[]): number | null {
  if (held.length === 0) return next.length;
  const first = held[0]!;
  for (let added = 0; added <= next.length; added++) {
    if (added < next.length && !sameRecord(next[added]!, first)) continue;
    // `added` new ones, then held[0 ..] for the rest of next.
    const rest = next.length - added;
    if (rest > held.length) return null;
    let same = true;
    for (let index = 0; index < rest && same; index++) same = sameRecord(next[added + index]!, held[index]!);
    if (same) return added;
  }
  return null;
}

/** What changed from `held` to `next`; null when either lists an order id twice (then only the whole state says it). */
export function diffOrders(held: OrdersSnapshot, next: OrdersSnapshot): OrdersChange | null {
  const heldIds = idsOf(held.open);
  const nextIds = idsOf(next.open);
  if (heldIds === null || nextIds === null) return null;
  const upserted: OrderView[] = [];
  for (const order of next.open) {
    const before = heldIds.get(order.orderId);
    if (before === undefined || !sameRecord(before, order)) upserted.push(order);
  }
  const removed: string[] = [];
  for (const order of held.open) if (!nextIds.has(order.orderId)) removed.push(order.orderId);
  const rule = arranged(held.open, heldIds, upserted, new Set(removed));
  let inOrder = rule.length === next.open.length;
  for (let index = 0; inOrder && index < rule.length; index++) inOrder = rule[index]!.orderId === next.open[index]!.orderId;
  const added = addedFills(held.fills, next.fills);
  return {
    upserted,
    removed,
    order: inOrder ? null : next.open.map((order) => order.orderId),
    fills: added === null ? { all: next.fills } : { added: next.fills.slice(0, added), count: next.fills.length },
  };
}

/** `held` with `change` applied, unchanged orders and fills kept as the same objects; null when the change does not fit `held`. */
export function applyOrdersChange(held: OrdersSnapshot, change: OrdersChange): OrdersSnapshot | null {
  const heldIds = idsOf(held.open);
  if (heldIds === null) return null;
  const removed = new Set(change.removed);
  if (removed.size !== change.removed.length) return null;
  for (const id of removed) if (!heldIds.has(id)) return null;
  const upsertedIds = idsOf(change.upserted);
  if (upsertedIds === null) return null;
  for (const id of upsertedIds.keys()) if (removed.has(id)) return null;
  let open = arranged(held.open, heldIds, change.upserted, removed);
  if (change.order !== null) {
    const byId = idsOf(open)!;
    if (change.order.length !== open.length) return null;
    const listed: OrderView[] = [];
    for (const id of change.order) {
      const order = byId.get(id);
      if (order === undefined) return null;
      byId.delete(id);
      listed.push(order);
    }
    open = listed;
  }
  let fills: readonly FillView[];
  if ('all' in change.fills) fills = change.fills.all;
  else {
    const { added, count } = change.fills;
    const kept = count - added.length;
    if (!Number.isSafeInteger(count) || kept < 0 || kept > held.fills.length) return null;
    fills = kept === held.fills.length && added.length === 0 ? held.fills : [...added, ...held.fills.slice(0, kept)];
  }
  return { open, fills };
}

function isList(value: unknown): value is readonly never[] {
  return Array.isArray(value);
}

/**
 * The receiving end, one per connection: the state last received and its number. `receive` returns
 * the whole state a frame brings, `resync` when the frame cannot be applied (the caller sends
 * ORDERS_RESYNC_FRAME), or null when it brings nothing (a change while a resync is awaited, or a
 * malformed frame).
 */
export class OrdersWireDecoder {
  private held: { readonly version: number; readonly state: OrdersSnapshot } | null = null;
  private awaitingAll = false;

  receive(wire: unknown): OrdersSnapshot | 'resync' | null {
    if (wire === null || typeof wire !== 'object') return null;
    const frame = wire as Partial<Record<keyof OrdersWireChange | keyof OrdersWireAll, unknown>>;
    if (typeof frame.version !== 'number') return null;
    if (frame.kind === 'all') {
      if (!isList(frame.open) || !isList(frame.fills)) return null;
      const state: OrdersSnapshot = { open: frame.open, fills: frame.fills };
      this.held = { version: frame.version, state };
      this.awaitingAll = false;
      return state;
    }
    if (frame.kind !== 'change' || this.awaitingAll) return null;
    const fills = frame.fills as FillsChange | undefined;
    const wellFormed =
      isList(frame.upserted) && isList(frame.removed) && (frame.order === null || isList(frame.order)) && fills !== null && typeof fills === 'object' && ('all' in fills ? isList(fills.all) : isList(fills.added) && typeof fills.count === 'number');
    const state = wellFormed && this.held !== null && this.held.version === frame.base ? applyOrdersChange(this.held.state, frame as unknown as OrdersChange) : null;
    if (state === null) {
      this.held = null;
      this.awaitingAll = true;
      return 'resync';
    }
    this.held = { version: frame.version, state };
    return state;
  }

  /**
   * What a transport hands a stream's listeners for a push: the payload itself, or for the orders
   * stream the whole state its frame brings; null when there is nothing to hand on (`askAll` was
   * called when the page must ask for the whole state, with ORDERS_RESYNC_FRAME).
   */
  forListeners(stream: string, payload: unknown, askAll: () => void): { readonly payload: unknown } | null {
    if (stream !== 'orders') return { payload };
    const state = this.receive(payload);
    if (state === 'resync') askAll();
    return state === null || state === 'resync' ? null : { payload: state };
  }
}
