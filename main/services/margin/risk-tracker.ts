// One Turbo Account followed live: its margin stream (a connection of its own, because
// `unsubscribe_margin` names no account and margin messages name none, so one connection serves
// one account), its orders on Turbo books on the same connection, and the pool inventory. The
// state is folded by MarginFeed (post-event totals replace; stale on a reconnect, a sequence gap or
// a failed fold, then GET /v1/margin/state before it is usable again). computeRisk runs on each
// change, coalesced to at most once per frame; the frame carries the last live figures with the
// stale reason while the state is being fetched again.
import type { MarginState, Tier } from '../../../shared/api/margin-schemas';
import type { Order } from '../../../shared/api/market-schemas';
import type { Clock, TimerHandle } from '../../../shared/clock';
import type { B256 } from '../../../shared/encoding/b256';
import { contractIdentity } from '../../../shared/encoding/identity';
import type { FillView, MarginAssetRef, MarginRiskFrame, MarginRiskView } from '../../../shared/ipc/views';
import { computeRisk, isNoExpiry, type MarginSnapshot, type RiskReport } from '../../../shared/margin/index';
import type { Market } from '../../../shared/market/market';
import { fail, ok, type Result } from '../../../shared/result';
import type { FoldedEvent } from '../../exchange/margin-event';
import { MarginFeed } from '../../exchange/margin-feed';
import type { ExchangeRestClient } from '../../exchange/rest-client';
import type { ExchangeStream, StreamSubscription } from '../../exchange/stream-client';
import type { MessageOf } from '../../exchange/stream-routes';
import { FramePacer, FRAME_INTERVAL_MS } from '../market-data/frame-pacer';
import { ChildOrders } from './child-orders';
import { MarginCodes } from './codes';
import { lastSessionOf, poolPausedOf, poolOfState, type PoolView } from './margin-reads';
import { fullSnapshot, riskView, sessionView, stateSnapshot, type AssetLookup, type StateSnapshot } from './risk-frame';

/** Activities that move pool inventory: the pool is read again after them. */
const POOL_ACTIVITIES = new Set(['Draw', 'ReturnQuote', 'Borrow', 'Repay', 'RepayFromCollateral', 'RepayBaseFromCollateral', 'SessionClosed', 'SessionLiquidated', 'SessionExpired', 'PoolPaused', 'PoolUnpaused']);

export const DEFAULT_POOL_REFRESH_MS = 30_000;
const POOL_READ_DELAY_MS = 100;
/** After an order change, the state is read again this much later (coalescing a burst of fills). */
const REFRESH_DELAY_MS = 50;

export type RiskFrameBody = Omit<MarginRiskFrame, 'subscriptionId'>;

export interface RiskTrackerDeps {
  readonly account: B256;
  readonly clock: Clock;
  /** A connection for this account alone; the tracker subscribes, connects and closes it. */
  readonly stream: ExchangeStream;
  readonly rest: Pick<ExchangeRestClient, 'getMarginState' | 'getOrders' | 'getOrder'>;
  readonly pool: () => Promise<Result<PoolView>>;
  readonly turboMarkets: () => readonly Market[];
  readonly tierOf: (tierId: string, version: bigint) => Tier | undefined;
  readonly asset: AssetLookup;
  /** The formulas; a parameter so tests can count recomputes. */
  readonly compute?: (snapshot: MarginSnapshot) => Result<RiskReport>;
  readonly onFrame: (frame: RiskFrameBody) => void;
  readonly onFolded?: (event: FoldedEvent) => void;
  readonly onFill?: (fill: FillView, market: Market) => void;
  readonly onOrders?: () => void;
  /** Every order of the account the exchange reports (main's one fill source), and a reconnect of its stream (a resync). */
  readonly onOrder?: (order: Order, marketId: string) => void;
  readonly onResync?: () => void;
  readonly log?: (line: string) => void;
  readonly frameMs?: number;
  readonly poolRefreshMs?: number;
}

/** What an action is judged against: one live state and the report computed from it now. */
export interface LiveRisk {
  readonly state: MarginState;
  readonly snapshot: MarginSnapshot | null;
  readonly report: RiskReport | null;
  readonly tier: StateSnapshot['tier'] | null;
  /** Why there is no report (no session, a snapshot that cannot be valued). */
  readonly problem: { readonly code: string; readonly message: string } | null;
}

export class RiskTracker {
  readonly orders: ChildOrders;
  private readonly feed: MarginFeed;
  private readonly pacer: FramePacer;
  private readonly compute: (snapshot: MarginSnapshot) => Result<RiskReport>;
  private readonly subscriptions: StreamSubscription[] = [];
  private readonly stopListening: () => void;
  private converted: { state: MarginState; part: Result<StateSnapshot> } | null = null;
  private poolInventory: Readonly<Record<string, bigint>> = {};
  private poolPaused: boolean | null = null;
  private poolTimer: TimerHandle | null = null;
  private poolReadTimer: TimerHandle | null = null;
  private lastRisk: MarginRiskView | null = null;
  private last: RiskFrameBody | null = null;
  private closed = false;
  private computations = 0;
  /** The feed's next change comes from a folded event, not a complete state. */
  private foldPending = false;
  /** The account did something the held state may not include yet (own request, order change). */
  private behind = false;
  private refreshTimer: TimerHandle | null = null;

  constructor(private readonly deps: RiskTrackerDeps) {
    this.compute = deps.compute ?? computeRisk;
    this.orders = new ChildOrders({
      account: deps.account,
      turboMarket: (marketId) => deps.turboMarkets().find((market) => market.market_id === marketId),
      collateralAssetId: () => this.collateralAssetId(),
      ...(deps.onFill ? { onFill: deps.onFill } : {}),
    });
    this.pacer = new FramePacer(deps.clock, () => this.flush(), deps.frameMs ?? FRAME_INTERVAL_MS);
    this.feed = new MarginFeed({
      stream: deps.stream,
      rest: deps.rest,
      clock: deps.clock,
      account: deps.account,
      tierOf: deps.tierOf,
      onFolded: (event) => this.folded(event),
      onChange: () => this.stateChanged(),
    });
    this.stopListening = deps.stream.consume({
      messages: { subscribe_orders: (message) => this.ordersArrived(message) },
      connection: (event) => {
        if (this.closed || event.type !== 'connected' || !event.reconnect) return;
        this.deps.onResync?.();
        void this.readOrders();
      },
    });
  }

  get account(): B256 {
    return this.deps.account;
  }

  start(): Result<void> {
    const margin = this.feed.start();
    if (!margin.ok) return margin;
    const orders = this.deps.stream.subscribeOrders([contractIdentity(this.deps.account)], { turbo: true });
    if (orders.ok) this.subscriptions.push(orders.value);
    else this.deps.log?.(`orders of ${this.deps.account}: ${orders.message}`);
    this.deps.stream.connect();
    void this.readOrders();
    void this.readPool();
    this.schedulePoolRefresh();
    return ok(undefined);
  }

  close(): void {
    this.closed = true;
    this.pacer.cancel();
    this.stopListening();
    this.feed.close();
    for (const subscription of this.subscriptions) subscription.close();
    if (this.poolTimer !== null) this.deps.clock.clearTimeout(this.poolTimer);
    if (this.poolReadTimer !== null) this.deps.clock.clearTimeout(this.poolReadTimer);
    if (this.refreshTimer !== null) this.deps.clock.clearTimeout(this.refreshTimer);
    this.deps.stream.close();
  }

  isLive(): boolean {
    return this.feed.state() === 'live';
  }

  /** How many times the formulas ran (tests of the coalescing). */
  computeCount(): number {
    return this.computations;
  }

  /** The last frame (figures of the last live state), or null before the first. */
  frame(): RiskFrameBody | null {
    return this.last;
  }

  /** Force the frame to be sent again at the next frame boundary (a new subscriber). */
  touch(): void {
    this.pacer.mark('risk');
  }

  /**
   * The state to sign against, waiting up to `timeoutMs` for it to be live. Refused while stale:
   * the spec requires GET /v1/margin/state (which the feed is doing) before another action. After
   * this account's own request or an order change the state is read again first, so a check never
   * judges a state that misses what the account itself just did.
   */
  async live(timeoutMs: number): Promise<Result<LiveRisk>> {
    if (!this.isLive()) await this.feed.whenLive(timeoutMs);
    if (this.behind && this.isLive()) await this.refresh();
    const snapshot = this.feed.snapshot();
    if (!snapshot.ok) return fail(MarginCodes.STALE, `${snapshot.message}: no margin action is signed until it is fresh again`, { field: 'marginAccountId' });
    return ok(this.evaluate(snapshot.value));
  }

  /** The account's own request was accepted: its state is read again before the next check. */
  noteWrite(): void {
    this.markBehind();
  }

  private markBehind(): void {
    this.behind = true;
    if (this.refreshTimer !== null || this.closed) return;
    this.refreshTimer = this.deps.clock.setTimeout(() => {
      this.refreshTimer = null;
      if (this.behind) void this.refresh();
    }, REFRESH_DELAY_MS);
  }

  private async refresh(): Promise<void> {
    this.behind = false;
    const refreshed = await this.feed.refresh();
    if (!refreshed.ok) {
      this.behind = true;
      this.deps.log?.(`margin state of ${this.deps.account}: ${refreshed.message}`);
    }
  }

  /** Read the account's open Turbo orders again (after a reconnect, or after a request). */
  async readOrders(): Promise<void> {
    const seen = new Set<string>();
    for (const market of this.deps.turboMarkets()) {
      const page = await this.deps.rest.getOrders({ market_id: market.market_id, contract: this.deps.account, is_open: true, direction: 'desc', count: 200, turbo: true });
      if (!page.ok) {
        this.deps.log?.(`open Turbo orders of ${this.deps.account} on ${market.market_id}: ${page.message}`);
        return;
      }
      for (const order of page.value.orders) {
        this.deps.onOrder?.(order, market.market_id);
        this.orders.apply(order, market.market_id, this.orders.owns(order.order_id));
        seen.add(order.order_id);
      }
    }
    for (const orderId of this.orders.missingFrom(seen).slice(0, 50)) {
      const view = this.orders.get(orderId);
      if (view === undefined) continue;
      const one = await this.deps.rest.getOrder({ market_id: view.marketId as B256, order_id: orderId as B256, turbo: true });
      if (one.ok) {
        this.deps.onOrder?.(one.value.order, view.marketId);
        this.orders.apply(one.value.order, view.marketId);
      }
      else this.orders.markCancelled(orderId);
    }
    this.ordersChanged();
  }

  ordersChanged(): void {
    this.deps.onOrders?.();
    this.pacer.mark('risk');
  }

  // ---- inputs -------------------------------------------------------------------------------

  private collateralAssetId(): string | null {
    const snapshot = this.feed.snapshot();
    return snapshot.ok ? (snapshot.value.collateral_asset_id ?? null) : (this.last?.collateral.assetId ?? null);
  }

  private ordersArrived(message: MessageOf<'subscribe_orders'>): void {
    if (this.closed) return;
    for (const order of message.orders) {
      if (order.market_id === undefined) continue;
      if (order.owner !== undefined && !('ContractId' in order.owner && order.owner.ContractId === this.deps.account)) continue;
      this.deps.onOrder?.(order, order.market_id);
      this.orders.apply(order, order.market_id);
    }
    // A fill moves balances; the margin stream may not report it (it moved no margin member).
    this.markBehind();
    this.ordersChanged();
  }

  private stateChanged(): void {
    const folded = this.foldPending;
    this.foldPending = false;
    const snapshot = this.feed.snapshot();
    // A complete state (the stream's snapshot or a refetch) embeds the pool as of that state;
    // folded events do not carry the inventory, so it is then read on its own.
    if (!folded && snapshot.ok) {
      const embedded = poolOfState(snapshot.value);
      if (embedded !== null) {
        this.poolInventory = embedded.inventory;
        this.poolPaused = embedded.paused;
      }
    }
    this.pacer.mark('risk');
  }

  private folded(event: FoldedEvent): void {
    this.foldPending = true;
    this.deps.onFolded?.(event);
    if (event.activities.some((activity) => POOL_ACTIVITIES.has(activity.kind))) this.schedulePoolRead();
  }

  private schedulePoolRead(): void {
    if (this.poolReadTimer !== null || this.closed) return;
    this.poolReadTimer = this.deps.clock.setTimeout(() => {
      this.poolReadTimer = null;
      void this.readPool();
    }, POOL_READ_DELAY_MS);
  }

  private schedulePoolRefresh(): void {
    if (this.closed) return;
    this.poolTimer = this.deps.clock.setTimeout(() => {
      this.poolTimer = null;
      void this.readPool().finally(() => this.schedulePoolRefresh());
    }, this.deps.poolRefreshMs ?? DEFAULT_POOL_REFRESH_MS);
  }

  private async readPool(): Promise<void> {
    const pool = await this.deps.pool();
    if (this.closed) return;
    if (!pool.ok) {
      this.deps.log?.(`margin pool read failed: ${pool.message}`);
      return;
    }
    this.poolInventory = pool.value.inventory;
    this.poolPaused = pool.value.paused;
    this.pacer.mark('risk');
  }

  // ---- computing ---------------------------------------------------------------------------

  private part(state: MarginState): Result<StateSnapshot> {
    if (this.converted?.state !== state) this.converted = { state, part: stateSnapshot(state) };
    return this.converted.part;
  }

  private evaluate(state: MarginState): LiveRisk {
    const part = this.part(state);
    if (!part.ok) return { state, snapshot: null, report: null, tier: null, problem: { code: part.code, message: part.message } };
    const snapshot = fullSnapshot(part.value, this.orders.restingOrders(), this.poolInventory);
    this.computations++;
    const report = this.compute(snapshot);
    if (!report.ok) return { state, snapshot, report: null, tier: part.value.tier, problem: { code: report.code, message: report.message } };
    return { state, snapshot, report: report.value, tier: part.value.tier, problem: null };
  }

  private flush(): void {
    if (this.closed) return;
    const snapshot = this.feed.snapshot();
    const previous = this.last;
    if (!snapshot.ok) {
      if (previous === null) return;
      this.last = { ...previous, status: 'stale', staleReason: this.feed.staleReason(), computedAt: this.deps.clock.now() };
      this.deps.onFrame(this.last);
      return;
    }
    const state = snapshot.value;
    const evaluated = this.evaluate(state);
    const collateralId = state.collateral_asset_id ?? '';
    const collateral: MarginAssetRef = this.deps.asset(collateralId);
    const cohort = state.session?.cohort ?? evaluated.tier?.cohort ?? (state.tier ? (state.tier.turbo === undefined ? 'Legacy' : 'Turbo') : null);
    const expires = state.session?.expires_at ?? null;
    const noExpiry = expires !== null && isNoExpiry(expires);
    const risk = evaluated.report !== null && evaluated.snapshot !== null ? riskView(evaluated.report, evaluated.snapshot, this.deps.asset, state.rollover?.eligible_now ?? null) : null;
    if (risk !== null) this.lastRisk = risk;
    const last = lastSessionOf(state);
    const stalePrices: MarginAssetRef[] = [];
    for (const [assetId, price] of Object.entries(state.prices)) if (price.stale === true && assetId !== collateralId) stalePrices.push(this.deps.asset(assetId));
    this.last = {
      marginAccountId: this.deps.account,
      status: 'live',
      staleReason: null,
      sequence: this.feed.sequence(),
      computedAt: this.deps.clock.now(),
      cohort,
      session: sessionView(state, cohort ?? 'Legacy', this.deps.asset),
      expiresAt: expires === null || noExpiry ? null : expires,
      noExpiry,
      collateral,
      risk: state.session ? risk : null,
      riskProblem: evaluated.problem,
      stalePrices,
      poolPaused: poolPausedOf(state) ?? this.poolPaused ?? false,
      frozen: risk?.health.frozen ?? false,
      liquidatable: risk?.health.liquidatable ?? false,
      lastSession:
        last === null
          ? null
          : {
              status: last.status,
              endedAt: last.endedAt,
              pnl: last.pnl,
              profitShare: last.profitShare,
              collateralReturned: last.collateralReturned,
              collateralForfeited: last.collateralForfeited,
              returnedToParent: last.returnedToParent.map((entry) => ({ ...this.deps.asset(entry.assetId), amount: entry.amount })),
            },
    };
    this.deps.onFrame(this.last);
  }

  /** The last risk figures computed from a live state (kept while stale). */
  lastRiskView(): MarginRiskView | null {
    return this.lastRisk;
  }
}
