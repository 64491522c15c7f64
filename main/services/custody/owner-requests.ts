// Owner-signed requests of the active owner: a withdrawal or an owner method signed here with a
// hot (keychain) key, or a withdrawal, session or owner method prepared for the offline signer of
// a watch-only owner and completed with its signature. Whatever the custody, each request is checked (asset, destination, the
// balance on the account, the rate budget), numbered, journaled before it leaves, sent once, and
// its lost answer settled by looking the nonce up; nothing is resent on a guess. Watch-only
// requests wait in the data directory, one per kind, until signed, cancelled or expired.
import type { Clock } from '../../../shared/clock';
import type { RandomBytes } from '../../../shared/crypto/keys';
import type { B256 } from '../../../shared/encoding/b256';
import { identityToJson } from '../../../shared/encoding/identity';
import type { OwnerMethodResultView, OwnerRequestKind, OwnerRequestsView, OwnerRequestView, OwnerSubmissionView, SessionView } from '../../../shared/ipc/views';
import { buildOwnerCallRequest, buildSessionRequest, buildWithdrawRequest, offlineNonceTtlSeconds } from '../../../shared/offline/build-request';
import { bytesEqual } from '../../../shared/encoding/hex';
import { canonicalJson } from '../../../shared/offline/canonical-json';
import { OFFLINE_CODES } from '../../../shared/offline/codes';
import { describeWithdraw, formatUnixSeconds } from '../../../shared/offline/describe';
import type { OfflineOwnerCallRequest, OfflineRequest, OfflineSessionRequest } from '../../../shared/offline/request-format';
import { responseToJson } from '../../../shared/offline/response-format';
import { DEFAULT_REQUEST_LIFETIME_SECONDS, nonceChoiceOf } from '../../../shared/offline/verify-request';
import { verifyOfflineResponse } from '../../../shared/offline/verify-response';
import { DEFAULT_NONCE_TTL_SECONDS } from '../../../shared/nonce/allocator';
import { ownerActionCalls, ownerActionsBody, ownerCallBody, ownerCallsBody, ownerCallsMessage, ownerDigest, upgradeBody, upgradeMessage, withdrawBody, withdrawMessage, type OwnerEnvelope } from '../../../shared/protocol/owner-messages';
import { parallelNonce, sequentialNonce, type NonceChoice } from '../../../shared/protocol/nonce-choice';
import { fail, ok, type Failure, type Result } from '../../../shared/result';
import type { Journal, JournalNonce } from '../journal/journal';
import type { AssetInfo, MarketsIndex } from '../market-data/markets-index';
import type { Lease } from '../nonces/nonce-manager';
import type { AccountRecord, OwnerRecord } from '../storage/preferences';
import { CUSTODY_CODES } from './codes';
import type { CustodyKeys, CustodyRuntime } from './custody-runtime';
import { carry, readDocumentText, type CarriedDocument } from './documents';
import { checkOwnerLaneFree, OWNER_NONCE_LANE, OwnerNonceLane } from './owner-lane';
import { leaseOutcomeOf, OwnerSubmitter, type OwnerBody, type OwnerSent } from './owner-submitter';
import type { PendingRecord, PendingStore } from './pending-store';
import { pendingView } from './request-views';
import { checkOnAccount, checkWithdrawBudget, checkWithdrawFields, type WithdrawFields } from './withdraw-rules';
import type { ApproveWithdraw } from './withdraw-approval';
import { buildOwnerMethod, OWNER_METHOD_CODES, ownerMethodCalls, type MethodFacts, type OwnerMethodCall } from './owner-methods';
import { confirmationDigest, type ConfirmationContext, type ConfirmationRequest } from '../confirm/trusted-confirmer';
import { trusted } from '../confirm/trusted-text';
import type { OwnerCallBodies } from './owner-submitter';

export const WITHDRAW_ENDPOINT = 'POST /v1/accounts/withdraw';
export const SESSION_ENDPOINT = 'PUT /v1/session';

export type NonceMode = 'sequential' | 'parallel';

export interface WithdrawInput extends WithdrawFields {
  readonly nonce?: NonceMode | undefined;
}

/** A hot owner's withdrawal: who asked (for the dialog's window) and the code the trader typed (browser host). */
export interface HotWithdrawInput extends WithdrawInput {
  readonly windowId: string;
  readonly confirmationCode?: string | undefined;
}

export type PrepareInput =
  | (WithdrawInput & { readonly kind: 'withdraw'; readonly lifetimeHours?: number | undefined })
  | { readonly kind: 'session'; readonly marketIds: readonly string[]; readonly hours: number; readonly lifetimeHours?: number | undefined }
  | {
      readonly kind: 'owner-call';
      /** A method of main's table (owner-methods.ts) and its parameters as text, parsed by the table. */
      readonly method: string;
      readonly parameters: Readonly<Record<string, string>>;
      readonly nonce?: NonceMode | undefined;
      readonly lifetimeHours?: number | undefined;
    };

export interface OwnerMethodInput {
  readonly method: string;
  readonly parameters: Readonly<Record<string, string>>;
  readonly windowId: string;
  readonly confirmationCode: string | undefined;
}

export interface OwnerRequestsDeps {
  readonly clock: Clock;
  readonly random: RandomBytes;
  readonly journal: Journal;
  readonly pending: PendingStore;
  readonly runtime: () => CustodyRuntime | null;
  readonly keys: () => CustodyKeys | null;
  /** Why there is no key store, for the message. */
  readonly keychainReason: () => string;
  readonly publish: (view: OwnerRequestsView) => void;
  readonly notice: (level: 'info' | 'warning' | 'error', text: string) => void;
  readonly log: (line: string) => void;
  readonly newId: () => string;
  /** The allow-list and the trusted confirmation (withdraw-approval.ts): nothing is signed without both. */
  readonly approveWithdraw: ApproveWithdraw;
  /** The trusted confirmation of an owner method (owner-methods.ts); without it none is signed. */
  readonly confirm?: (request: ConfirmationRequest, context: ConfirmationContext) => Promise<Result<void>>;
  readonly wait?: (ms: number) => Promise<void>;
  /** How long a lost answer is looked up before "may still land" (owner-submitter.ts). */
  readonly reconcileWaitMs?: number;
}

interface Active {
  readonly rt: CustodyRuntime;
  readonly owner: OwnerRecord & { readonly address: B256 };
  readonly record: AccountRecord;
  readonly tradeAccountId: B256;
}

const HOUR = 3_600n;

/** The owner endpoints this service sends (withdraw, session, and the owner methods'). */
const OWNER_ENDPOINTS = new Set([WITHDRAW_ENDPOINT, SESSION_ENDPOINT, 'POST /v1/accounts/upgrade', 'POST /v1/accounts/call', 'POST /v1/accounts/calls', 'POST /v1/accounts/actions']);

function isMine(endpoint: string): boolean {
  return OWNER_ENDPOINTS.has(endpoint);
}

function withdrawActions(fields: WithdrawFields): unknown[] {
  return [{ Withdraw: { to: identityToJson(fields.to), asset_id: fields.assetId, amount: fields.amount.toString() } }];
}

function sessionActions(request: OfflineSessionRequest): unknown[] {
  const session = request.session;
  return [{ SetSession: { session_id: { Address: session.session_address }, expiry: session.expiry.toString(), contract_ids: [...session.contract_ids] } }];
}

function ownerCallActions(request: OfflineOwnerCallRequest): unknown[] {
  return [{ method: request.owner_call.method, parameters: Object.fromEntries(request.owner_call.parameters.map((parameter) => [parameter.name, parameter.value])) }];
}

function requestActions(request: OfflineRequest): unknown[] {
  if (request.kind === 'withdraw') return withdrawActions({ assetId: request.withdraw.asset_id, amount: request.withdraw.amount, to: request.withdraw.to });
  if (request.kind === 'owner-call') return ownerCallActions(request);
  return sessionActions(request);
}

function journalNonceOfRequest(request: OfflineRequest): Exclude<JournalNonce, { mode: 'none' }> {
  const nonce = request.nonce;
  return nonce.kind === 'sequential' ? { mode: 'sequential', value: nonce.value } : { mode: 'parallel', lane: nonce.lane, value: nonce.value };
}

function journalNonceOf(choice: NonceChoice): Exclude<JournalNonce, { mode: 'none' }> {
  return choice.kind === 'sequential' ? { mode: 'sequential', value: choice.value } : { mode: 'parallel', lane: OWNER_NONCE_LANE, value: choice.value };
}

export class OwnerRequests {
  private readonly carried = new Map<string, CarriedDocument>();
  private readonly lastResults = new Map<string, OwnerSubmissionView>();
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: OwnerRequestsDeps) {}

  private nowSeconds(): bigint {
    return BigInt(Math.floor(this.deps.clock.now() / 1000));
  }

  private wait(ms: number): Promise<void> {
    return this.deps.wait ? this.deps.wait(ms) : new Promise((resolve) => this.deps.clock.setTimeout(() => resolve(), ms));
  }

  /** Owner requests change one at a time: two at once could take the same pending slot or nonce. */
  private serial<T>(work: () => Promise<Result<T>>): Promise<Result<T>> {
    const run = this.tail.then(work);
    this.tail = run.catch(() => undefined);
    return run;
  }

  // ---- context ---------------------------------------------------------------------------

  private active(): Result<Active> {
    const rt = this.deps.runtime();
    if (!rt) return fail('NOT_CONNECTED', 'The network is not connected yet');
    const owner = rt.activeOwner();
    if (!owner) return fail('NO_OWNER', 'Create, import or register an owner first (onboarding)');
    const record = rt.accountRecord();
    if (!record) return fail('NO_TRADE_ACCOUNT', 'Create the trading account first (onboarding)');
    return ok({ rt, owner: owner as Active['owner'], record, tradeAccountId: record.tradeAccountId as B256 });
  }

  private keys(): Result<CustodyKeys> {
    const keys = this.deps.keys();
    return keys ? ok(keys) : fail('KEYCHAIN_UNAVAILABLE', this.deps.keychainReason());
  }

  private submitter(active: Active): Result<OwnerSubmitter> {
    const nonces = active.rt.nonces();
    if (!nonces) return fail('NO_TRADE_ACCOUNT', 'The trading account is not ready yet');
    return ok(
      new OwnerSubmitter({
        port: active.rt,
        journal: this.deps.journal,
        newId: this.deps.newId,
        wasConsumed: (nonce) => nonces.wasConsumed(nonce),
        wait: (ms) => this.wait(ms),
        nowSeconds: () => this.nowSeconds(),
        ...(this.deps.reconcileWaitMs !== undefined ? { reconcileWaitMs: this.deps.reconcileWaitMs } : {}),
        log: this.deps.log,
      }),
    );
  }

  private lane(active: Active): OwnerNonceLane {
    return new OwnerNonceLane(
      {
        window: (lane) => active.rt.window(active.tradeAccountId, lane),
        loadCursor: (lane) => active.rt.loadLaneCursor(lane),
        saveCursor: (lane, next) => active.rt.saveLaneCursor(lane, next),
      },
      () => this.nowSeconds(),
    );
  }

  private async market(active: Active): Promise<Result<MarketsIndex>> {
    const markets = await active.rt.markets();
    return markets.ok ? markets : fail('NOT_CONNECTED', `The markets of ${active.rt.network.name} could not be loaded: ${markets.message}`);
  }

  private methodFacts(active: Active, markets: MarketsIndex): MethodFacts {
    return {
      tradeAccountId: active.tradeAccountId,
      market: (marketId) => markets.market(marketId),
      marketName: (market) => `${market.base.symbol}/${market.quote.symbol}`,
    };
  }

  private resultKey(networkId: string, owner: string): string {
    return `${networkId}\u0000${owner}`;
  }

  // ---- views -------------------------------------------------------------------------------

  private async carriedOf(request: OfflineRequest): Promise<Result<CarriedDocument>> {
    const cached = this.carried.get(request.request_id);
    if (cached) return ok(cached);
    const made = await carry({ kind: 'request', request });
    if (!made.ok) return made;
    // A handful at most (one per kind and owner): forget the oldest beyond that.
    if (this.carried.size >= 16) this.carried.delete(this.carried.keys().next().value!);
    this.carried.set(request.request_id, made.value);
    return made;
  }

  private async viewOf(record: PendingRecord): Promise<Result<OwnerRequestView>> {
    const carried = await this.carriedOf(record.request);
    return carried.ok ? ok(pendingView(record, this.nowSeconds(), carried.value)) : carried;
  }

  async view(): Promise<OwnerRequestsView> {
    const rt = this.deps.runtime();
    const owner = rt?.activeOwner() ?? null;
    if (!rt || !owner) return { networkId: rt?.network.id ?? null, owner: null, custody: null, pending: [], lastResult: null };
    const pending: OwnerRequestView[] = [];
    for (const record of this.deps.pending.list(rt.network.id, owner.address)) {
      const view = await this.viewOf(record);
      if (view.ok) pending.push(view.value);
      else this.deps.log(`custody: request ${record.request.request_id} cannot be shown: ${view.message}`);
    }
    pending.sort((left, right) => left.kind.localeCompare(right.kind));
    return { networkId: rt.network.id, owner: owner.address, custody: owner.custody, pending, lastResult: this.lastResults.get(this.resultKey(rt.network.id, owner.address)) ?? null };
  }

  /** The view, after a quick look at requests whose answer was lost (did they land since?). */
  async requests(): Promise<Result<OwnerRequestsView>> {
    return this.serial(async () => {
      const active = this.active();
      if (active.ok) {
        this.recoverInterrupted(active.value);
        await this.recheckUnknown(active.value);
      }
      return ok(await this.view());
    });
  }

  private async publish(): Promise<void> {
    this.deps.publish(await this.view());
  }

  private remember(active: Active, result: OwnerSubmissionView): void {
    this.lastResults.set(this.resultKey(active.rt.network.id, active.owner.address), result);
  }

  // ---- reconciliation -----------------------------------------------------------------------

  /**
   * Before anything new is signed for this account: settle every journal entry left without an
   * outcome (a crash, a lost answer). Ours by their nonce; order requests by the trading submitter.
   */
  private async reconcileFirst(active: Active, submitter: OwnerSubmitter): Promise<Result<void>> {
    const open = () => this.deps.journal.unresolved().filter((record) => record.signed.networkId === active.rt.network.id && record.signed.account === active.tradeAccountId);
    for (const record of open().filter((candidate) => isMine(candidate.signed.endpoint))) {
      const nonce = record.signed.nonce;
      if (nonce.mode === 'none') continue;
      const verdict = await submitter.lookUp(nonce);
      if (!verdict.ok) continue;
      const pending = this.deps.pending.list(active.rt.network.id, active.owner.address).find((candidate) => candidate.journalId === record.signed.id) ?? null;
      if (verdict.value === 'landed') {
        this.deps.journal.appendReconciled({ id: record.signed.id, status: 'landed', detail: 'The request landed (its nonce is consumed; checked before the next owner request)' });
        if (pending) await this.finishLanded(active, pending, record.signed.id, null);
        else this.deps.notice('info', `${record.signed.description}: it landed (checked with the exchange after its answer was lost)`);
      } else {
        const detail =
          verdict.value === 'not-landed'
            ? 'The request did not land (its nonce was not consumed); it was not resent'
            : 'Its nonce is not consumed yet and it may still land; it was not resent';
        this.deps.journal.appendReconciled({ id: record.signed.id, status: 'not-landed', detail });
        if (pending) this.deps.pending.update(pending.networkId, pending.owner, pending.kind, { state: verdict.value === 'pending' ? 'outcome-unknown' : 'awaiting-signature', detail });
      }
    }
    if (open().some((record) => !isMine(record.signed.endpoint))) await active.rt.reconcileOrders();
    if (open().length > 0) {
      return fail(CUSTODY_CODES.RECONCILING, 'An earlier request of this account is still being checked with the exchange; nothing new is signed until its outcome is known');
    }
    return ok(undefined);
  }

  /** Pending requests sent earlier whose answer was lost: did they land since? One look, no waiting. */
  private async recheckUnknown(active: Active): Promise<void> {
    const nonces = active.rt.nonces();
    if (!nonces) return;
    for (const record of this.deps.pending.list(active.rt.network.id, active.owner.address)) {
      if (record.state !== 'outcome-unknown' || record.journalId === null) continue;
      const answer = await nonces.wasConsumed(journalNonceOfRequest(record.request));
      if (!answer.ok || (answer.value !== 'landed' && answer.value !== 'final-unknown')) continue;
      this.deps.journal.appendReconciled({ id: record.journalId, status: 'landed', detail: 'The request landed after its answer was lost (its nonce is now consumed)' });
      await this.finishLanded(active, record, record.journalId, null);
    }
  }

  // ---- a hot owner's withdrawal ---------------------------------------------------------------

  withdraw(input: HotWithdrawInput): Promise<Result<OwnerSubmissionView>> {
    return this.serial(() => this.withdrawNow(input));
  }

  private async withdrawNow(input: HotWithdrawInput): Promise<Result<OwnerSubmissionView>> {
    const active = this.active();
    if (!active.ok) return active;
    const { rt, owner, tradeAccountId } = active.value;
    if (owner.custody !== 'keychain') {
      return fail(
        CUSTODY_CODES.WRONG_CUSTODY,
        `owner ${owner.address} is watch-only: its key is on the offline signer, so the terminal cannot sign. Prepare the withdrawal request (prepareOwnerRequest), sign it offline and import the signature.`,
      );
    }
    const keys = this.keys();
    if (!keys.ok) return keys;
    const checked = await this.checkWithdraw(active.value, input, true);
    if (!checked.ok) return checked;
    const asset = checked.value;
    const chain = await this.market(active.value);
    if (!chain.ok) return chain;
    // The destination is on the allow-list and past its delay, and the trader confirmed this exact
    // withdrawal outside the page; only then is a nonce taken and anything signed.
    const approved = await this.deps.approveWithdraw({
      networkId: rt.network.id,
      networkName: rt.network.name,
      chainId: chain.value.chainId,
      owner: owner.address,
      tradeAccountId,
      to: input.to,
      amount: input.amount,
      asset,
      nonceMode: input.nonce ?? 'parallel',
      windowId: input.windowId,
      confirmationCode: input.confirmationCode,
    });
    if (!approved.ok) return approved;
    const submitter = this.submitter(active.value);
    if (!submitter.ok) return submitter;
    const settled = await this.reconcileFirst(active.value, submitter.value);
    if (!settled.ok) return settled;
    const markets = await this.market(active.value);
    if (!markets.ok) return markets;

    const mode = input.nonce ?? 'parallel';
    let lease: Lease | null = null;
    let nonce: NonceChoice;
    if (mode === 'parallel') {
      const free = checkOwnerLaneFree(rt.orderLanes());
      if (!free.ok) return free;
      const issued = await this.lane(active.value).issue(DEFAULT_NONCE_TTL_SECONDS);
      if (!issued.ok) return issued;
      nonce = parallelNonce(issued.value.packed);
    } else {
      const nonces = rt.nonces();
      if (!nonces) return fail('NO_TRADE_ACCOUNT', 'The trading account is not ready yet');
      const acquired = await nonces.acquireSequential();
      if (!acquired.ok) return acquired;
      lease = acquired.value;
      nonce = lease.nonce;
    }
    const envelope = { nonce, chain_id: markets.value.chainId };
    const args = { to: input.to, amount: input.amount, asset_id: input.assetId };
    const signature = await keys.value.signAsOwner(owner.address, ownerDigest(withdrawMessage(envelope, args), owner.style));
    if (!signature.ok) {
      lease?.settle({ kind: 'refused' });
      return signature;
    }
    const description = describeWithdraw(tradeAccountId, { to: input.to, amount: input.amount, asset_id: input.assetId, asset_symbol: asset.symbol, asset_decimals: asset.decimals });
    const sent = await submitter.value.send({
      networkId: rt.network.id,
      owner: owner.address,
      tradeAccountId,
      body: { kind: 'withdraw', body: withdrawBody(tradeAccountId, envelope, args, signature.value) },
      nonce: journalNonceOf(nonce),
      description,
      actions: withdrawActions(input),
    });
    lease?.settle(sent.ok ? sent.value.outcome : leaseOutcomeOf(sent));
    rt.refreshAccount();
    if (!sent.ok) return fail(sent.code, `The withdrawal was not made: ${sent.message}`, sent.details);
    const result: OwnerSubmissionView = {
      kind: 'withdraw',
      journalId: sent.value.journalId,
      requestId: null,
      status: sent.value.status,
      txId: sent.value.txId,
      description,
      detail: sent.value.detail,
      session: null,
      at: this.deps.clock.now(),
    };
    this.remember(active.value, result);
    await this.publish();
    return ok(result);
  }

  // ---- an owner method (upgrade, call(s), actions) signed with a hot owner key -----------------

  callOwnerMethod(input: OwnerMethodInput): Promise<Result<OwnerMethodResultView>> {
    return this.serial(() => this.callOwnerMethodNow(input));
  }

  private async callOwnerMethodNow(input: OwnerMethodInput): Promise<Result<OwnerMethodResultView>> {
    const active = this.active();
    if (!active.ok) return active;
    const { rt, owner, tradeAccountId } = active.value;
    const markets = await this.market(active.value);
    if (!markets.ok) return markets;
    // Built from main's table before anything is asked: a method it does not list, or a parameter
    // its schema refuses, never reaches the confirmation.
    const built = buildOwnerMethod(input.method, input.parameters, this.methodFacts(active.value, markets.value));
    if (!built.ok) return built;
    if (owner.custody !== 'keychain') {
      return fail(
        CUSTODY_CODES.WRONG_CUSTODY,
        `owner ${owner.address} is watch-only: its key is on the offline signer, so the terminal cannot sign. Prepare the request for the offline signer (prepareOwnerRequest, kind owner-call), sign it offline and import the signature. Nothing was signed.`,
      );
    }
    const keys = this.keys();
    if (!keys.ok) return keys;
    if (this.deps.confirm === undefined) return fail('CONFIRMATION_UNAVAILABLE', 'No trusted confirmation is available here, so no owner method is signed');
    const { view } = built.value;
    const confirmed = await this.deps.confirm(
      {
        action: 'ownerMethod',
        title: trusted`Sign with the owner key: ${view.title}`,
        lines: [
          trusted`Endpoint: ${view.endpoint}`,
          trusted`Method: ${view.method}`,
          ...built.value.lines,
          trusted`Trading account: ${tradeAccountId} of owner ${owner.address}`,
          trusted`Network: ${rt.network.name} (chain id ${markets.value.chainId})`,
        ],
        digest: confirmationDigest('ownerMethod', { network: rt.network.id, owner: owner.address, tradeAccountId, method: view.method, parameters: { ...built.value.parameters } }),
      },
      { windowId: input.windowId, code: input.confirmationCode },
    );
    if (!confirmed.ok) return confirmed;
    const submitter = this.submitter(active.value);
    if (!submitter.ok) return submitter;
    const settled = await this.reconcileFirst(active.value, submitter.value);
    if (!settled.ok) return settled;
    const nonces = rt.nonces();
    if (!nonces) return fail('NO_TRADE_ACCOUNT', 'The trading account is not ready yet');
    // The sequential nonce: owner methods are rare, and one in turn with the orders' nonce keeps
    // the lost-answer rule simple (consumed is landed).
    const lease = await nonces.acquireSequential();
    if (!lease.ok) return lease;
    const envelope = { nonce: lease.value.nonce, chain_id: markets.value.chainId };
    const call = built.value.call;
    const message = ownerMethodMessage(envelope, call);
    const signature = await keys.value.signAsOwner(owner.address, ownerDigest(message, owner.style));
    if (!signature.ok) {
      lease.value.settle({ kind: 'refused' });
      return signature;
    }
    const sent = await submitter.value.send({
      networkId: rt.network.id,
      owner: owner.address,
      tradeAccountId,
      body: { kind: 'owner-call', call: ownerMethodBody(tradeAccountId, envelope, call, signature.value) },
      nonce: journalNonceOf(lease.value.nonce),
      description: built.value.description,
      actions: [{ method: view.method, parameters: { ...built.value.parameters } }],
    });
    lease.value.settle(sent.ok ? sent.value.outcome : leaseOutcomeOf(sent));
    rt.refreshAccount();
    if (!sent.ok) return fail(sent.code, `${built.value.description}: ${sent.message}`, sent.details);
    return ok({
      method: view.method,
      endpoint: view.endpoint,
      journalId: sent.value.journalId,
      status: sent.value.status,
      txId: sent.value.txId,
      description: built.value.description,
      detail: sent.value.detail,
    });
  }

  /** `sending`: the request leaves now, so the client's rate budget applies (not when merely preparing one). */
  private async checkWithdraw(active: Active, input: WithdrawFields, sending: boolean): Promise<Result<AssetInfo>> {
    const markets = await this.market(active);
    if (!markets.ok) return markets;
    const asset = checkWithdrawFields(input, markets.value, active.tradeAccountId, active.rt.network.name);
    if (!asset.ok) return asset;
    if (sending) {
      const budget = checkWithdrawBudget(active.rt.withdrawBudget(active.owner.address), this.deps.clock.now());
      if (!budget.ok) return budget;
    }
    const balance = await active.rt.onAccountBalance(active.tradeAccountId, input.assetId);
    if (!balance.ok) return fail(balance.code, `The balance on the trading account could not be read, so nothing was signed: ${balance.message}`);
    const enough = checkOnAccount(input.amount, balance.value, asset.value);
    return enough.ok ? asset : enough;
  }

  // ---- a watch-only owner's requests -------------------------------------------------------------

  prepare(input: PrepareInput): Promise<Result<OwnerRequestView>> {
    return this.serial(() => this.prepareNow(input));
  }

  private async prepareNow(input: PrepareInput): Promise<Result<OwnerRequestView>> {
    const active = this.active();
    if (!active.ok) return active;
    const { rt, owner, tradeAccountId } = active.value;
    this.recoverInterrupted(active.value);
    if (owner.custody !== 'watch-only') {
      return fail(
        CUSTODY_CODES.WRONG_CUSTODY,
        `owner ${owner.address} is held in the keychain: the terminal signs for it directly (${{ withdraw: 'withdraw', session: 'createSession', 'owner-call': 'callOwnerMethod' }[input.kind]}); offline requests are for watch-only owners.`,
      );
    }
    const existing = this.deps.pending.get(rt.network.id, owner.address, input.kind);
    if (existing) {
      if (existing.state !== 'awaiting-signature' || existing.request.expires_at > this.nowSeconds()) {
        return fail(
          CUSTODY_CODES.REQUEST_PENDING,
          `kind: a ${input.kind} request (${existing.request.request_id}) is already ${existing.state === 'awaiting-signature' ? 'waiting for its signature' : 'in progress'}; import its signature or cancel it first`,
          { field: 'kind' },
        );
      }
      await this.drop(existing);
    }
    const markets = await this.market(active.value);
    if (!markets.ok) return markets;
    const now = this.nowSeconds();
    const lifetime = BigInt(input.lifetimeHours ?? Number(DEFAULT_REQUEST_LIFETIME_SECONDS / HOUR)) * HOUR;
    const common = {
      network: rt.network.id,
      chain_id: markets.value.chainId,
      owner: { address: owner.address, style: owner.style },
      trade_account_id: tradeAccountId,
      nowSeconds: now,
      lifetimeSeconds: lifetime,
      random: this.deps.random,
    };

    let built: Result<{ request: OfflineRequest }>;
    let sessionMarkets: readonly string[] = [];
    let sessionKey: B256 | null = null;
    if (input.kind === 'withdraw') {
      const checked = await this.checkWithdraw(active.value, input, false);
      if (!checked.ok) return checked;
      const nonce = await this.offlineNonce(active.value, input.nonce ?? 'parallel', lifetime);
      if (!nonce.ok) return nonce;
      built = buildWithdrawRequest({ ...common, nonce: nonce.value, to: input.to, amount: input.amount, asset: { id: input.assetId, symbol: checked.value.symbol, decimals: checked.value.decimals } });
    } else if (input.kind === 'owner-call') {
      // Built from main's table, as for a hot owner: only a method it lists, each parameter parsed.
      const method = buildOwnerMethod(input.method, input.parameters, this.methodFacts(active.value, markets.value));
      if (!method.ok) return method;
      const nonce = await this.offlineNonce(active.value, input.nonce ?? 'parallel', lifetime);
      if (!nonce.ok) return nonce;
      const call = method.value.call;
      built = buildOwnerCallRequest({
        ...common,
        nonce: nonce.value,
        method: method.value.view.method,
        parameters: Object.entries(method.value.parameters).map(([name, value]) => ({ name, value })),
        endpoint: call.endpoint,
        implementation: call.endpoint === 'upgrade' ? call.implementation : null,
        calls: ownerMethodCalls(call),
      });
    } else {
      const keys = this.keys();
      if (!keys.ok) return keys;
      const contracts = markets.value.contractIdsFor(input.marketIds);
      if (!contracts.ok) return contracts;
      // The accounts registry too, so the session can register a referral (RegisterReferer calls it).
      const contractIds = [...new Set([...contracts.value, markets.value.response.accounts_registry_id as B256])];
      const nonce = await rt.accountNonce(tradeAccountId);
      if (!nonce.ok) return nonce;
      // Made and kept in main; only its address goes into the request.
      const created = await keys.value.createSessionKey();
      if (!created.ok) return created;
      sessionKey = created.value;
      sessionMarkets = [...new Set(input.marketIds)];
      built = buildSessionRequest({ ...common, nonce: nonce.value, session_address: created.value, expiry: now + BigInt(input.hours) * HOUR, contract_ids: contractIds });
    }
    const discardKey = async () => {
      if (sessionKey) await this.deps.keys()?.deleteSessionKey(sessionKey);
    };
    if (!built.ok) {
      await discardKey();
      return built;
    }
    const record: PendingRecord = {
      networkId: rt.network.id,
      owner: owner.address,
      kind: input.kind,
      request: built.value.request,
      state: 'awaiting-signature',
      journalId: null,
      response: null,
      detail: null,
      sessionMarkets,
    };
    const stored = this.deps.pending.put(record);
    if (!stored.ok) {
      await discardKey();
      return stored;
    }
    const view = await this.viewOf(record);
    await this.publish();
    return view;
  }

  private async offlineNonce(active: Active, mode: NonceMode, lifetime: bigint): Promise<Result<NonceChoice>> {
    if (mode === 'sequential') {
      const nonce = await active.rt.accountNonce(active.tradeAccountId);
      return nonce.ok ? ok(sequentialNonce(nonce.value)) : nonce;
    }
    const free = checkOwnerLaneFree(active.rt.orderLanes());
    if (!free.ok) return free;
    const issued = await this.lane(active).issue(offlineNonceTtlSeconds(lifetime));
    return issued.ok ? ok(parallelNonce(issued.value.packed)) : issued;
  }

  /** Forget a pending request; a session key that was never put in force is deleted with it. */
  private async drop(record: PendingRecord): Promise<void> {
    this.deps.pending.remove(record.networkId, record.owner, record.kind);
    this.carried.delete(record.request.request_id);
    // A request whose answer was lost may still land: its session key must stay usable then.
    if (record.kind === 'session' && record.request.kind === 'session' && record.state !== 'outcome-unknown') {
      await this.deps.keys()?.deleteSessionKey(record.request.session.session_address);
    }
  }

  cancel(kind: OwnerRequestKind): Promise<Result<OwnerRequestsView>> {
    return this.serial(async () => {
      const active = this.active();
      if (!active.ok) return active;
      this.recoverInterrupted(active.value);
      const record = this.deps.pending.get(active.value.rt.network.id, active.value.owner.address, kind);
      if (!record) return fail(CUSTODY_CODES.NO_PENDING_REQUEST, `kind: there is no pending ${kind} request to cancel`, { field: 'kind' });
      if (record.state === 'submitting') return fail(CUSTODY_CODES.REQUEST_PENDING, `kind: the ${kind} request is being submitted right now; wait for its result`, { field: 'kind' });
      if (record.state === 'outcome-unknown') {
        this.deps.notice('warning', `Cancelled the ${kind} request ${record.request.request_id} whose answer was lost: it may still land until its nonce expires or is used`);
      }
      await this.drop(record);
      const view = await this.view();
      this.deps.publish(view);
      return ok(view);
    });
  }

  // ---- the signature comes back --------------------------------------------------------------

  importSignature(text: string): Promise<Result<OwnerSubmissionView>> {
    return this.serial(() => this.importNow(text));
  }

  private async importNow(text: string): Promise<Result<OwnerSubmissionView>> {
    const active = this.active();
    if (!active.ok) return active;
    const { rt, owner, tradeAccountId } = active.value;
    this.recoverInterrupted(active.value);
    const document = readDocumentText(text, 'response');
    if (!document.ok) return document;
    const response = document.value.response;
    const pending = this.deps.pending.list(rt.network.id, owner.address);
    const record = pending.find((candidate) => candidate.request.request_id === response.request_id);
    if (!record) {
      if (pending.length === 0) return fail(CUSTODY_CODES.NO_PENDING_REQUEST, `text: this signature answers request ${response.request_id}, but owner ${owner.address} has no pending request on ${rt.network.name}`, { field: 'text' });
      return fail(
        OFFLINE_CODES.RESPONSE_MISMATCH,
        `response.request_id: this signature answers request ${response.request_id}, but the pending requests are ${pending.map((candidate) => `${candidate.kind} ${candidate.request.request_id}`).join(', ')}`,
        { field: 'response.request_id' },
      );
    }
    if (record.state === 'submitting') return fail(CUSTODY_CODES.REQUEST_PENDING, 'text: this request is being submitted right now; wait for its result', { field: 'text' });
    const submitter = this.submitter(active.value);
    if (!submitter.ok) return submitter;
    if (record.state === 'outcome-unknown' && record.journalId !== null) {
      // Sent before and its answer lost: look first. Only an unused nonce lets the same signed request go again.
      const verdict = await submitter.value.lookUp(journalNonceOfRequest(record.request));
      if (verdict.ok && verdict.value === 'landed') {
        submitter.value.recordLanded(record.journalId, 'The request landed after its answer was lost (checked before sending it again; it was not sent again)');
        return this.finishLanded(active.value, record, record.journalId, null);
      }
    }
    // Checked here, against the request this terminal made: id, hash, unexpired, the owner's signature.
    const accepted = verifyOfflineResponse(record.request, responseToJson(response), { nowSeconds: this.nowSeconds() });
    if (!accepted.ok) return accepted;
    const settled = await this.reconcileFirst(active.value, submitter.value);
    if (!settled.ok) return settled;
    let body = accepted.value.body as OwnerBody;
    if (record.request.kind === 'owner-call') {
      const rebuilt = await this.rebuildOwnerCall(active.value, record.request, accepted.value.verified.message, accepted.value.signature);
      if (!rebuilt.ok) return rebuilt;
      body = rebuilt.value;
    }
    if (record.kind === 'withdraw' && record.request.kind === 'withdraw') {
      // A refusal on chain consumes the nonce and the signature with it: check what can be checked first.
      const withdraw = record.request.withdraw;
      const checked = await this.checkWithdraw(active.value, { assetId: withdraw.asset_id, amount: withdraw.amount, to: withdraw.to }, true);
      if (!checked.ok) return fail(checked.code, `${checked.message}. The signature was verified and is kept: import it again once this is resolved.`, checked.details);
    }

    let lease: Lease | null = null;
    const requestNonce = record.request.nonce;
    if (requestNonce.kind === 'sequential') {
      const nonces = rt.nonces();
      if (!nonces) return fail('NO_TRADE_ACCOUNT', 'The trading account is not ready yet');
      // Held while the request is out, so no sequential order takes the same nonce meanwhile.
      const acquired = await nonces.acquireSequential();
      if (!acquired.ok) return acquired;
      if (acquired.value.nonce.value !== requestNonce.value) {
        acquired.value.settle({ kind: 'refused' });
        const moved = acquired.value.nonce.value > requestNonce.value;
        if (moved && record.state !== 'outcome-unknown') await this.drop(record);
        await this.publish();
        return fail(
          CUSTODY_CODES.NONCE_STALE,
          moved
            ? `request.nonce: it was signed for account nonce ${requestNonce.value}, but the account's nonce is now ${acquired.value.nonce.value}: another owner action or order came first, so the exchange would refuse it. The request was dropped; prepare a new one.`
            : `request.nonce: it was signed for account nonce ${requestNonce.value}, but the account's nonce is ${acquired.value.nonce.value}; it cannot be submitted before that`,
          { field: 'request.nonce' },
        );
      }
      lease = acquired.value;
    }

    // The journal id is stored with the request before it leaves: after a crash mid-way, the
    // request is found in `submitting` with the entry to settle (recoverInterrupted).
    const journalId = this.deps.newId();
    this.deps.pending.update(record.networkId, record.owner, record.kind, { state: 'submitting', journalId, response: canonicalJson(responseToJson(response)), detail: null });
    await this.publish();
    const description = record.request.description;
    const nonce = journalNonceOfRequest(record.request);
    const sent = await submitter.value.send({
      networkId: rt.network.id,
      owner: owner.address,
      tradeAccountId,
      body,
      nonce,
      description: record.state === 'outcome-unknown' ? `${description} (the same signed request again, after a lost answer)` : description,
      actions: requestActions(record.request),
      journalId,
    });
    lease?.settle(sent.ok ? sent.value.outcome : leaseOutcomeOf(sent));
    if (sent.ok) return this.finishSent(active.value, record, sent.value);
    if (record.state === 'outcome-unknown' && sent.details?.outcome === 'stale') {
      // Sent again after a lost answer and refused for its nonce: the first attempt may have taken it.
      const verdict = await submitter.value.lookUp(nonce);
      if (verdict.ok && verdict.value === 'landed') return this.finishLanded(active.value, record, record.journalId ?? journalId, null);
    }
    return this.failSent(record, sent);
  }

  /**
   * The endpoint's body of a signed owner-call request, rebuilt from main's own table with the
   * method and parameters the request states; refused unless the rebuilt message is the one that
   * was signed (and, for an upgrade, the implementation is the one the request named).
   */
  private async rebuildOwnerCall(active: Active, request: OfflineOwnerCallRequest, signed: Uint8Array, signature: Uint8Array): Promise<Result<OwnerBody>> {
    const markets = await this.market(active);
    if (!markets.ok) return markets;
    const stated = request.owner_call;
    const parameters = Object.fromEntries(stated.parameters.map((parameter) => [parameter.name, parameter.value]));
    const built = buildOwnerMethod(stated.method, parameters, this.methodFacts(active, markets.value));
    if (!built.ok) return fail(built.code, `request.owner_call: the method cannot be rebuilt from this terminal's table: ${built.message}. Nothing was sent.`, built.details);
    const envelope = { nonce: nonceChoiceOf(request.nonce), chain_id: request.chain_id };
    const call = built.value.call;
    const sameImplementation = call.endpoint !== 'upgrade' || call.implementation === stated.implementation;
    if (call.endpoint !== stated.endpoint || !sameImplementation || !bytesEqual(ownerMethodMessage(envelope, call), signed)) {
      return fail(
        OWNER_METHOD_CODES.REBUILT_MISMATCH,
        `request.owner_call: ${stated.method} rebuilt from this terminal's table does not sign the same message as the request (the markets changed since it was prepared?). Nothing was sent; cancel it and prepare a new one.`,
        { field: 'request.owner_call' },
      );
    }
    return ok({ kind: 'owner-call', call: ownerMethodBody(active.tradeAccountId, envelope, call, signature) });
  }

  /** A request left `submitting` by a crash (nothing is submitting between serial operations). */
  private recoverInterrupted(active: Active): void {
    for (const record of this.deps.pending.list(active.rt.network.id, active.owner.address)) {
      if (record.state !== 'submitting') continue;
      this.deps.pending.update(record.networkId, record.owner, record.kind, {
        state: 'outcome-unknown',
        detail: 'The terminal stopped while this request was being submitted; its nonce is checked before anything else, and it is never sent twice',
      });
    }
  }

  private async failSent(record: PendingRecord, sent: Failure): Promise<Result<OwnerSubmissionView>> {
    const outcome = sent.details?.outcome;
    const journalId = typeof sent.details?.journalId === 'string' ? sent.details.journalId : record.journalId;
    if (outcome === 'reverted' || outcome === 'stale') {
      // The signature is spent (a revert consumed the nonce) or can never be accepted (stale nonce).
      await this.drop(record);
      await this.publish();
      return fail(sent.code, `${sent.message}. This signed request cannot be used again; prepare a new one.`, sent.details);
    }
    const state = outcome === 'unknown' ? 'outcome-unknown' : 'awaiting-signature';
    this.deps.pending.update(record.networkId, record.owner, record.kind, { state, journalId, detail: sent.message });
    await this.publish();
    return sent;
  }

  private async finishSent(active: Active, record: PendingRecord, sent: OwnerSent): Promise<Result<OwnerSubmissionView>> {
    return this.finishLanded(active, record, sent.journalId, sent.txId, sent.status, sent.detail);
  }

  /** The request is in: put a session in force, forget the pending request, report. */
  private async finishLanded(
    active: Active,
    record: PendingRecord,
    journalId: string,
    txId: string | null,
    status: OwnerSubmissionView['status'] = 'landed',
    detail = 'It landed (checked with the exchange after its answer was lost)',
  ): Promise<Result<OwnerSubmissionView>> {
    let session: SessionView | null = null;
    if (record.request.kind === 'session') {
      const applied = await this.applySession(active, record, record.request, txId);
      if (!applied.ok) {
        this.deps.pending.update(record.networkId, record.owner, record.kind, { state: 'awaiting-signature', detail: applied.message });
        await this.publish();
        return applied;
      }
      session = applied.value;
    }
    this.deps.pending.remove(record.networkId, record.owner, record.kind);
    this.carried.delete(record.request.request_id);
    const result: OwnerSubmissionView = {
      kind: record.kind,
      journalId,
      requestId: record.request.request_id,
      status,
      txId,
      description: record.request.description,
      detail,
      session,
      at: this.deps.clock.now(),
    };
    this.remember(active, result);
    active.rt.refreshAccount();
    await this.publish();
    return ok(result);
  }

  private async applySession(active: Active, record: PendingRecord, request: OfflineSessionRequest, txId: string | null): Promise<Result<SessionView>> {
    const address = request.session.session_address;
    if (txId === null) {
      // Landed by its nonce: make sure the nonce carried our session, where the exchange says.
      const current = await active.rt.exchangeSession(active.tradeAccountId);
      if (current.ok && current.value.kind === 'known' && current.value.sessionAddress !== address) {
        return fail(
          CUSTODY_CODES.NONCE_STALE,
          `The nonce of the session request was used, but the exchange's session is ${current.value.sessionAddress ?? 'none'}, not ${address}: another request came first. Prepare a new session request.`,
        );
      }
    }
    const previous = active.record.session?.sessionAddress ?? null;
    const stored = active.rt.storeSession({ sessionAddress: address, expiry: request.session.expiry, contractIds: [...request.session.contract_ids], txId }, record.sessionMarkets);
    if (!stored.ok) return stored;
    const keys = this.deps.keys();
    if (keys) {
      // Into memory for the order path; the exchange replaced the old session, whose key is now useless.
      const loaded = await keys.loadSessionKey(address);
      if (!loaded.ok) this.deps.log(`custody: the new session key ${address} could not be loaded: ${loaded.message}`);
      if (previous !== null && previous !== address) void keys.deleteSessionKey(previous as B256);
    }
    this.deps.log(`custody: session ${address} in force until ${formatUnixSeconds(request.session.expiry)}`);
    return ok({ sessionAddress: address, expiry: request.session.expiry, contractIds: [...request.session.contract_ids], state: 'active', renewsAt: null });
  }
}

/** The owner message an owner method signs (protocol.md, "Owner messages"). */
function ownerMethodMessage(envelope: OwnerEnvelope, call: OwnerMethodCall): Uint8Array {
  if (call.endpoint === 'upgrade') return upgradeMessage(envelope);
  if (call.endpoint === 'call') return ownerCallsMessage(envelope, [call.call]);
  if (call.endpoint === 'calls') return ownerCallsMessage(envelope, call.calls);
  return ownerCallsMessage(envelope, ownerActionCalls(call.groups));
}

function ownerMethodBody(tradeAccountId: B256, envelope: OwnerEnvelope, call: OwnerMethodCall, signature: Uint8Array): OwnerCallBodies {
  if (call.endpoint === 'upgrade') return { endpoint: 'upgrade', body: upgradeBody(tradeAccountId, envelope, call.implementation, signature) };
  if (call.endpoint === 'call') return { endpoint: 'call', body: ownerCallBody(tradeAccountId, envelope, call.call, signature) };
  if (call.endpoint === 'calls') return { endpoint: 'calls', body: ownerCallsBody(tradeAccountId, envelope, call.calls, signature) };
  return { endpoint: 'actions', body: ownerActionsBody(tradeAccountId, envelope, call.groups, signature) };
}
