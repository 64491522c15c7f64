// The margin service's credit actions on a Turbo Account: open with the exact amount, draw, return,
// borrow, repay, add collateral, withdraw, prolong, close with the fetched cleanups, and withdraw
// what is left. Each is judged against the account's live state first (RiskTracker.live refuses
// while it is stale) and sits in one market group with what it funds (4.4 rule 3).
import type { B256 } from '../../../shared/encoding/b256';
import { contractIdentity } from '../../../shared/encoding/identity';
import type { CloseMarginReport, CloseRemedy, CloseStep, MarginActionReceipt } from '../../../shared/ipc/views';
import { closePlan } from '../../../shared/positions/close-plan';
import { borrowable as borrowableLimit, borrowLimitByLoanCap, discounted, isNoExpiry, openingAmount, ownedValue, type RiskReport } from '../../../shared/margin/index';
import type { Market } from '../../../shared/market/market';
import type { MarginAccountAction, MarginPeriod, SessionAction } from '../../../shared/protocol/actions';
import { fail, ok, type Failure, type Result } from '../../../shared/result';
import { pairName } from '../trading/order-intents';
import { closeRemedies } from './close-remedies';
import { MarginCodes } from './codes';
import type { TierTerms } from './margin-reads';
import type { LiveRisk } from './risk-tracker';
import { receipt } from './margin-core';
import { MarginSession } from './margin-session';

export abstract class MarginCredit extends MarginSession {
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
    const remedies = closeRemedies({
      legacy: tier.cohort === 'Legacy',
      collateral: this.collateral(),
      drawn: drawnLeft,
      held,
      netCollateral: context.value.report.netCollateral,
      debts: debtsLeft.map(([assetId, balance]) => ({ asset: this.asset(assetId), debt: balance.debt, held: balance.on_account })),
      show: (amount, asset) => this.show(amount, asset),
    });
    // What the account holds that no order can sell (a flatten's remainder): it cannot pay drawn quote back.
    const unsellable = Object.entries(state.value.balances)
      .filter(([assetId, balance]) => assetId !== collateralId && balance.on_account > 0n)
      .flatMap(([assetId, balance]) => {
        const market = this.turboMarkets().find((row) => row.base.asset === assetId);
        const plan = market ? closePlan(market, balance.on_account, { price: null }) : null;
        return plan?.notClosable ? [plan.refusal ?? ''] : [];
      });
    const remedyText = (kinds: readonly CloseRemedy['kind'][]) => {
      const found = remedies.filter((remedy) => kinds.includes(remedy.kind)).map((remedy) => remedy.text);
      return found.length > 0 ? `: ${found.join(', then ')} (offered here)` : '';
    };
    const drawnShort = drawnLeft > held ? drawnLeft - held : 0n;
    steps.push({
      step: 'return-quote',
      state: drawnLeft === 0n ? (session.quote_drawn === 0n ? 'not-needed' : 'done') : 'remaining',
      detail:
        drawnLeft === 0n
          ? `drawn quote is ${this.show(0n)}`
          : `${this.show(drawnLeft)} of drawn quote remains and the account holds ${this.show(held)}${unsellable.length > 0 ? `; what else it holds no order can sell (${unsellable.join('; ')})` : ''}${
              remedies.some((remedy) => remedy.kind === 'returnQuote' || remedy.kind === 'repayFromCollateral')
                ? remedyText(['returnQuote', 'repayFromCollateral'])
                : drawnShort > 0n
                  ? tier.cohort === 'Legacy'
                    ? `: the posted collateral (${this.show(context.value.report.netCollateral)} net) cannot cover the ${this.show(drawnShort)} missing either; sell positions or move ${this.show(drawnShort)} to the account`
                    : `: a prepaid session posts no collateral to repay from; sell positions or move ${this.show(drawnShort)} to the account`
                  : ''
            }`,
    });
    steps.push({
      step: 'repay-debts',
      state: debtsLeft.length === 0 ? (debts.length === 0 ? 'not-needed' : 'done') : 'remaining',
      detail:
        debtsLeft.length === 0
          ? 'no in-kind debt'
          : `${debtsLeft.map(([assetId, balance]) => `${this.show(balance.debt, this.asset(assetId))} of debt remains and the account holds ${this.show(balance.on_account, this.asset(assetId))}`).join('; ')}${remedyText(['repay', 'repayBaseFromCollateral']) || ': buy it back first'}`,
    });
    if (drawnLeft > 0n || debtsLeft.length > 0) {
      steps.push({ step: 'fetch-cleanups', state: 'remaining', detail: 'fetched right before the close, once nothing else remains' }, { step: 'close', state: 'remaining', detail: 'not sent: a close with drawn quote or debt outstanding reverts (DebtOutstanding)' });
      this.scheduleOverview();
      return ok({ ...receipt(journalIds, txIds, `Margin account ${account} is not closed yet`, [...notes, ...steps.filter((step) => step.state === 'remaining').map((step) => step.detail)]), closed: false, steps, cleanups: [], remedies });
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
        return ok({ ...receipt([...journalIds, ...sent.value.journalIds], [...txIds, ...sent.value.txIds], `Closed the session of margin account ${account}`, notes), closed: true, steps, cleanups: cleanups.value.map((cleanup) => ({ orderBookId: cleanup.order_book_id, orderIds: cleanup.order_ids })), remedies: [] });
      }
      if (sent.details?.reason !== 'StaleCleanups' || attempt === 1) return sent;
      // A revert answer can be untrue, told after the close went through: the account's state says
      // whether the session is still open before a second close is signed.
      const after = await this.deps.reads.state(account);
      if (!after.ok) return fail(sent.code, `${sent.message}. The account's state could not be read to check it (${after.message}), so the close was not sent again.`, sent.details);
      if (!after.value.session) {
        const detail = 'CloseMarginSession landed: the exchange answered it reverted (StaleCleanups), but the account has no session any more; it was not sent again';
        const closeJournalId = typeof sent.details?.journalId === 'string' ? sent.details.journalId : null;
        if (closeJournalId !== null) this.deps.journal.appendReconciled({ id: closeJournalId, status: 'landed', detail });
        steps.push({ step: 'close', state: 'done', detail });
        void tracker?.readOrders();
        const receiptIds = closeJournalId === null ? journalIds : [...journalIds, closeJournalId];
        return ok({ ...receipt(receiptIds, txIds, `Closed the session of margin account ${account}`, notes), closed: true, steps, cleanups: cleanups.value.map((cleanup) => ({ orderBookId: cleanup.order_book_id, orderIds: cleanup.order_ids })), remedies: [] });
      }
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
}
