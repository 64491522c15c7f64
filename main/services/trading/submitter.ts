// The order path after validation: nonce → build → journal entry written → sign (while the entry
// is flushed to the device) → once it is on the device, POST → fold the outcome. A request whose
// answer is lost is never resent: it is reconciled (did its nonce get consumed? which orders
// exist?) and until then no other request of the account is signed. A refusal for a stale nonce
// is an answer a lying exchange (or a proxy) can give after executing the request, so it is
// ambiguous too: the request is signed again only once the exchange shows the first one did not
// land.
import type { Order } from '../../../shared/api/market-schemas';
import type { B256 } from '../../../shared/encoding/b256';
import { addressIdentity } from '../../../shared/encoding/identity';
import type { CallTargets } from '../../../shared/protocol/action-calls';
import { batchGroups, encodeSessionActions, groupsToJson, sessionActionsBody, type ActionGroup, type SessionActionsBody } from '../../../shared/protocol/session-actions';
import type { SubmissionOutcome } from '../../../shared/nonce/sequential';
import { unpackParallelNonce } from '../../../shared/nonce/parallel-packing';
import { fail, ok, type Failure, type Result } from '../../../shared/result';
import type { FlushTiming, Journal, JournalNonce, JournalRecord, SignedEntry } from '../journal/journal';
import type { ConsumedAnswer, Lease, NonceManager } from '../nonces/nonce-manager';
import { epochOf, type OrderPathSpan } from './order-path-span';
import { RATE_LIMIT_BACKOFF_MS, rateLimitedNonce, rateLimitRetryText } from './rate-limit-retry';

export interface SubmitIdentity {
  readonly networkId: string;
  readonly owner: B256;
  readonly tradeAccountId: B256;
  readonly sessionAddress: B256;
}

export interface SubmitSuccess {
  readonly journalId: string;
  readonly txId: string;
  /** Orders as returned with `collect_orders`, unparsed beyond the schema of the client. */
  readonly orders: readonly unknown[];
}

export interface SubmitterPort {
  /**
   * `onSent` (given only while the order path is traced) is told when the request was handed to the
   * operating system; `ahead` (the trader's own request, not an algorithm's child) waits for the
   * rate limit before the others.
   */
  post(body: SessionActionsBody, owner: B256, options?: { readonly onSent?: () => void; readonly ahead?: boolean }): Promise<Result<{ tx_id: string; orders?: readonly unknown[] | undefined }>>;
}

export interface SubmitterDeps {
  readonly port: SubmitterPort;
  /** The nonce manager of the account in use; null before a trading account exists. */
  readonly nonces: () => NonceManager | null;
  readonly journal: Journal;
  readonly sign: (sessionAddress: B256, digest: Uint8Array) => Result<Uint8Array>;
  readonly identity: () => Result<SubmitIdentity>;
  readonly targets: () => Omit<CallTargets, 'trade_account_id'>;
  /** Looks up whether an unknown request landed, and records the answer in the journal. */
  readonly reconcile: (journalId: string) => Promise<Result<'landed' | 'not-landed'>>;
  /**
   * The orders a journaled request created, read from the exchange (its CreateOrder actions found
   * among the account's orders); a failed read is a failure, never "none".
   */
  readonly ordersOf: (entry: SignedEntry) => Promise<Result<readonly Order[]>>;
  /** A unique id for a journal entry. */
  readonly newId: () => string;
  /**
   * Main's order guards (main/services/guards): every order the request would create is checked
   * before a nonce is taken; a refusal is the answer and nothing is signed.
   */
  readonly guard?: (request: { readonly groups: readonly ActionGroup[]; readonly account: string; readonly reduceOnly: boolean }) => Promise<Result<void>>;
  readonly log?: (line: string) => void;
  /**
   * Waits before a rate-limited request is signed again (the injected clock). Without it a
   * rate-limited request is not retried.
   */
  readonly wait?: (ms: number) => Promise<void>;
  /** Tells the trader a request was rate-limited and when it is retried. */
  readonly notice?: (level: 'info' | 'warning' | 'error', text: string, code?: string) => void;
  /** Told each signed request's timings once its answer is back (the order-path bench; see order-path-span.ts). */
  readonly trace?: (span: OrderPathSpan) => void;
}

export interface SubmitRequest {
  readonly groups: readonly ActionGroup[];
  /** What a person reads in the journal: "Buy 0.5 ETH at 3,012.5 on ETH/USDC". */
  readonly description: string;
  readonly settleFirst?: boolean;
  /** The trader marked the order reduce-only: the guards hold it to the signing account's position. */
  readonly reduceOnly?: boolean;
  /** Signed by an execution algorithm as its child (`<algorithm id>/<child key>`): kept in the journal entry. */
  readonly parent?: string;
}

export const RECONCILING = 'RECONCILING';
export const OUTCOME_UNKNOWN = 'OUTCOME_UNKNOWN';
/** Refused for its nonce, and the nonce was then found used by a request that left no order. */
export const NONCE_USED_ELSEWHERE = 'NONCE_USED_ELSEWHERE';
export const SESSION_ACTIONS_ENDPOINT = 'POST /v1/session/actions';

/** One signing and sending: done, or refused in a way that may be a lie (see `settleAmbiguous`). */
type Attempt =
  | { readonly kind: 'done'; readonly result: Result<SubmitSuccess> }
  /** The lease is still held: settled once the exchange was asked, so no request takes the nonce meanwhile. */
  | { readonly kind: 'ambiguous'; readonly refusal: Failure; readonly entry: SignedEntry; readonly lease: Lease }
  /** Refused by the exchange's rate limit; the lease is still held until its nonce was asked. */
  | { readonly kind: 'rate-limited'; readonly refusal: Failure; readonly entry: SignedEntry; readonly lease: Lease };

function outcomeOf(failure: Failure): SubmissionOutcome {
  switch (failure.code) {
    case 'ONCHAIN_REVERT':
      return { kind: 'reverted' };
    case 'OUTCOME_UNKNOWN':
      return { kind: 'unknown' };
    case 'BAD_RESPONSE':
      // The exchange answered, but not in a shape we can read (a 2xx body that is neither a
      // success nor a refusal, or no JSON at all): the request may have executed. Look it up.
      return { kind: 'unknown' };
    case 'PREFLIGHT_REFUSED':
      // "Nonce in the request": stale, or a lie told after executing it (settleAmbiguous tells).
      return /nonce in the request/i.test(failure.message) ? { kind: 'stale' } : { kind: 'refused' };
    case 'PARALLEL_NONCE_REJECTED':
      return failure.details?.retry === 'resync-and-retry-once' ? { kind: 'stale' } : { kind: 'unknown' };
    default:
      // Signature and batch-size refusals: nothing was applied. (Rate limiting is asked about
      // before this: attemptPaced.)
      return { kind: 'refused' };
  }
}

/** Actions whose effects land with the order the batch creates (one transaction), or no effect at all. */
const WITH_ITS_ORDER: ReadonlySet<string> = new Set(['CreateOrder', 'CancelOrder', 'SettleBalance']);

/** A batch that creates an order and does nothing an order lookup could not see. */
function createsOrdersOnly(entry: SignedEntry): boolean {
  const keys = (entry.actions as { actions?: Record<string, unknown>[] }[]).flatMap((group) => (group.actions ?? []).flatMap((action) => Object.keys(action)));
  return keys.includes('CreateOrder') && keys.every((key) => WITH_ITS_ORDER.has(key));
}

function journalNonce(lease: { nonce: { kind: string; value: bigint }; lane: number | null }): JournalNonce {
  return lease.lane === null ? { mode: 'sequential', value: lease.nonce.value } : { mode: 'parallel', lane: lease.lane, value: lease.nonce.value };
}

export class Submitter {
  private reconciling: Promise<void> | null = null;
  /** Journal ids of this submitter's requests signed and not yet answered (their attempt still running). */
  private readonly inFlight = new Set<string>();

  constructor(private readonly deps: SubmitterDeps) {}

  /**
   * Session-action entries of this account. Owner-signed entries (withdrawals, offline requests)
   * are settled by their own service, on their own nonce lane, and never hold up orders.
   */
  private isMine(signed: { networkId: string; account: string; endpoint: string }, identity: SubmitIdentity): boolean {
    return signed.endpoint === SESSION_ACTIONS_ENDPOINT && signed.networkId === identity.networkId && signed.account === identity.tradeAccountId;
  }

  /** True while a lost answer is being reconciled; new requests wait for it. */
  get isReconciling(): boolean {
    return this.reconciling !== null;
  }

  /**
   * This account's journal entries left open by a crash or a lost answer. A request still waiting
   * for its answer is open in the journal too, but it is not lost: asked about meanwhile, the
   * exchange would not have consumed its nonce yet, and it would be written down as not landed
   * moments before it is accepted (and a click signed beside an algorithm refused RECONCILING).
   */
  private leftOpen(identity: SubmitIdentity): JournalRecord[] {
    return this.deps.journal.unresolved().filter((record) => this.isMine(record.signed, identity) && !this.inFlight.has(record.signed.id));
  }

  /** Reconcile every journal entry of this account left open (after a crash or a lost answer). */
  async reconcileOpen(): Promise<void> {
    const identity = this.deps.identity();
    if (!identity.ok) return;
    const open = this.leftOpen(identity.value);
    if (open.length === 0) return;
    const work = (async () => {
      for (const record of open) {
        const answer = await this.deps.reconcile(record.signed.id);
        if (!answer.ok) this.deps.log?.(`reconciliation of ${record.signed.id} failed: ${answer.message}`);
      }
    })();
    this.track(work);
    await work;
  }

  async submit(request: SubmitRequest): Promise<Result<SubmitSuccess>> {
    const submittedAt = performance.now();
    const broken = this.deps.journal.failure();
    if (broken !== null) return fail('JOURNAL_FAILURE', `Nothing is sent: the journal of signed requests could not be flushed to disk (${broken}). Check the disk and restart the terminal.`);
    // Damage found in the journal at start and not yet seen by the trader: only cancels and settling.
    const damaged = this.deps.journal.damageRefusal(request.groups.flatMap((group) => group.actions.map((action) => action.kind)));
    if (damaged !== null) return damaged;
    if (this.deps.guard !== undefined) {
      const signer = this.deps.identity();
      if (!signer.ok) return signer;
      const guarded = await this.deps.guard({ groups: request.groups, account: signer.value.tradeAccountId, reduceOnly: request.reduceOnly === true });
      if (!guarded.ok) return guarded;
    }
    if (this.reconciling) await this.reconciling;
    const identityNow = this.deps.identity();
    if (identityNow.ok && this.leftOpen(identityNow.value).length > 0) {
      await this.reconcileOpen();
      const identity = this.deps.identity();
      const stillOpen = identity.ok && this.leftOpen(identity.value).length > 0;
      if (stillOpen) return fail(RECONCILING, 'An earlier request is still being checked with the exchange; nothing new is signed until its outcome is known');
    }
    const first = await this.attemptPaced(request, submittedAt);
    if (first.kind === 'done') return first.result;
    const settled = await this.settleAmbiguous(first);
    if (settled !== 'not-landed') return settled;
    // The first request provably did not land: signing again with a fresh nonce is not a resend.
    // Once only; a second such refusal is settled the same way and never signed a third time.
    const second = await this.attemptPaced(request);
    if (second.kind === 'done') return second.result;
    const again = await this.settleAmbiguous(second);
    return again === 'not-landed' ? fail(second.refusal.code, second.refusal.message, { ...second.refusal.details, journalId: second.entry.id }) : again;
  }

  /**
   * A refusal for a stale nonce may be true, or told after the request executed. Ask the exchange
   * before anything is signed again: the nonce (sequential: did the account's move past it;
   * parallel: is its position consumed, or expired unconsumed) and the account's orders. Answers
   * `not-landed` only when the first request provably did not land and cannot land any more
   * (a sequential nonce not consumed is reused by the next request, so at most one of the two
   * can); otherwise the first request's outcome is the answer, or the trader is told it is being
   * checked, and nothing is signed again.
   */
  private async settleAmbiguous(attempt: Extract<Attempt, { kind: 'ambiguous' }>): Promise<Result<SubmitSuccess> | 'not-landed'> {
    const { refusal, entry, lease } = attempt;
    // The nonce is read again (sequential) or the lane's window (parallel) before the next
    // signature, so a nonce a lying refusal did consume is never handed out again.
    const work = this.lookUpAmbiguous(refusal, entry).finally(() => lease.settle({ kind: 'stale' }));
    this.track(work.then(() => undefined));
    return work;
  }

  private async lookUpAmbiguous(refusal: Failure, entry: SignedEntry): Promise<Result<SubmitSuccess> | 'not-landed'> {
    const said = refusal.code === 'RATE_LIMITED' ? `The exchange refused it for its rate limit (${refusal.message})` : `The exchange refused it for its nonce (${refusal.message})`;
    const nonces = this.deps.nonces();
    const consumed = nonces === null || entry.nonce.mode === 'none' ? fail('NO_TRADE_ACCOUNT', 'no nonce to look up') : await nonces.wasConsumed(entry.nonce);
    if (consumed.ok && consumed.value === 'not-landed') {
      this.deps.journal.appendReconciled({ id: entry.id, status: 'not-landed', detail: `${said}; its nonce was checked with the exchange and is not consumed: it did not land` });
      return 'not-landed';
    }
    if (!consumed.ok || consumed.value === 'pending') return this.checkLater(refusal, entry);
    // Its nonce is used (or slid out of the window): by this request, if it placed orders.
    const orders = await this.deps.ordersOf(entry);
    if (!orders.ok) return this.checkLater(refusal, entry);
    if (orders.value.length > 0) {
      const orderIds = orders.value.map((order) => order.order_id);
      const txId = orders.value.flatMap((order) => order.history ?? []).find((step) => step.tx_id !== undefined)?.tx_id ?? null;
      this.deps.journal.appendOutcome({ id: entry.id, status: 'accepted', txId, orderIds, code: null, message: null });
      this.deps.journal.appendReconciled({ id: entry.id, status: 'landed', detail: `${said}, but it landed: orders ${orderIds.join(', ')} (checked with the exchange; not signed again)` });
      this.deps.log?.(`${entry.id}: refused for its nonce but landed (orders ${orderIds.join(', ')})`);
      return ok({ journalId: entry.id, txId: txId ?? '', orders: orders.value });
    }
    // Only a batch whose effects all come with an order it creates can be told apart by its orders.
    if (!createsOrdersOnly(entry)) return this.checkLater(refusal, entry);
    const detail =
      `${said}; its nonce has been used since (by another device, or by this request executed without leaving an order) ` +
      'and no order of it is on the exchange';
    this.deps.journal.appendReconciled({ id: entry.id, status: 'not-landed', detail: `${detail}; it was not signed again` });
    return fail(NONCE_USED_ELSEWHERE, `${detail}. Nothing was signed again: check the open orders before sending it again.`, { journalId: entry.id, refusalCode: refusal.code });
  }

  /** Cannot be known now: left open in the journal and reconciled before anything else is signed. */
  private checkLater(refusal: Failure, entry: SignedEntry): Result<SubmitSuccess> {
    this.track(
      this.deps.reconcile(entry.id).then((answer) => {
        if (!answer.ok) this.deps.log?.(`reconciliation of ${entry.id} failed: ${answer.message}`);
      }),
    );
    return fail(
      OUTCOME_UNKNOWN,
      `The exchange refused the request for its nonce (${refusal.message}), which it may also say after executing it. Nothing was signed again: the terminal is checking with the exchange whether it landed before signing anything else.`,
      { journalId: entry.id, refusalCode: refusal.code },
    );
  }

  /**
   * One attempt, and while the exchange's rate limit refuses it, retries after a backoff: only
   * once its nonce shows it did not land, signed with the same nonce (so at most one of them can
   * land), at most `RATE_LIMIT_BACKOFF_MS.length` times. A nonce that was used goes to the lookup
   * of a stale refusal (`settleAmbiguous`): the rate limit may be a lie told after executing.
   */
  private async attemptPaced(request: SubmitRequest, submittedAt = performance.now()): Promise<Exclude<Attempt, { kind: 'rate-limited' }>> {
    let attempt = await this.attempt(request, undefined, submittedAt);
    for (let retry = 0; ; retry++) {
      if (attempt.kind !== 'rate-limited') return attempt;
      const { refusal, entry, lease } = attempt;
      const nonces = this.deps.nonces();
      const nonce = entry.nonce;
      // Other requests wait for this answer: the entry is open in the journal until it is known.
      const asked = nonces === null || nonce.mode === 'none' ? Promise.resolve(null) : nonces.wasConsumed(nonce);
      this.track(asked.then(() => undefined));
      const answer = await asked;
      const mode = entry.nonce.mode === 'parallel' ? 'parallel' : 'sequential';
      const next = rateLimitedNonce(mode, answer?.ok === true ? answer.value : null);
      if (next === 'look-up') return { kind: 'ambiguous', refusal, entry, lease };
      const delay = RATE_LIMIT_BACKOFF_MS[retry];
      const wait = this.deps.wait;
      if (delay === undefined || wait === undefined) return this.giveUpRateLimited(attempt, next, retry);
      const reuse = next === 'retry-same-nonce';
      this.deps.journal.appendReconciled({
        id: entry.id,
        status: 'not-landed',
        detail: `Refused by the exchange's rate limit (${refusal.message}); its nonce was checked with the exchange and is not consumed: it did not land. Signed again after ${delay} ms ${reuse ? 'with the same nonce, so at most one of the two can land' : 'with a new nonce (this one expired unused)'}`,
      });
      if (!reuse) lease.settle({ kind: 'refused' });
      this.deps.notice?.('warning', rateLimitRetryText(request.description, retry + 1, delay), 'RATE_LIMITED');
      this.deps.log?.(`${entry.id}: rate limited, nonce not consumed; retry ${retry + 1} in ${delay} ms`);
      await wait(delay);
      attempt = await this.attempt(request, reuse ? lease : undefined);
    }
  }

  /** No retry left: told plainly, with whether it can still land. */
  private giveUpRateLimited(attempt: Extract<Attempt, { kind: 'rate-limited' }>, next: 'retry-same-nonce' | 'retry-new-nonce', retries: number): Extract<Attempt, { kind: 'done' }> {
    const { refusal, entry, lease } = attempt;
    const tried = retries === 0 ? 'It was not retried' : `It was signed again ${retries} time${retries === 1 ? '' : 's'} with the same nonce, each after a backoff`;
    if (entry.nonce.mode === 'parallel' && next === 'retry-same-nonce') {
      // Its lane position is unused but still usable until its expiry: it is looked up until then,
      // and nothing else is signed meanwhile.
      lease.settle({ kind: 'refused' });
      this.track(this.deps.reconcile(entry.id).then((answer) => {
        if (!answer.ok) this.deps.log?.(`reconciliation of ${entry.id} failed: ${answer.message}`);
      }));
      return {
        kind: 'done',
        result: fail(refusal.code, `${refusal.message}. ${tried}; the exchange's rate limit refused it each time. Its nonce is not consumed but stays usable until it expires: the terminal checks with the exchange until then before signing anything else.`, { ...refusal.details, journalId: entry.id, retries }),
      };
    }
    lease.settle({ kind: 'stale' });
    this.deps.journal.appendReconciled({ id: entry.id, status: 'not-landed', detail: `Refused by the exchange's rate limit (${refusal.message}); its nonce was checked with the exchange and is not consumed: it did not land. Not signed again` });
    return {
      kind: 'done',
      result: fail(refusal.code, `${refusal.message}. ${tried}; the exchange's rate limit refused it each time, and its nonce shows it did not land: nothing was placed. Another device on the same owner may be using the budget.`, { ...refusal.details, journalId: entry.id, retries }),
    };
  }

  private async attempt(request: SubmitRequest, held?: Lease, submittedAt = performance.now()): Promise<Attempt> {
    const done = (result: Result<SubmitSuccess>): Attempt => ({ kind: 'done', result });
    const before = this.deps.identity();
    if (!before.ok) {
      held?.settle({ kind: 'refused' });
      return done(before);
    }
    const nonces = this.deps.nonces();
    if (nonces === null) {
      held?.settle({ kind: 'refused' });
      return done(fail('NO_TRADE_ACCOUNT', 'There is no trading account to sign for yet'));
    }
    // The trader's own requests (and the protection main signs for them) go before the
    // algorithms' children waiting for the sequential nonce, and for the rate limit below.
    const ahead = request.parent === undefined;
    const lease = held === undefined ? await nonces.acquire({ ahead }) : ok(held);
    if (!lease.ok) return done(lease);
    const leasedAt = performance.now();
    // The identity is read after the wait for a nonce, and nothing below awaits before signing: a
    // session renewed meanwhile (its old key deleted from memory) is not the one this batch names.
    const identity = this.deps.identity();
    if (!identity.ok) {
      lease.value.settle({ kind: 'refused' });
      return done(identity);
    }
    const batch = {
      trade_account_id: identity.value.tradeAccountId,
      session_id: addressIdentity(identity.value.sessionAddress),
      nonce: lease.value.nonce,
      groups: request.groups,
      targets: this.deps.targets(),
      settle_before_orders: request.settleFirst ?? true,
      collect_orders: true,
    };
    const groups = batchGroups(batch);
    if (!groups.ok) {
      lease.value.settle({ kind: 'refused' });
      return done(groups);
    }
    // The entry is written to the file first, so a crash of the app at any later point leaves it
    // there to reconcile. Its flush to the device runs on the I/O thread pool while this thread
    // encodes and signs the batch, and nothing is sent before the entry is on the device. A failed
    // flush refuses this request and stops all further sending (see Journal.failure()).
    const actions = groupsToJson(groups.value);
    let journaled: { entry: SignedEntry; flushed: Promise<FlushTiming> };
    try {
      journaled = this.deps.journal.appendSignedDurably({
        id: this.deps.newId(),
        networkId: identity.value.networkId,
        account: identity.value.tradeAccountId,
        endpoint: SESSION_ACTIONS_ENDPOINT,
        nonce: journalNonce(lease.value),
        actions,
        description: request.description,
        ...(request.parent === undefined ? {} : { parent: request.parent }),
      });
    } catch (error) {
      lease.value.settle({ kind: 'refused' });
      return done(fail('JOURNAL_FAILURE', `The order was not sent because the journal could not be written: ${error instanceof Error ? error.message : String(error)}`));
    }
    const entryId = journaled.entry.id;
    // In flight until this attempt returns: its entry is open in the journal, but it is not a lost
    // answer, and a request signed meanwhile must not reconcile it (see leftOpen).
    this.inFlight.add(entryId);
    try {
      journaled.flushed.catch(() => undefined); // awaited below; a rejection seen before then is not unhandled
      const notSent = (failure: Failure): Attempt => {
        lease.value.settle({ kind: 'refused' });
        this.deps.journal.appendOutcome({ id: entryId, status: 'refused', txId: null, orderIds: [], code: failure.code, message: `not sent: ${failure.message}` });
        return done(failure);
      };
      const prepared = encodeSessionActions(batch, groups.value);
      if (!prepared.ok) return notSent(prepared);
      const signature = this.deps.sign(identity.value.sessionAddress, prepared.value.digest);
      if (!signature.ok) return notSent(signature);
      const body = sessionActionsBody(prepared.value, signature.value, actions);
      const signedAt = performance.now();
      let flush: FlushTiming;
      try {
        flush = await journaled.flushed;
      } catch (error) {
        return notSent(
          fail('JOURNAL_FAILURE', `The order was not sent because its journal entry could not be flushed to disk (${error instanceof Error ? error.message : String(error)}). Check the disk and restart the terminal.`),
        );
      }

      const trace = this.deps.trace;
      const sent: { at: number | null } = { at: null };
      const response = await this.deps.port.post(body, identity.value.owner, trace === undefined ? { ahead } : { ahead, onSent: () => (sent.at = performance.now()) });
      trace?.({
        journalId: entryId,
        nonce: lease.value.nonce.value.toString(),
        submittedAt: epochOf(submittedAt),
        leasedAt: epochOf(leasedAt),
        writeStartedAt: epochOf(flush.writeStartedAt),
        signedAt: epochOf(signedAt),
        flushedAt: epochOf(flush.flushedAt),
        sentAt: sent.at === null ? null : epochOf(sent.at),
      });
      if (response.ok) {
        lease.value.settle({ kind: 'accepted' });
        const orderIds = (response.value.orders ?? []).map((order) => (order as { order_id?: unknown }).order_id).filter((id): id is string => typeof id === 'string');
        this.deps.journal.appendOutcome({ id: entryId, status: 'accepted', txId: response.value.tx_id, orderIds, code: null, message: null });
        return done(ok({ journalId: entryId, txId: response.value.tx_id, orders: response.value.orders ?? [] }));
      }

      if (response.code === 'RATE_LIMITED') {
        // Not proof that nothing landed (the spec does not say a 429 is answered before executing):
        // journaled unknown until its nonce was asked (attemptPaced).
        this.deps.journal.appendOutcome({ id: entryId, status: 'unknown', txId: null, orderIds: [], code: response.code, message: response.message });
        return { kind: 'rate-limited', refusal: response, entry: journaled.entry, lease: lease.value };
      }
      const outcome = outcomeOf(response);
      // A stale refusal is journaled as unknown until settleAmbiguous has checked it with the exchange.
      const status = outcome.kind === 'reverted' ? 'reverted' : outcome.kind === 'unknown' || outcome.kind === 'stale' ? 'unknown' : 'refused';
      this.deps.journal.appendOutcome({ id: entryId, status, txId: null, orderIds: [], code: response.code, message: response.message });
      if (outcome.kind === 'stale') return { kind: 'ambiguous', refusal: response, entry: journaled.entry, lease: lease.value };
      lease.value.settle(outcome);
      if (outcome.kind === 'unknown') {
        this.track(this.deps.reconcile(entryId).then((answer) => {
          if (!answer.ok) this.deps.log?.(`reconciliation of ${entryId} failed: ${answer.message}`);
        }));
        return done(fail(response.code, `${response.message} The terminal is checking with the exchange whether it landed before signing anything else.`, {
          ...response.details,
          journalId: entryId,
        }));
      }
      return done(fail(response.code, response.message, { ...response.details, journalId: entryId }));
    } finally {
      this.inFlight.delete(entryId);
    }
  }

  /** Hold new submissions until `work` is done. */
  private track(work: Promise<void>): void {
    const tracked: Promise<void> = work.finally(() => {
      if (this.reconciling === tracked) this.reconciling = null;
    });
    this.reconciling = tracked;
  }
}

/** Wait until a parallel nonce can no longer land, polling its window; sequential answers at once. */
export async function settleLostNonce(
  nonces: NonceManager,
  nonce: JournalNonce,
  wait: (ms: number) => Promise<void>,
  nowSeconds: () => bigint,
): Promise<Result<ConsumedAnswer>> {
  if (nonce.mode === 'none') return ok('final-unknown');
  for (;;) {
    const answer = await nonces.wasConsumed(nonce);
    if (!answer.ok || answer.value !== 'pending') return answer;
    const fields = nonce.mode === 'parallel' ? unpackParallelNonce(nonce.value) : null;
    const remaining = fields?.ok ? Number(fields.value.expiry - nowSeconds()) : 0;
    await wait(Math.min(2_000, Math.max(250, remaining * 1000)));
  }
}
