// The state every part of the margin service shares (see margin-service.ts): the followed Turbo
// Accounts and their live risk, the caches of tiers, pool and children, who signs for each account,
// the risk subscriptions of the windows, and the lookups the other parts build on.
import type { Tier } from '../../../shared/api/margin-schemas';
import type { Order } from '../../../shared/api/market-schemas';
import type { Clock, TimerHandle } from '../../../shared/clock';
import type { B256 } from '../../../shared/encoding/b256';
import { formatUnits } from '../../../shared/encoding/units';
import type { FillNotice, MarginActionReceipt, MarginAssetRef, MarginBookRef } from '../../../shared/ipc/views';
import type { Market } from '../../../shared/market/market';
import { fail, ok, type Result } from '../../../shared/result';
import type { ExchangeRestClient } from '../../exchange/rest-client';
import type { ExchangeStream } from '../../exchange/stream-client';
import type { AccountService } from '../account/account-service';
import type { Journal, SignedEntry } from '../journal/journal';
import type { MarketsIndex } from '../market-data/markets-index';
import type { NonceManager } from '../nonces/nonce-manager';
import { pairName } from '../trading/order-intents';
import type { PreferencesStore } from '../storage/preferences';
import { Submitter, type SubmitterDeps } from '../trading/submitter';
import type { WindowHub } from '../window-hub';
import { ChildSigner } from './child-signer';
import { MarginCodes } from './codes';
import { returnedToParentOf, type ChildAccount, type MarginReads, type PoolView, type TierTerms } from './margin-reads';
import { missingFromScope, scopeView } from './overview';
import { RiskTracker, type RiskFrameBody } from './risk-tracker';
import { DEFAULT_TURBO_ORDER_SETTINGS, type TurboOrderSettings } from './turbo-orders';

/** Accounts followed live at once (each holds one WebSocket connection). */
export const MAX_TRACKED_ACCOUNTS = 8;
/** How long an action waits for a stale state to be fetched again before refusing. */
export const LIVE_WAIT_MS = 5_000;
/** A followed account nobody watches and nobody trades as is dropped after this long. */
export const IDLE_TRACKER_MS = 120_000;
// GET /v1/markets is not rate limited; no stream announces a pause or a disconnection.
const TURBO_ROWS_REFRESH_MS = 10_000;
export const MAX_CHILDREN_SWEPT = 16;

export interface MarginServiceDeps {
  readonly networkId: string;
  readonly clock: Clock;
  readonly rest: ExchangeRestClient;
  readonly reads: MarginReads;
  /** A new WebSocket connection to the network (one per followed account). */
  readonly openStream: () => ExchangeStream;
  readonly markets: () => MarketsIndex | null;
  readonly accounts: AccountService;
  /** The trading account's submitter (parent actions on POST /v1/session/actions). */
  readonly submitter: Submitter;
  readonly reconcileParent: (journalId: string) => Promise<Result<'landed' | 'not-landed'>>;
  /** The trading account's orders a journaled request created (TradingService.ordersOf). */
  readonly parentOrdersOf: (entry: SignedEntry) => Promise<Result<readonly Order[]>>;
  readonly nonces: () => NonceManager | null;
  readonly journal: Journal;
  readonly preferences: PreferencesStore;
  readonly sign: (sessionAddress: B256, digest: Uint8Array) => Result<Uint8Array>;
  readonly loadSessionKey: (address: B256) => Promise<Result<void>>;
  readonly windows: WindowHub;
  /** Push the merged open orders (the trading account's and the Turbo Accounts'). */
  readonly publishOrders: () => void;
  readonly publishFill: (notice: FillNotice) => void;
  /** A Turbo Account's orders as reported, and a resync of its stream, for main's one fill source. */
  readonly takeFills?: (account: string, order: Order, marketId: string, turbo: boolean) => void;
  readonly resyncFills?: (account: string) => void;
  readonly newId: () => string;
  /** Main's order guards, run by each Turbo Account's submitter before it takes a nonce. */
  readonly guard?: SubmitterDeps['guard'];
  /** The same guards without counting an order (main/services/guards `previewRequest`): the Turbo ticket's pre-check. */
  readonly previewGuard?: SubmitterDeps['guard'];
  readonly wait: (ms: number) => Promise<void>;
  readonly notice: (level: 'info' | 'warning' | 'error', text: string) => void;
  readonly log: (line: string) => void;
}

export interface Parent {
  readonly owner: B256;
  readonly parent: B256;
  readonly sessionAddress: B256;
}

export interface RiskSubscription {
  readonly windowId: string;
  readonly account: B256;
}

/** Main's own follower of an account's risk (the margin alerts), with no window. */
export interface RiskWatcher {
  readonly account: B256;
  readonly onFrame: (frame: RiskFrameBody) => void;
  /** The follow ended by itself: the trading account changed, or the service stopped. */
  readonly onEnd: () => void;
}

export const showId = (id: string) => id;

export function receipt(journalIds: string[], txIds: string[], description: string, notes: string[]): MarginActionReceipt {
  return { journalIds, txIds, description, notes };
}

export abstract class MarginCore {
  protected parent: B256 | null = null;
  protected readonly trackers = new Map<B256, RiskTracker>();
  private readonly idleSince = new Map<B256, number>();
  private readonly signers = new Map<B256, ChildSigner>();
  protected readonly subscriptions = new Map<string, RiskSubscription>();
  private readonly watchers = new Map<string, RiskWatcher>();
  protected selected: B256 | null = null;
  /** A remembered Turbo Account choice is being restored (restoreSelection). */
  protected restoringSelection = false;
  protected settings: TurboOrderSettings = DEFAULT_TURBO_ORDER_SETTINGS;
  protected tiers: TierTerms[] = [];
  protected pool: PoolView | null = null;
  protected children: ChildAccount[] = [];
  /** The trading account whose Turbo Accounts `children` holds as read from the exchange (null: not read yet). */
  protected childrenReadFor: B256 | null = null;
  private turboRows: Market[] | null = null;
  private turboRowsKey = '';
  private subscriptionCount = 0;
  protected overviewTimer: TimerHandle | null = null;
  private sweepTimer: TimerHandle | null = null;
  private rowsTimer: TimerHandle | null = null;
  protected readonly registration: Submitter;
  private readonly stopWindowListener: () => void;
  protected stopped = false;

  /** The Turbo Account chosen earlier under this trading account is chosen again (margin-service.ts). */
  protected abstract restoreSelection(parent: B256): Promise<void>;
  /** The windows' Turbo markets are sent again (margin-service.ts). */
  protected abstract publishTurboMarkets(): void;
  /** The overview is sent to the windows soon (margin-session.ts). */
  protected abstract scheduleOverview(): void;

  constructor(protected readonly deps: MarginServiceDeps) {
    this.registration = new Submitter({
      port: { post: (body, owner) => deps.rest.registerMarginAccount(owner, body) },
      nonces: deps.nonces,
      journal: deps.journal,
      sign: deps.sign,
      identity: () => {
        const identity = deps.accounts.tradingIdentity();
        return identity.ok ? ok({ ...identity.value, networkId: deps.networkId }) : identity;
      },
      targets: () => this.targets(),
      reconcile: deps.reconcileParent,
      ordersOf: deps.parentOrdersOf,
      newId: deps.newId,
      log: deps.log,
    });
    this.stopWindowListener = deps.windows.onWindowClosed((windowId) => {
      for (const [id, subscription] of this.subscriptions) if (subscription.windowId === windowId) this.unsubscribeRisk(id);
    });
    this.scheduleSweep();
    this.scheduleRowsRefresh();
  }

  // ---- lifecycle of the service ---------------------------------------------------------------

  /** The trading account changed (or is gone): forget every margin account of the previous one. */
  accountChanged(tradeAccountId: B256 | null): void {
    if (tradeAccountId === this.parent) return;
    this.parent = tradeAccountId;
    for (const tracker of this.trackers.values()) tracker.close();
    this.trackers.clear();
    this.idleSince.clear();
    this.signers.clear();
    this.selected = null;
    this.children = [];
    this.childrenReadFor = null;
    this.endWatchers();
    if (tradeAccountId !== null) {
      void this.reconcileChildren();
      void this.restoreSelection(tradeAccountId);
    }
    this.scheduleOverview();
    this.publishTurboMarkets();
    // The forgotten accounts' open orders and fills leave the windows' lists now.
    this.deps.publishOrders();
  }

  stop(): void {
    this.stopped = true;
    for (const tracker of this.trackers.values()) tracker.close();
    this.trackers.clear();
    this.endWatchers();
    this.stopWindowListener();
    for (const timer of [this.overviewTimer, this.sweepTimer, this.rowsTimer]) if (timer !== null) this.deps.clock.clearTimeout(timer);
  }

  setParallelLanes(lanes: number): void {
    for (const signer of this.signers.values()) signer.setLanes(lanes);
  }

  /** Requests of Turbo Accounts left without an answer (a crash, a lost response) are settled first. */
  private async reconcileChildren(): Promise<void> {
    const parent = this.parent;
    const open = this.deps.journal.unresolved().filter((record) => record.signed.networkId === this.deps.networkId && record.signed.account !== parent);
    const accounts = new Set(open.map((record) => record.signed.account as B256));
    if (accounts.size === 0 || parent === null) return;
    const owner = this.deps.accounts.activeOwner();
    if (!owner) return;
    const children = await this.deps.reads.children(owner.address as B256, parent);
    if (!children.ok) return;
    for (const child of children.value) if (accounts.has(child.marginAccountId)) await this.signer(child.marginAccountId).submitter.reconcileOpen();
  }

  // ---- lookups --------------------------------------------------------------------------------

  protected asset(assetId: string): MarginAssetRef {
    const known = this.deps.markets()?.asset(assetId);
    return known ? { assetId, symbol: known.symbol, decimals: known.decimals } : { assetId, symbol: `${assetId.slice(0, 8)}…`, decimals: 0 };
  }

  protected turboMarkets(): readonly Market[] {
    return this.turboRows ?? this.deps.markets()?.turboMarkets() ?? [];
  }

  protected turboRow(marketId: string): Market | undefined {
    return this.turboMarkets().find((market) => market.market_id === marketId);
  }

  private tierOf(tierId: string, version: bigint): Tier | undefined {
    return this.tiers.find((tier) => tier.tierId === tierId && tier.version === version)?.wire;
  }

  protected targets() {
    const registry = this.deps.markets()?.response.accounts_registry_id;
    return {
      ...(registry ? { accounts_registry_id: registry } : {}),
      ...(this.pool?.poolId ? { margin_pool_id: this.pool.poolId } : {}),
      ...(this.pool?.collateralAssetId ? { margin_collateral_asset_id: this.pool.collateralAssetId } : {}),
    };
  }

  /** Call targets the trading account's submitter needs for parent margin actions. */
  callTargets() {
    const { accounts_registry_id: _registry, ...margin } = this.targets();
    return margin;
  }

  protected bookRefs(terms: TierTerms): MarginBookRef[] {
    const markets = this.deps.markets();
    return terms.books.map((contractId) => {
      const found = markets?.byContract(contractId);
      return { contractId, marketId: found?.market.market_id ?? '', pair: found ? pairName(found.market) : contractId };
    });
  }

  protected allBooks(): B256[] {
    return [...new Set(this.tiers.flatMap((tier) => tier.books))];
  }

  // ---- reads that refresh the caches ---------------------------------------------------------

  protected async refreshTiers(): Promise<Result<TierTerms[]>> {
    const read = await this.deps.reads.tiers();
    if (read.ok) this.tiers = read.value;
    return read;
  }

  protected async refreshPool(): Promise<Result<PoolView>> {
    const read = await this.deps.reads.pool();
    if (read.ok) this.pool = read.value;
    return read;
  }

  protected async refreshChildren(owner: B256, parent: B256): Promise<Result<ChildAccount[]>> {
    const read = await this.deps.reads.children(owner, parent);
    // The trading account changed while the read was out: its answer is of the previous one.
    if (this.parent !== parent) return this.changedMeanwhile();
    if (read.ok) {
      this.children = read.value;
      this.childrenReadFor = parent;
    }
    return read;
  }

  protected changedMeanwhile(): Result<never> {
    return fail(MarginCodes.NOT_READY, 'The trading account changed while its Turbo Accounts were being read; nothing was done. Try again.');
  }

  async refreshTurboRows(): Promise<void> {
    const read = await this.deps.rest.getMarkets({ turbo: true });
    if (!read.ok) {
      this.deps.log(`Turbo rows could not be read: ${read.message}`);
      return;
    }
    const rows = read.value.markets.filter((market) => market.turbo === true);
    const key = rows.map((row) => `${row.market_id}:${row.connected}:${row.paused}`).join('|');
    this.turboRows = rows;
    if (key !== this.turboRowsKey) {
      this.turboRowsKey = key;
      this.publishTurboMarkets();
    }
  }

  private scheduleRowsRefresh(): void {
    if (this.stopped) return;
    this.rowsTimer = this.deps.clock.setTimeout(() => {
      this.rowsTimer = null;
      // Only once someone looked at the Turbo rows (a toggle, a selection): others pay nothing.
      if (this.turboRows === null) return this.scheduleRowsRefresh();
      void this.refreshTurboRows().finally(() => this.scheduleRowsRefresh());
    }, TURBO_ROWS_REFRESH_MS);
  }

  // ---- who signs --------------------------------------------------------------------------------

  /** The parent's identity with its session key loaded, or why margin cannot act yet. */
  protected async ready(): Promise<Result<Parent>> {
    const identity = this.deps.accounts.tradingIdentity();
    if (!identity.ok) return fail(MarginCodes.NOT_READY, identity.message);
    const loaded = await this.deps.loadSessionKey(identity.value.sessionAddress);
    if (!loaded.ok) return loaded;
    if (this.parent !== identity.value.tradeAccountId) this.accountChanged(identity.value.tradeAccountId);
    if (this.pool === null) {
      const pool = await this.refreshPool();
      if (!pool.ok) return pool;
    }
    if (this.tiers.length === 0) {
      const tiers = await this.refreshTiers();
      if (!tiers.ok) return tiers;
    }
    return ok({ owner: identity.value.owner, parent: identity.value.tradeAccountId, sessionAddress: identity.value.sessionAddress });
  }

  protected async requireChild(parent: Parent, account: B256): Promise<Result<ChildAccount>> {
    let found = this.children.find((child) => child.marginAccountId === account);
    if (found === undefined) {
      const read = await this.refreshChildren(parent.owner, parent.parent);
      if (!read.ok) return read;
      found = read.value.find((child) => child.marginAccountId === account);
    }
    return found === undefined
      ? fail(MarginCodes.UNKNOWN_ACCOUNT, `marginAccountId: ${account} is not a registered margin account of trading account ${parent.parent}`, { field: 'marginAccountId' })
      : ok(found);
  }

  protected sessionContracts(): readonly string[] | null {
    const session = this.deps.accounts.state().session;
    return session === null || session.state === 'expired' ? null : session.contractIds;
  }

  /** Ready (see `ready`), with `account` a registered margin account of the trading account and in the session's scope. */
  protected async readyFor(account: B256): Promise<Result<Parent>> {
    const parent = await this.ready();
    if (!parent.ok) return parent;
    const child = await this.requireChild(parent.value, account);
    if (!child.ok) return child;
    const scope = this.requireScope([account]);
    if (!scope.ok) return scope;
    return parent;
  }

  protected requireScope(children: readonly B256[]): Result<void> {
    const missing = missingFromScope(this.sessionContracts(), {
      poolId: this.pool?.poolId ?? null,
      registryId: this.deps.markets()?.response.accounts_registry_id ?? null,
      children,
      books: this.allBooks(),
    });
    if (missing.length === 0) return ok(undefined);
    const view = scopeView(missing, this.deps.accounts.activeOwner()?.custody === 'keychain');
    return fail(MarginCodes.SCOPE_MISSING, `MarginAccountNotInSessionScope: ${view.explanation ?? ''}`, { field: 'marginAccountId' });
  }

  protected signer(child: B256): ChildSigner {
    let signer = this.signers.get(child);
    if (signer === undefined) {
      signer = new ChildSigner({
        networkId: this.deps.networkId,
        child,
        rest: this.deps.rest,
        journal: this.deps.journal,
        preferences: this.deps.preferences,
        parentIdentity: () => this.deps.accounts.tradingIdentity(),
        sign: this.deps.sign,
        targets: () => this.targets(),
        lanes: () => this.deps.preferences.preferences.get().settings.parallelLanes,
        nowSeconds: () => BigInt(Math.floor(this.deps.clock.now() / 1000)),
        wait: this.deps.wait,
        newId: this.deps.newId,
        ...(this.deps.guard === undefined ? {} : { guard: this.deps.guard }),
        notice: this.deps.notice,
        onReconciled: () => void this.trackers.get(child)?.readOrders(),
        onSubmitted: () => this.trackers.get(child)?.noteWrite(),
        log: this.deps.log,
      });
      this.signers.set(child, signer);
    }
    return signer;
  }

  // ---- followed accounts ------------------------------------------------------------------------

  protected tracker(account: B256): Result<RiskTracker> {
    const existing = this.trackers.get(account);
    if (existing) return ok(existing);
    if (this.trackers.size >= MAX_TRACKED_ACCOUNTS) {
      const idle = [...this.trackers.keys()].find((candidate) => !this.watched(candidate));
      if (idle === undefined) return fail(MarginCodes.TOO_MANY_ACCOUNTS, `at most ${MAX_TRACKED_ACCOUNTS} margin accounts are followed at once; close a risk panel first`, { field: 'marginAccountId' });
      this.dropTracker(idle);
    }
    const tracker = new RiskTracker({
      account,
      clock: this.deps.clock,
      stream: this.deps.openStream(),
      rest: this.deps.rest,
      pool: () => this.deps.reads.pool(),
      turboMarkets: () => this.turboMarkets(),
      tierOf: (tierId, version) => this.tierOf(tierId, version),
      asset: (assetId) => this.asset(assetId),
      onFrame: (frame) => this.sendFrame(account, frame),
      onFolded: (event) => this.folded(account, event.activities),
      onFill: (fill, market) => this.deps.publishFill({ fill, symbol: `${pairName(market)} (Turbo, ${account.slice(0, 10)}…)` }),
      onOrders: () => this.deps.publishOrders(),
      onOrder: (order, marketId) => this.deps.takeFills?.(account, order, marketId, true),
      onResync: () => this.deps.resyncFills?.(account),
      log: this.deps.log,
    });
    const started = tracker.start();
    if (!started.ok) return started;
    this.trackers.set(account, tracker);
    this.idleSince.set(account, this.deps.clock.now());
    return ok(tracker);
  }

  private watched(account: B256): boolean {
    if (account === this.selected) return true;
    for (const subscription of this.subscriptions.values()) if (subscription.account === account) return true;
    for (const watcher of this.watchers.values()) if (watcher.account === account) return true;
    return false;
  }

  private dropTracker(account: B256): void {
    this.trackers.get(account)?.close();
    this.trackers.delete(account);
    this.idleSince.delete(account);
  }

  private scheduleSweep(): void {
    if (this.stopped) return;
    this.sweepTimer = this.deps.clock.setTimeout(() => {
      this.sweepTimer = null;
      const now = this.deps.clock.now();
      for (const account of [...this.trackers.keys()]) {
        if (this.watched(account)) this.idleSince.set(account, now);
        else if (now - (this.idleSince.get(account) ?? now) >= IDLE_TRACKER_MS && (this.trackers.get(account)?.orders.open().length ?? 0) === 0) this.dropTracker(account);
      }
      this.scheduleSweep();
    }, IDLE_TRACKER_MS / 4);
  }

  private sendFrame(account: B256, frame: RiskFrameBody): void {
    for (const [subscriptionId, subscription] of this.subscriptions) {
      if (subscription.account === account) this.deps.windows.sendTo(subscription.windowId, 'marginRisk', { ...frame, subscriptionId });
    }
    for (const watcher of this.watchers.values()) if (watcher.account === account) watcher.onFrame(frame);
  }

  private folded(account: B256, activities: readonly { kind: string; [member: string]: unknown }[]): void {
    for (const activity of activities) {
      const who = `Margin account ${account}`;
      const amount = (member: string): string => {
        const value = activity[member];
        const collateral = this.pool?.collateralAssetId;
        return typeof value === 'string' && /^-?\d{1,80}$/.test(value) && collateral ? `${formatUnits(BigInt(value), this.asset(collateral).decimals)} ${this.asset(collateral).symbol}` : String(value ?? '?');
      };
      // What went back to the trading account, from the settlement's `returned_to_parent`.
      const remainder = (): string => {
        const returned = returnedToParentOf(activity.returned_to_parent);
        if (returned === null) return 'what remained went to the trading account';
        const parts = returned.filter((holding) => holding.amount > 0n).map((holding) => `${formatUnits(holding.amount, this.asset(holding.assetId).decimals)} ${this.asset(holding.assetId).symbol}`);
        return parts.length === 0 ? 'nothing was left to return to the trading account' : `${parts.join(', ')} went back to the trading account`;
      };
      switch (activity.kind) {
        case 'SessionLiquidated':
          this.deps.notice('error', `${who} was liquidated: its positions were unwound off market and settled (PnL ${amount('pnl')}, profit share ${amount('profit_share')}, collateral returned ${amount('collateral_returned')}, forfeited ${amount('collateral_forfeited')}); ${remainder()}.`);
          break;
        case 'SessionExpired':
          this.deps.notice('warning', `${who}: the session expired and was settled (PnL ${amount('pnl')}); ${remainder()}.`);
          break;
        case 'SessionClosed':
          this.deps.notice('info', `${who}: the session is closed (PnL ${amount('pnl')}, collateral returned ${amount('collateral_returned')}); withdraw what the account still holds.`);
          break;
        case 'RolledOver':
          this.deps.notice('info', `${who} earned a free term (rollover ${String(activity.rollovers_used ?? '?')}).`);
          break;
        case 'AutoProlonged':
          this.deps.notice('info', `${who}: the session was prolonged automatically.`);
          break;
        default:
          break;
      }
      if (activity.kind.startsWith('Session') || activity.kind === 'Registered' || activity.kind === 'WithdrawnToParent' || activity.kind === 'RolledOver') this.scheduleOverview();
    }
  }

  // ---- risk subscriptions -----------------------------------------------------------------------

  async subscribeRisk(windowId: string, account: B256): Promise<Result<{ subscriptionId: string }>> {
    const parent = await this.parentIds();
    if (!parent.ok) return parent;
    const child = await this.requireChild(parent.value, account);
    if (!child.ok) return child;
    if (this.parent !== parent.value.parent) return this.changedMeanwhile();
    const perWindow = [...this.subscriptions.values()].filter((subscription) => subscription.windowId === windowId).length;
    if (perWindow >= 16) return fail(MarginCodes.TOO_MANY_ACCOUNTS, 'at most 16 margin risk subscriptions per window');
    const tracker = this.tracker(account);
    if (!tracker.ok) return tracker;
    const subscriptionId = `margin-risk-${++this.subscriptionCount}`;
    this.subscriptions.set(subscriptionId, { windowId, account });
    tracker.value.touch();
    return ok({ subscriptionId });
  }

  /**
   * Follow an account's risk for main itself (the margin alerts), as a window's subscription would
   * and with no window: the tracker is held (never dropped as idle) and each frame handed to
   * `onFrame` until `close`, or until `onEnd` says the follow ended by itself.
   */
  async watchRisk(account: B256, onFrame: RiskWatcher['onFrame'], onEnd: RiskWatcher['onEnd']): Promise<Result<{ close(): void }>> {
    if (this.stopped) return fail(MarginCodes.NOT_READY, 'the margin service of this network has stopped');
    const parent = await this.parentIds();
    if (!parent.ok) return parent;
    const child = await this.requireChild(parent.value, account);
    if (!child.ok) return child;
    if (this.parent !== parent.value.parent) return this.changedMeanwhile();
    if (this.stopped) return fail(MarginCodes.NOT_READY, 'the margin service of this network has stopped');
    const tracker = this.tracker(account);
    if (!tracker.ok) return tracker;
    const watcherId = `main-risk-${++this.subscriptionCount}`;
    this.watchers.set(watcherId, { account, onFrame, onEnd });
    tracker.value.touch();
    return ok({
      close: () => {
        if (this.watchers.delete(watcherId)) this.idleSince.set(account, this.deps.clock.now());
      },
    });
  }

  private endWatchers(): void {
    const ended = [...this.watchers.values()];
    this.watchers.clear();
    for (const watcher of ended) watcher.onEnd();
  }

  unsubscribeRisk(subscriptionId: string, windowId?: string): Result<null> {
    const subscription = this.subscriptions.get(subscriptionId);
    if (subscription === undefined || (windowId !== undefined && subscription.windowId !== windowId)) {
      return fail(MarginCodes.UNKNOWN_SUBSCRIPTION, `subscriptionId: ${JSON.stringify(subscriptionId)} is not a margin risk subscription of this window`, { field: 'subscriptionId' });
    }
    this.subscriptions.delete(subscriptionId);
    this.idleSince.set(subscription.account, this.deps.clock.now());
    return ok(null);
  }

  /** The trading account without requiring a live session (reads only). */
  protected async parentIds(): Promise<Result<{ owner: B256; parent: B256; sessionAddress: B256 }>> {
    const owner = this.deps.accounts.activeOwner();
    const record = this.deps.accounts.accountRecord();
    if (!owner || !record) return fail(MarginCodes.NOT_READY, 'Set up an owner key and a trading account first (onboarding)');
    if (this.parent !== record.tradeAccountId) this.accountChanged(record.tradeAccountId as B256);
    if (this.tiers.length === 0) await this.refreshTiers();
    if (this.pool === null) await this.refreshPool();
    return ok({ owner: owner.address as B256, parent: record.tradeAccountId as B256, sessionAddress: (record.session?.sessionAddress ?? '') as B256 });
  }
}
