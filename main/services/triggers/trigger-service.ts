// The trigger legs of the active trading account and every trigger request: an entry with a
// take-profit and a stop-loss attached, a stop on its own, an OCO pair, cancel, move (cancel and
// replace in one signed batch). Legs are checked before signing (shared/protocol's checkAction,
// with the market row, the parent's side and the last trade price), sent through the submitter
// (journal before send, a lost answer reconciled, never resent), and followed from GET
// /v1/orders/active (start, reconnect, after each request) and the order stream's `triggers`. A
// fill of an order a leg became carries a `trigger` marker; a leg that fires or is cancelled by the
// exchange is announced.
import type { ActiveTrigger, Order } from '../../../shared/api/market-schemas';
import type { B256 } from '../../../shared/encoding/b256';
import { contractIdentity } from '../../../shared/encoding/identity';
import { formatUnits } from '../../../shared/encoding/units';
import { lowerQuantityToWholeQuote, quoteValue } from '../../../shared/market/amounts';
import { quantityTick } from '../../../shared/market/tick';
import { triggerOrderPrice } from '../../../shared/protocol/trigger';
import type { CancelReport, FillNotice, OrderView, PlacedTriggers, TriggerView, TriggersSnapshot } from '../../../shared/ipc/views';
import type { Market } from '../../../shared/market/market';
import { oppositeSide, type Side } from '../../../shared/market/order-type';
import type { SessionAction } from '../../../shared/protocol/actions';
import { checkAction } from '../../../shared/protocol/check-action';
import type { ActionGroup } from '../../../shared/protocol/session-actions';
import type { TriggerLeg, TriggerParent, TriggerQuantity } from '../../../shared/protocol/trigger';
import { ZERO_B256 } from '../../../shared/encoding/b256';
import { fail, ok, type Result } from '../../../shared/result';
import { FreshRead } from '../../../shared/fresh-read';
import type { ExchangeRestClient } from '../../exchange/rest-client';
import type { AccountService } from '../account/account-service';
import type { MarketsIndex } from '../market-data/markets-index';
import { EMPTY_CANCEL_REPORT } from '../trading/cancel-sweep';
import { pairName, prepareOrder, type OrderTypeIntent } from '../trading/order-intents';
import type { Submitter } from '../trading/submitter';
import { orderView, type TradingService } from '../trading/trading-service';
import { TRIGGER_CODES } from './codes';
import { buildLeg, describeLeg, explicitQuantity, fromParent, movedLeg, orderPairByLock, type LegIntent } from './trigger-intents';
import { knownTrigger, triggerRole, type KnownTrigger } from './trigger-views';
import { marketRefusalContext, revertSentence } from '../../../shared/errors/trader-text';

/** Legs that fired or were cancelled, kept for the list and the fill markers. */
const RECENT_LEGS = 100;

/** Cancel reasons that are the owner's doing or the normal end of a leg: nothing to re-create. */
const ROUTINE_CANCELS: ReadonlySet<string> = new Set(['Cancelled', 'OcoSiblingFired', 'ParentCancelled', 'ParentNotFilled', 'SessionEnded']);
/** Re-creations of one entry's protection before giving up (a leg the exchange keeps refusing). */
const MAX_RECREATIONS = 3;

export type LegSize = { readonly kind: 'quantity'; readonly quantity: bigint } | { readonly kind: 'parent'; readonly orderId: B256 };

export interface TriggerServiceDeps {
  readonly rest: ExchangeRestClient;
  readonly markets: () => MarketsIndex | null;
  readonly accounts: AccountService;
  readonly submitter: Submitter;
  readonly trading: TradingService;
  readonly loadSessionKey: (address: B256) => Promise<Result<void>>;
  readonly nowSeconds: () => bigint;
  /** A Turbo Account is selected (the margin service signs Turbo-book orders as it). */
  readonly turboAccountActive: () => boolean;
  readonly publish: (snapshot: TriggersSnapshot) => void;
  /** `details`: the raw exchange reason behind the trader sentence (the notification centre's "Details"). */
  readonly notice: (level: 'info' | 'warning' | 'error', text: string, code?: string, details?: string) => void;
  readonly log: (line: string) => void;
}

interface Book {
  readonly market: Market;
  readonly turbo: boolean;
}

export class TriggerService {
  private readonly legs = new Map<string, KnownTrigger>();
  /** Closed legs by the order they became (fill markers). */
  private readonly byFiredOrder = new Map<string, KnownTrigger>();
  private recent: TriggerView[] = [];
  /** Entries whose protection waits for more fills (the filled size is below the market's minimum), by order id. */
  private readonly waiting = new Map<string, KnownTrigger>();
  /** Re-creations per entry order. */
  private readonly recreations = new Map<string, number>();
  private readonly reads = new FreshRead(() => this.pull());
  /** Complete reads of every book's legs so far (a leg missing after one is no longer pending). */
  private completeReads = 0;

  constructor(private readonly deps: TriggerServiceDeps) {}

  snapshot(): TriggersSnapshot {
    const pending = [...this.legs.values()].filter((known) => known.view.state === 'pending').map((known) => known.view);
    pending.sort((left, right) => left.time - right.time || left.triggerId.localeCompare(right.triggerId));
    return { pending, recent: this.recent };
  }

  /** Forget everything (the trading account changed). */
  reset(): void {
    this.legs.clear();
    this.byFiredOrder.clear();
    this.waiting.clear();
    this.recreations.clear();
    this.recent = [];
    this.deps.publish(this.snapshot());
  }

  /** A fill of an order a leg became carries the leg. */
  markFill(notice: FillNotice): FillNotice {
    const waiting = this.waiting.get(notice.fill.orderId);
    if (waiting !== undefined) {
      this.waiting.delete(notice.fill.orderId);
      void this.protect(waiting);
    }
    const known = this.byFiredOrder.get(notice.fill.orderId);
    if (!known) return notice;
    return { ...notice, trigger: { triggerId: known.view.triggerId, role: known.view.role, triggerPrice: known.view.triggerPrice } };
  }

  // ---- state from the exchange ------------------------------------------------------------

  /** Legs of an order-stream message (call it before the message's orders are applied). */
  applyStream(triggers: readonly ActiveTrigger[] | undefined, turbo: boolean): void {
    if (triggers === undefined || triggers.length === 0) return;
    for (const wire of triggers) this.apply(wire, wire.market_id ?? '', turbo, true);
    this.deps.publish(this.snapshot());
  }

  private apply(wire: ActiveTrigger, marketId: string, turbo: boolean, announce: boolean): KnownTrigger {
    const previous = this.legs.get(wire.order_id);
    const known = knownTrigger(wire, marketId, turbo, previous);
    this.legs.set(known.view.triggerId, known);
    if (known.view.firedOrderId !== null) this.byFiredOrder.set(known.view.firedOrderId, known);
    if (known.view.state !== 'pending') {
      this.recent = [known.view, ...this.recent.filter((view) => view.triggerId !== known.view.triggerId)].slice(0, RECENT_LEGS);
      this.legs.delete(known.view.triggerId);
      if (announce && previous?.view.state === 'pending') {
        this.announce(known);
        if (known.view.state === 'cancelled' && known.view.reason !== null && !ROUTINE_CANCELS.has(known.view.reason) && known.view.parentOrderId !== null) void this.protect(known);
      }
    }
    // Keep the fill-marker map bounded with the recent list.
    if (this.byFiredOrder.size > RECENT_LEGS * 2) {
      const keep = new Set(this.recent.map((view) => view.firedOrderId));
      for (const orderId of [...this.byFiredOrder.keys()]) if (!keep.has(orderId)) this.byFiredOrder.delete(orderId);
    }
    return known;
  }

  private announce(known: KnownTrigger): void {
    const view = known.view;
    const market = this.deps.markets()?.market(view.marketId, view.turbo);
    const where = market?.ok ? ` on ${pairName(market.value)}` : '';
    const price = market?.ok ? `${formatUnits(view.triggerPrice, market.value.quote.decimals)} ${market.value.quote.symbol}` : view.triggerPrice.toString();
    const role = view.role === 'take-profit' ? 'Take-profit' : 'Stop-loss';
    if (view.state === 'fired') this.deps.notice('info', `${role} ${view.side} at ${price}${where} fired`);
    else if (view.reason === 'ParentCancelled') {
      // Cancelled or amended here: that action's notice already named the legs (carried, or gone with the order).
      if (view.parentOrderId !== null && this.deps.trading.cancelledByTerminal(view.parentOrderId)) return;
      this.deps.notice('info', `${role} ${view.side} at ${price}${where} was cancelled with its order${view.parentOrderId === null ? '' : ` ${view.parentOrderId.slice(0, 8)}…${view.parentOrderId.slice(-4)}`}, which was cancelled`, undefined, `reason: ${view.reason}`);
    } else if (view.reason !== null && view.reason !== 'Cancelled' && view.reason !== 'OcoSiblingFired') {
      const sentence = revertSentence(view.reason, market?.ok ? marketRefusalContext(market.value, pairName(market.value)) : {});
      this.deps.notice('warning', `${role} ${view.side} at ${price}${where} was cancelled by the exchange: ${sentence}`, undefined, `reason: ${view.reason}`);
    }
  }

  /**
   * The exchange cancelled a leg bound to an entry when it tried to fire (DustOrder: the entry had
   * filled less than the market's dust when the price reached the leg). Re-create it, with its OCO
   * sibling, sized from the entry, so it covers the whole filled size; when that size is still
   * below the market's minimum and the entry is open, wait for its next fill; otherwise say the
   * position is unprotected and why (POSITION_UNPROTECTED).
   */
  private async protect(lost: KnownTrigger): Promise<void> {
    const view = lost.view;
    const parentId = view.parentOrderId as B256;
    const role = view.role === 'take-profit' ? 'take-profit' : 'stop-loss';
    // Said as a trader reads it: the market by name and the exchange's reason as a sentence; the
    // order id and the raw reason go behind the notice's details.
    const named = this.deps.markets()?.market(view.marketId, view.turbo);
    const legName = `the ${role} of your ${named?.ok ? `${pairName(named.value)} ` : ''}entry order`;
    const cancelled = `was cancelled by the exchange (${view.reason === null ? 'no reason given' : revertSentence(view.reason, named?.ok ? marketRefusalContext(named.value, pairName(named.value)) : {}).replace(/\.$/, '')})`;
    const details = `entry order ${parentId}; reason: ${view.reason ?? 'none'}`;
    const unprotected = (why: string): void => {
      this.deps.notice('error', `Position unprotected: ${legName} ${cancelled} and could not be re-created: ${why}`, TRIGGER_CODES.POSITION_UNPROTECTED, details);
    };
    try {
      const leg = lost.leg;
      if (leg === undefined) return unprotected('the exchange did not report how the leg executes');
      const ready = await this.ready(view.marketId, view.turbo);
      if (!ready.ok) return unprotected(ready.message);
      const { market, tradeAccountId } = ready.value;
      const parent = await this.parentOrder(market, view.turbo, parentId);
      if (!parent.ok) return unprotected(parent.message);
      const open = parent.value.status === 'open' || parent.value.status === 'partially-filled';
      const quantity = protectableQuantity(market, leg, parent.value.filled);
      if (quantity.problem !== null) {
        if (open) {
          this.waiting.set(parentId, lost);
          this.deps.notice('warning', `${capitalised(legName)} ${cancelled}: the ${formatUnits(parent.value.filled, market.base.decimals)} ${market.base.symbol} filled so far is ${quantity.problem}; it is re-created at the entry's next fill.`, TRIGGER_CODES.POSITION_UNPROTECTED, details);
          return;
        }
        return unprotected(`the filled ${formatUnits(parent.value.filled, market.base.decimals)} ${market.base.symbol} is ${quantity.problem}`);
      }
      const count = (this.recreations.get(parentId) ?? 0) + 1;
      if (count > MAX_RECREATIONS) return unprotected(`the exchange refused it ${MAX_RECREATIONS} times`);
      this.recreations.set(parentId, count);
      const expected = lost.expectedQuantity ?? parent.value.quantity;
      const recreated: TriggerLeg = { ...leg, quantity: fromParent(parentId) };
      const siblingId = view.ocoId;
      const sibling = siblingId === null ? undefined : this.legs.get(siblingId);
      const actions: SessionAction[] = [];
      let create: SessionAction;
      if (sibling?.leg !== undefined && sibling.view.state === 'pending') {
        actions.push({ kind: 'CancelTriggerOrder', order_id: sibling.view.triggerId as B256 });
        const [one, two] = orderPairByLock(market, recreated, { ...sibling.leg, quantity: fromParent(parentId) });
        create = { kind: 'CreateTriggerOrders', first: one, second: two, parent: { order_id: parentId, expected_quantity: expected } };
      } else {
        create = { kind: 'CreateTriggerOrder', args: recreated, parent: { order_id: parentId, expected_quantity: expected } };
      }
      const checked = await this.check(create, market, view.turbo, parent.value.side);
      if (!checked.ok) return unprotected(checked.message);
      const group = this.group(market, view.turbo, [...actions, { kind: 'SettleBalance', to: contractIdentity(tradeAccountId) }, create]);
      const sent = await this.send(group, `Re-create ${describeLeg(market, recreated, role)} on ${pairName(market)} (cancelled by the exchange: ${view.reason ?? 'no reason'})`, false);
      await this.refreshAfterRequest();
      if (!sent.ok) return unprotected(sent.message);
      void this.deps.trading.refresh();
      this.deps.notice('info', `${capitalised(legName)} ${cancelled} and was re-created for the whole filled size (${formatUnits(parent.value.filled, market.base.decimals)} ${market.base.symbol}${open ? ' so far' : ''})`, undefined, details);
    } catch (error) {
      unprotected(error instanceof Error ? error.message : String(error));
    }
  }

  /** Rebuild the pending legs from GET /v1/orders/active on every book (start, reconnect, after requests). */
  refresh(): Promise<void> {
    return this.reads.run();
  }

  /** Read the legs again; true when every book was read (a leg not listed then is not pending). */
  async refreshComplete(): Promise<boolean> {
    const before = this.completeReads;
    await this.reads.run();
    return this.completeReads > before;
  }

  /** A read that starts after the request landed (every refresh does: see FreshRead). */
  private refreshAfterRequest(): Promise<void> {
    return this.reads.run();
  }

  private async pull(): Promise<void> {
    const markets = this.deps.markets();
    const record = this.deps.accounts.accountRecord();
    if (!markets || !record) return;
    const contract = record.tradeAccountId as B256;
    const books: Book[] = [...markets.markets().map((market) => ({ market, turbo: false })), ...markets.turboMarkets().map((market) => ({ market, turbo: true }))];
    const seen = new Set<string>();
    for (const { market, turbo } of books) {
      const page = await this.deps.rest.getActiveOrders({ market_id: market.market_id, contract, ...(turbo ? { turbo: true } : {}) });
      if (!page.ok) {
        this.deps.log(`trigger legs of ${pairName(market)} could not be read: ${page.message}`);
        return;
      }
      for (const entry of page.value.entries) {
        const wires: ActiveTrigger[] = entry.kind === 'order' ? entry.triggers : [entry];
        for (const wire of wires) {
          const known = this.apply({ ...wire, ...(entry.kind === 'order' && wire.parent_order_id === undefined ? { parent_order_id: entry.order_id } : {}) }, market.market_id, turbo, false);
          seen.add(known.view.triggerId);
        }
      }
    }
    // Pending legs the exchange no longer lists fired or were cancelled while we did not watch.
    for (const id of [...this.legs.keys()]) if (!seen.has(id)) this.legs.delete(id);
    this.completeReads += 1;
    this.deps.publish(this.snapshot());
  }

  // ---- requests ---------------------------------------------------------------------------

  private async ready(marketId: string, turbo: boolean): Promise<Result<{ market: Market; tradeAccountId: B256 }>> {
    if (turbo && this.deps.turboAccountActive()) {
      return fail(TRIGGER_CODES.TURBO_ACCOUNT_SELECTED, 'A Turbo Account is selected: its Turbo-book orders are signed as that account, and trigger legs for it are not available yet. Deselect it to place legs as the trading account.');
    }
    const markets = this.deps.markets();
    if (!markets) return fail('NOT_CONNECTED', 'The markets of the network are not loaded yet');
    const market = markets.market(marketId, turbo);
    if (!market.ok) return market;
    const identity = this.deps.accounts.tradingIdentity();
    if (!identity.ok) return identity;
    const loaded = await this.deps.loadSessionKey(identity.value.sessionAddress);
    if (!loaded.ok) return loaded;
    return ok({ market: market.value, tradeAccountId: identity.value.tradeAccountId });
  }

  /** The last trade price of a book, when one is known: a leg exactly at it has no side of the market. */
  private async lastPrice(market: Market, turbo: boolean): Promise<bigint | undefined> {
    const trades = await this.deps.rest.getTrades({ market_id: market.market_id, direction: 'desc', count: 1, ...(turbo ? { turbo: true } : {}) });
    return trades.ok ? trades.value.trades[0]?.price : undefined;
  }

  private async check(action: SessionAction, market: Market, turbo: boolean, parentSide?: Side): Promise<Result<void>> {
    const referencePrice = await this.lastPrice(market, turbo);
    return checkAction(action, { market, turbo, ...(parentSide === undefined ? {} : { parentSide }), ...(referencePrice === undefined ? {} : { referencePrice }) });
  }

  private group(market: Market, turbo: boolean, actions: SessionAction[]): ActionGroup {
    return { market_id: market.market_id, market, ...(turbo ? { turbo: true } : {}), actions };
  }

  /** Submit, then reread the legs; the result names the legs that belong to `owner` (or the ids given). */
  private async send(group: ActionGroup, description: string, settleFirst: boolean): Promise<Result<{ journalId: string; orders: Order[] }>> {
    const submitted = await this.deps.submitter.submit({ groups: [group], description, settleFirst });
    if (!submitted.ok) return submitted;
    return ok({ journalId: submitted.value.journalId, orders: submitted.value.orders as Order[] });
  }

  private legsWhere(predicate: (view: TriggerView) => boolean): TriggerView[] {
    return [...this.legs.values()].map((known) => known.view).filter(predicate);
  }

  /** An entry order with a take-profit and/or a stop-loss attached, sized from it (an OCO pair when both). */
  async placeBracket(input: {
    marketId: string;
    turbo: boolean;
    side: Side;
    orderType: OrderTypeIntent;
    price: bigint;
    quantity: bigint;
    takeProfit?: LegIntent | undefined;
    stopLoss?: LegIntent | undefined;
  }): Promise<Result<PlacedTriggers>> {
    const ready = await this.ready(input.marketId, input.turbo);
    if (!ready.ok) return ready;
    const { market } = ready.value;
    const prepared = prepareOrder(market, { side: input.side, orderType: input.orderType, price: input.price, quantity: input.quantity }, {
      nowSeconds: this.deps.nowSeconds(),
      turbo: input.turbo,
    });
    if (!prepared.ok) return prepared;
    const created = prepared.value.group.actions[0];
    if (created?.kind !== 'CreateOrder') return fail('BUG', 'prepareOrder did not produce a CreateOrder');
    const adjustments = [...prepared.value.adjustments];
    const legs: TriggerLeg[] = [];
    const labels: LegLabel[] = [];
    for (const [label, intent] of [
      [{ field: 'takeProfit', words: 'Take-profit' }, input.takeProfit],
      [{ field: 'stopLoss', words: 'Stop-loss' }, input.stopLoss],
    ] as const) {
      if (intent === undefined) continue;
      const built = buildLeg(market, oppositeSide(input.side), intent, fromParent(ZERO_B256), label.words);
      if (!built.ok) return relabelField(built, label);
      legs.push(built.value.leg);
      labels.push(label);
      adjustments.push(...built.value.adjustments);
    }
    const [first, second] = legs;
    if (first === undefined) return fail('INVALID_INPUT', 'takeProfit: give a take-profit, a stop-loss or both', { field: 'takeProfit' });
    const action: SessionAction = { ...created, kind: 'CreateOrderWithTriggers', trigger_1: first, ...(second === undefined ? {} : { trigger_2: second }) };
    const checked = await this.check(action, market, input.turbo);
    if (!checked.ok) return relabel(checked, labels);
    const description = `${prepared.value.description} with ${legs.map((leg, index) => describeLeg(market, leg, labels[index]?.field === 'takeProfit' ? 'take-profit' : 'stop-loss')).join(' and ')}`;
    const sent = await this.send(this.group(market, input.turbo, [action]), description, true);
    if (!sent.ok) return sent;
    const views = this.afterOrders(sent.value.orders, input.marketId, input.turbo);
    await this.refreshAfterRequest();
    const order = views[0] ?? null;
    return ok({ journalId: sent.value.journalId, order, triggers: order === null ? [] : this.legsWhere((view) => view.parentOrderId === order.orderId), adjustments });
  }

  private afterOrders(orders: readonly Order[], marketId: string, turbo: boolean): OrderView[] {
    const views: OrderView[] = [];
    for (const order of orders) {
      this.deps.trading.applyOrder(order, marketId, turbo);
      views.push(orderView(order, marketId, turbo, this.deps.accounts.accountRecord()?.tradeAccountId ?? ''));
    }
    void this.deps.trading.refresh();
    return views;
  }

  /** The order a leg is sized from: the account's, on this book, open or filled. */
  private async parentOrder(market: Market, turbo: boolean, orderId: B256): Promise<Result<OrderView>> {
    const open = this.deps.trading.snapshot().open.find((view) => view.orderId === orderId);
    if (open && open.marketId === market.market_id) return ok(open);
    const read = await this.deps.rest.getOrder({ market_id: market.market_id, order_id: orderId, ...(turbo ? { turbo: true } : {}) });
    if (!read.ok) return fail(TRIGGER_CODES.PARENT_NOT_FOUND, `order ${orderId} is not an order on ${pairName(market)}${turbo ? ' (Turbo book)' : ''}: ${read.message}`, { field: 'orderId' });
    const view = orderView(read.value.order, market.market_id, turbo, this.deps.accounts.accountRecord()?.tradeAccountId ?? '');
    if (view.status === 'cancelled' && view.filled === 0n) return fail(TRIGGER_CODES.PARENT_NOT_FOUND, `order ${orderId} was cancelled without any fill: there is nothing to protect`, { field: 'orderId' });
    return ok(view);
  }

  /** Size and parent of standalone legs. */
  private async sizing(market: Market, turbo: boolean, size: LegSize): Promise<Result<{ quantity: TriggerQuantity; parent?: TriggerParent; parentSide?: Side; requested?: bigint }>> {
    if (size.kind === 'quantity') return ok({ quantity: { kind: 'Quantity', quantity: size.quantity }, requested: size.quantity });
    const parent = await this.parentOrder(market, turbo, size.orderId);
    if (!parent.ok) return parent;
    return ok({ quantity: fromParent(size.orderId), parent: { order_id: size.orderId, expected_quantity: parent.value.quantity }, parentSide: parent.value.side });
  }

  /** Explicit sizes floored and lowered for every leg's prices (a parent size is the exchange's to follow). */
  private sized(market: Market, legs: TriggerLeg[], requested: bigint | undefined): Result<{ legs: TriggerLeg[]; adjustments: string[] }> {
    if (requested === undefined) return ok({ legs, adjustments: [] });
    const { quantity, adjustments } = explicitQuantity(market, requested, legs);
    if (quantity === 0n) return fail(TRIGGER_CODES.ZERO_QUANTITY, `quantity: ${formatUnits(requested, market.base.decimals)} ${market.base.symbol} is below the smallest size the legs' prices allow.`, { field: 'size' });
    // The trader's size is signed as entered or not at all: a lowered size would be a size nobody saw.
    if (quantity !== requested) {
      const size = (raw: bigint) => `${formatUnits(raw, market.base.decimals)} ${market.base.symbol}`;
      return fail(TRIGGER_CODES.SIZE_NOT_SIGNABLE, `quantity: ${size(requested)} cannot be signed as entered (${adjustments.join(' ')}); enter ${size(quantity)}, the nearest size below it that can.`, { field: 'size' });
    }
    return ok({ legs: legs.map((leg) => ({ ...leg, quantity: { kind: 'Quantity', quantity } })), adjustments });
  }

  /** A stop on its own: an entry stop, or protection sized explicitly or from an order. */
  async placeStop(input: { marketId: string; turbo: boolean; side: Side; leg: LegIntent; size: LegSize }): Promise<Result<PlacedTriggers>> {
    const ready = await this.ready(input.marketId, input.turbo);
    if (!ready.ok) return ready;
    const { market, tradeAccountId } = ready.value;
    const sizing = await this.sizing(market, input.turbo, input.size);
    if (!sizing.ok) return sizing;
    const built = buildLeg(market, input.side, input.leg, sizing.value.quantity, 'Stop');
    if (!built.ok) return relabelField(built, LEG);
    const sized = this.sized(market, [built.value.leg], sizing.value.requested);
    if (!sized.ok) return sized;
    const leg = sized.value.legs[0] as TriggerLeg;
    const action: SessionAction = { kind: 'CreateTriggerOrder', args: leg, ...(sizing.value.parent === undefined ? {} : { parent: sizing.value.parent }) };
    const checked = await this.check(action, market, input.turbo, sizing.value.parentSide);
    if (!checked.ok) return relabel(checked, [LEG]);
    const role = triggerRole(leg.side, null);
    const description = `${describeLeg(market, leg, sizing.value.parent ? role : 'stop')} on ${pairName(market)}`;
    return this.placeLegs(market, input.turbo, tradeAccountId, action, description, [...built.value.adjustments, ...sized.value.adjustments]);
  }

  /** Two legs on one side, one firing cancels the other. */
  async placeOco(input: { marketId: string; turbo: boolean; side: Side; first: LegIntent; second: LegIntent; size: LegSize }): Promise<Result<PlacedTriggers>> {
    const ready = await this.ready(input.marketId, input.turbo);
    if (!ready.ok) return ready;
    const { market, tradeAccountId } = ready.value;
    const sizing = await this.sizing(market, input.turbo, input.size);
    if (!sizing.ok) return sizing;
    const first = buildLeg(market, input.side, input.first, sizing.value.quantity, 'First leg');
    if (!first.ok) return relabelField(first, { field: 'first', words: 'First leg' });
    const second = buildLeg(market, input.side, input.second, sizing.value.quantity, 'Second leg');
    if (!second.ok) return relabelField(second, { field: 'second', words: 'Second leg' });
    const sized = this.sized(market, [first.value.leg, second.value.leg], sizing.value.requested);
    if (!sized.ok) return sized;
    const [one, two] = orderPairByLock(market, sized.value.legs[0] as TriggerLeg, sized.value.legs[1] as TriggerLeg);
    const action: SessionAction = { kind: 'CreateTriggerOrders', first: one, second: two, ...(sizing.value.parent === undefined ? {} : { parent: sizing.value.parent }) };
    const checked = await this.check(action, market, input.turbo, sizing.value.parentSide);
    if (!checked.ok) return checked;
    const description = `OCO on ${pairName(market)}: ${describeLeg(market, one, 'leg')} / ${describeLeg(market, two, 'leg')}`;
    return this.placeLegs(market, input.turbo, tradeAccountId, action, description, [...first.value.adjustments, ...second.value.adjustments, ...sized.value.adjustments]);
  }

  /**
   * Legs on their own: SettleBalance first in the same group (a leg's lock is taken from the
   * trading account, and the position it protects usually sits in the book's unlocked balance).
   */
  private async placeLegs(market: Market, turbo: boolean, tradeAccountId: B256, action: SessionAction, description: string, adjustments: string[]): Promise<Result<PlacedTriggers>> {
    const before = new Set(this.legs.keys());
    const group = this.group(market, turbo, [{ kind: 'SettleBalance', to: contractIdentity(tradeAccountId) }, action]);
    const sent = await this.send(group, description, false);
    if (!sent.ok) return sent;
    void this.deps.trading.refresh();
    await this.refreshAfterRequest();
    const legs = this.legsWhere((view) => !before.has(view.triggerId) && view.marketId === market.market_id && view.turbo === turbo);
    return ok({ journalId: sent.value.journalId, order: null, triggers: legs, adjustments });
  }

  private pendingLeg(triggerId: string, marketId: string, turbo: boolean): Result<KnownTrigger> {
    const known = this.legs.get(triggerId);
    if (!known) {
      const closed = this.recent.find((view) => view.triggerId === triggerId);
      if (closed) return fail(TRIGGER_CODES.TRIGGER_NOT_PENDING, `trigger ${triggerId} already ${closed.state}`, { field: 'triggerId' });
      return fail(TRIGGER_CODES.TRIGGER_NOT_FOUND, `trigger ${triggerId} is not a pending leg of this account`, { field: 'triggerId' });
    }
    if (known.view.marketId !== marketId || known.view.turbo !== turbo) {
      return fail(TRIGGER_CODES.TRIGGER_NOT_FOUND, `trigger ${triggerId} is on another book than market ${marketId}${turbo ? ' (Turbo)' : ''}`, { field: 'triggerId' });
    }
    return ok(known);
  }

  async cancel(marketId: string, turbo: boolean, triggerId: B256): Promise<Result<CancelReport>> {
    const ready = await this.ready(marketId, turbo);
    if (!ready.ok) return ready;
    const known = this.pendingLeg(triggerId, marketId, turbo);
    if (!known.ok) return known;
    const market = ready.value.market;
    const group = this.group(market, turbo, [{ kind: 'CancelTriggerOrder', order_id: triggerId }]);
    const sent = await this.send(group, `Cancel ${describeLeg(market, known.value.leg ?? legOfView(known.value.view), known.value.view.role)} on ${pairName(market)}`, false);
    await this.refreshAfterRequest();
    if (!sent.ok) {
      if (sent.code === 'ONCHAIN_REVERT') return fail(TRIGGER_CODES.CANCEL_FAILED, `The leg could not be cancelled (it may have fired meanwhile); nothing changed: ${sent.message}`, sent.details);
      return sent;
    }
    return ok({ ...EMPTY_CANCEL_REPORT, triggersRequested: 1, triggersCancelled: [triggerId], batches: 1 });
  }

  /**
   * A position's take-profit / stop-loss pair replaced in one signed batch: the pending legs named
   * cancelled, then (with a size) a new pair of that explicit size placed, a take-profit as a limit
   * at its price and a stop-loss bounded by `stopSlippageBps` around its trigger. A size that cannot
   * be signed as given is refused, never lowered. If a cancel fails (a leg fired meanwhile) the
   * whole batch reverts and nothing changes.
   */
  async replacePositionLegs(input: {
    marketId: string;
    turbo: boolean;
    cancel: readonly B256[];
    side: Side;
    takeProfit: bigint | null;
    stopLoss: bigint | null;
    quantity: bigint | null;
    stopSlippageBps: number;
    description: string;
  }): Promise<Result<PlacedTriggers>> {
    const ready = await this.ready(input.marketId, input.turbo);
    if (!ready.ok) return ready;
    const { market, tradeAccountId } = ready.value;
    const actions: SessionAction[] = input.cancel.map((orderId) => ({ kind: 'CancelTriggerOrder', order_id: orderId }));
    if (input.quantity !== null) {
      const quantity: TriggerQuantity = { kind: 'Quantity', quantity: input.quantity };
      const legs: TriggerLeg[] = [];
      const labels: LegLabel[] = [];
      if (input.takeProfit !== null) {
        const built = buildLeg(market, input.side, { triggerPrice: input.takeProfit, execution: { kind: 'limit', price: input.takeProfit } }, quantity, 'Take-profit');
        if (!built.ok) return relabelField(built, { field: 'takeProfit', words: 'Take-profit' });
        legs.push(built.value.leg);
        labels.push({ field: 'takeProfit', words: 'Take-profit' });
      }
      if (input.stopLoss !== null) {
        const built = buildLeg(market, input.side, { triggerPrice: input.stopLoss, execution: { kind: 'slippage', bps: input.stopSlippageBps } }, quantity, 'Stop-loss');
        if (!built.ok) return relabelField(built, { field: 'stopLoss', words: 'Stop-loss' });
        legs.push(built.value.leg);
        labels.push({ field: 'stopLoss', words: 'Stop-loss' });
      }
      const sized = this.sized(market, legs, input.quantity);
      if (!sized.ok) return sized;
      const [first, second] = sized.value.legs;
      if (first === undefined) return fail('INVALID_INPUT', 'takeProfit: give a take-profit, a stop-loss or both', { field: 'takeProfit' });
      let create: SessionAction;
      if (second === undefined) {
        create = { kind: 'CreateTriggerOrder', args: first };
      } else {
        const [one, two] = orderPairByLock(market, first, second);
        create = { kind: 'CreateTriggerOrders', first: one, second: two };
      }
      const checked = await this.check(create, market, input.turbo);
      if (!checked.ok) return second === undefined ? relabel(checked, labels) : checked;
      actions.push({ kind: 'SettleBalance', to: contractIdentity(tradeAccountId) }, create);
    }
    if (actions.length === 0) return ok({ journalId: '', order: null, triggers: [], adjustments: [] });
    const before = new Set(this.legs.keys());
    const sent = await this.send(this.group(market, input.turbo, actions), input.description, false);
    await this.refreshAfterRequest();
    if (!sent.ok) {
      if (sent.code === 'ONCHAIN_REVERT') return fail(TRIGGER_CODES.CANCEL_FAILED, `The position's legs could not be replaced (one may have fired meanwhile); nothing changed: ${sent.message}`, sent.details);
      return sent;
    }
    void this.deps.trading.refresh();
    // New legs of this book at this pair's side and prices: another request's leg that main learns
    // of meanwhile (a stop placed just before) is not one of the pair.
    const placed = this.legsWhere(
      (view) => !before.has(view.triggerId) && view.marketId === market.market_id && view.turbo === input.turbo && view.side === input.side && (view.triggerPrice === input.takeProfit || view.triggerPrice === input.stopLoss),
    );
    return ok({ journalId: sent.value.journalId, order: null, triggers: placed, adjustments: [] });
  }

  /**
   * Move a leg: cancel it (with its OCO sibling) and create it again at the new trigger price, in
   * one batch. If the cancel fails (the leg fired meanwhile) the whole batch reverts.
   */
  async move(input: { marketId: string; turbo: boolean; triggerId: B256; triggerPrice: bigint; limitPrice?: bigint | undefined }): Promise<Result<PlacedTriggers>> {
    const ready = await this.ready(input.marketId, input.turbo);
    if (!ready.ok) return ready;
    const { market, tradeAccountId } = ready.value;
    const known = this.pendingLeg(input.triggerId, input.marketId, input.turbo);
    if (!known.ok) return known;
    const leg = known.value.leg;
    if (leg === undefined) return fail(TRIGGER_CODES.TRIGGER_DETAILS_UNKNOWN, `trigger ${input.triggerId}: the exchange did not report how it executes, so it cannot be rebuilt; cancel it and place a new one`);
    const moved = movedLeg(market, leg, input.triggerPrice, input.limitPrice);
    if (!moved.ok) return moved;
    const siblingId = known.value.view.ocoId;
    const sibling = siblingId === null ? undefined : this.legs.get(siblingId);
    if (sibling !== undefined && sibling.leg === undefined) return fail(TRIGGER_CODES.TRIGGER_DETAILS_UNKNOWN, `trigger ${siblingId}: the exchange did not report how the other leg of the pair executes`);
    const parentId = known.value.view.parentOrderId as B256 | null;
    let parent: TriggerParent | undefined;
    let parentSide: Side | undefined;
    if (parentId !== null) {
      const order = await this.parentOrder(market, input.turbo, parentId);
      if (!order.ok) return order;
      parent = { order_id: parentId, expected_quantity: known.value.expectedQuantity ?? order.value.quantity };
      parentSide = order.value.side;
    }
    // An attached leg (sized from its new order with a zero id) becomes a standalone leg bound to that order.
    const rebind = (value: TriggerLeg): TriggerLeg => (value.quantity.kind === 'ParentOrder' && parentId !== null ? { ...value, quantity: fromParent(parentId) } : value);
    const cancels: SessionAction[] = [{ kind: 'CancelTriggerOrder', order_id: input.triggerId }];
    let create: SessionAction;
    if (sibling?.leg !== undefined && sibling.view.state === 'pending') {
      cancels.push({ kind: 'CancelTriggerOrder', order_id: sibling.view.triggerId as B256 });
      const [one, two] = orderPairByLock(market, rebind(moved.value), rebind(sibling.leg));
      create = { kind: 'CreateTriggerOrders', first: one, second: two, ...(parent === undefined ? {} : { parent }) };
    } else {
      create = { kind: 'CreateTriggerOrder', args: rebind(moved.value), ...(parent === undefined ? {} : { parent }) };
    }
    const checked = await this.check(create, market, input.turbo, parentSide);
    if (!checked.ok) return checked;
    const before = new Set(this.legs.keys());
    const group = this.group(market, input.turbo, [...cancels, { kind: 'SettleBalance', to: contractIdentity(tradeAccountId) }, create]);
    const description = `Move ${describeLeg(market, leg, known.value.view.role)} to ${formatUnits(input.triggerPrice, market.quote.decimals)} ${market.quote.symbol} on ${pairName(market)}`;
    const sent = await this.send(group, description, false);
    await this.refreshAfterRequest();
    if (!sent.ok) {
      if (sent.code === 'ONCHAIN_REVERT') return fail(TRIGGER_CODES.CANCEL_FAILED, `The leg could not be moved (it may have fired meanwhile); nothing changed: ${sent.message}`, sent.details);
      return sent;
    }
    void this.deps.trading.refresh();
    return ok({ journalId: sent.value.journalId, order: null, triggers: this.legsWhere((view) => !before.has(view.triggerId)), adjustments: [] });
  }
}

/** The size a leg sized from its entry would sell (or buy back) now, or why the market would refuse it. */
function protectableQuantity(market: Market, leg: TriggerLeg, filled: bigint): { quantity: bigint; problem: string | null } {
  const price = triggerOrderPrice(leg);
  const tick = quantityTick(market);
  const quantity = lowerQuantityToWholeQuote(market, price, filled - (filled % tick));
  if (quantity === 0n || quantity < market.dust) return { quantity, problem: `below the market's dust threshold of ${formatUnits(market.dust, market.base.decimals)} ${market.base.symbol}` };
  if (quoteValue(market, price, quantity) < market.min_order) return { quantity, problem: `below the market's minimum order of ${formatUnits(market.min_order, market.quote.decimals)} ${market.quote.symbol}` };
  return { quantity, problem: null };
}

/** A leg rebuilt from what the view shows (descriptions only). */
function legOfView(view: TriggerView): TriggerLeg {
  const kind: TriggerLeg['order_type'] =
    view.kind === 'limit' && view.limitPrice !== null
      ? { kind: 'Spot', price: view.limitPrice }
      : view.kind === 'bounded' && view.maxPrice !== null && view.minPrice !== null
        ? { kind: 'MarketBounded', max_price: view.maxPrice, min_price: view.minPrice }
        : { kind: 'Market' };
  const quantity: TriggerQuantity = view.quantity === null ? fromParent((view.parentOrderId ?? ZERO_B256) as B256) : { kind: 'Quantity', quantity: view.quantity };
  return { order_type: kind, quantity, trigger_price: view.triggerPrice, side: view.side };
}

/** A leg's input field in the contract and its name in words. */
interface LegLabel {
  readonly field: string;
  readonly words: string;
}

const LEG: LegLabel = { field: 'leg', words: 'Stop' };

type Refusal = Extract<Result<never>, { ok: false }>;

/** A refusal about one leg names the contract's input field (`takeProfit`, `leg`, …). */
function relabelField(failure: Refusal, label: LegLabel): Refusal {
  return { ...failure, details: { ...failure.details, field: label.field } };
}

/** checkAction names attached legs trigger_1/trigger_2 and a single leg `args`: say which leg in words and name the input field. */
function relabel(failure: Refusal, labels: readonly LegLabel[]): Refusal {
  const field = failure.details?.field;
  if (typeof field !== 'string') return failure;
  const match = /^trigger_(\d)$/.exec(field);
  const label = match ? labels[Number(match[1]) - 1] : field === 'args' ? labels[0] : undefined;
  if (label === undefined) return failure;
  return { ...failure, message: failure.message.replace(field, label.words), details: { ...failure.details, field: label.field } };
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
