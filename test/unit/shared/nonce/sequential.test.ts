import { describe, expect, it } from 'vitest';
import { applySequentialOutcome, observeSequentialNonce, resyncSequential, takeSequentialNonce, UNSYNCED_SEQUENTIAL } from '../../../../shared/nonce/sequential';

describe('sequential nonce', () => {
  it('refuses to sign before the nonce was read', () => {
    expect(takeSequentialNonce(UNSYNCED_SEQUENTIAL)).toMatchObject({ ok: false, code: 'NONCE_NOT_SYNCED' });
  });

  it('advances on acceptance and on an on-chain revert, not on a pre-flight refusal', () => {
    const synced = resyncSequential(7n);
    expect(takeSequentialNonce(applySequentialOutcome(synced, 7n, { kind: 'accepted' }))).toEqual({ ok: true, value: 8n });
    expect(takeSequentialNonce(applySequentialOutcome(synced, 7n, { kind: 'reverted' }))).toEqual({ ok: true, value: 8n });
    expect(takeSequentialNonce(applySequentialOutcome(synced, 7n, { kind: 'refused' }))).toEqual({ ok: true, value: 7n });
  });

  it('demands a resync after a stale-nonce refusal or an unknown outcome', () => {
    const synced = resyncSequential(7n);
    expect(takeSequentialNonce(applySequentialOutcome(synced, 7n, { kind: 'stale' })).ok).toBe(false);
    expect(takeSequentialNonce(applySequentialOutcome(synced, 7n, { kind: 'unknown' })).ok).toBe(false);
    expect(takeSequentialNonce(resyncSequential(9n))).toEqual({ ok: true, value: 9n });
  });

  it('a late acceptance of an older nonce never moves the nonce back', () => {
    const state = applySequentialOutcome(resyncSequential(10n), 4n, { kind: 'accepted' });
    expect(state.next).toBe(10n);
  });

  it('stream updates only move forward', () => {
    expect(observeSequentialNonce(resyncSequential(10n), 8n).next).toBe(10n);
    expect(observeSequentialNonce(resyncSequential(10n), 12n)).toEqual({ next: 12n, needsResync: false });
    expect(observeSequentialNonce(UNSYNCED_SEQUENTIAL, 3n)).toEqual({ next: 3n, needsResync: false });
  });
});
