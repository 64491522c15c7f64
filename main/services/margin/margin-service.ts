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
import type { Tier } from '../../../shared/api/margin-schemas';
import type { Clock, TimerHandle } from '../../../shared/clock';
import type { B256 } from '../../../shared/encoding/b256';
import { contractIdentity } from '../../../shared/encoding/identity';
import { formatUnits } from '../../../shared/encoding/units';
import type {
  CancelReport,
  CloseMarginReport,
  CloseStep,
  FillNotice,
  FillView,
  MarginAccountView,
  MarginActionReceipt,
  MarginAssetRef,
  MarginBookRef,
  MarginOverview,
  MarginRegistration,
  MarginSettingsView,
  OrderView,
  PlacedOrder,
  TurboMarketsView,
  TurboMarketView,
  TurboOrderCheck,
} from '../../../shared/ipc/views';
import {
  borrowable as borrowableLimit,
  borrowLimitByLoanCap,
  discounted,
  isNoExpiry,
  openingAmount,
  ownedValue,
  type MarginSnapshot,
  type RiskReport,
} from '../../../shared/margin/index';
import type { Market } from '../../../shared/market/market';
import type { Side } from '../../../shared/market/order-type';
import type { MarginAccountAction, MarginPeriod, SessionAction } from '../../../shared/protocol/actions';
import type { ActionGroup } from '../../../shared/protocol/session-actions';
import { fail, ok, type Failure, type Result } from '../../../shared/result';
import type { ExchangeRestClient } from '../../exchange/rest-client';
import type { ExchangeStream } from '../../exchange/stream-client';
import type { AccountService } from '../account/account-service';
import type { Journal } from '../journal/journal';
import type { MarketsIndex } from '../market-data/markets-index';
import type { NonceManager } from '../nonces/nonce-manager';
import { describeOrder, packCancels, pairName, prepareOrder, type CancelTarget, type OrderTypeIntent, type PlaceIntent } from '../trading/order-intents';
import type { PreferencesStore } from '../storage/preferences';
import { Submitter, type SubmitRequest } from '../trading/submitter';
import { orderView, type TurboDesk } from '../trading/trading-service';
import type { WindowHub } from '../window-hub';
import { ChildSigner } from './child-signer';
import { MarginCodes } from './codes';
import { returnedToParentOf, type ChildAccount, type MarginReads, type PoolView, type TierTerms } from './margin-reads';
import { missingFromScope, scopeView, tierView } from './overview';
import { RiskTracker, type LiveRisk, type RiskFrameBody } from './risk-tracker';
import { checkedOrderType, DEFAULT_TURBO_ORDER_SETTINGS, planTurboOrder, type TurboOrderPlan, type TurboOrderSettings } from './turbo-orders';

/** Accounts followed live at once (each holds one WebSocket connection). */
export const MAX_TRACKED_ACCOUNTS = 8;
/** How long an action waits for a stale state to be fetched again before refusing. */
export const LIVE_WAIT_MS = 5_000;
/** A followed account nobody watches and nobody trades as is dropped after this long. */
export const IDLE_TRACKER_MS = 120_000;
// GET /v1/markets is not rate limited; no stream announces a pause or a disconnection.
const TURBO_ROWS_REFRESH_MS = 10_000;
const MAX_CHILDREN_SWEPT = 16;

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
  readonly nonces: () => NonceManager | null;
  readonly journal: Journal;
  readonly preferences: PreferencesStore;
  readonly sign: (sessionAddress: B256, digest: Uint8Array) => Result<Uint8Array>;
  readonly loadSessionKey: (address: B256) => Promise<Result<void>>;
  readonly windows: WindowHub;
  /** Push the merged open orders (the trading account's and the Turbo Accounts'). */
  readonly publishOrders: () => void;
  readonly publishFill: (notice: FillNotice) => void;
  readonly maxQuantity: (marketId: string) => bigint | undefined;
  readonly newId: () => string;
  readonly wait: (ms: number) => Promise<void>;
  readonly notice: (level: 'info' | 'warning' | 'error', text: string) => void;
  readonly log: (line: string) => void;
}

interface Parent {
  readonly owner: B256;
  readonly parent: B256;
  readonly sessionAddress: B256;
}

interface RiskSubscription {
  readonly windowId: string;
  readonly account: B256;
}

const showId = (id: string) => id;

function receipt(journalIds: string[], txIds: string[], description: string, notes: string[]): MarginActionReceipt {
  return { journalIds, txIds, description, notes };
}

export class MarginService implements TurboDesk {
  private parent: B256 | null = null;
  private readonly trackers = new Map<B256, RiskTracker>();
  private readonly idleSince = new Map<B256, number>();
  private readonly signers = new Map<B256, ChildSigner>();
  private readonly subscriptions = new Map<string, RiskSubscription>();
  private selected: B256 | null = null;
  /** A remembered Turbo Account choice is being restored (restoreSelection). */
  private restoringSelection = false;
  private settings: TurboOrderSettings = DEFAULT_TURBO_ORDER_SETTINGS;
  private tiers: TierTerms[] = [];
  private pool: PoolView | null = null;
  private children: ChildAccount[] = [];
  private turboRows: Market[] | null = null;
  private turboRowsKey = '';
  private subscriptionCount = 0;
  private overviewTimer: TimerHandle | null = null;
  private sweepTimer: TimerHandle | null = null;
  private rowsTimer: TimerHandle | null = null;
  private readonly registration: Submitter;
  private readonly stopWindowListener: () => void;
  private stopped = false;

  constructor(private readonly deps: MarginServiceDeps) {
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

  private asset(assetId: string): MarginAssetRef {
    const known = this.deps.markets()?.asset(assetId);
    return known ? { assetId, symbol: known.symbol, decimals: known.decimals } : { assetId, symbol: `${assetId.slice(0, 8)}…`, decimals: 0 };
  }

  private turboMarkets(): readonly Market[] {
    return this.turboRows ?? this.deps.markets()?.turboMarkets() ?? [];
  }

  private turboRow(marketId: string): Market | undefined {
    return this.turboMarkets().find((market) => market.market_id === marketId);
  }

  private tierOf(tierId: string, version: bigint): Tier | undefined {
    return this.tiers.find((tier) => tier.tierId === tierId && tier.version === version)?.wire;
  }

  private targets() {
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

  private bookRefs(terms: TierTerms): MarginBookRef[] {
    const markets = this.deps.markets();
    return terms.books.map((contractId) => {
      const found = markets?.byContract(contractId);
      return { contractId, marketId: found?.market.market_id ?? '', pair: found ? pairName(found.market) : contractId };
    });
  }

  private allBooks(): B256[] {
    return [...new Set(this.tiers.flatMap((tier) => tier.books))];
  }

  // ---- reads that refresh the caches ---------------------------------------------------------

  private async refreshTiers(): Promise<Result<TierTerms[]>> {
    const read = await this.deps.reads.tiers();
    if (read.ok) this.tiers = read.value;
    return read;
  }

  private async refreshPool(): Promise<Result<PoolView>> {
    const read = await this.deps.reads.pool();
    if (read.ok) this.pool = read.value;
    return read;
  }

  private async refreshChildren(owner: B256, parent: B256): Promise<Result<ChildAccount[]>> {
    const read = await this.deps.reads.children(owner, parent);
    // The trading account changed while the read was out: its answer is of the previous one.
    if (this.parent !== parent) return this.changedMeanwhile();
    if (read.ok) this.children = read.value;
    return read;
  }

  private changedMeanwhile(): Result<never> {
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
  private async ready(): Promise<Result<Parent>> {
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

  private async requireChild(parent: Parent, account: B256): Promise<Result<ChildAccount>> {
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

  private sessionContracts(): readonly string[] | null {
    const session = this.deps.accounts.state().session;
    return session === null || session.state === 'expired' ? null : session.contractIds;
  }

  /** Ready (see `ready`), with `account` a registered margin account of the trading account and in the session's scope. */
  private async readyFor(account: B256): Promise<Result<Parent>> {
    const parent = await this.ready();
    if (!parent.ok) return parent;
    const child = await this.requireChild(parent.value, account);
    if (!child.ok) return child;
    const scope = this.requireScope([account]);
    if (!scope.ok) return scope;
    return parent;
  }

  private requireScope(children: readonly B256[]): Result<void> {
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

  private signer(child: B256): ChildSigner {
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

  private tracker(account: B256): Result<RiskTracker> {
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
  private async parentIds(): Promise<Result<{ owner: B256; parent: B256; sessionAddress: B256 }>> {
    const owner = this.deps.accounts.activeOwner();
    const record = this.deps.accounts.accountRecord();
    if (!owner || !record) return fail(MarginCodes.NOT_READY, 'Set up an owner key and a trading account first (onboarding)');
    if (this.parent !== record.tradeAccountId) this.accountChanged(record.tradeAccountId as B256);
    if (this.tiers.length === 0) await this.refreshTiers();
    if (this.pool === null) await this.refreshPool();
    return ok({ owner: owner.address as B256, parent: record.tradeAccountId as B256, sessionAddress: (record.session?.sessionAddress ?? '') as B256 });
  }

  // ---- overview ---------------------------------------------------------------------------------

  private scheduleOverview(): void {
    if (this.overviewTimer !== null || this.stopped) return;
    this.overviewTimer = this.deps.clock.setTimeout(() => {
      this.overviewTimer = null;
      void this.overview().then((built) => {
        if (built.ok) this.deps.windows.broadcast('marginOverview', built.value);
      });
    }, 250);
  }

  settingsView(): MarginSettingsView {
    return { ...this.settings };
  }

  updateSettings(patch: Partial<TurboOrderSettings>): MarginSettingsView {
    this.settings = {
      convertMarketOrders: patch.convertMarketOrders ?? this.settings.convertMarketOrders,
      marketSlippageBps: patch.marketSlippageBps ?? this.settings.marketSlippageBps,
      fundOrders: patch.fundOrders ?? this.settings.fundOrders,
    };
    this.scheduleOverview();
    return this.settingsView();
  }

  async overview(): Promise<Result<MarginOverview>> {
    const problems: string[] = [];
    const owner = this.deps.accounts.activeOwner();
    const record = this.deps.accounts.accountRecord();
    const parent = (record?.tradeAccountId ?? null) as B256 | null;
    if (parent !== this.parent) this.accountChanged(parent);
    const tiers = await this.refreshTiers();
    if (!tiers.ok) problems.push(`Tiers: ${tiers.message}`);
    const pool = await this.refreshPool();
    if (!pool.ok) problems.push(`Pool: ${pool.message}`);
    let discountBps = 0n;
    let nextAccount: MarginOverview['nextAccount'] = null;
    const accounts: MarginAccountView[] = [];
    if (owner && parent) {
      const discount = await this.deps.reads.discountBps(owner.address as B256);
      if (discount.ok) discountBps = discount.value;
      else problems.push(`Discount: ${discount.message}`);
      const next = await this.deps.reads.nextAccount(parent);
      if (next.ok) nextAccount = next.value;
      else problems.push(`Next account: ${next.message}`);
      const children = await this.refreshChildren(owner.address as B256, parent);
      if (!children.ok) problems.push(`Margin accounts: ${children.message}`);
      const contracts = this.sessionContracts();
      for (const child of children.ok ? children.value : this.children) {
        const tracked = this.trackers.get(child.marginAccountId);
        const live = tracked?.isLive() ? await tracked.live(0) : null;
        const state = live?.ok ? ok(live.value.state) : await this.deps.reads.state(child.marginAccountId);
        if (!state.ok) problems.push(`State of ${child.marginAccountId}: ${state.message}`);
        const session = state.ok ? (state.value.session ?? null) : null;
        const expiresAt = session?.expires_at ?? null;
        const holdings = state.ok
          ? Object.entries(state.value.balances)
              .filter(([, balance]) => balance.on_account > 0n)
              .map(([assetId, balance]) => ({ ...this.asset(assetId), amount: balance.on_account }))
          : [];
        accounts.push({
          marginAccountId: child.marginAccountId,
          index: child.index,
          hasSession: session !== null,
          cohort: session?.cohort ?? (session !== null && state.ok && state.value.tier ? (state.value.tier.turbo === undefined ? 'Legacy' : 'Turbo') : null),
          tierId: session?.tier_id ?? null,
          tierVersion: session?.version ?? null,
          expiresAt: expiresAt === null || isNoExpiry(expiresAt) ? null : expiresAt,
          noExpiry: expiresAt !== null && isNoExpiry(expiresAt),
          inSessionScope: contracts !== null && contracts.includes(child.marginAccountId),
          selected: child.marginAccountId === this.selected,
          holdings,
        });
      }
    }
    const collateralId = this.pool?.collateralAssetId ?? null;
    const missing = missingFromScope(this.sessionContracts(), {
      poolId: this.pool?.poolId ?? null,
      registryId: this.deps.markets()?.response.accounts_registry_id ?? null,
      children: accounts.map((account) => account.marginAccountId as B256),
      books: this.allBooks(),
    });
    return ok({
      networkId: this.deps.networkId,
      parentAccountId: parent,
      collateral: collateralId === null ? null : this.asset(collateralId),
      discountBps,
      pool: this.pool === null ? null : { poolId: this.pool.poolId, paused: this.pool.paused, inventory: Object.entries(this.pool.inventory).map(([assetId, amount]) => ({ ...this.asset(assetId), amount })) },
      tiers: this.tiers.map((terms) => tierView(terms, discountBps, this.bookRefs(terms))),
      accounts,
      nextAccount,
      selectedMarginAccountId: this.selected,
      scope: scopeView(missing, owner?.custody === 'keychain'),
      settings: this.settingsView(),
      problems,
    });
  }

  // ---- registration and the parent session -------------------------------------------------------

  async register(): Promise<Result<MarginRegistration>> {
    const parent = await this.ready();
    if (!parent.ok) return parent;
    const { owner, parent: parentId } = parent.value;
    const next = await this.deps.reads.nextAccount(parentId);
    if (!next.ok) return next;
    const children = await this.refreshChildren(owner, parentId);
    if (!children.ok) return children;
    const needed = [...children.value.map((child) => child.marginAccountId), next.value.marginAccountId];
    const notes: string[] = [];
    let sessionRecreated = false;
    const scope = this.requireScope(needed);
    if (!scope.ok) {
      const recreated = await this.recreateSession(needed);
      if (!recreated.ok) return recreated;
      sessionRecreated = true;
      notes.push(
        `The trading session was recreated to add margin account ${next.value.marginAccountId}: a session's contract list is signed when it is made and cannot be widened, so the new session names the margin pool, the accounts registry, every margin account and the Turbo books. It replaced the previous session.`,
      );
    }
    const group = this.parentGroup([{ kind: 'RegisterMarginAccount', margin_account_id: next.value.marginAccountId, index: next.value.index }]);
    if (!group.ok) return group;
    if (this.deps.submitter.isReconciling) return fail('RECONCILING', 'An earlier request is still being checked with the exchange; nothing new is signed until its outcome is known');
    const submitted = await this.registration.submit({ groups: [group.value], description: `Register margin account ${next.value.marginAccountId} (index ${next.value.index}) on POST /v1/margin/accounts`, settleFirst: false });
    if (!submitted.ok) return submitted;
    await this.refreshChildren(owner, parentId);
    this.scheduleOverview();
    return ok({
      ...receipt([submitted.value.journalId], [submitted.value.txId], `Registered margin account ${next.value.marginAccountId} with index ${next.value.index}`, notes),
      marginAccountId: next.value.marginAccountId,
      index: next.value.index,
      sessionRecreated,
    });
  }

  /** A new parent session naming the markets, their Turbo books, the pool, the registry and `children`. */
  private async recreateSession(children: readonly B256[]): Promise<Result<void>> {
    const owner = this.deps.accounts.activeOwner();
    if (owner?.custody !== 'keychain') {
      const missing = missingFromScope(this.sessionContracts(), { poolId: this.pool?.poolId ?? null, registryId: this.deps.markets()?.response.accounts_registry_id ?? null, children, books: this.allBooks() });
      return fail(MarginCodes.WATCH_ONLY, scopeView(missing, false).explanation ?? 'A new session is needed');
    }
    const markets = this.deps.markets();
    if (!markets) return fail(MarginCodes.NOT_READY, 'The markets of the network are not loaded yet');
    const marketIds = new Set(this.deps.accounts.sessionMarkets());
    for (const book of this.allBooks()) {
      const found = markets.byContract(book);
      if (found) marketIds.add(found.market.market_id);
    }
    if (marketIds.size === 0) for (const market of markets.markets()) marketIds.add(market.market_id);
    const extras = [this.pool?.poolId, markets.response.accounts_registry_id, ...children].filter((id): id is B256 => typeof id === 'string');
    const seconds = BigInt(this.deps.preferences.preferences.get().settings.sessionDays) * 86_400n;
    const created = await this.deps.accounts.createSession([...marketIds], seconds, extras);
    if (!created.ok) return fail(created.code, `A session that names the margin account could not be created: ${created.message}`);
    const loaded = await this.deps.loadSessionKey(created.value.sessionAddress as B256);
    return loaded.ok ? ok(undefined) : loaded;
  }

  // ---- building and sending batches ---------------------------------------------------------------

  /** A parent batch positioned on a canonical market (a margin action's market only orders the batch). */
  private parentGroup(actions: SessionAction[]): Result<ActionGroup> {
    const markets = this.deps.markets();
    const book = this.allBooks()
      .map((contract) => markets?.byContract(contract))
      .find((found) => found !== null && found !== undefined);
    const market = book ? markets?.market(book.market.market_id, false) : undefined;
    const canonical = market?.ok ? market.value : markets?.markets()[0];
    if (!canonical) return fail(MarginCodes.NOT_READY, 'The markets of the network are not loaded yet');
    return ok({ market_id: canonical.market_id, market: canonical, actions });
  }

  /** A Turbo Account batch on a Turbo book of its tier, turbo: true. */
  private childGroup(tier: TierTerms | null, actions: SessionAction[], marketId?: string): Result<ActionGroup> {
    const market = marketId !== undefined ? this.turboRow(marketId) : this.turboMarkets().find((row) => tier === null || tier.books.includes(row.contract_id));
    if (!market) return fail(MarginCodes.TURBO_UNAVAILABLE, `No Turbo book of ${tier === null ? 'the session' : `tier ${tier.tierId}`} is listed on this network`);
    return ok({ market_id: market.market_id, market, turbo: true, actions });
  }

  private async sendParent(actions: SessionAction[], description: string, notes: string[] = []): Promise<Result<MarginActionReceipt>> {
    const group = this.parentGroup(actions);
    if (!group.ok) return group;
    const submitted = await this.deps.submitter.submit({ groups: [group.value], description, settleFirst: false });
    for (const action of actions) if ('margin_account_id' in action) this.trackers.get(action.margin_account_id)?.noteWrite();
    if (!submitted.ok) return submitted;
    this.scheduleOverview();
    return ok(receipt([submitted.value.journalId], [submitted.value.txId], description, notes));
  }

  private async sendChild(child: B256, request: SubmitRequest, notes: string[] = []): Promise<Result<MarginActionReceipt>> {
    const submitted = await this.signer(child).submit(request);
    if (!submitted.ok) {
      if (/paused|disconnected/i.test(submitted.message)) void this.refreshTurboRows();
      return submitted;
    }
    void this.trackers.get(child)?.readOrders();
    return ok(receipt([submitted.value.journalId], [submitted.value.txId], request.description, notes));
  }

  // ---- the state actions are judged against ------------------------------------------------------

  /** A live state of `child`, with the report computed from it right now. */
  private async live(child: B256): Promise<Result<LiveRisk>> {
    const tracker = this.tracker(child);
    if (!tracker.ok) return tracker;
    return tracker.value.live(LIVE_WAIT_MS);
  }

  /** Ready, registered, in scope, live and with a valued session: what every credit action needs. */
  private async withSession(account: B256): Promise<Result<{ parent: Parent; live: LiveRisk; report: RiskReport; tier: TierTerms }>> {
    const parent = await this.readyFor(account);
    if (!parent.ok) return parent;
    const live = await this.live(account);
    if (!live.ok) return live;
    if (!live.value.state.session) return fail(MarginCodes.NO_SESSION, `marginAccountId: ${account} has no live margin session; open one first`, { field: 'marginAccountId' });
    if (live.value.report === null || live.value.tier === null) {
      const problem = live.value.problem ?? { code: MarginCodes.TIER_INCOMPLETE, message: 'the session cannot be valued' };
      return fail(problem.code, `The margin state of ${account} cannot be valued: ${problem.message}`);
    }
    return ok({ parent: parent.value, live: live.value, report: live.value.report, tier: live.value.tier });
  }

  private collateral(): MarginAssetRef {
    return this.asset(this.pool?.collateralAssetId ?? '');
  }

  private show(amount: bigint, asset: MarginAssetRef = this.collateral()): string {
    return `${formatUnits(amount, asset.decimals)} ${asset.symbol}`;
  }

  private onAccount(live: LiveRisk, assetId: string): bigint {
    return live.state.balances[assetId]?.on_account ?? 0n;
  }

  private poolPaused(): boolean {
    return this.pool?.paused === true;
  }

  // ---- opening ------------------------------------------------------------------------------------

  async open(input: { marginAccountId: B256; tierId: string; period: MarginPeriod; amount?: bigint | undefined }): Promise<Result<MarginActionReceipt>> {
    const parent = await this.readyFor(input.marginAccountId);
    if (!parent.ok) return parent;
    const live = await this.live(input.marginAccountId);
    if (!live.ok) return live;
    if (live.value.state.session) return fail(MarginCodes.SESSION_ACTIVE, `marginAccountId: ${input.marginAccountId} already has a live session`, { field: 'marginAccountId' });
    // Terms and discount are read right before signing: the amount must be exact for them.
    const tiers = await this.refreshTiers();
    if (!tiers.ok) return tiers;
    const terms = tiers.value.find((tier) => tier.tierId === input.tierId);
    if (!terms) return fail(MarginCodes.UNKNOWN_TIER, `tierId: ${input.tierId} is not a published tier (GET /v1/margin/tiers)`, { field: 'tierId' });
    const discount = await this.deps.reads.discountBps(parent.value.owner);
    if (!discount.ok) return discount;
    const pool = await this.refreshPool();
    if (!pool.ok) return pool;
    if (pool.value.paused) return fail(MarginCodes.POOL_PAUSED, 'The margin pool is paused: no session can open until it resumes.');
    const exact = openingAmount({ cohort: terms.cohort, requiredCollateral: terms.requiredCollateral, openFee: terms.openFee, prolongFee: terms.prolongFee, discountBps: discount.value, period: input.period });
    if (!exact.ok) return fail(exact.code === 'MARGIN_PERIOD_NOT_ALLOWED' ? MarginCodes.PERIOD_NOT_ALLOWED : exact.code, exact.message, { field: 'period' });
    const legs = `${this.show(exact.value.collateralLeg)} ${terms.cohort === 'Turbo' ? 'entry (discounted)' : 'collateral'} + ${this.show(exact.value.feeLeg)} fees (discounted), discount ${discount.value} bps`;
    let amount = exact.value.amount;
    if (input.amount !== undefined) {
      if (terms.cohort === 'Turbo' && input.amount !== exact.value.amount) {
        return fail(
          MarginCodes.INEXACT_OPENING_AMOUNT,
          `amount: ${this.show(input.amount)} is not the exact opening amount ${this.show(exact.value.amount)} of prepaid tier ${terms.tierId} v${terms.version} (${legs}); a prepaid open forwards exactly that amount and is refused, not clamped, otherwise`,
          { field: 'amount', expected: exact.value.amount.toString() },
        );
      }
      if (terms.cohort === 'Legacy' && input.amount < exact.value.amount) {
        return fail(MarginCodes.INEXACT_OPENING_AMOUNT, `amount: ${this.show(input.amount)} is below the opening amount ${this.show(exact.value.amount)} of tier ${terms.tierId} v${terms.version} (${legs})`, { field: 'amount', expected: exact.value.amount.toString() });
      }
      amount = input.amount;
    }
    const notes = [`Opening amount ${this.show(amount)}: ${legs}.`];
    if (terms.cohort === 'Legacy' && amount > exact.value.amount) notes.push(`${this.show(amount - exact.value.amount)} above the opening amount is posted as collateral.`);
    if (terms.cohort === 'Turbo') notes.push('A prepaid entry price is forfeited at settlement and not pro-rated: closing early neither reduces nor refunds it.');
    return this.sendParent(
      [{ kind: 'StartMarginSession', margin_account_id: input.marginAccountId, tier_id: BigInt(terms.tierId), amount, period: input.period }],
      `Open a ${terms.cohort === 'Turbo' ? 'prepaid' : 'legacy'} session of tier ${terms.tierId} v${terms.version} (${input.period}) on margin account ${input.marginAccountId} for ${this.show(amount)}`,
      notes,
    );
  }

  // ---- credit actions ---------------------------------------------------------------------------------

  private async creditAction(
    account: B256,
    build: (context: { live: LiveRisk; report: RiskReport; tier: TierTerms }) => Result<{ actions: MarginAccountAction[]; description: string; notes?: string[] }>,
  ): Promise<Result<MarginActionReceipt>> {
    const context = await this.withSession(account);
    if (!context.ok) return context;
    const built = build(context.value);
    if (!built.ok) return built;
    const group = this.childGroup(context.value.tier, built.value.actions);
    if (!group.ok) return group;
    const sent = await this.sendChild(account, { groups: [group.value], description: built.value.description, settleFirst: false }, built.value.notes ?? []);
    if (sent.ok) this.scheduleOverview();
    return sent;
  }

  private frozenRefusal(report: RiskReport, what: string): Failure | null {
    if (!report.health.frozen) return null;
    return fail(MarginCodes.FROZEN, `AccountFrozen: the account is frozen (distance to the freeze line ${this.show(report.health.distanceToFreeze)}): ${what} would increase exposure or outstanding and is refused; reduce the position first`);
  }

  draw(account: B256, amount: bigint): Promise<Result<MarginActionReceipt>> {
    return this.creditAction(account, ({ report }) => {
      if (this.poolPaused()) return fail(MarginCodes.POOL_PAUSED, 'The margin pool is paused: draws are refused until it resumes.');
      const frozen = this.frozenRefusal(report, `drawing ${this.show(amount)}`);
      if (frozen) return frozen;
      if (amount > report.loanHeadroom) {
        return fail(MarginCodes.ABOVE_CREDIT_LINE, `OutstandingAboveCreditLine: drawing ${this.show(amount)} would leave outstanding ${this.show(report.outstanding + amount)} above the credit line L of ${this.show(report.creditLine)} (loan headroom ${this.show(report.loanHeadroom)})`, { field: 'amount' });
      }
      if (amount > report.drawableQuote) return fail(MarginCodes.ABOVE_LIMIT, `amount: ${this.show(amount)} is above the drawable quote of ${this.show(report.drawableQuote)} (the pool's inventory)`, { field: 'amount' });
      return ok({ actions: [{ kind: 'Draw', amount }], description: `Draw ${this.show(amount)} on margin account ${account}` });
    });
  }

  returnQuote(account: B256, amount: bigint): Promise<Result<MarginActionReceipt>> {
    return this.creditAction(account, ({ live }) => {
      const drawn = live.state.session?.quote_drawn ?? 0n;
      if (amount > drawn) return fail(MarginCodes.ABOVE_LIMIT, `amount: ${this.show(amount)} is more than the drawn quote ${this.show(drawn)}`, { field: 'amount' });
      const held = this.onAccount(live, this.pool?.collateralAssetId ?? '');
      if (amount > held) return fail(MarginCodes.ABOVE_LIMIT, `amount: ${this.show(amount)} is more than the ${this.show(held)} the account holds (settle book balances or cancel buys first)`, { field: 'amount' });
      return ok({ actions: [{ kind: 'ReturnQuote', amount }], description: `Return ${this.show(amount)} of drawn quote from margin account ${account}` });
    });
  }

  borrow(account: B256, assetId: B256, amount: bigint, returnQuoteFirst?: bigint): Promise<Result<MarginActionReceipt>> {
    return this.creditAction(account, ({ report }) => {
      const asset = this.asset(assetId);
      if (assetId === this.pool?.collateralAssetId) return fail(MarginCodes.ABOVE_LIMIT, 'assetId: the collateral asset cannot be borrowed in kind; use Draw', { field: 'assetId' });
      const risk = report.assets.find((entry) => entry.assetId === assetId);
      if (!risk) return fail(MarginCodes.ABOVE_LIMIT, `assetId: ${assetId} is not an asset of this session's tier`, { field: 'assetId' });
      if (this.poolPaused()) return fail(MarginCodes.POOL_PAUSED, 'The margin pool is paused: borrows are refused until it resumes.');
      const frozen = this.frozenRefusal(report, `borrowing ${this.show(amount, asset)}`);
      if (frozen) return frozen;
      const returned = returnQuoteFirst ?? 0n;
      if (returned > report.returnableQuote) {
        return fail(MarginCodes.ABOVE_LIMIT, `returnQuoteFirst: ${this.show(returned)} is above the returnable quote of ${this.show(report.returnableQuote)}`, { field: 'returnQuoteFirst' });
      }
      // shared/margin's own bounds, with the quote this batch returns first.
      const byLoanCap = borrowLimitByLoanCap(report.loanHeadroom, returned, risk.scale, risk.ask === 0n ? 1n : risk.ask);
      const limit = risk.ask === 0n ? { amount: 0n, limitedBy: 'NO_ASK' as const } : borrowableLimit(byLoanCap, risk.borrowable.byExposure, risk.borrowable.poolInventory);
      if (amount > limit.amount) {
        const text = `amount: ${this.show(amount, asset)} is above the borrowable ${this.show(limit.amount, asset)} (limited by ${limit.limitedBy})`;
        return fail(limit.limitedBy === 'LOAN_CAP' ? MarginCodes.ABOVE_CREDIT_LINE : MarginCodes.ABOVE_LIMIT, limit.limitedBy === 'LOAN_CAP' ? `OutstandingAboveCreditLine: ${text}` : text, { field: 'amount' });
      }
      const actions: MarginAccountAction[] = [...(returned > 0n ? [{ kind: 'ReturnQuote' as const, amount: returned }] : []), { kind: 'Borrow', asset_id: assetId, amount }];
      return ok({ actions, description: `${returned > 0n ? `Return ${this.show(returned)} then borrow` : 'Borrow'} ${this.show(amount, asset)} on margin account ${account}` });
    });
  }

  repay(account: B256, assetId: B256, amount: bigint): Promise<Result<MarginActionReceipt>> {
    return this.creditAction(account, ({ live, report }) => {
      const asset = this.asset(assetId);
      const debt = report.assets.find((entry) => entry.assetId === assetId)?.debt ?? 0n;
      if (amount > debt) return fail(MarginCodes.ABOVE_LIMIT, `amount: ${this.show(amount, asset)} is more than the debt of ${this.show(debt, asset)}`, { field: 'amount' });
      const held = this.onAccount(live, assetId);
      if (amount > held) return fail(MarginCodes.ABOVE_LIMIT, `amount: ${this.show(amount, asset)} is more than the ${this.show(held, asset)} the account holds (buy it back or settle first)`, { field: 'amount' });
      return ok({ actions: [{ kind: 'Repay', asset_id: assetId, amount }], description: `Repay ${this.show(amount, asset)} of debt on margin account ${account}` });
    });
  }

  private legacyOnly(tier: TierTerms, what: string): Failure | null {
    return tier.cohort === 'Legacy' ? null : fail(MarginCodes.LEGACY_ONLY, `${what} is a legacy remedy: a prepaid session posts no collateral and gains terms by clearing the rollover profit bar (margin-api 4.4 rule 2)`);
  }

  repayFromCollateral(account: B256, amount: bigint): Promise<Result<MarginActionReceipt>> {
    return this.creditAction(account, ({ live, tier, report }) => {
      const legacy = this.legacyOnly(tier, 'RepayFromCollateral');
      if (legacy) return legacy;
      const drawn = live.state.session?.quote_drawn ?? 0n;
      if (amount > drawn) return fail(MarginCodes.ABOVE_LIMIT, `amount: ${this.show(amount)} is more than the drawn quote ${this.show(drawn)}`, { field: 'amount' });
      if (amount > report.netCollateral) return fail(MarginCodes.ABOVE_LIMIT, `amount: ${this.show(amount)} is more than the net posted collateral ${this.show(report.netCollateral)}`, { field: 'amount' });
      return ok({ actions: [{ kind: 'RepayFromCollateral', amount }], description: `Repay ${this.show(amount)} of drawn quote from posted collateral on margin account ${account}` });
    });
  }

  repayBaseFromCollateral(account: B256, assetId: B256, amount: bigint): Promise<Result<MarginActionReceipt>> {
    return this.creditAction(account, ({ tier, report }) => {
      const legacy = this.legacyOnly(tier, 'RepayBaseFromCollateral');
      if (legacy) return legacy;
      const asset = this.asset(assetId);
      const debt = report.assets.find((entry) => entry.assetId === assetId)?.debt ?? 0n;
      if (amount > debt) return fail(MarginCodes.ABOVE_LIMIT, `amount: ${this.show(amount, asset)} is more than the debt of ${this.show(debt, asset)}`, { field: 'amount' });
      return ok({ actions: [{ kind: 'RepayBaseFromCollateral', asset_id: assetId, amount }], description: `Buy out ${this.show(amount, asset)} of debt from posted collateral on margin account ${account}`, notes: ['The debt is bought out at the ask plus the buy-out fee, from posted collateral.'] });
    });
  }

  addCollateral(account: B256, amount: bigint): Promise<Result<MarginActionReceipt>> {
    return this.creditAction(account, ({ live, tier }) => {
      const held = this.onAccount(live, this.pool?.collateralAssetId ?? '');
      if (amount > held) return fail(MarginCodes.ABOVE_LIMIT, `amount: ${this.show(amount)} is more than the ${this.show(held)} the account holds`, { field: 'amount' });
      const notes = tier.cohort === 'Turbo' ? ['On a prepaid session added collateral counts toward rollover.outside, not toward the profit bar.'] : [];
      return ok({ actions: [{ kind: 'AddCollateral', amount }], description: `Post ${this.show(amount)} as collateral on margin account ${account}`, notes });
    });
  }

  withdraw(account: B256, assetId: B256, amount: bigint): Promise<Result<MarginActionReceipt>> {
    return this.creditAction(account, ({ live, report }) => {
      const asset = this.asset(assetId);
      const frozen = this.frozenRefusal(report, 'a withdrawal');
      if (frozen) return frozen;
      const held = this.onAccount(live, assetId);
      if (amount > held) return fail(MarginCodes.ABOVE_LIMIT, `amount: ${this.show(amount, asset)} is more than the ${this.show(held, asset)} the account holds`, { field: 'amount' });
      const risk = report.assets.find((entry) => entry.assetId === assetId);
      const value = assetId === this.pool?.collateralAssetId ? amount : risk ? ownedValue(amount, risk.bid, risk.scale) : amount;
      if (value > report.health.giveawayAllowance) {
        return fail(MarginCodes.ABOVE_LIMIT, `amount: withdrawing a value of ${this.show(value)} exceeds the giveaway allowance of ${this.show(report.health.giveawayAllowance)} (V - threshold - 1)`, { field: 'amount' });
      }
      return ok({ actions: [{ kind: 'WithdrawFromMargin', asset_id: assetId, amount }], description: `Withdraw ${this.show(amount, asset)} from margin account ${account} to the trading account` });
    });
  }

  async prolong(account: B256, period: MarginPeriod, times: bigint): Promise<Result<MarginActionReceipt>> {
    const owner = this.deps.accounts.activeOwner();
    const discount = owner ? await this.deps.reads.discountBps(owner.address as B256) : ok(0n);
    if (!discount.ok) return discount;
    return this.creditAction(account, ({ live, tier, report }) => {
      const legacy = this.legacyOnly(tier, 'ProlongSession');
      if (legacy) return legacy;
      if (isNoExpiry(live.state.session?.expires_at ?? 0n)) return fail(MarginCodes.PERIOD_NOT_ALLOWED, 'The session does not expire: there is nothing to prolong');
      const price = tier.prolongFee[period];
      if (price === undefined || tier.prolongSeconds[period] === undefined) return fail(MarginCodes.PERIOD_NOT_ALLOWED, `period: tier ${tier.tierId} sells no ${period} period`, { field: 'period' });
      const fee = discounted(price, discount.value) * times;
      if (fee > report.netCollateral) return fail(MarginCodes.ABOVE_LIMIT, `Prolonging ${times} × ${period} costs ${this.show(fee)}, more than the net posted collateral ${this.show(report.netCollateral)}`, { field: 'times' });
      return ok({ actions: [{ kind: 'ProlongSession', period, times }], description: `Prolong the session of margin account ${account} by ${times} × ${period} for ${this.show(fee)}`, notes: ['The fee is charged from posted collateral.'] });
    });
  }

  setAutoProlong(account: B256, period: MarginPeriod | null): Promise<Result<MarginActionReceipt>> {
    return this.creditAction(account, ({ tier }) => {
      const legacy = this.legacyOnly(tier, 'SetAutoProlong');
      if (legacy) return legacy;
      if (period !== null && tier.prolongSeconds[period] === undefined) return fail(MarginCodes.PERIOD_NOT_ALLOWED, `period: tier ${tier.tierId} sells no ${period} period`, { field: 'period' });
      return ok({ actions: [{ kind: 'SetAutoProlong', period }], description: period === null ? `Turn off automatic prolongation on margin account ${account}` : `Prolong margin account ${account} automatically by ${period} at expiry` });
    });
  }

  // ---- closing and withdrawing ------------------------------------------------------------------------

  async close(account: B256, prepare: boolean): Promise<Result<CloseMarginReport>> {
    const context = await this.withSession(account);
    if (!context.ok) return context;
    const { tier } = context.value;
    const collateralId = (this.pool?.collateralAssetId ?? '') as B256;
    const steps: CloseStep[] = [];
    const journalIds: string[] = [];
    const txIds: string[] = [];
    const notes: string[] = [];
    const tracker = this.trackers.get(account);
    const open = (tracker?.orders.open() ?? []).filter((order) => tier.books.includes((this.turboRow(order.marketId)?.contract_id ?? '') as B256));

    if (prepare && open.length > 0) {
      // Cancel and settle: per book, four cancels and a SettleBalance to a batch (the 5-action cap).
      for (const market of this.turboMarkets()) {
        const ids = open.filter((order) => order.marketId === market.market_id).map((order) => order.orderId as B256);
        for (let index = 0; index < ids.length; index += 4) {
          const chunk = ids.slice(index, index + 4);
          const actions: SessionAction[] = [...chunk.map((orderId) => ({ kind: 'CancelOrder' as const, order_id: orderId })), { kind: 'SettleBalance', to: contractIdentity(account) }];
          const sent = await this.signer(account).submit({
            groups: [{ market_id: market.market_id, market, turbo: true, actions }],
            description: `Cancel ${chunk.length} order(s) on the Turbo book of ${pairName(market)} and settle, before closing margin account ${account}`,
            settleFirst: false,
          });
          if (!sent.ok) return fail(sent.code, `Cancelling the open orders before the close failed: ${sent.message}`, sent.details);
          journalIds.push(sent.value.journalId);
          txIds.push(sent.value.txId);
          for (const orderId of chunk) tracker?.orders.markCancelled(orderId);
        }
      }
      steps.push({ step: 'cancel-orders', state: 'done', detail: `${open.length} open order(s) cancelled` }, { step: 'settle-books', state: 'done', detail: 'book balances settled to the account' });
    } else {
      steps.push(
        { step: 'cancel-orders', state: 'not-needed', detail: open.length > 0 ? `${open.length} open order(s) are cancelled by the close itself (they are in the cleanup list)` : 'no open orders' },
        { step: 'settle-books', state: 'not-needed', detail: 'the close settles the tier books' },
      );
    }
    if (prepare) {
      // Settle every tier book that still holds unlocked balances, so quote to return is on the account.
      const settleGroups = tier.books
        .map((book) => this.turboMarkets().find((row) => row.contract_id === book))
        .filter((market): market is Market => market !== undefined)
        .map((market) => ({ market_id: market.market_id, market, turbo: true, actions: [{ kind: 'SettleBalance' as const, to: contractIdentity(account) }] }));
      const fresh = await this.deps.reads.state(account);
      if (!fresh.ok) return fresh;
      const received = Object.values(fresh.value.balances).some((balance) => balance.received > 0n);
      if (received && settleGroups.length > 0) {
        const sent = await this.signer(account).submit({ groups: settleGroups, description: `Settle the Turbo books of margin account ${account} before closing`, settleFirst: false });
        if (!sent.ok) return fail(sent.code, `Settling the books before the close failed: ${sent.message}`, sent.details);
        journalIds.push(sent.value.journalId);
        txIds.push(sent.value.txId);
      }
    }
    // Return quote and repay debts from what the account holds, judged on a fresh state.
    let state = await this.deps.reads.state(account);
    if (!state.ok) return state;
    const session = state.value.session;
    if (!session) return fail(MarginCodes.NO_SESSION, `marginAccountId: ${account} has no live session any more`, { field: 'marginAccountId' });
    const debts = Object.entries(state.value.balances).filter(([assetId, balance]) => assetId !== collateralId && balance.debt > 0n);
    if (prepare && (session.quote_drawn > 0n || debts.length > 0)) {
      const actions: MarginAccountAction[] = [];
      const returnable = session.quote_drawn < (state.value.balances[collateralId]?.on_account ?? 0n) ? session.quote_drawn : (state.value.balances[collateralId]?.on_account ?? 0n);
      if (returnable > 0n) actions.push({ kind: 'ReturnQuote', amount: returnable });
      for (const [assetId, balance] of debts.slice(0, 4)) {
        const repay = balance.debt < balance.on_account ? balance.debt : balance.on_account;
        if (repay > 0n) actions.push({ kind: 'Repay', asset_id: assetId as B256, amount: repay });
      }
      if (actions.length > 0) {
        const group = this.childGroup(tier, actions);
        if (!group.ok) return group;
        const sent = await this.signer(account).submit({ groups: [group.value], description: `Return drawn quote and repay debts of margin account ${account} before closing`, settleFirst: false });
        if (!sent.ok) return fail(sent.code, `Returning quote and repaying debts before the close failed: ${sent.message}`, sent.details);
        journalIds.push(sent.value.journalId);
        txIds.push(sent.value.txId);
        state = await this.deps.reads.state(account);
        if (!state.ok) return state;
      }
    }
    const after = state.value.session;
    const drawnLeft = after?.quote_drawn ?? 0n;
    const debtsLeft = Object.entries(state.value.balances).filter(([assetId, balance]) => assetId !== collateralId && balance.debt > 0n);
    const held = state.value.balances[collateralId]?.on_account ?? 0n;
    steps.push({
      step: 'return-quote',
      state: drawnLeft === 0n ? (session.quote_drawn === 0n ? 'not-needed' : 'done') : 'remaining',
      detail: drawnLeft === 0n ? `drawn quote is ${this.show(0n)}` : `${this.show(drawnLeft)} of drawn quote remains and the account holds ${this.show(held)}: sell positions (or add funds) so the quote can be returned`,
    });
    steps.push({
      step: 'repay-debts',
      state: debtsLeft.length === 0 ? (debts.length === 0 ? 'not-needed' : 'done') : 'remaining',
      detail:
        debtsLeft.length === 0
          ? 'no in-kind debt'
          : debtsLeft.map(([assetId, balance]) => `${this.show(balance.debt, this.asset(assetId))} of debt remains and the account holds ${this.show(balance.on_account, this.asset(assetId))}: buy it back first`).join('; '),
    });
    if (drawnLeft > 0n || debtsLeft.length > 0) {
      steps.push({ step: 'fetch-cleanups', state: 'remaining', detail: 'fetched right before the close, once nothing else remains' }, { step: 'close', state: 'remaining', detail: 'not sent: a close with drawn quote or debt outstanding reverts (DebtOutstanding)' });
      this.scheduleOverview();
      return ok({ ...receipt(journalIds, txIds, `Margin account ${account} is not closed yet`, [...notes, ...steps.filter((step) => step.state === 'remaining').map((step) => step.detail)]), closed: false, steps, cleanups: [] });
    }
    // The exact list, fetched right before; a stale list reverts (StaleCleanups), so once more on that.
    for (let attempt = 0; attempt < 2; attempt++) {
      const cleanups = await this.deps.reads.cleanups(account);
      if (!cleanups.ok) return cleanups;
      const listed = cleanups.value.reduce((sum, cleanup) => sum + cleanup.order_ids.length, 0);
      if (attempt === 0) steps.push({ step: 'fetch-cleanups', state: 'done', detail: `${cleanups.value.length} book(s), ${listed} order(s) to clean up` });
      const sent = await this.sendParent([{ kind: 'CloseMarginSession', margin_account_id: account, cleanups: cleanups.value }], `Close the session of margin account ${account} with ${listed} cleanup order(s)`);
      if (sent.ok) {
        steps.push({ step: 'close', state: 'done', detail: 'CloseMarginSession accepted' });
        void tracker?.readOrders();
        return ok({ ...receipt([...journalIds, ...sent.value.journalIds], [...txIds, ...sent.value.txIds], `Closed the session of margin account ${account}`, notes), closed: true, steps, cleanups: cleanups.value.map((cleanup) => ({ orderBookId: cleanup.order_book_id, orderIds: cleanup.order_ids })) });
      }
      if (sent.details?.reason !== 'StaleCleanups' || attempt === 1) return sent;
      notes.push('The cleanup list changed between the read and the close (an order filled or was placed); it was read again and the close sent once more.');
    }
    return fail(MarginCodes.CLOSE_BLOCKED, `The session of ${account} could not be closed`);
  }

  async withdrawFromAccount(account: B256, assetId?: B256, amount?: bigint): Promise<Result<MarginActionReceipt>> {
    const parent = await this.readyFor(account);
    if (!parent.ok) return parent;
    const state = await this.deps.reads.state(account);
    if (!state.ok) return state;
    if (state.value.session) return fail(MarginCodes.SESSION_ACTIVE, `marginAccountId: ${account} has a live session: use marginWithdraw (WithdrawFromMargin), or close the session first`, { field: 'marginAccountId' });
    const assets = assetId !== undefined ? [assetId] : (this.deps.markets()?.assets().map((asset) => asset.assetId) ?? []);
    const actions: SessionAction[] = [];
    const lines: string[] = [];
    for (const candidate of assets) {
      const balance = await this.deps.rest.getBalance({ contract: account, asset_id: candidate });
      if (!balance.ok) return balance;
      const held = balance.value.trading_account_balance;
      const take = amount ?? held;
      if (take > held) return fail(MarginCodes.ABOVE_LIMIT, `amount: ${this.show(take, this.asset(candidate))} is more than the ${this.show(held, this.asset(candidate))} margin account ${account} holds`, { field: 'amount' });
      if (take === 0n) continue;
      actions.push({ kind: 'WithdrawFromMarginAccount', margin_account_id: account, asset_id: candidate, amount: take });
      lines.push(this.show(take, this.asset(candidate)));
    }
    if (actions.length === 0) return fail(MarginCodes.NOTHING_TO_DO, `margin account ${account} holds nothing to withdraw`, { field: 'marginAccountId' });
    const journalIds: string[] = [];
    const txIds: string[] = [];
    for (let index = 0; index < actions.length; index += 5) {
      const chunk = actions.slice(index, index + 5);
      const sent = await this.sendParent(chunk, `Withdraw ${lines.slice(index, index + 5).join(', ')} from closed margin account ${account} to the trading account`);
      if (!sent.ok) return sent;
      journalIds.push(...sent.value.journalIds);
      txIds.push(...sent.value.txIds);
    }
    return ok(receipt(journalIds, txIds, `Withdrew ${lines.join(', ')} from margin account ${account} to the trading account`, []));
  }

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
  private async restoreSelection(parent: B256): Promise<void> {
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

  private publishTurboMarkets(): void {
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

  /** The order the selected account would sign, and whether the protocol would take it. */
  async checkTurboOrder(input: { marketId: string; side: Side; orderKind: OrderTypeIntent['kind']; price: bigint; quantity: bigint; maxPrice?: bigint | undefined; minPrice?: bigint | undefined }): Promise<Result<TurboOrderCheck>> {
    const intent: PlaceIntent = {
      side: input.side,
      price: input.price,
      quantity: input.quantity,
      orderType: input.orderKind === 'BoundedMarket' ? { kind: 'BoundedMarket', maxPrice: input.maxPrice ?? 0n, minPrice: input.minPrice ?? 0n } : { kind: input.orderKind },
    };
    const planned = await this.plan(input.marketId, intent);
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
    if (planned.value === null) return ok({ ...base, allowed: true, warnings: ['Signed as the trading account: no Turbo Account is selected.'] });
    const { plan, report, market } = planned.value;
    const asset = report.assets.find((entry) => entry.assetId === market.base.asset);
    return ok({
      ...base,
      allowed: true,
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
    const prepared = prepareOrder(
      market,
      { side: input.side, orderType: plan.orderType, price: plan.price, quantity: plan.quantity },
      { nowSeconds: BigInt(Math.floor(this.deps.clock.now() / 1000)), maxQuantity: this.deps.maxQuantity(input.marketId), turbo: true, marginAccount: true },
    );
    if (!prepared.ok) return prepared;
    const funding: SessionAction[] = [
      ...(plan.draw > 0n ? [{ kind: 'Draw' as const, amount: plan.draw }] : []),
      ...(plan.borrow > 0n ? [{ kind: 'Borrow' as const, asset_id: market.base.asset, amount: plan.borrow }] : []),
    ];
    const group: ActionGroup = { ...prepared.value.group, actions: [{ kind: 'SettleBalance', to: contractIdentity(child) }, ...funding, ...prepared.value.group.actions] };
    const description = `${describeOrder(market, input.side, plan.orderType.kind, plan.price, prepared.value.quantity)} on the Turbo book as margin account ${showId(child)}${plan.draw > 0n ? `, drawing ${this.show(plan.draw)}` : ''}${plan.borrow > 0n ? `, borrowing ${formatUnits(plan.borrow, market.base.decimals)} ${market.base.symbol}` : ''}`;
    const submitted = await this.signer(child).submit({ groups: [group], description, settleFirst: false });
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
    return ok({ journalId: submitted.value.journalId, orders: views, adjustments: [...plan.warnings, ...prepared.value.adjustments] });
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
    return ok({ requested: 1, cancelled: [orderId], failed: [], batches: 1 });
  }

  /** Every open Turbo order of every margin account (the kill switch), read fresh from REST. */
  async cancelAll(marketId: string | undefined): Promise<Result<CancelReport>> {
    const parent = await this.ready();
    if (!parent.ok) return ok({ requested: 0, cancelled: [], failed: [], batches: 0 });
    const children = await this.refreshChildren(parent.value.owner, parent.value.parent);
    const accounts = new Set<B256>([...this.trackers.keys(), ...(children.ok ? children.value.filter((child) => child.hasSession).map((child) => child.marginAccountId) : [])]);
    const report: { requested: number; cancelled: string[]; failed: { orderId: string; reason: string }[]; batches: number } = { requested: 0, cancelled: [], failed: [], batches: 0 };
    for (const account of [...accounts].slice(0, MAX_CHILDREN_SWEPT)) {
      const targets: CancelTarget[] = [];
      for (const market of this.turboMarkets()) {
        if (marketId !== undefined && market.market_id !== marketId) continue;
        const page = await this.deps.rest.getOrders({ market_id: market.market_id, contract: account, is_open: true, direction: 'desc', count: 200, turbo: true });
        if (!page.ok) continue;
        for (const order of page.value.orders) targets.push({ market, turbo: true, orderId: order.order_id });
      }
      report.requested += targets.length;
      for (const batch of packCancels(targets)) {
        report.batches++;
        const sent = await this.signer(account).submit({ groups: batch.groups, description: `Cancel ${batch.orderIds.length} order(s) of margin account ${account}`, settleFirst: false });
        if (sent.ok) report.cancelled.push(...batch.orderIds);
        else for (const orderId of batch.orderIds) report.failed.push({ orderId, reason: sent.message });
      }
      void this.trackers.get(account)?.readOrders();
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
    const prepared = prepareOrder(market, { side: view.side, orderType: { kind }, price, quantity }, { nowSeconds: BigInt(Math.floor(this.deps.clock.now() / 1000)), maxQuantity: this.deps.maxQuantity(marketId), turbo: true, marginAccount: true });
    if (!prepared.ok) return prepared;
    const group: ActionGroup = { ...prepared.value.group, actions: [{ kind: 'CancelOrder', order_id: orderId }, { kind: 'SettleBalance', to: contractIdentity(tracker.account) }, ...prepared.value.group.actions] };
    const submitted = await this.signer(tracker.account).submit({ groups: [group], description: `Amend ${describeOrder(market, view.side, kind, view.price, remaining)} (${orderId}) to ${describeOrder(market, view.side, kind, price, prepared.value.quantity)} as margin account ${tracker.account}`, settleFirst: false });
    if (!submitted.ok) return submitted;
    tracker.orders.markCancelled(orderId);
    const views = (submitted.value.orders as Parameters<typeof orderView>[0][]).map((order) => {
      tracker.orders.apply(order, marketId);
      return orderView(order, marketId, true, tracker.account);
    });
    tracker.ordersChanged();
    return ok({ journalId: submitted.value.journalId, orders: views, adjustments: prepared.value.adjustments, replacedOrderId: orderId });
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
