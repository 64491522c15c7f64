// Cancel everything of one account on a set of books (the kill switch, cancel all in a market):
// every open order and every pending trigger leg (a stop, an OCO pair, the take-profit and
// stop-loss of a resting or a filled entry), read fresh from GET /v1/orders/active, cancelled five
// actions to a signed batch (CancelOrder, CancelTriggerOrder). A leg bound to an order that is
// cancelled goes with it (the exchange cancels it in the same transaction, ParentCancelled), so it
// is not cancelled on its own: its cancel in a later action would find it gone and revert the
// whole batch. A batch that reverts (an order filled or a leg fired before the cancel landed) is
// read again and what is still there sent again, twice at most. Nothing is ever placed.
import type { ActiveTrigger } from '../../../shared/api/market-schemas';
import type { B256 } from '../../../shared/encoding/b256';
import { formatUnits } from '../../../shared/encoding/units';
import type { CancelFailure, CancelReport, UnreadBook } from '../../../shared/ipc/views';
import type { Market } from '../../../shared/market/market';
import type { ActionGroup } from '../../../shared/protocol/session-actions';
import type { Result } from '../../../shared/result';
import type { ExchangeRestClient } from '../../exchange/rest-client';
import { packCancels, pairName, type CancelTarget } from './order-intents';

/** Sends after the first when a batch reverted. */
const MAX_RESENDS = 2;

export interface SweepBook {
  readonly market: Market;
  readonly turbo: boolean;
}

interface Item {
  readonly target: CancelTarget;
  readonly description: string;
}

interface Found {
  /** Open orders, by id. */
  readonly orders: Map<string, Item>;
  /** Pending legs not bound to an open order (standalone, or of an entry that has closed), by id. */
  readonly legs: Map<string, Item>;
  /** Pending legs bound to each open order: they go with it. */
  readonly bound: Map<string, Item[]>;
  readonly unread: UnreadBook[];
  /** A book listed as many open orders as one read returns: more may rest behind them. */
  full: boolean;
}

/** The most open orders GET /v1/orders/active lists for one book (a page). */
const ACTIVE_PAGE = 200;

export interface SweepDeps {
  readonly rest: Pick<ExchangeRestClient, 'getActiveOrders'>;
  /** The account whose orders and legs these are (the trading account, or a Turbo Account). */
  readonly account: B256;
  readonly books: readonly SweepBook[];
  /** Sign and send one batch of cancels as the account (journal first, like every request). */
  readonly submit: (batch: { readonly groups: ActionGroup[]; readonly description: string }) => Promise<Result<unknown>>;
  /** Main's words for an open order it knows ("Buy 0.5 ETH at 2,950 USDC (Spot) on ETH/USDC"). */
  readonly describeOrder?: (orderId: string) => string | undefined;
}

function bookName(book: SweepBook): string {
  return `${pairName(book.market)}${book.turbo ? ' (Turbo book)' : ''}`;
}

function legDescription(book: SweepBook, leg: ActiveTrigger): string {
  const market = book.market;
  const size = leg.quantity?.kind === 'Quantity' ? ` ${formatUnits(leg.quantity.quantity, market.base.decimals)} ${market.base.symbol}` : '';
  return `${leg.side}${size} trigger leg at ${formatUnits(leg.trigger_price, market.quote.decimals)} ${market.quote.symbol} on ${bookName(book)}`;
}

/** Every open order and pending leg of the account on the books, from the exchange's own read. */
export async function readSweep(deps: SweepDeps): Promise<Found> {
  const found: Found = { orders: new Map(), legs: new Map(), bound: new Map(), unread: [], full: false };
  for (const book of deps.books) {
    const page = await deps.rest.getActiveOrders({ market_id: book.market.market_id, contract: deps.account, ...(book.turbo ? { turbo: true } : {}) });
    if (!page.ok) {
      found.unread.push({ marketId: book.market.market_id, turbo: book.turbo, account: deps.account, reason: page.message });
      continue;
    }
    if (page.value.entries.filter((entry) => entry.kind === 'order').length >= ACTIVE_PAGE) found.full = true;
    for (const entry of page.value.entries) {
      if (entry.kind === 'order') {
        const orderId = entry.order_id;
        const description = deps.describeOrder?.(orderId) ?? `order ${orderId} on ${bookName(book)}`;
        found.orders.set(orderId, { target: { market: book.market, turbo: book.turbo, orderId }, description });
        found.bound.set(orderId, entry.triggers.map((leg) => ({ target: { market: book.market, turbo: book.turbo, orderId: leg.order_id, trigger: true }, description: legDescription(book, leg) })));
      } else {
        found.legs.set(entry.order_id, { target: { market: book.market, turbo: book.turbo, orderId: entry.order_id, trigger: true }, description: legDescription(book, entry) });
      }
    }
  }
  return found;
}

/** Cancel every open order and pending leg of the account on the books; the report says what was and was not. */
export async function sweepAccount(deps: SweepDeps): Promise<CancelReport> {
  const requestedOrders = new Set<string>();
  const requestedLegs = new Set<string>();
  const cancelledOrders: string[] = [];
  const cancelledLegs: string[] = [];
  const failedOrders = new Map<string, CancelFailure>();
  const failedLegs = new Map<string, CancelFailure>();
  /** What a reverted batch held, and the revert: read again before sending it again. */
  let reverted = new Map<string, { item: Item; reason: string }>();
  let batches = 0;
  let unread: UnreadBook[] = [];
  const fail = (item: Item, reason: string) => {
    const failure = { orderId: item.target.orderId, description: item.description, reason };
    if (item.target.trigger === true) failedLegs.set(item.target.orderId, failure);
    else failedOrders.set(item.target.orderId, failure);
  };
  for (let round = 0; round <= MAX_RESENDS + 1; round++) {
    const found = await readSweep(deps);
    unread = found.unread;
    // Reverted earlier and no longer listed: it filled (or fired) before its cancel landed.
    for (const [id, { item }] of reverted) {
      if (!found.orders.has(id) && !found.legs.has(id)) fail(item, item.target.trigger === true ? 'it fired or was cancelled by the exchange before its cancel landed' : 'it filled before its cancel landed: nothing of it is left open');
    }
    const orders = [...found.orders.values()].filter((item) => !failedOrders.has(item.target.orderId));
    const legs = [...found.legs.values()].filter((item) => !failedLegs.has(item.target.orderId));
    for (const item of orders) {
      requestedOrders.add(item.target.orderId);
      for (const leg of found.bound.get(item.target.orderId) ?? []) requestedLegs.add(leg.target.orderId);
    }
    for (const item of legs) requestedLegs.add(item.target.orderId);
    if (orders.length + legs.length === 0) break;
    if (round > MAX_RESENDS) {
      // Sent three times, reverted each time: say so, with the exchange's reason.
      for (const item of [...orders, ...legs]) fail(item, `still open after ${MAX_RESENDS + 1} signed attempts: ${reverted.get(item.target.orderId)?.reason ?? 'each batch reverted'}`);
      for (const item of orders) for (const leg of found.bound.get(item.target.orderId) ?? []) fail(leg, 'its order could not be cancelled');
      break;
    }
    const items = new Map<string, Item>([...legs, ...orders].map((item) => [item.target.orderId, item]));
    const nextReverted = new Map<string, { item: Item; reason: string }>();
    for (const batch of packCancels([...items.values()].map((item) => item.target))) {
      batches++;
      const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
      const what = [batch.orderIds.length > 0 ? count(batch.orderIds.length, 'order') : '', batch.triggerIds.length > 0 ? count(batch.triggerIds.length, 'trigger leg') : ''].filter((part) => part !== '').join(' and ');
      const sent = await deps.submit({ groups: batch.groups, description: `Cancel ${what}` });
      const ids = [...batch.orderIds, ...batch.triggerIds];
      if (sent.ok) {
        cancelledOrders.push(...batch.orderIds);
        cancelledLegs.push(...batch.triggerIds);
        for (const orderId of batch.orderIds) for (const leg of found.bound.get(orderId) ?? []) cancelledLegs.push(leg.target.orderId);
      } else if (sent.code === 'ONCHAIN_REVERT') {
        for (const id of ids) nextReverted.set(id, { item: items.get(id)!, reason: sent.message });
      } else {
        for (const id of ids) fail(items.get(id)!, sent.message);
        for (const orderId of batch.orderIds) for (const leg of found.bound.get(orderId) ?? []) fail(leg, `its order could not be cancelled: ${sent.message}`);
      }
    }
    reverted = nextReverted;
    // Nothing reverted and every book listed whole: done. Otherwise read again.
    if (reverted.size === 0 && !found.full) break;
  }
  return {
    requested: requestedOrders.size,
    cancelled: cancelledOrders,
    failed: [...failedOrders.values()],
    triggersRequested: requestedLegs.size,
    triggersCancelled: cancelledLegs,
    triggersFailed: [...failedLegs.values()],
    unread,
    batches,
  };
}

/** Two reports of one cancel-all (the trading account's and the Turbo Accounts') as one. */
export function mergeReports(left: CancelReport, right: CancelReport): CancelReport {
  return {
    requested: left.requested + right.requested,
    cancelled: [...left.cancelled, ...right.cancelled],
    failed: [...left.failed, ...right.failed],
    triggersRequested: left.triggersRequested + right.triggersRequested,
    triggersCancelled: [...left.triggersCancelled, ...right.triggersCancelled],
    triggersFailed: [...left.triggersFailed, ...right.triggersFailed],
    unread: [...left.unread, ...right.unread],
    batches: left.batches + right.batches,
  };
}

export const EMPTY_CANCEL_REPORT: CancelReport = { requested: 0, cancelled: [], failed: [], triggersRequested: 0, triggersCancelled: [], triggersFailed: [], unread: [], batches: 0 };

/** The notice after a cancel-all: how many orders and legs were cancelled, in how many signed batches, and each that was not. */
export function cancelReportText(report: CancelReport, bookNameOf: (marketId: string, turbo: boolean) => string): string {
  const plural = (n: number, word: string) => `${word}${n === 1 ? '' : 's'}`;
  let text = `Cancelled ${report.cancelled.length} of ${report.requested} open ${plural(report.requested, 'order')} and ${report.triggersCancelled.length} of ${report.triggersRequested} pending trigger ${plural(report.triggersRequested, 'leg')} in ${report.batches} signed batch${report.batches === 1 ? '' : 'es'}`;
  const failures = [...report.failed, ...report.triggersFailed];
  if (failures.length > 0) text += `; not cancelled: ${failures.map((failure) => `${failure.description ?? failure.orderId} (${failure.reason})`).join('; ')}`;
  if (report.unread.length > 0) text += `; not read, so not known: ${report.unread.map((book) => `${bookNameOf(book.marketId, book.turbo)} of ${book.account} (${book.reason})`).join('; ')}`;
  return text;
}
