// The last steps of every owner-signed request (a withdrawal, a session), hot or signed offline:
// journal (flushed) → send → fold the outcome into the journal. A request whose answer is lost is
// never sent again on a guess: its nonce is looked up (consumed means it landed) and the answer is
// journaled. The pattern is submitter.ts's, with one difference: an owner request may carry a
// long-lived nonce (an offline request's lives a day), so the look-up polls for a bounded time and
// then says plainly that it may still land, instead of holding everything else for a day. A
// refusal for a stale nonce is looked up the same way: a lying exchange can say it after the
// withdrawal went through, and "prepare a new one" would then move the funds twice.
import type { B256 } from '../../../shared/encoding/b256';
import { formatUnixSeconds } from '../../../shared/offline/describe';
import { unpackParallelNonce } from '../../../shared/nonce/parallel-packing';
import type { SubmissionOutcome } from '../../../shared/nonce/sequential';
import type { OwnerActionsBody, OwnerCallBody, OwnerCallsBody, UpgradeBody, WithdrawBody } from '../../../shared/protocol/owner-messages';
import type { SessionBody } from '../../../shared/protocol/session';
import { fail, ok, type Failure, type Result } from '../../../shared/result';
import type { Journal, JournalNonce } from '../journal/journal';
import type { ConsumedAnswer } from '../nonces/nonce-manager';
import { CUSTODY_CODES } from './codes';

/** The owner endpoints of spec 4.2 beyond withdraw, as the owner methods build them (owner-methods.ts). */
export type OwnerCallBodies =
  | { readonly endpoint: 'upgrade'; readonly body: UpgradeBody }
  | { readonly endpoint: 'call'; readonly body: OwnerCallBody }
  | { readonly endpoint: 'calls'; readonly body: OwnerCallsBody }
  | { readonly endpoint: 'actions'; readonly body: OwnerActionsBody };

export type OwnerBody =
  | { readonly kind: 'withdraw'; readonly body: WithdrawBody }
  | { readonly kind: 'session'; readonly body: SessionBody }
  | { readonly kind: 'owner-call'; readonly call: OwnerCallBodies };

export interface OwnerSendPort {
  postWithdraw(owner: B256, body: WithdrawBody): Promise<Result<{ readonly tx_id: string }>>;
  putSession(owner: B256, body: SessionBody): Promise<Result<{ readonly tx_id: string }>>;
  postOwnerCall(owner: B256, call: OwnerCallBodies): Promise<Result<{ readonly tx_id: string }>>;
}

/** The journal's endpoint of an owner request. */
export function ownerEndpoint(body: OwnerBody): string {
  if (body.kind === 'withdraw') return 'POST /v1/accounts/withdraw';
  if (body.kind === 'session') return 'PUT /v1/session';
  return `POST /v1/accounts/${body.call.endpoint}`;
}

export interface OwnerSubmission {
  readonly networkId: string;
  readonly owner: B256;
  readonly tradeAccountId: B256;
  readonly body: OwnerBody;
  readonly nonce: Exclude<JournalNonce, { mode: 'none' }>;
  /** What a person reads in the journal. */
  readonly description: string;
  /** The public content of the request for the journal (never a signature). */
  readonly actions: readonly unknown[];
  /** The id to journal the request under (made by the caller, so it can be stored before sending). */
  readonly journalId?: string;
}

export interface OwnerSent {
  readonly journalId: string;
  /** `accepted`: answered; `landed`: the answer was lost and the nonce shows it landed. */
  readonly status: 'accepted' | 'landed';
  readonly txId: string | null;
  readonly detail: string;
  /** For the nonce manager's sequential lease. */
  readonly outcome: SubmissionOutcome;
}

/** What a failure did to the nonce, for the caller's lease and pending request. */
export type OwnerFailureOutcome = 'refused' | 'stale' | 'reverted' | 'not-landed' | 'unknown';

export interface OwnerSubmitterDeps {
  readonly port: OwnerSendPort;
  readonly journal: Journal;
  readonly newId: () => string;
  /** NonceManager.wasConsumed of the account. */
  readonly wasConsumed: (nonce: Exclude<JournalNonce, { mode: 'none' }>) => Promise<Result<ConsumedAnswer>>;
  readonly wait: (ms: number) => Promise<void>;
  readonly nowSeconds: () => bigint;
  /** How long a lost answer is looked up before giving the verdict "may still land" (default 20 s). */
  readonly reconcileWaitMs?: number;
  readonly log?: (line: string) => void;
}

export const DEFAULT_RECONCILE_WAIT_MS = 20_000;
const POLL_MS = 1_000;

function classify(failure: Failure): OwnerFailureOutcome {
  switch (failure.code) {
    case 'ONCHAIN_REVERT':
      return 'reverted';
    case 'OUTCOME_UNKNOWN':
      return 'unknown';
    case 'BAD_RESPONSE':
      // An answer that cannot be read (a 2xx body that is neither a success nor a refusal): the
      // withdrawal may have happened, so it is looked up, never assumed refused.
      return 'unknown';
    case 'PARALLEL_NONCE_REJECTED':
      // "nonce already used" may be this very request landing earlier (a re-import): look it up.
      return failure.details?.retry === 'resync-and-retry-once' ? 'stale' : 'unknown';
    case 'PREFLIGHT_REFUSED':
      return /nonce in the request/i.test(failure.message) ? 'stale' : 'refused';
    default:
      // Rate limiting, a bad signature, 5xx: nothing was applied.
      return 'refused';
  }
}

const LEASE_OUTCOME: Record<OwnerFailureOutcome, SubmissionOutcome> = {
  refused: { kind: 'refused' },
  stale: { kind: 'stale' },
  reverted: { kind: 'reverted' },
  'not-landed': { kind: 'refused' },
  unknown: { kind: 'unknown' },
};

export function leaseOutcomeOf(failure: Failure): SubmissionOutcome {
  const outcome = failure.details?.outcome;
  return typeof outcome === 'string' && outcome in LEASE_OUTCOME ? LEASE_OUTCOME[outcome as OwnerFailureOutcome] : { kind: 'unknown' };
}

export class OwnerSubmitter {
  constructor(private readonly deps: OwnerSubmitterDeps) {}

  async send(submission: OwnerSubmission): Promise<Result<OwnerSent>> {
    const endpoint = ownerEndpoint(submission.body);
    // Damage found in the journal at start and not yet seen by the trader: no owner request leaves.
    const damaged = this.deps.journal.damageRefusal(null);
    if (damaged !== null) return fail(damaged.code, damaged.message, { ...damaged.details, outcome: 'refused' });
    let journalId: string;
    try {
      journalId = this.deps.journal.appendSigned({
        id: submission.journalId ?? this.deps.newId(),
        networkId: submission.networkId,
        account: submission.tradeAccountId,
        endpoint,
        nonce: submission.nonce,
        actions: [...submission.actions],
        description: submission.description,
      }).id;
    } catch (error) {
      return fail(CUSTODY_CODES.JOURNAL_FAILURE, `Nothing was sent because the journal could not be written: ${error instanceof Error ? error.message : String(error)}`, { outcome: 'refused' });
    }
    const body = submission.body;
    const answer =
      body.kind === 'withdraw'
        ? await this.deps.port.postWithdraw(submission.owner, body.body)
        : body.kind === 'session'
          ? await this.deps.port.putSession(submission.owner, body.body)
          : await this.deps.port.postOwnerCall(submission.owner, body.call);
    if (answer.ok) {
      this.deps.journal.appendOutcome({ id: journalId, status: 'accepted', txId: answer.value.tx_id, orderIds: [], code: null, message: null });
      return ok({ journalId, status: 'accepted', txId: answer.value.tx_id, detail: `Accepted in transaction ${answer.value.tx_id}`, outcome: { kind: 'accepted' } });
    }
    const outcome = classify(answer);
    // A stale refusal is journaled as unknown until its nonce is looked up below.
    const status = outcome === 'reverted' ? 'reverted' : outcome === 'unknown' || outcome === 'stale' ? 'unknown' : 'refused';
    this.deps.journal.appendOutcome({ id: journalId, status, txId: null, orderIds: [], code: answer.code, message: answer.message });
    if (outcome !== 'unknown' && outcome !== 'stale') return fail(answer.code, answer.message, { ...answer.details, journalId, outcome });
    return this.settleLost(journalId, submission.nonce, answer, outcome === 'stale' ? 'refused for its nonce' : 'lost');
  }

  /**
   * The answer was lost, or was a refusal for a stale nonce (which a lying exchange can give after
   * executing the request): look the nonce up, journal the verdict, and never send again on a guess.
   */
  private async settleLost(journalId: string, nonce: OwnerSubmission['nonce'], lost: Failure, answer: 'lost' | 'refused for its nonce'): Promise<Result<OwnerSent>> {
    const what = answer === 'lost' ? 'The answer was lost' : 'The exchange refused it for its nonce';
    const verdict = await this.lookUp(nonce);
    if (!verdict.ok) {
      // Left open in the journal: the next request of this account reconciles it first.
      return fail(CUSTODY_CODES.OUTCOME_UNKNOWN, `${lost.message} Its outcome could not be checked (${verdict.message}); nothing was resent.`, { journalId, outcome: 'unknown' });
    }
    if (verdict.value === 'landed') {
      const detail = `${what}, but the nonce is consumed: the request landed (checked with the exchange; nothing was resent)`;
      this.deps.journal.appendReconciled({ id: journalId, status: 'landed', detail });
      return ok({ journalId, status: 'landed', txId: null, detail, outcome: { kind: 'accepted' } });
    }
    if (verdict.value === 'not-landed') {
      const detail = `${what} and the nonce was not consumed: the request did not land; nothing was resent`;
      this.deps.journal.appendReconciled({ id: journalId, status: 'not-landed', detail });
      // A stale refusal that told the truth: the nonce is read again before the next signature.
      return fail(lost.code, `${lost.message} ${detail}.`, { ...(answer === 'lost' ? {} : lost.details), journalId, outcome: answer === 'lost' ? 'not-landed' : 'stale' });
    }
    const expiry = nonce.mode === 'parallel' ? unpackParallelNonce(nonce.value) : null;
    const until = expiry?.ok ? ` until ${formatUnixSeconds(expiry.value.expiry)}` : '';
    const detail =
      `${what} and the nonce is not consumed yet; the request may still land${until}. Nothing was resent: ` +
      'importing the same signature again checks the nonce first and, if it is still unused, sends the same signed request (one nonce can land only once).';
    // Journaled as not landed so far, with that caveat: a later look-up appends `landed` if it does.
    this.deps.journal.appendReconciled({ id: journalId, status: 'not-landed', detail });
    return fail(CUSTODY_CODES.OUTCOME_UNKNOWN, `${lost.message} ${detail}`, { journalId, outcome: 'unknown' });
  }

  /**
   * Poll the nonce for a bounded time. A window that slid past the position cannot say; for an owner
   * request the safe reading is "landed" (assuming a withdrawal failed when it moved funds invites a second one).
   */
  async lookUp(nonce: OwnerSubmission['nonce']): Promise<Result<'landed' | 'not-landed' | 'pending'>> {
    const budget = this.deps.reconcileWaitMs ?? DEFAULT_RECONCILE_WAIT_MS;
    let waited = 0;
    for (;;) {
      const answer = await this.deps.wasConsumed(nonce);
      if (!answer.ok) return answer;
      if (answer.value === 'landed' || answer.value === 'final-unknown') return ok('landed');
      if (answer.value === 'not-landed') return ok('not-landed');
      if (waited >= budget) return ok('pending');
      await this.deps.wait(POLL_MS);
      waited += POLL_MS;
    }
  }

  /** Journal a later look-up of an entry left "may still land". */
  recordLanded(journalId: string, detail: string): void {
    this.deps.journal.appendReconciled({ id: journalId, status: 'landed', detail });
  }
}
