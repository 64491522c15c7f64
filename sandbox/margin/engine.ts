// The margin extension (margin-api): registration of children, sessions of both cohorts, the
// pool's credit actions, the checks after every batch of a Turbo Account, settlement (4.7), and
// the lifecycle on the sandbox clock (expiry, prepaid rollover, permissionless liquidation).
// Every mutation happens inside a ledger transaction through journaled state, so a revert
// leaves nothing half-applied. Every margin figure comes from shared/margin (computeRisk,
// openingAmount, openingTermSeconds, profitRequired): no second copy of a formula lives here.
import { TRIGGER_CANCEL_REASONS } from '../triggers/records';
import type { B256 } from '../../shared/encoding/b256';
import { contractIdentity } from '../../shared/encoding/identity';
import {
  NO_EXPIRY,
  buyoutFee,
  computeRisk,
  discounted,
  isNoExpiry,
  openingAmount,
  openingTermSeconds,
  ownedValue,
  owedValue,
  profitRequired,
  profitShare,
  realizedProfit,
  rolloverProgress,
  scaleFor,
  unwindLongProceeds,
  unwindShortCost,
  type RiskReport,
} from '../../shared/margin/index';
import type { MarginAccountAction, StartMarginSessionAction, CloseMarginSessionAction, WithdrawFromMarginAccountAction, CloseCleanup } from '../../shared/protocol/actions';
import type { Result } from '../../shared/result';
import { deriveId } from '../ids';
import type { ContractAccount } from '../ledger/accounts';
import { AssetBalances } from '../ledger/balances';
import type { Ledger } from '../ledger/ledger';
import type { ActionContext } from '../ledger/action-context';
import type { MarketState } from '../ledger/market';
import { isRevert, revert, type Revert } from '../ledger/revert';
import { latestTiers, type MarginConfig, type TierVersion } from './config';
import { Oracle } from './oracle';
import { debtOf, touchSession, type MarginSession } from './session';
import { snapshotOf, tierAssets, tierMarkets } from './snapshot';

/** Activity entries kept per child (GET /v1/margin/activity). */
export const ACTIVITY_CAPACITY = 500;

export interface ActivityEntry {
  readonly sequence: string;
  readonly kind: string;
  readonly timestamp: string;
  readonly tx_id: string | null;
  readonly details: Readonly<Record<string, string | boolean | null>>;
}

/** What a batch of a Turbo Account is judged against: the risk before its first action. */
export interface BatchGuard {
  readonly before: RiskReport | undefined;
}

export class MarginEngine {
  readonly oracle: Oracle;
  /** Pool pause (GET /v1/margin/pool): draws, borrows and opens are refused while paused. */
  poolPaused = false;
  /** The live session of each child. */
  readonly sessions = new Map<string, MarginSession>();
  /** Ended sessions per child, newest last. */
  readonly history = new Map<string, MarginSession[]>();
  /** Registered children per parent, in index order. */
  readonly children = new Map<string, ContractAccount[]>();
  /** Fee discount per owner wallet, bps (docs/protocol.md (Margin) 8). */
  readonly discounts = new Map<string, bigint>();
  /** Tier versions published after start (control), on top of the configured ones. */
  readonly published: TierVersion[] = [];
  /** Margin stream sequence per child: bumped once per committed transaction that touched it. */
  readonly sequences = new Map<string, bigint>();
  readonly activity = new Map<string, ActivityEntry[]>();
  /** What the pool should hold plus what it lent out, per asset (the pool's own invariant). */
  readonly expected: AssetBalances;
  /** Collateral the pool lost to settlements that could not repay (bad debt), raw collateral units. */
  badDebt = 0n;
  private sessionCounter = 0;
  private readonly startedAtSeconds: bigint;

  constructor(
    readonly ledger: Ledger,
    readonly config: MarginConfig,
    now: bigint,
  ) {
    this.startedAtSeconds = now;
    this.oracle = new Oracle(config.oracleHalfSpreadBps);
    for (const link of ledger.turbo.values()) {
      const base = link.canonical.config.base;
      if (!this.oracle.assets().includes(base.asset)) this.oracle.add(base.asset, base.decimals, link.canonical, now);
    }
    this.expected = new AssetBalances(ledger.journal);
    for (const [asset, amount] of config.poolFunding) {
      ledger.mint(contractIdentity(config.poolId), asset, amount);
      this.expected.add(asset, amount);
    }
    ledger.changes.clear();
    // Committed margin activity becomes the activity log and one stream sequence number per child.
    ledger.onChange((changes) => {
      for (const [child, activities] of changes.margin) {
        const sequence = (this.sequences.get(child) ?? 0n) + 1n;
        this.sequences.set(child, sequence);
        let log = this.activity.get(child);
        if (log === undefined) {
          log = [];
          this.activity.set(child, log);
        }
        for (const activity of activities) {
          log.push({ sequence: sequence.toString(), kind: activity.kind, timestamp: this.nowSeconds().toString(), tx_id: (activity.details?.tx_id as string | undefined) ?? null, details: activity.details ?? {} });
        }
        if (log.length > ACTIVITY_CAPACITY) log.splice(0, log.length - ACTIVITY_CAPACITY);
      }
    });
  }

  /** Injected by the app: the sandbox clock in unix seconds. */
  nowSeconds: () => bigint = () => this.startedAtSeconds;

  // ---- reads ---------------------------------------------------------------------------------

  tierVersions(): TierVersion[] {
    return [...this.config.tiers, ...this.published];
  }

  latestTiers(): TierVersion[] {
    return latestTiers(this.tierVersions());
  }

  publishedAt(tier: TierVersion): bigint {
    return this.startedAtSeconds - tier.publishedSecondsAgo;
  }

  pool(): AssetBalances {
    return this.ledger.holder(contractIdentity(this.config.poolId));
  }

  custody(): AssetBalances {
    return this.ledger.holder(contractIdentity(this.config.custodyId));
  }

  platform(): AssetBalances {
    return this.ledger.holder(contractIdentity(this.config.platformId));
  }

  poolInventory(): Record<string, bigint> {
    const pool = this.pool();
    return Object.fromEntries([...this.config.poolFunding.keys()].map((asset) => [asset, pool.get(asset)]));
  }

  discountOf(ownerWallet: string): bigint {
    return this.discounts.get(ownerWallet) ?? 0n;
  }

  /** The predicted id of a parent's child at `index` (GET /v1/margin/next-account). */
  childId(parent: string, index: bigint): B256 {
    return deriveId(this.config.seed, `margin-account/${parent}/${index}`);
  }

  nextIndex(parent: string): bigint {
    return BigInt(this.children.get(parent)?.length ?? 0);
  }

  /** The margin snapshot's risk report of a child's live session; undefined without one. */
  risk(child: ContractAccount): Result<RiskReport> | undefined {
    const session = this.sessions.get(child.id);
    if (session === undefined) return undefined;
    return computeRisk(snapshotOf(this.ledger, this.config, this.oracle, this.poolInventory(), child, session));
  }

  /** Exactly the CloseMarginSession cleanups of a child: per tier book with open orders, their ids. */
  closeCleanups(child: ContractAccount): CloseCleanup[] {
    const session = this.sessions.get(child.id);
    if (session === undefined) return [];
    const cleanups: CloseCleanup[] = [];
    for (const market of tierMarkets(this.ledger, session.tier)) {
      const open = [...(market.ordersByAccount.get(child.id) ?? [])].filter((order) => !order.close).map((order) => order.id);
      // Pending trigger legs are cancelled through cancel_order too: after the orders.
      const legs = market.triggers.pendingOf(child.id).map((record) => record.id);
      if (open.length > 0 || legs.length > 0) cleanups.push({ order_book_id: market.config.contract_id, order_ids: [...open, ...legs] });
    }
    return cleanups;
  }

  // ---- parent actions (inside a transaction) ----------------------------------------------------

  register(parent: ContractAccount, childId: B256, index: bigint, now: number): Revert | undefined {
    if (parent.kind !== 'trade') return revert('Unauthorized', `trade account ${parent.id} is a margin account; only a trading account registers children`);
    const expectedIndex = this.nextIndex(parent.id);
    if (index !== expectedIndex) return revert('InvalidIndex', `index ${index} does not match the next index ${expectedIndex} of parent ${parent.id}`);
    const predicted = this.childId(parent.id, index);
    if (childId !== predicted) return revert('InvalidMarginAccountId', `margin_account_id ${childId} is not the predicted id ${predicted} for parent ${parent.id} index ${index}`);
    const child = this.ledger.createMarginAccount(childId, parent, index, now);
    child.whitelisted = true;
    let list = this.children.get(parent.id);
    if (list === undefined) {
      list = [];
      this.children.set(parent.id, list);
    }
    const children = list;
    children.push(child);
    this.ledger.journal.record(() => children.pop());
    this.ledger.changes.marginActivity(child.id, { kind: 'Registered', details: { parent: parent.id, index: index.toString() } });
    return undefined;
  }

  private childOf(parent: ContractAccount, id: string): ContractAccount | Revert {
    const child = this.ledger.accounts.get(id);
    if (child === undefined || child.margin?.parent !== parent.id) return revert('MarginAccountNotFound', `margin account ${id} is not a registered child of ${parent.id}`);
    return child;
  }

  startSession(parent: ContractAccount, action: StartMarginSessionAction, context: ActionContext): Revert | undefined {
    const child = this.childOf(parent, action.margin_account_id);
    if (isRevert(child)) return child;
    if (this.sessions.has(child.id)) return revert('SessionAlreadyActive', `margin account ${child.id} already has an active session`);
    if (this.poolPaused) return revert('PoolPaused', 'the margin pool is paused: no session can open');
    const tier = this.latestTiers().find((candidate) => candidate.tierId === action.tier_id.toString());
    if (tier === undefined) return revert('TierNotFound', `tier_id ${action.tier_id} is not a published tier`);
    const cohort = tier.turbo === undefined ? 'Legacy' : 'Turbo';
    const discountBps = this.discountOf(this.ledger.ownerWalletOf(parent));
    const amount = openingAmount({ cohort, requiredCollateral: tier.requiredCollateral, openFee: tier.openFee, prolongFee: tier.prolongFee, discountBps, period: action.period });
    if (!amount.ok) return revert('PeriodNotAllowed', amount.message);
    const term = openingTermSeconds({ cohort, duration: tier.duration, prolongSeconds: tier.prolongSeconds, termSeconds: tier.turbo?.termSeconds, period: action.period });
    if (!term.ok) return revert('PeriodNotAllowed', term.message);
    const expected = amount.value.amount;
    if (cohort === 'Turbo' && action.amount !== expected) {
      return revert('InexactOpeningAmount', `amount ${action.amount} is not the exact opening amount ${expected} of prepaid tier ${tier.tierId} v${tier.version} (refused, not clamped)`);
    }
    if (cohort === 'Legacy' && action.amount < expected) {
      return revert('OpeningAmountBelowFloor', `amount ${action.amount} is below the tier floor ${expected} (required_collateral ${tier.requiredCollateral} + discounted fees ${amount.value.feeLeg})`);
    }
    const collateralAsset = this.config.collateralAssetId;
    const held = parent.balances.get(collateralAsset);
    if (held < action.amount) return revert('InsufficientBalance', `trade account ${parent.id} holds ${held} of asset ${collateralAsset}, the open forwards ${action.amount}`);
    parent.balances.add(collateralAsset, -action.amount);
    const now = this.nowSeconds();
    // Prepaid: the whole amount is a price (entry plus fees), the platform's at once; C = F = 0.
    // Legacy: the fee leg goes to the platform, the rest is posted collateral; C = amount, F = fees.
    if (cohort === 'Turbo') this.platform().add(collateralAsset, action.amount);
    else {
      this.platform().add(collateralAsset, amount.value.feeLeg);
      this.custody().add(collateralAsset, action.amount - amount.value.feeLeg);
    }
    const session: MarginSession = {
      id: ++this.sessionCounter,
      tier,
      cohort,
      collateral: cohort === 'Turbo' ? 0n : action.amount,
      fees: cohort === 'Turbo' ? 0n : amount.value.feeLeg,
      quoteDrawn: 0n,
      debts: new Map(),
      basis: cohort === 'Turbo' ? 0n : action.amount - amount.value.feeLeg,
      openedAt: now,
      expiresAt: isNoExpiry(term.value) ? NO_EXPIRY : now + term.value,
      autoProlong: null,
      rollover: null,
      status: 'Active',
      endedAt: null,
      settlement: null,
      stamp: -1,
    };
    this.sessions.set(child.id, session);
    this.ledger.journal.record(() => this.sessions.delete(child.id));
    if (tier.turbo !== undefined && tier.turbo.maxRollovers > 0) {
      // The anchor is V at the start of the term (account value, not equity).
      const risk = this.risk(child);
      session.rollover = { anchor: risk?.ok === true ? risk.value.accountValue : tier.capital, withdrawn: 0n, outside: 0n, rolloversUsed: 0 };
    }
    this.activity_(child.id, 'SessionStarted', context, { tier_id: tier.tierId, version: String(tier.version), cohort, amount: action.amount.toString(), period: action.period, expires_at: session.expiresAt.toString() });
    this.ledger.changes.balances.add(parent.id);
    return undefined;
  }

  closeSession(parent: ContractAccount, action: CloseMarginSessionAction, context: ActionContext): Revert | undefined {
    const child = this.childOf(parent, action.margin_account_id);
    if (isRevert(child)) return child;
    const session = this.sessions.get(child.id);
    if (session === undefined) return revert('NoActiveSession', `margin account ${child.id} has no active session`);
    const required = this.closeCleanups(child);
    if (JSON.stringify(normaliseCleanups(action.cleanups)) !== JSON.stringify(normaliseCleanups(required))) {
      return revert('StaleCleanups', `cleanups ${JSON.stringify(action.cleanups)} are not the current close-cleanups list ${JSON.stringify(required)}`);
    }
    const childContext = { ...context, account: child };
    for (const cleanup of required) {
      const market = this.ledger.marketsByContract.get(cleanup.order_book_id) as MarketState;
      for (const id of cleanup.order_ids) {
        const cancelled = market.cancelOrder(childContext, id);
        if (isRevert(cancelled)) return cancelled;
      }
    }
    for (const market of tierMarkets(this.ledger, session.tier)) market.settle(childContext, contractIdentity(child.id));
    if (session.quoteDrawn !== 0n) return revert('DebtOutstanding', `drawn quote ${session.quoteDrawn} must be returned before a clean close`);
    const debt = [...session.debts].find(([, amount]) => amount !== 0n);
    if (debt !== undefined) return revert('DebtOutstanding', `in-kind debt ${debt[1]} of asset ${debt[0]} must be repaid before a clean close`);
    const risk = this.risk(child);
    // Realized profit as the panel shows it (shared/margin realizedProfit on the same report).
    const pnl = risk?.ok === true ? realizedProfit(risk.value.traderEquity, session.basis) : 0n;
    this.finish(child, session, 'Closed', context, pnl, false);
    return undefined;
  }

  withdrawFromChild(parent: ContractAccount, action: WithdrawFromMarginAccountAction, context: ActionContext): Revert | undefined {
    const child = this.childOf(parent, action.margin_account_id);
    if (isRevert(child)) return child;
    if (this.sessions.has(child.id)) return revert('SessionActive', `margin account ${child.id} has an active session: withdraw with WithdrawFromMargin, or close it first`);
    const held = child.balances.get(action.asset_id);
    if (held < action.amount) return revert('InsufficientBalance', `margin account ${child.id} holds ${held} of asset ${action.asset_id}, the withdrawal asks ${action.amount}`);
    child.balances.add(action.asset_id, -action.amount);
    parent.balances.add(action.asset_id, action.amount);
    this.ledger.changes.balances.add(parent.id);
    this.ledger.changes.balances.add(child.id);
    this.activity_(child.id, 'WithdrawnToParent', context, { asset_id: action.asset_id, amount: action.amount.toString() });
    return undefined;
  }

  // ---- Turbo Account actions (inside a transaction) ---------------------------------------------

  /** Orders of a child: only with a live session and only on its tier's books. */
  orderAllowed(child: ContractAccount, market: MarketState): Revert | undefined {
    const session = this.sessions.get(child.id);
    if (session === undefined) return revert('NoActiveSession', `margin account ${child.id} has no active session`);
    if (!session.tier.books.includes(market.config.contract_id)) {
      return revert('BookNotInTier', `book ${market.config.contract_id} is not a book of tier ${session.tier.tierId}; send the group with turbo: true`);
    }
    return undefined;
  }

  beforeBatch(child: ContractAccount): BatchGuard {
    const risk = this.risk(child);
    return { before: risk?.ok === true ? risk.value : undefined };
  }

  /**
   * After the batch: outstanding <= L (margin 2.6 notes); while frozen nothing may raise the
   * gross exposure or the outstanding (risk-reducing batches pass); a withdrawal must leave the
   * account neither frozen nor liquidatable.
   */
  afterBatch(child: ContractAccount, guard: BatchGuard, withdrew: boolean): Revert | undefined {
    const result = this.risk(child);
    if (result === undefined) return undefined;
    if (!result.ok) return revert('RiskUnavailable', `margin account ${child.id} cannot be valued: ${result.message}`);
    const after = result.value;
    if (after.outstanding > after.creditLine) {
      return revert('OutstandingAboveCreditLine', `the batch leaves outstanding ${after.outstanding} above the credit line L ${after.creditLine}`);
    }
    const before = guard.before;
    if (before !== undefined && before.health.frozen) {
      if (after.exposure.gross > before.exposure.gross || after.outstanding > before.outstanding || withdrew) {
        return revert(
          'AccountFrozen',
          `the account is frozen (stressed equity ${before.health.stressedEquity} < freeze line - k ${before.health.freezeLine - (this.sessions.get(child.id)?.tier.capital ?? 0n)}): a batch must not increase exposure`,
        );
      }
    }
    if (withdrew && (after.health.frozen || after.health.liquidatable)) {
      return revert('WithdrawalTooLarge', `the withdrawal would leave the account ${after.health.liquidatable ? 'liquidatable' : 'frozen'}`);
    }
    return undefined;
  }

  poolAction(child: ContractAccount, action: MarginAccountAction, context: ActionContext): Revert | undefined {
    const session = this.sessions.get(child.id);
    if (session === undefined) return revert('NoActiveSession', `margin account ${child.id} has no active session`);
    touchSession(this.ledger.journal, session);
    const collateral = this.config.collateralAssetId;
    const pool = this.pool();
    const custody = this.custody();
    const changes = this.ledger.changes;
    changes.balances.add(child.id);
    switch (action.kind) {
      case 'Draw': {
        if (this.poolPaused) return revert('PoolPaused', 'the margin pool is paused: draws are refused');
        if (pool.get(collateral) < action.amount) return revert('InsufficientPoolInventory', `the pool holds ${pool.get(collateral)} of the collateral asset, the draw asks ${action.amount}`);
        pool.add(collateral, -action.amount);
        child.balances.add(collateral, action.amount);
        session.quoteDrawn += action.amount;
        return this.activity_(child.id, 'Draw', context, { amount: action.amount.toString(), drawn_total: session.quoteDrawn.toString() });
      }
      case 'ReturnQuote': {
        if (action.amount > session.quoteDrawn) return revert('ReturnExceedsDrawn', `amount ${action.amount} is more than the drawn quote ${session.quoteDrawn}`);
        const held = child.balances.get(collateral);
        if (held < action.amount) return revert('InsufficientBalance', `margin account ${child.id} holds ${held} of the collateral asset, the return forwards ${action.amount}`);
        child.balances.add(collateral, -action.amount);
        pool.add(collateral, action.amount);
        session.quoteDrawn -= action.amount;
        return this.activity_(child.id, 'ReturnQuote', context, { amount: action.amount.toString(), drawn_total: session.quoteDrawn.toString() });
      }
      case 'Borrow': {
        if (action.asset_id === collateral) return revert('CollateralNotBorrowable', 'The collateral asset cannot be borrowed in kind; use Draw');
        if (!tierAssets(this.ledger, this.config, session.tier).includes(action.asset_id)) return revert('AssetNotSupported', `asset ${action.asset_id} is not supported by tier ${session.tier.tierId}`);
        if (this.poolPaused) return revert('PoolPaused', 'the margin pool is paused: borrows are refused');
        if (pool.get(action.asset_id) < action.amount) return revert('InsufficientPoolInventory', `the pool holds ${pool.get(action.asset_id)} of asset ${action.asset_id}, the borrow asks ${action.amount}`);
        pool.add(action.asset_id, -action.amount);
        child.balances.add(action.asset_id, action.amount);
        session.debts.set(action.asset_id, debtOf(session, action.asset_id) + action.amount);
        return this.activity_(child.id, 'Borrow', context, { asset_id: action.asset_id, amount: action.amount.toString(), debt_total: debtOf(session, action.asset_id).toString() });
      }
      case 'Repay': {
        const debt = debtOf(session, action.asset_id);
        if (action.amount > debt) return revert('RepayExceedsDebt', `amount ${action.amount} is more than the debt ${debt} of asset ${action.asset_id}`);
        const held = child.balances.get(action.asset_id);
        if (held < action.amount) return revert('InsufficientBalance', `margin account ${child.id} holds ${held} of asset ${action.asset_id}, the repay forwards ${action.amount}`);
        child.balances.add(action.asset_id, -action.amount);
        pool.add(action.asset_id, action.amount);
        session.debts.set(action.asset_id, debt - action.amount);
        return this.activity_(child.id, 'Repay', context, { asset_id: action.asset_id, amount: action.amount.toString(), debt_total: (debt - action.amount).toString() });
      }
      case 'RepayFromCollateral': {
        const net = session.collateral - session.fees;
        if (action.amount > session.quoteDrawn) return revert('RepayExceedsDrawn', `amount ${action.amount} is more than the drawn quote ${session.quoteDrawn}`);
        if (action.amount > net) return revert('InsufficientCollateral', `amount ${action.amount} is more than the net posted collateral ${net}`);
        custody.add(collateral, -action.amount);
        pool.add(collateral, action.amount);
        session.collateral -= action.amount;
        session.quoteDrawn -= action.amount;
        return this.activity_(child.id, 'RepayFromCollateral', context, { amount: action.amount.toString(), drawn_total: session.quoteDrawn.toString(), collateral_total: session.collateral.toString() });
      }
      case 'RepayBaseFromCollateral': {
        const debt = debtOf(session, action.asset_id);
        if (action.amount > debt) return revert('RepayExceedsDebt', `amount ${action.amount} is more than the debt ${debt} of asset ${action.asset_id}`);
        const price = this.oracle.price(action.asset_id);
        if (price === undefined) return revert('AssetNotSupported', `asset ${action.asset_id} has no oracle price`);
        const cost = owedValue(action.amount, price.ask, scaleFor(price.decimals, this.config.collateralDecimals));
        const fee = buyoutFee(cost, this.config.buyoutFeeBps);
        const net = session.collateral - session.fees;
        if (cost + fee > net) return revert('InsufficientCollateral', `buying out ${action.amount} costs ${cost} plus fee ${fee}, more than the net posted collateral ${net}`);
        custody.add(collateral, -(cost + fee));
        pool.add(collateral, cost);
        this.platform().add(collateral, fee);
        // The pool takes collateral for the asset it will not get back.
        this.expected.add(collateral, cost);
        this.expected.add(action.asset_id, -action.amount);
        session.collateral -= cost + fee;
        session.debts.set(action.asset_id, debt - action.amount);
        return this.activity_(child.id, 'RepayBaseFromCollateral', context, { asset_id: action.asset_id, amount: action.amount.toString(), cost: cost.toString(), fee: fee.toString(), debt_total: (debt - action.amount).toString() });
      }
      case 'AddCollateral': {
        const held = child.balances.get(collateral);
        if (held < action.amount) return revert('InsufficientBalance', `margin account ${child.id} holds ${held} of the collateral asset, AddCollateral forwards ${action.amount}`);
        child.balances.add(collateral, -action.amount);
        custody.add(collateral, action.amount);
        session.collateral += action.amount;
        // Coins already on the account become posted collateral: equity and the PnL basis stay.
        // Prepaid: value that arrived rather than being earned does not count toward the bar.
        if (session.rollover !== null) session.rollover.outside += action.amount;
        return this.activity_(child.id, 'AddCollateral', context, { amount: action.amount.toString(), collateral_total: session.collateral.toString() });
      }
      case 'WithdrawFromMargin': {
        const held = child.balances.get(action.asset_id);
        if (held < action.amount) return revert('InsufficientBalance', `margin account ${child.id} holds ${held} of asset ${action.asset_id}, the withdrawal asks ${action.amount}`);
        const value = this.valueOf(action.asset_id, action.amount);
        const risk = this.risk(child);
        if (risk?.ok === true && value > risk.value.health.giveawayAllowance) {
          return revert('WithdrawalTooLarge', `withdrawing value ${value} exceeds the giveaway allowance ${risk.value.health.giveawayAllowance}`);
        }
        const equityBefore = risk?.ok === true ? risk.value.traderEquity : undefined;
        child.balances.add(action.asset_id, -action.amount);
        const parent = this.ledger.accounts.get(child.margin?.parent ?? '') as ContractAccount;
        parent.balances.add(action.asset_id, action.amount);
        // What left for the parent is not a loss: the PnL basis drops by the equity it took.
        const after = this.risk(child);
        session.basis -= equityBefore !== undefined && after?.ok === true ? equityBefore - after.value.traderEquity : value;
        changes.balances.add(parent.id);
        // The anchor is fixed for the term: a withdrawal moves `withdrawn`, never the anchor.
        if (session.rollover !== null) session.rollover.withdrawn += value;
        return this.activity_(child.id, 'WithdrawFromMargin', context, { asset_id: action.asset_id, amount: action.amount.toString(), value: value.toString() });
      }
      case 'ProlongSession': {
        if (session.cohort !== 'Legacy') return revert('ProlongNotAvailable', 'a prepaid session gains terms by clearing rollover.profit_required, not with ProlongSession');
        return this.prolong(child, session, action.period, action.times, context, 'ProlongSession');
      }
      case 'SetAutoProlong': {
        if (session.cohort !== 'Legacy') return revert('ProlongNotAvailable', 'a prepaid session has no automatic prolongation');
        if (action.period !== null && session.tier.prolongSeconds[action.period] === undefined) return revert('PeriodNotAllowed', `tier ${session.tier.tierId} sells no ${action.period} period`);
        session.autoProlong = action.period;
        return this.activity_(child.id, 'SetAutoProlong', context, { period: action.period });
      }
    }
  }

  private prolong(child: ContractAccount, session: MarginSession, period: NonNullable<MarginSession['autoProlong']>, times: bigint, context: ActionContext, kind: string): Revert | undefined {
    const seconds = session.tier.prolongSeconds[period];
    const price = session.tier.prolongFee[period];
    if (seconds === undefined || price === undefined) return revert('PeriodNotAllowed', `tier ${session.tier.tierId} sells no ${period} period`);
    if (isNoExpiry(session.expiresAt)) return revert('ProlongNotAvailable', 'the session does not expire');
    const parent = this.ledger.accounts.get(child.margin?.parent ?? '');
    const fee = discounted(price, this.discountOf(parent === undefined ? '' : this.ledger.ownerWalletOf(parent))) * times;
    const net = session.collateral - session.fees;
    if (fee > net) return revert('InsufficientCollateral', `prolonging costs ${fee}, more than the net posted collateral ${net}`);
    // Fees are charged from the posted collateral: C keeps them, F counts them.
    this.custody().add(this.config.collateralAssetId, -fee);
    this.platform().add(this.config.collateralAssetId, fee);
    session.fees += fee;
    // Fees are reported apart from profit (margin 2.6): the PnL basis carries them.
    session.basis -= fee;
    session.expiresAt = isNoExpiry(seconds) ? NO_EXPIRY : session.expiresAt + seconds * times;
    return this.activity_(child.id, kind, context, { period, times: times.toString(), fee: fee.toString(), fees_total: session.fees.toString(), expires_at: session.expiresAt.toString() });
  }

  // ---- settlement (margin 4.7) ------------------------------------------------------------------

  /**
   * Unwind off market and settle: cancel the child's orders, settle its books, repay in-kind
   * debt from holdings, buy any short from the pool at the ask moved by the absorption band and
   * sell the rest to the pool at the bid moved against it, repay the drawn quote, cover a
   * shortfall from posted collateral and book what remains as bad debt; then the trader's share
   * of realized profit and everything left goes to the parent (legacy collateral too; prepaid
   * collateral is forfeited when the tier says so).
   */
  settle(child: ContractAccount, kind: 'Liquidated' | 'Expired', context: ActionContext): Revert | undefined {
    const session = this.sessions.get(child.id);
    if (session === undefined) return revert('NoActiveSession', `margin account ${child.id} has no active session`);
    touchSession(this.ledger.journal, session);
    const childContext = { ...context, account: child };
    for (const market of tierMarkets(this.ledger, session.tier)) {
      for (const record of market.triggers.pendingOf(child.id)) market.triggers.cancel(record, TRIGGER_CANCEL_REASONS.SESSION_ENDED, childContext);
      for (const order of [...(market.ordersByAccount.get(child.id) ?? [])]) {
        if (!order.close) {
          const cancelled = market.cancelOrder(childContext, order.id);
          if (isRevert(cancelled)) return cancelled;
        }
      }
      market.settle(childContext, contractIdentity(child.id));
    }
    const collateral = this.config.collateralAssetId;
    const pool = this.pool();
    let shortfall = 0n;
    for (const asset of tierAssets(this.ledger, this.config, session.tier)) {
      if (asset === collateral) continue;
      const price = this.oracle.price(asset);
      const band = this.config.absorptionBandBps.get(asset as B256) ?? this.config.defaultAbsorptionBandBps;
      const scale = scaleFor(price?.decimals ?? 0, this.config.collateralDecimals);
      const debt = debtOf(session, asset);
      const repay = minimum(debt, child.balances.get(asset));
      child.balances.add(asset, -repay);
      pool.add(asset, repay);
      const short = debt - repay;
      session.debts.set(asset, 0n);
      if (short > 0n && price !== undefined) {
        const cost = unwindShortCost(short, price.ask, band, scale);
        const paid = minimum(cost, child.balances.get(collateral));
        child.balances.add(collateral, -paid);
        pool.add(collateral, paid);
        this.expected.add(collateral, paid);
        this.expected.add(asset, -short);
        shortfall += cost - paid;
      }
      const rest = child.balances.get(asset);
      if (rest > 0n && price !== undefined) {
        const proceeds = minimum(unwindLongProceeds(rest, price.bid, band, scale), pool.get(collateral));
        child.balances.add(asset, -rest);
        pool.add(asset, rest);
        pool.add(collateral, -proceeds);
        child.balances.add(collateral, proceeds);
        this.expected.add(asset, rest);
        this.expected.add(collateral, -proceeds);
      }
    }
    const repaid = minimum(session.quoteDrawn, child.balances.get(collateral));
    child.balances.add(collateral, -repaid);
    pool.add(collateral, repaid);
    shortfall += session.quoteDrawn - repaid;
    session.quoteDrawn = 0n;
    // Cover the shortfall from posted collateral; what is still missing is the pool's bad debt.
    const net = session.collateral - session.fees;
    const covered = minimum(shortfall, net > 0n ? net : 0n);
    this.custody().add(collateral, -covered);
    pool.add(collateral, covered);
    session.collateral -= covered;
    const bad = shortfall - covered;
    if (bad > 0n) {
      this.expected.add(collateral, -bad);
      const before = this.badDebt;
      this.badDebt += bad;
      this.ledger.journal.record(() => (this.badDebt = before));
    }
    // Trader equity once unwound (no position, nothing drawn or owed): H[collateral] + C - F.
    const pnl = realizedProfit(child.balances.get(collateral) + (session.collateral - session.fees), session.basis);
    this.finish(child, session, kind, context, pnl, true);
    return undefined;
  }

  /** End a session: profit share, collateral returned or forfeited, balances to the parent when settled. */
  private finish(child: ContractAccount, session: MarginSession, status: 'Closed' | 'Liquidated' | 'Expired', context: ActionContext, pnl: bigint, toParent: boolean): void {
    touchSession(this.ledger.journal, session);
    const collateral = this.config.collateralAssetId;
    const parent = this.ledger.accounts.get(child.margin?.parent ?? '') as ContractAccount;
    // The house's share is owed: it rounds up (the trader's share, owned, rounds down). It is
    // paid from the account's collateral asset, then from the posted collateral on its way out.
    const due = profitShare(pnl, session.tier.profitShareBps).house;
    const fromAccount = minimum(due, child.balances.get(collateral));
    child.balances.add(collateral, -fromAccount);
    const net = session.collateral - session.fees;
    const posted = net > 0n ? net : 0n;
    const fromPosted = minimum(due - fromAccount, posted);
    const taken = fromAccount + fromPosted;
    this.custody().add(collateral, -posted);
    this.platform().add(collateral, taken);
    const forfeited = session.cohort === 'Turbo' && session.tier.turbo?.forfeitCollateral === true;
    (forfeited ? this.platform() : parent.balances).add(collateral, posted - fromPosted);
    const returned: Record<string, string> = {};
    if (toParent) {
      for (const [asset, amount] of [...child.balances.entries()]) {
        if (amount === 0n) continue;
        child.balances.add(asset, -amount);
        parent.balances.add(asset, amount);
        returned[asset] = amount.toString();
      }
    }
    session.status = status;
    session.endedAt = this.nowSeconds();
    session.settlement = {
      pnl: pnl.toString(),
      profit_share: taken.toString(),
      ...(taken === due ? {} : { profit_share_unpaid: (due - taken).toString() }),
      collateral_returned: forfeited ? '0' : (posted - fromPosted).toString(),
      collateral_forfeited: forfeited ? (posted - fromPosted).toString() : '0',
      returned_to_parent: JSON.stringify(returned),
    };
    this.sessions.delete(child.id);
    let list = this.history.get(child.id);
    if (list === undefined) {
      list = [];
      this.history.set(child.id, list);
    }
    const history = list;
    history.push(session);
    this.ledger.journal.record(() => {
      history.pop();
      this.sessions.set(child.id, session);
    });
    this.ledger.changes.balances.add(parent.id);
    this.ledger.changes.balances.add(child.id);
    this.activity_(child.id, `Session${status}`, context, { ...session.settlement, session_closed: true });
  }

  // ---- lifecycle on the clock ---------------------------------------------------------------------

  /**
   * One step of the clock: legacy sessions past their term prolong automatically or expire;
   * prepaid sessions at their term deadline roll over when the profit bar was earned, else
   * expire; any session with V <= threshold is liquidated. Each in its own transaction.
   */
  tick(nextTxId: () => string, timestamp: bigint): string[] {
    const done: string[] = [];
    const now = this.nowSeconds();
    for (const childId of [...this.sessions.keys()]) {
      const child = this.ledger.accounts.get(childId);
      if (child === undefined) continue;
      const outcome = this.ledger.transact(() => this.step(child, now, { account: child, txId: nextTxId(), timestamp }));
      if (typeof outcome === 'string') done.push(`${childId}:${outcome}`);
    }
    return done;
  }

  private step(child: ContractAccount, now: bigint, context: ActionContext): string | undefined {
    for (let round = 0; round < 1_000; round++) {
      const session = this.sessions.get(child.id);
      if (session === undefined) return undefined;
      if (!isNoExpiry(session.expiresAt) && session.expiresAt <= now) {
        const outcome = this.atDeadline(child, session, context);
        if (outcome !== 'continue') return outcome;
        continue;
      }
      break;
    }
    if (!this.sessions.has(child.id)) return undefined;
    const risk = this.risk(child);
    if (risk?.ok === true && risk.value.health.liquidatable) {
      const settled = this.settle(child, 'Liquidated', context);
      return settled === undefined ? 'liquidated' : undefined;
    }
    return undefined;
  }

  private atDeadline(child: ContractAccount, session: MarginSession, context: ActionContext): string {
    touchSession(this.ledger.journal, session);
    const turbo = session.tier.turbo;
    if (session.cohort === 'Legacy') {
      if (session.autoProlong !== null && !isRevert(this.prolong(child, session, session.autoProlong, 1n, context, 'AutoProlonged'))) return 'continue';
      this.settle(child, 'Expired', context);
      return 'expired';
    }
    const rollover = session.rollover;
    if (turbo !== undefined && rollover !== null && rollover.rolloversUsed < turbo.maxRollovers) {
      const risk = this.risk(child);
      if (risk?.ok === true) {
        const progress = rolloverProgress(risk.value.accountValue, { ...rollover, maxRollovers: turbo.maxRollovers }, profitRequired(session.tier.line, turbo.rolloverProfitBps));
        if (progress.reached) {
          rollover.rolloversUsed += 1;
          rollover.anchor = risk.value.accountValue;
          rollover.withdrawn = 0n;
          rollover.outside = 0n;
          session.expiresAt = isNoExpiry(turbo.termSeconds) ? NO_EXPIRY : session.expiresAt + turbo.termSeconds;
          this.activity_(child.id, 'RolledOver', context, { rollovers_used: String(rollover.rolloversUsed), anchor: rollover.anchor.toString(), expires_at: session.expiresAt.toString() });
          return 'continue';
        }
      }
    }
    this.settle(child, 'Expired', context);
    return 'expired';
  }

  /** Control: the permissionless liquidator. Reverts when the account is not liquidatable. */
  liquidate(child: ContractAccount, context: ActionContext): Revert | undefined {
    const risk = this.risk(child);
    if (risk === undefined) return revert('NoActiveSession', `margin account ${child.id} has no active session`);
    if (!risk.ok) return revert('RiskUnavailable', risk.message);
    if (!risk.value.health.liquidatable) {
      return revert('NotLiquidatable', `V ${risk.value.accountValue} is above the threshold ${risk.value.health.threshold}`);
    }
    return this.settle(child, 'Liquidated', context);
  }

  /**
   * Value arriving on an account from outside (a faucet mint, an owner withdrawal to it): `apply`
   * moves it. On a child with a live session the equity it brings is not profit, so the PnL
   * basis rises by exactly the change of trader equity (inside the caller's transaction).
   */
  receive(accountId: string, apply: () => void): void {
    const session = this.sessions.get(accountId);
    const child = this.ledger.accounts.get(accountId);
    const before = child === undefined || session === undefined ? undefined : this.risk(child);
    apply();
    if (child === undefined || session === undefined || before?.ok !== true) return;
    const after = this.risk(child);
    if (after?.ok !== true) return;
    touchSession(this.ledger.journal, session);
    session.basis += after.value.traderEquity - before.value.traderEquity;
  }

  /** Value of an amount in collateral units at the oracle bid (the collateral is itself). */
  valueOf(asset: string, amount: bigint): bigint {
    if (asset === this.config.collateralAssetId) return amount;
    const price = this.oracle.price(asset);
    return price === undefined ? 0n : ownedValue(amount, price.bid, scaleFor(price.decimals, this.config.collateralDecimals));
  }

  /** Note activity for the stream and the log (dropped with a revert, like every change). */
  private activity_(child: string, kind: string, context: ActionContext, details: Record<string, string | boolean | null>): undefined {
    this.ledger.changes.marginActivity(child, { kind, details: { ...details, tx_id: context.txId } });
    return undefined;
  }
}

function minimum(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

function normaliseCleanups(cleanups: readonly CloseCleanup[]): { order_book_id: string; order_ids: readonly string[] }[] {
  return cleanups.map((cleanup) => ({ order_book_id: cleanup.order_book_id, order_ids: [...cleanup.order_ids] }));
}
