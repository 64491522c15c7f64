// The account's sequential nonce. It advances when the chain consumed it: on acceptance and on an
// on-chain revert ({message, reason, receipts}); a pre-flight refusal ({code, message}) leaves it.
// When the outcome is unknown (lost response) or the service says the nonce is stale, the only safe
// move is to read it again: guessing would either replay or skip.
import { fail, ok, type Result } from '../result';

export const NONCE_NOT_SYNCED = 'NONCE_NOT_SYNCED';

export interface SequentialNonceState {
  /** The next nonce to sign with; null until read from GET /v1/accounts or the nonce stream. */
  readonly next: bigint | null;
  /** Set when the local value can no longer be trusted. */
  readonly needsResync: boolean;
}

export type SubmissionOutcome =
  | { readonly kind: 'accepted' }
  /** Refused before submission ({code, message}): nothing reached the chain. */
  | { readonly kind: 'refused' }
  /** Reverted on chain ({message, reason, receipts}): the transaction consumed the nonce. */
  | { readonly kind: 'reverted' }
  /** "Nonce in the request" refusal: our value is stale. */
  | { readonly kind: 'stale' }
  /** No answer (timeout, lost connection): it may or may not have landed. */
  | { readonly kind: 'unknown' };

export const UNSYNCED_SEQUENTIAL: SequentialNonceState = { next: null, needsResync: true };

/** A value read from the service replaces whatever we had. */
export function resyncSequential(fetched: bigint): SequentialNonceState {
  return { next: fetched, needsResync: false };
}

/** The nonce to sign the next request with, if we can trust it. */
export function takeSequentialNonce(state: SequentialNonceState): Result<bigint> {
  if (state.next === null || state.needsResync) return fail(NONCE_NOT_SYNCED, 'The account nonce must be read again before signing (GET /v1/accounts).');
  return ok(state.next);
}

/** Fold the outcome of a request signed with `used` into the state. */
export function applySequentialOutcome(state: SequentialNonceState, used: bigint, outcome: SubmissionOutcome): SequentialNonceState {
  switch (outcome.kind) {
    case 'accepted':
    case 'reverted': {
      const after = used + 1n;
      return { next: state.next === null || after > state.next ? after : state.next, needsResync: state.needsResync };
    }
    case 'refused':
      return state;
    case 'stale':
    case 'unknown':
      return { next: state.next, needsResync: true };
  }
}

/** A stream update (subscribe_nonce) can only move the nonce forward; it also proves we are in sync. */
export function observeSequentialNonce(state: SequentialNonceState, observed: bigint): SequentialNonceState {
  if (state.next !== null && observed < state.next) return state;
  return { next: observed, needsResync: false };
}
