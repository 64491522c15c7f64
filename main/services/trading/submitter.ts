// The order path after validation: nonce → build → journal entry written → sign (while the entry
// is flushed to the device) → once it is on the device, POST → fold the outcome. A request whose
// answer is lost is never resent: it is reconciled (did its nonce get consumed? which orders
// exist?) and until then no other request of the account is signed.
import type { B256 } from '../../../shared/encoding/b256';
import { addressIdentity } from '../../../shared/encoding/identity';
import type { CallTargets } from '../../../shared/protocol/action-calls';
import { batchGroups, encodeSessionActions, groupsToJson, sessionActionsBody, type ActionGroup, type SessionActionsBody } from '../../../shared/protocol/session-actions';
import type { SubmissionOutcome } from '../../../shared/nonce/sequential';
import { unpackParallelNonce } from '../../../shared/nonce/parallel-packing';
import { fail, ok, type Failure, type Result } from '../../../shared/result';
import type { Journal, JournalNonce } from '../journal/journal';
import type { ConsumedAnswer, NonceManager } from '../nonces/nonce-manager';

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
  post(body: SessionActionsBody, owner: B256): Promise<Result<{ tx_id: string; orders?: readonly unknown[] | undefined }>>;
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
  /** A unique id for a journal entry. */
  readonly newId: () => string;
  /**
   * Main's order guards (main/services/guards): every order the request would create is checked
   * before a nonce is taken; a refusal is the answer and nothing is signed.
   */
  readonly guard?: (request: { readonly groups: readonly ActionGroup[]; readonly account: string; readonly reduceOnly: boolean }) => Promise<Result<void>>;
  readonly log?: (line: string) => void;
}

export interface SubmitRequest {
  readonly groups: readonly ActionGroup[];
  /** What a person reads in the journal: "Buy 0.5 ETH at 3,012.5 on ETH/USDC". */
  readonly description: string;
  readonly settleFirst?: boolean;
  /** The trader marked the order reduce-only: the guards hold it to the signing account's position. */
  readonly reduceOnly?: boolean;
}

export const RECONCILING = 'RECONCILING';
export const SESSION_ACTIONS_ENDPOINT = 'POST /v1/session/actions';

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
      return /nonce in the request/i.test(failure.message) ? { kind: 'stale' } : { kind: 'refused' };
    case 'PARALLEL_NONCE_REJECTED':
      return failure.details?.retry === 'resync-and-retry-once' ? { kind: 'stale' } : { kind: 'unknown' };
    default:
      // Rate limiting, signature and batch-size refusals, 5xx: nothing was applied.
      return { kind: 'refused' };
  }
}

function journalNonce(lease: { nonce: { kind: string; value: bigint }; lane: number | null }): JournalNonce {
  return lease.lane === null ? { mode: 'sequential', value: lease.nonce.value } : { mode: 'parallel', lane: lease.lane, value: lease.nonce.value };
}

export class Submitter {
  private reconciling: Promise<void> | null = null;

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

  /** Reconcile every journal entry of this account left open (after a crash or a lost answer). */
  async reconcileOpen(): Promise<void> {
    const identity = this.deps.identity();
    if (!identity.ok) return;
    const open = this.deps.journal.unresolved().filter((record) => this.isMine(record.signed, identity.value));
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
    if (identityNow.ok && this.deps.journal.unresolved().some((record) => this.isMine(record.signed, identityNow.value))) {
      await this.reconcileOpen();
      const identity = this.deps.identity();
      const stillOpen = identity.ok && this.deps.journal.unresolved().some((record) => this.isMine(record.signed, identity.value));
      if (stillOpen) return fail(RECONCILING, 'An earlier request is still being checked with the exchange; nothing new is signed until its outcome is known');
    }
    const first = await this.attempt(request);
    if (!first.ok && first.details?.retryable === true) {
      // Refused before submission for a stale nonce: nothing landed, so signing again with a
      // fresh nonce is not a resend. Once only.
      return this.attempt(request);
    }
    return first;
  }

  private async attempt(request: SubmitRequest): Promise<Result<SubmitSuccess>> {
    const before = this.deps.identity();
    if (!before.ok) return before;
    const nonces = this.deps.nonces();
    if (nonces === null) return fail('NO_TRADE_ACCOUNT', 'There is no trading account to sign for yet');
    const lease = await nonces.acquire();
    if (!lease.ok) return lease;
    // The identity is read after the wait for a nonce, and nothing below awaits before signing: a
    // session renewed meanwhile (its old key deleted from memory) is not the one this batch names.
    const identity = this.deps.identity();
    if (!identity.ok) {
      lease.value.settle({ kind: 'refused' });
      return identity;
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
      return groups;
    }
    // The entry is written to the file first, so a crash of the app at any later point leaves it
    // there to reconcile. Its flush to the device runs on the I/O thread pool while this thread
    // encodes and signs the batch, and nothing is sent before the entry is on the device. A failed
    // flush refuses this request and stops all further sending (see Journal.failure()).
    const actions = groupsToJson(groups.value);
    let journaled: { entry: { id: string }; flushed: Promise<void> };
    try {
      journaled = this.deps.journal.appendSignedDurably({
        id: this.deps.newId(),
        networkId: identity.value.networkId,
        account: identity.value.tradeAccountId,
        endpoint: SESSION_ACTIONS_ENDPOINT,
        nonce: journalNonce(lease.value),
        actions,
        description: request.description,
      });
    } catch (error) {
      lease.value.settle({ kind: 'refused' });
      return fail('JOURNAL_FAILURE', `The order was not sent because the journal could not be written: ${error instanceof Error ? error.message : String(error)}`);
    }
    const entryId = journaled.entry.id;
    journaled.flushed.catch(() => undefined); // awaited below; a rejection seen before then is not unhandled
    const notSent = (failure: Failure): Failure => {
      lease.value.settle({ kind: 'refused' });
      this.deps.journal.appendOutcome({ id: entryId, status: 'refused', txId: null, orderIds: [], code: failure.code, message: `not sent: ${failure.message}` });
      return failure;
    };
    const prepared = encodeSessionActions(batch, groups.value);
    if (!prepared.ok) return notSent(prepared);
    const signature = this.deps.sign(identity.value.sessionAddress, prepared.value.digest);
    if (!signature.ok) return notSent(signature);
    const body = sessionActionsBody(prepared.value, signature.value, actions);
    try {
      await journaled.flushed;
    } catch (error) {
      return notSent(
        fail('JOURNAL_FAILURE', `The order was not sent because its journal entry could not be flushed to disk (${error instanceof Error ? error.message : String(error)}). Check the disk and restart the terminal.`),
      );
    }

    const response = await this.deps.port.post(body, identity.value.owner);
    if (response.ok) {
      lease.value.settle({ kind: 'accepted' });
      const orderIds = (response.value.orders ?? []).map((order) => (order as { order_id?: unknown }).order_id).filter((id): id is string => typeof id === 'string');
      this.deps.journal.appendOutcome({ id: entryId, status: 'accepted', txId: response.value.tx_id, orderIds, code: null, message: null });
      return ok({ journalId: entryId, txId: response.value.tx_id, orders: response.value.orders ?? [] });
    }

    const outcome = outcomeOf(response);
    lease.value.settle(outcome);
    const status = outcome.kind === 'reverted' ? 'reverted' : outcome.kind === 'unknown' ? 'unknown' : 'refused';
    this.deps.journal.appendOutcome({ id: entryId, status, txId: null, orderIds: [], code: response.code, message: response.message });
    if (outcome.kind === 'unknown') {
      this.track(this.deps.reconcile(entryId).then((answer) => {
        if (!answer.ok) this.deps.log?.(`reconciliation of ${entryId} failed: ${answer.message}`);
      }));
      return fail(response.code, `${response.message} The terminal is checking with the exchange whether it landed before signing anything else.`, {
        ...response.details,
        journalId: entryId,
      });
    }
    if (outcome.kind === 'stale') return fail(response.code, response.message, { ...response.details, retryable: true, journalId: entryId });
    return fail(response.code, response.message, { ...response.details, journalId: entryId });
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
