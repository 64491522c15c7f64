// The owner submitter with a real journal on disk and a scripted exchange: the request is journaled
// (flushed) before it is sent, each outcome is journaled, and a lost answer is settled by the nonce,
// never by sending again.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OwnerSubmitter, type OwnerSendPort, type OwnerSubmission } from '../../../../../main/services/custody/owner-submitter';
import { Journal, type JournalNonce } from '../../../../../main/services/journal/journal';
import type { ConsumedAnswer } from '../../../../../main/services/nonces/nonce-manager';
import type { WithdrawBody } from '../../../../../shared/protocol/owner-messages';
import { fail, ok, type Result } from '../../../../../shared/result';
import { DESTINATION, OWNER, TRADE_ACCOUNT, USDC } from '../../../../support/main/custody/fixtures';

const body: WithdrawBody = {
  trade_account_id: TRADE_ACCOUNT,
  signature: { Secp256k1: `0x${'11'.repeat(64)}` },
  nonce: '7',
  to: { Address: DESTINATION },
  asset_id: USDC,
  amount: '5',
};

function submission(nonce: Exclude<JournalNonce, { mode: 'none' }> = { mode: 'sequential', value: 7n }): OwnerSubmission {
  return { networkId: 'devnet', owner: OWNER, tradeAccountId: TRADE_ACCOUNT, body: { kind: 'withdraw', body }, nonce, description: 'Withdraw 5', actions: [{ Withdraw: { amount: '5' } }] };
}

function setup(answer: () => Result<{ tx_id: string }>, consumed: ConsumedAnswer[] = ['landed']) {
  const journal = new Journal({ directory: mkdtempSync(join(tmpdir(), 'lt-owner-journal-')), now: () => 1_000 });
  const sentWith: number[] = [];
  const port: OwnerSendPort = {
    postWithdraw: () => {
      // What was on disk when the request left.
      sentWith.push(journal.unresolved().length);
      return Promise.resolve(answer());
    },
    putSession: () => Promise.resolve(fail('UNUSED', 'unused')),
    postOwnerCall: () => Promise.resolve(fail('UNUSED', 'unused')),
  };
  const answers = [...consumed];
  const looks: number[] = [];
  let ids = 0;
  const waits: number[] = [];
  const submitter = new OwnerSubmitter({
    port,
    journal,
    newId: () => `owner-${++ids}`,
    wasConsumed: () => {
      looks.push(1);
      return Promise.resolve(ok(answers.length > 1 ? answers.shift()! : answers[0]!));
    },
    wait: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
    nowSeconds: () => 1n,
    reconcileWaitMs: 3_000,
  });
  return { journal, submitter, sentWith, looks, waits };
}

describe('owner submitter', () => {
  it('journals the request before sending it, then the acceptance', async () => {
    const { journal, submitter, sentWith } = setup(() => ok({ tx_id: 'tx-1' }));
    const sent = await submitter.send(submission());
    expect(sent).toMatchObject({ ok: true, value: { journalId: 'owner-1', status: 'accepted', txId: 'tx-1', outcome: { kind: 'accepted' } } });
    expect(sentWith).toEqual([1]);
    const entries = journal.list(10).reverse();
    expect(entries.map((entry) => entry.kind)).toEqual(['signed', 'outcome']);
    expect(entries[0]).toMatchObject({ endpoint: 'POST /v1/accounts/withdraw', account: TRADE_ACCOUNT, nonce: { mode: 'sequential', value: 7n }, description: 'Withdraw 5' });
    expect(JSON.stringify(entries[0], (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value))).not.toContain('Secp256k1');
    expect(journal.unresolved()).toEqual([]);
  });

  it('a refusal and a revert are journaled and reported with what they did to the nonce', async () => {
    const refused = setup(() => fail('PREFLIGHT_REFUSED', 'Nonce in the request (7) does not match the account nonce (8)'), ['not-landed']);
    expect(await refused.submitter.send(submission())).toMatchObject({ ok: false, code: 'PREFLIGHT_REFUSED', details: { outcome: 'stale', journalId: 'owner-1' } });
    const reverted = setup(() => fail('ONCHAIN_REVERT', 'reverted: InsufficientBalance'));
    expect(await reverted.submitter.send(submission())).toMatchObject({ ok: false, code: 'ONCHAIN_REVERT', details: { outcome: 'reverted' } });
    expect(reverted.journal.list(1)[0]).toMatchObject({ kind: 'outcome', status: 'reverted' });
    expect(refused.journal.unresolved()).toEqual([]);
  });

  it('a refusal for a stale nonce told after the withdrawal executed: its nonce is looked up, and it landed (never "prepare a new one")', async () => {
    for (const lie of [
      fail('PREFLIGHT_REFUSED', 'POST /v1/accounts/withdraw: refused before submission (code 4006 NonceMismatch): Nonce in the request (7) does not match the account nonce (8)'),
      fail('PARALLEL_NONCE_REJECTED', 'POST /v1/accounts/withdraw: the parallel nonce was rejected (HTTP 400): Parallel nonce is not usable', { retry: 'resync-and-retry-once' }),
    ]) {
      const { journal, submitter, sentWith, looks } = setup(() => lie, ['landed']);
      const sent = await submitter.send(submission());
      expect(sent).toMatchObject({ ok: true, value: { status: 'landed', outcome: { kind: 'accepted' } } });
      expect(sentWith).toHaveLength(1);
      expect(looks.length).toBeGreaterThan(0);
      expect(journal.list(1)[0]).toMatchObject({ kind: 'reconciled', status: 'landed' });
      expect(journal.unresolved()).toEqual([]);
    }
  });

  it('a lost answer whose nonce is consumed landed: journaled as such, not sent again', async () => {
    const { journal, submitter, sentWith } = setup(() => fail('OUTCOME_UNKNOWN', 'POST /v1/accounts/withdraw: the connection closed before the answer'), ['landed']);
    const sent = await submitter.send(submission());
    expect(sent).toMatchObject({ ok: true, value: { status: 'landed', txId: null, outcome: { kind: 'accepted' } } });
    expect(sentWith).toHaveLength(1);
    expect(journal.list(1)[0]).toMatchObject({ kind: 'reconciled', status: 'landed' });
  });

  it('a lost answer whose sequential nonce is not consumed did not land', async () => {
    const { submitter } = setup(() => fail('OUTCOME_UNKNOWN', 'lost'), ['not-landed']);
    expect(await submitter.send(submission())).toMatchObject({ ok: false, code: 'OUTCOME_UNKNOWN', details: { outcome: 'not-landed' } });
  });

  it('polls a long-lived parallel nonce for a bounded time, then says it may still land', async () => {
    const nonce: OwnerSubmission['nonce'] = { mode: 'parallel', lane: 4, value: (4n << 168n) | (1_800_000_000n << 136n) | 5n };
    const { journal, submitter, waits, looks } = setup(() => fail('OUTCOME_UNKNOWN', 'lost'), ['pending']);
    const sent = await submitter.send(submission(nonce));
    expect(sent).toMatchObject({ ok: false, code: 'OUTCOME_UNKNOWN', details: { outcome: 'unknown' } });
    expect(!sent.ok && sent.message).toMatch(/may still land until 2027-01-15T08:00:00Z\. Nothing was resent/);
    expect(waits).toEqual([1_000, 1_000, 1_000]);
    expect(looks).toHaveLength(4);
    expect(journal.list(1)[0]).toMatchObject({ kind: 'reconciled', status: 'not-landed' });

    // A later look finds it landed.
    const later = setup(() => ok({ tx_id: 'x' }), ['pending', 'pending', 'landed']);
    expect(await later.submitter.lookUp(nonce)).toEqual(ok('landed'));
    expect(later.waits).toEqual([1_000, 1_000]);
  });
});
