// Margin (Turbo) accounts of the active trading account: the lifecycle (register with the
// predicted id and index, open with the exact amount, credit actions, prolong, close with the
// fetched cleanups, withdraw), the live risk of each followed account, and trading on Turbo books
// as the selected Turbo Account (TurboDesk, which the trading service routes Turbo requests to).
//
// Rules kept here (margin-api; docs/protocol.md (Margin), client side):
// - Before any margin action is signed, the account's state must be live: a reconnect, a sequence
//   gap or a failed fold makes it stale, and GET /v1/margin/state is fetched before anything is
//   signed again (RiskTracker.live refuses until then).
// - Every signed request goes through a Submitter: the parent's for parent actions, one per
//   Turbo Account (parallel nonces only, the child as trade_account_id, the parent's session key)
//   for credit actions and orders. Margin actions sit in one market group with the order they
//   fund (4.4 rule 3).
// - The parent session must list the pool, the registry, every child and the Turbo books; it is
//   recreated (keychain owner) to add a child, and the trader is told why.
//
// The class is built in layers, one concern each: margin-core.ts (shared state, followed accounts,
// risk subscriptions), margin-session.ts (overview, registration, parent session, sending),
// margin-credit.ts (credit actions, closing, withdrawing) and this file (the Turbo Account
// selection and trading on Turbo books).
import type { B256 } from '../../../shared/encoding/b256';
import { contractIdentity } from '../../../shared/encoding/identity';
import { formatUnits } from '../../../shared/encoding/units';
import type { CancelReport, FillView, MarginOverview, OrderView, PlacedOrder, TurboMarketsView, TurboMarketView, TurboOrderCheck } from '../../../shared/ipc/views';
import type { MarginSnapshot, RiskReport } from '../../../shared/margin/index';
import type { Market } from '../../../shared/market/market';
import type { Side } from '../../../shared/market/order-type';
import type { SessionAction } from '../../../shared/protocol/actions';
import type { ActionGroup } from '../../../shared/protocol/session-actions';
import { fail, ok, type Result } from '../../../shared/result';
import { planAmendLegs } from '../trading/amend-legs';
import { boundLegs, lastTradePrice } from '../trading/bound-legs';
import { EMPTY_CANCEL_REPORT, mergeReports, sweepAccount } from '../trading/cancel-sweep';
import { checkAction } from '../../../shared/protocol/check-action';
import { describeOrder, pairName, prepareOrder, type OrderTypeIntent, type PlaceIntent } from '../trading/order-intents';
import { orderView, type TurboDesk } from '../trading/trading-service';
import { MarginCodes } from './codes';
import type { TierTerms } from './margin-reads';
import type { RiskTracker } from './risk-tracker';
import { checkedOrderType, planTurboOrder, type TurboOrderPlan } from './turbo-orders';
import { MAX_CHILDREN_SWEPT, showId } from './margin-core';
import { MarginCredit } from './margin-credit';

export { IDLE_TRACKER_MS, LIVE_WAIT_MS, MAX_TRACKED_ACCOUNTS, type MarginServiceDeps } from './margin-core';

export class MarginService extends MarginCredit implements TurboDesk {
  // ---- selection and Turbo rows -------------------------------------------------------------------------

  /** The trader's choice of Turbo Account for this network and trading account, kept in accounts.json. */
  private rememberSelection(account: B256 | null): void {
    const parent = this.parent;
    if (parent === null) return;
    const saved = this.deps.preferences.accounts.update((current) => {
      const network = current.networks[this.deps.networkId];
      if (!network) return current;
      const choices = { ...(network.turboTradingAs ?? {}) };
      if (account === null) delete choices[parent];
      else choices[parent] = account;
      return { ...current, networks: { ...current.networks, [this.deps.networkId]: { ...network, turboTradingAs: choices } } };
    });
    if (!saved.ok) this.deps.log(`margin: the Turbo Account choice was not saved: ${saved.message}`);
  }

  /**
   * Back on a network (a switch and back, a restart): trade Turbo books as the Turbo Account the
   * trader chose for this trading account, once the exchange confirms it is still theirs. If it
   * is not (the exchange forgot it), say so: Turbo orders are then signed by the trading account.
   */
  protected async restoreSelection(parent: B256): Promise<void> {
    const remembered = this.deps.preferences.accounts.get().networks[this.deps.networkId]?.turboTradingAs?.[parent] as B256 | undefined;
    if (remembered === undefined) return;
    this.restoringSelection = true;
    try {
      for (let attempt = 0; attempt < 30 && !this.stopped; attempt++) {
        if (this.parent !== parent || this.selected !== null) return;
        const restored = await this.select(remembered);
        if (this.parent !== parent) return;
        if (restored.ok) return;
        if (restored.code === MarginCodes.UNKNOWN_ACCOUNT) {
          this.rememberSelection(null);
          this.deps.notice('warning', `Turbo Account ${remembered} is not a margin account of this trading account on this exchange any more: Turbo orders are signed by the trading account until you choose another.`);
          return;
        }
        await this.deps.wait(2_000);
      }
      this.deps.notice('warning', `Turbo Account ${remembered} could not be restored as the account Turbo books are traded as (the exchange did not answer): Turbo orders are signed by the trading account until you choose it again.`);
    } finally {
      this.restoringSelection = false;
    }
  }

  async select(account: B256 | null): Promise<Result<MarginOverview>> {
    if (account !== null) {
      const parent = await this.parentIds();
      if (!parent.ok) return parent;
      const child = await this.requireChild(parent.value, account);
      if (!child.ok) return child;
      // Never a Turbo Account of the trading account before a change that came meanwhile.
      if (this.parent !== parent.value.parent) return this.changedMeanwhile();
      const tracker = this.tracker(account);
      if (!tracker.ok) return tracker;
    }
    this.selected = account;
    this.rememberSelection(account);
    this.publishTurboMarkets();
    this.deps.publishOrders();
    const built = await this.overview();
    if (built.ok) this.deps.windows.broadcast('marginOverview', built.value);
    return built;
  }

  turboMarketsView(): TurboMarketsView {
    const markets = this.deps.markets();
    const rows: TurboMarketView[] = (markets?.markets() ?? []).map((market) => {
      const turbo = this.turboRow(market.market_id);
      const tierIds = turbo ? this.tiers.filter((tier) => tier.books.includes(turbo.contract_id)).map((tier) => tier.tierId) : [];
      const reason =
        turbo === undefined
          ? `${pairName(market)} has no Turbo order book`
          : turbo.paused === true
            ? `The Turbo book of ${pairName(market)} is paused (it or its canonical book): new orders are refused until it resumes`
            : turbo.connected === false
              ? `The Turbo book of ${pairName(market)} is disconnected from its house book: new orders are refused`
              : null;
      return {
        marketId: market.market_id,
        pair: pairName(market),
        hasTurboBook: turbo !== undefined,
        turboContractId: turbo?.contract_id ?? null,
        connected: turbo ? turbo.connected !== false : null,
        paused: turbo ? turbo.paused === true : null,
        tradable: turbo !== undefined && reason === null,
        reason,
        tierIds,
      };
    });
    return { networkId: this.deps.networkId, markets: rows, tradingAs: this.selected };
  }

  protected publishTurboMarkets(): void {
    this.deps.windows.broadcast('turboMarkets', this.turboMarketsView());
  }

  // ---- TurboDesk: trading on Turbo books as the selected Turbo Account ----------------------------------

  active(): boolean {
    return this.selected !== null;
  }

  restoring(): boolean {
    return this.restoringSelection;
  }

  /**
   * The selected Turbo Account and the margin snapshot its risk is computed on, when that state is
   * live (the positions panel's liquidation and freeze prices); null without a selected account.
   */
  async selectedRisk(timeoutMs: number): Promise<{ readonly account: B256; readonly snapshot: MarginSnapshot | null } | null> {
    const account = this.selected;
    if (account === null) return null;
    const tracker = this.trackers.get(account);
    if (!tracker) return { account, snapshot: null };
    const live = await tracker.live(timeoutMs);
    return { account, snapshot: live.ok ? live.value.snapshot : null };
  }

  owns(orderId: string): boolean {
    for (const tracker of this.trackers.values()) if (tracker.orders.owns(orderId)) return true;
    return false;
  }

  private ownerOf(orderId: string): RiskTracker | undefined {
    for (const tracker of this.trackers.values()) if (tracker.orders.owns(orderId)) return tracker;
    return undefined;
  }

  openOrders(): readonly OrderView[] {
    return [...this.trackers.values()].flatMap((tracker) => tracker.orders.open());
  }

  fills(): readonly FillView[] {
    return [...this.trackers.values()].flatMap((tracker) => [...tracker.orders.fills()]);
  }

  /** The Turbo Accounts of the trading account this terminal knows (registered or followed). */
  marginAccounts(): readonly string[] {
    return [...new Set<string>([...this.children.map((child) => child.marginAccountId), ...this.trackers.keys()])];
  }

  async loadedAccounts(): Promise<readonly string[]> {
    if (this.parent !== null && this.childrenReadFor !== this.parent) {
      const parent = await this.parentIds();
      if (parent.ok) await this.refreshChildren(parent.value.owner, parent.value.parent);
    }
    return this.marginAccounts();
  }

  /** The order the selected account would sign, and whether the protocol would take it. */
  async checkTurboOrder(input: { marketId: string; side: Side; orderKind: OrderTypeIntent['kind']; price: bigint; quantity: bigint; maxPrice?: bigint | undefined; minPrice?: bigint | undefined }): Promise<Result<TurboOrderCheck>> {
    const intent: PlaceIntent = {
      side: input.side,
      price: input.price,
      quantity: input.quantity,
      orderType: input.orderKind === 'BoundedMarket' ? { kind: 'BoundedMarket', maxPrice: input.maxPrice ?? 0n, minPrice: input.minPrice ?? 0n } : { kind: input.orderKind },
    };
    const planned = await this.plan(input.marketId, intent);
    const guarded = planned.ok ? await this.previewGuards(input.marketId, intent, planned.value) : planned;
    const base: TurboOrderCheck = {
      tradingAs: this.selected,
      allowed: false,
      orderType: checkedOrderType(intent.orderType),
      side: input.side,
      price: input.price,
      quoteValue: 0n,
      draw: 0n,
      borrow: 0n,
      buyCapacity: null,
      borrowable: null,
      warnings: [],
      refusal: null,
    };
    if (!planned.ok) return ok({ ...base, refusal: { code: planned.code, message: planned.message } });
    const refusal = guarded.ok ? null : { code: guarded.code, message: guarded.message };
    if (planned.value === null) return ok(refusal === null ? { ...base, allowed: true, warnings: ['Signed as the trading account: no Turbo Account is selected.'] } : { ...base, refusal });
    const { plan, report, market } = planned.value;
    const asset = report.assets.find((entry) => entry.assetId === market.base.asset);
    // A guard's refusal keeps the account's figures (capacity, what it would draw and borrow): the
    // ticket still shows what the account can do beside why this order is refused.
    return ok({
      ...base,
      allowed: refusal === null,
      refusal,
      orderType: checkedOrderType(plan.orderType),
      price: plan.price,
      quoteValue: plan.quoteValue,
      draw: plan.draw,
      borrow: plan.borrow,
      buyCapacity: report.buyCapacity,
      borrowable: asset?.borrowable.amountWithoutReturn ?? null,
      warnings: plan.warnings,
    });
  }

  /**
   * Main's order guards over the order as the send would sign it (the Turbo Account's group with its
   * funding, or the trading account's order on the Turbo book), counting nothing: the pre-check
   * refuses what the send would refuse, with the same words.
   */
  private async previewGuards(marketId: string, intent: PlaceIntent, planned: { child: B256; market: Market; plan: TurboOrderPlan } | null): Promise<Result<void>> {
    const preview = this.deps.previewGuard;
    if (preview === undefined) return ok(undefined);
    if (planned !== null) {
      const group = this.turboGroup(planned.child, planned.market, planned.plan, intent.side);
      if (!group.ok) return group;
      return preview({ groups: [group.value.group], account: planned.child, reduceOnly: intent.reduceOnly === true });
    }
    const account = this.deps.accounts.accountRecord()?.tradeAccountId;
    const market = this.deps.markets()?.market(marketId, true);
    if (account === undefined || market === undefined || !market.ok) return ok(undefined);
    const prepared = prepareOrder(market.value, intent, { nowSeconds: BigInt(Math.floor(this.deps.clock.now() / 1000)), turbo: true });
    if (!prepared.ok) return prepared;
    return preview({ groups: [prepared.value.group], account, reduceOnly: intent.reduceOnly === true });
  }

  /** The Turbo Account's signed group for a planned order: settle, then the draw and borrow that fund it, then the order. */
  private turboGroup(child: B256, market: Market, plan: TurboOrderPlan, side: Side): Result<{ group: ActionGroup; quantity: bigint; adjustments: readonly string[] }> {
    const prepared = prepareOrder(market, { side, orderType: plan.orderType, price: plan.price, quantity: plan.quantity }, { nowSeconds: BigInt(Math.floor(this.deps.clock.now() / 1000)), turbo: true, marginAccount: true });
    if (!prepared.ok) return prepared;
    const funding: SessionAction[] = [
      ...(plan.draw > 0n ? [{ kind: 'Draw' as const, amount: plan.draw }] : []),
      ...(plan.borrow > 0n ? [{ kind: 'Borrow' as const, asset_id: market.base.asset, amount: plan.borrow }] : []),
    ];
    return ok({ group: { ...prepared.value.group, actions: [{ kind: 'SettleBalance', to: contractIdentity(child) }, ...funding, ...prepared.value.group.actions] }, quantity: prepared.value.quantity, adjustments: prepared.value.adjustments });
  }

  /** null: no Turbo Account selected (the trading account signs). */
  private async plan(marketId: string, intent: PlaceIntent): Promise<Result<{ child: B256; market: Market; plan: TurboOrderPlan; report: RiskReport; tier: TierTerms } | null>> {
    const child = this.selected;
    if (child === null) return ok(null);
    const market = this.turboRow(marketId);
    if (!market) return fail(MarginCodes.TURBO_UNAVAILABLE, `marketId: ${marketId} has no Turbo order book`, { field: 'marketId' });
    if (market.paused === true) return fail(MarginCodes.TURBO_UNAVAILABLE, `market with id ${marketId} is paused`, { field: 'marketId' });
    if (market.connected === false) return fail(MarginCodes.TURBO_UNAVAILABLE, 'House book is disconnected', { field: 'marketId' });
    const context = await this.withSession(child);
    if (!context.ok) return context;
    if (!context.value.tier.books.includes(market.contract_id)) {
      return fail(MarginCodes.TURBO_UNAVAILABLE, `BookNotInTier: the Turbo book of ${pairName(market)} is not a book of tier ${context.value.tier.tierId}`, { field: 'marketId' });
    }
    const plan = planTurboOrder(market, intent, context.value.report, this.settings, this.poolPaused());
    if (!plan.ok) return plan;
    return ok({ child, market, plan: plan.value, report: context.value.report, tier: context.value.tier });
  }

  async placeOrder(input: PlaceIntent & { marketId: string }): Promise<Result<PlacedOrder>> {
    const planned = await this.plan(input.marketId, input);
    if (!planned.ok) return planned;
    if (planned.value === null) return fail(MarginCodes.NOT_READY, 'No Turbo Account is selected');
    const { child, market, plan } = planned.value;
    const built = this.turboGroup(child, market, plan, input.side);
    if (!built.ok) return built;
    const { group } = built.value;
    const description = `${describeOrder(market, input.side, plan.orderType.kind, plan.price, built.value.quantity)} on the Turbo book as margin account ${showId(child)}${plan.draw > 0n ? `, drawing ${this.show(plan.draw)}` : ''}${plan.borrow > 0n ? `, borrowing ${formatUnits(plan.borrow, market.base.decimals)} ${market.base.symbol}` : ''}`;
    const submitted = await this.signer(child).submit({ groups: [group], description, settleFirst: false, reduceOnly: input.reduceOnly === true });
    if (!submitted.ok) {
      if (/paused|disconnected/i.test(submitted.message)) void this.refreshTurboRows();
      return submitted;
    }
    const tracker = this.trackers.get(child);
    const views: OrderView[] = [];
    for (const order of submitted.value.orders as Parameters<typeof orderView>[0][]) {
      tracker?.orders.apply(order, input.marketId);
      views.push(orderView(order, input.marketId, true, child));
    }
    tracker?.ordersChanged();
    void tracker?.readOrders();
    return ok({ journalId: submitted.value.journalId, orders: views, adjustments: [...plan.warnings, ...built.value.adjustments] });
  }

  async cancelOrder(marketId: string, orderId: B256): Promise<Result<CancelReport>> {
    const tracker = this.ownerOf(orderId);
    const market = this.turboRow(marketId);
    if (!tracker || !market) return fail('ORDER_NOT_OPEN', `order ${orderId} is not an open order of a Turbo Account`, { field: 'orderId' });
    const parent = await this.ready();
    if (!parent.ok) return parent;
    // A cancel only reduces risk: it is sent even while the state is stale.
    const sent = await this.signer(tracker.account).submit({
      groups: [{ market_id: market.market_id, market, turbo: true, actions: [{ kind: 'CancelOrder', order_id: orderId }, { kind: 'SettleBalance', to: contractIdentity(tracker.account) }] }],
      description: `Cancel order ${orderId} of margin account ${tracker.account} on the Turbo book of ${pairName(market)}`,
      settleFirst: false,
    });
    if (!sent.ok) return fail('CANCEL_FAILED', sent.message, sent.details);
    tracker.orders.markCancelled(orderId);
    tracker.ordersChanged();
    return ok({ ...EMPTY_CANCEL_REPORT, requested: 1, cancelled: [orderId], batches: 1 });
  }

  /**
   * Every open order and pending trigger leg of every Turbo Account on the Turbo books (the kill
   * switch, or one market's), read fresh from the exchange, each account signing its own cancels.
   */
  async cancelAll(marketId: string | undefined): Promise<Result<CancelReport>> {
    const parent = await this.ready();
    if (!parent.ok) return ok(EMPTY_CANCEL_REPORT);
    const children = await this.refreshChildren(parent.value.owner, parent.value.parent);
    const accounts = new Set<B256>([...this.trackers.keys(), ...(children.ok ? children.value.filter((child) => child.hasSession).map((child) => child.marginAccountId) : [])]);
    const books = this.turboMarkets()
      .filter((market) => marketId === undefined || market.market_id === marketId)
      .map((market) => ({ market, turbo: true }));
    let report = EMPTY_CANCEL_REPORT;
    for (const account of [...accounts].slice(0, MAX_CHILDREN_SWEPT)) {
      const swept = await sweepAccount({
        rest: this.deps.rest,
        account,
        books,
        submit: (batch) => this.signer(account).submit({ groups: batch.groups, description: `${batch.description} of margin account ${account}`, settleFirst: false }),
        describeOrder: (orderId) => {
          const view = this.trackers.get(account)?.orders.get(orderId);
          const market = view === undefined ? undefined : this.turboRow(view.marketId);
          return view === undefined || market === undefined ? undefined : `${describeOrder(market, view.side, view.orderType, view.price, view.quantity - view.filled)} (Turbo book) of margin account ${account}`;
        },
      });
      const tracker = this.trackers.get(account);
      for (const orderId of swept.cancelled) tracker?.orders.markCancelled(orderId);
      tracker?.ordersChanged();
      void tracker?.readOrders();
      report = mergeReports(report, swept);
    }
    return ok(report);
  }

  async moveOrder(marketId: string, orderId: B256, newPrice: bigint | undefined, newQuantity?: bigint): Promise<Result<PlacedOrder>> {
    const tracker = this.ownerOf(orderId);
    const market = this.turboRow(marketId);
    const view = tracker?.orders.get(orderId);
    if (!tracker || !market || !view) return fail('ORDER_NOT_OPEN', `order ${orderId} is not an open order of a Turbo Account`, { field: 'orderId' });
    const live = await this.live(tracker.account);
    if (!live.ok) return live;
    const kind = view.orderType === 'PostOnly' || view.orderType === 'Limit' ? view.orderType : 'Spot';
    const remaining = view.quantity - view.filled;
    const price = newPrice ?? view.price;
    const quantity = newQuantity ?? remaining;
    const prepared = prepareOrder(market, { side: view.side, orderType: { kind }, price, quantity }, { nowSeconds: BigInt(Math.floor(this.deps.clock.now() / 1000)), turbo: true, marginAccount: true });
    if (!prepared.ok) return prepared;
    const created = prepared.value.group.actions[0];
    if (created?.kind !== 'CreateOrder') return fail('BUG', 'prepareOrder did not produce a CreateOrder');
    // Legs bound to the order (placed by another client: this one signs none as a Turbo Account) go
    // with its cancel, so they are carried as the trading account's are (trading/amend-legs.ts).
    const legs = await boundLegs(this.deps.rest, market, true, tracker.account, orderId);
    if (!legs.ok) return legs;
    let creates: SessionAction[] = [created];
    let carried: Pick<PlacedOrder, 'carriedLegs' | 'protectedFilled'> = {};
    let legsText = '';
    const adjustments = [...prepared.value.adjustments];
    if (legs.value.length > 0) {
      const referencePrice = await lastTradePrice(this.deps.rest, market, true);
      const plan = planAmendLegs(market, view, created, legs.value, (action) => checkAction(action, { market, turbo: true, marginAccount: true, ...(referencePrice === undefined ? {} : { referencePrice }) }));
      if (!plan.ok) return plan;
      creates = [...(plan.value.protect === null ? [] : [plan.value.protect]), plan.value.create];
      carried = { carriedLegs: plan.value.carried, ...(plan.value.protectedFilled > 0n ? { protectedFilled: plan.value.protectedFilled } : {}) };
      legsText = plan.value.description;
      adjustments.push(...plan.value.adjustments);
    }
    const group: ActionGroup = { ...prepared.value.group, actions: [{ kind: 'CancelOrder', order_id: orderId }, { kind: 'SettleBalance', to: contractIdentity(tracker.account) }, ...creates] };
    const submitted = await this.signer(tracker.account).submit({ groups: [group], description: `Amend ${describeOrder(market, view.side, kind, view.price, remaining)} (${orderId}) to ${describeOrder(market, view.side, kind, price, prepared.value.quantity)}${legsText} as margin account ${tracker.account}`, settleFirst: false });
    if (!submitted.ok) return submitted;
    tracker.orders.markCancelled(orderId);
    const views = (submitted.value.orders as Parameters<typeof orderView>[0][]).map((order) => {
      tracker.orders.apply(order, marketId);
      return orderView(order, marketId, true, tracker.account);
    });
    tracker.ordersChanged();
    return ok({ journalId: submitted.value.journalId, orders: views, adjustments, replacedOrderId: orderId, ...carried });
  }

  async settle(marketId: string): Promise<Result<null>> {
    const child = this.selected;
    const market = this.turboRow(marketId);
    if (child === null || !market) return fail(MarginCodes.TURBO_UNAVAILABLE, `marketId: ${marketId} has no Turbo book to settle as a margin account`, { field: 'marketId' });
    const parent = await this.ready();
    if (!parent.ok) return parent;
    const sent = await this.signer(child).submit({
      groups: [{ market_id: market.market_id, market, turbo: true, actions: [{ kind: 'SettleBalance', to: contractIdentity(child) }] }],
      description: `Settle the Turbo book of ${pairName(market)} to margin account ${child}`,
      settleFirst: false,
    });
    return sent.ok ? ok(null) : sent;
  }

  // ---- for tests and diagnostics ------------------------------------------------------------------------

  trackerOf(account: B256): RiskTracker | undefined {
    return this.trackers.get(account);
  }

  selectedAccount(): B256 | null {
    return this.selected;
  }
}
