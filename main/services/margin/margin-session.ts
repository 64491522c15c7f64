// The margin service's overview, registration and parent session, and the batches it signs and
// sends: what the credit actions (margin-credit.ts) and the Turbo desk (margin-service.ts) build on.
// The parent session must list the pool, the registry, every child and the Turbo books; it is
// recreated (keychain owner) to add a child, and the trader is told why.
import type { B256 } from '../../../shared/encoding/b256';
import { formatUnits } from '../../../shared/encoding/units';
import type { MarginAccountView, MarginActionReceipt, MarginAssetRef, MarginOverview, MarginRegistration, MarginSettingsView } from '../../../shared/ipc/views';
import { isNoExpiry, type RiskReport } from '../../../shared/margin/index';
import type { SessionAction } from '../../../shared/protocol/actions';
import type { ActionGroup } from '../../../shared/protocol/session-actions';
import { fail, ok, type Result } from '../../../shared/result';
import type { SubmitRequest } from '../trading/submitter';
import { MarginCodes } from './codes';
import type { TierTerms } from './margin-reads';
import { missingFromScope, scopeView, tierView } from './overview';
import type { LiveRisk } from './risk-tracker';
import type { TurboOrderSettings } from './turbo-orders';
import { LIVE_WAIT_MS, MarginCore, receipt, type Parent } from './margin-core';

export abstract class MarginSession extends MarginCore {
  // ---- overview ---------------------------------------------------------------------------------

  protected scheduleOverview(): void {
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
    // The length the trader chose for the session it replaces (at most the configured length).
    const created = await this.deps.accounts.createSession([...marketIds], this.deps.accounts.renewalLength(), extras);
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
  protected childGroup(tier: TierTerms | null, actions: SessionAction[], marketId?: string): Result<ActionGroup> {
    const market = marketId !== undefined ? this.turboRow(marketId) : this.turboMarkets().find((row) => tier === null || tier.books.includes(row.contract_id));
    if (!market) return fail(MarginCodes.TURBO_UNAVAILABLE, `No Turbo book of ${tier === null ? 'the session' : `tier ${tier.tierId}`} is listed on this network`);
    return ok({ market_id: market.market_id, market, turbo: true, actions });
  }

  protected async sendParent(actions: SessionAction[], description: string, notes: string[] = []): Promise<Result<MarginActionReceipt>> {
    const group = this.parentGroup(actions);
    if (!group.ok) return group;
    const submitted = await this.deps.submitter.submit({ groups: [group.value], description, settleFirst: false });
    for (const action of actions) if ('margin_account_id' in action) this.trackers.get(action.margin_account_id)?.noteWrite();
    if (!submitted.ok) return submitted;
    this.scheduleOverview();
    return ok(receipt([submitted.value.journalId], [submitted.value.txId], description, notes));
  }

  protected async sendChild(child: B256, request: SubmitRequest, notes: string[] = []): Promise<Result<MarginActionReceipt>> {
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
  protected async live(child: B256): Promise<Result<LiveRisk>> {
    const tracker = this.tracker(child);
    if (!tracker.ok) return tracker;
    return tracker.value.live(LIVE_WAIT_MS);
  }

  /** Ready, registered, in scope, live and with a valued session: what every credit action needs. */
  protected async withSession(account: B256): Promise<Result<{ parent: Parent; live: LiveRisk; report: RiskReport; tier: TierTerms }>> {
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

  protected collateral(): MarginAssetRef {
    return this.asset(this.pool?.collateralAssetId ?? '');
  }

  protected show(amount: bigint, asset: MarginAssetRef = this.collateral()): string {
    return `${formatUnits(amount, asset.decimals)} ${asset.symbol}`;
  }

  protected onAccount(live: LiveRisk, assetId: string): bigint {
    return live.state.balances[assetId]?.on_account ?? 0n;
  }

  protected poolPaused(): boolean {
    return this.pool?.paused === true;
  }

}
