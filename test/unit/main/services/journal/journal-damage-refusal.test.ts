// Damage found in the journal at start blocks trading until the trader has seen it: the order path
// refuses with JOURNAL_DAMAGED (nothing is signed, no nonce is used, nothing reaches the exchange),
// cancels still go, and once the report is acknowledged orders go again.
import { closeSync, mkdtempSync, openSync, readFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Journal } from '../../../../../main/services/journal/journal';
import { NonceManager } from '../../../../../main/services/nonces/nonce-manager';
import { Submitter } from '../../../../../main/services/trading/submitter';
import { OwnerSubmitter } from '../../../../../main/services/custody/owner-submitter';
import { addressOf } from '../../../../../shared/crypto/address';
import { publicKeyOf } from '../../../../../shared/crypto/keys';
import { signDigest } from '../../../../../shared/crypto/signature';
import { ok } from '../../../../../shared/result';
import { groups, market, owner, tradeAccount } from '../../../../support/order-fixture';

const sessionKey = new Uint8Array(32).fill(9);
const sessionAddress = addressOf(publicKeyOf(sessionKey), 'ledger');

/** A journal whose file had one byte damaged before this start. */
async function damagedJournal(): Promise<Journal> {
  const directory = mkdtempSync(join(tmpdir(), 'lt-damaged-'));
  const first = new Journal({ directory, now: () => 1 });
  for (const id of ['a', 'b']) first.appendSigned({ id, networkId: 'sandbox', account: tradeAccount, endpoint: 'POST /v1/session/actions', nonce: { mode: 'sequential', value: 1n }, actions: [], description: `order ${id}` });
  first.appendOutcome({ id: 'a', status: 'accepted', txId: null, orderIds: [], code: null, message: null });
  first.appendOutcome({ id: 'b', status: 'accepted', txId: null, orderIds: [], code: null, message: null });
  await first.close();
  const path = join(directory, 'journal.log');
  const at = readFileSync(path).indexOf('order a');
  const fd = openSync(path, 'r+');
  writeSync(fd, 'X', at);
  closeSync(fd);
  return new Journal({ directory, now: () => 2 });
}

function submitterOver(journal: Journal) {
  let accountNonce = 5n;
  const nonces = new NonceManager(
    { accountNonce: () => Promise.resolve(ok(accountNonce)), window: (lane: number) => Promise.resolve(ok({ lane, base: 0n, slots: [] })) },
    { load: () => null, save: () => ok(undefined) },
    0,
    () => 1_700_000_000n,
  );
  const sent: string[] = [];
  let ids = 0;
  const submitter = new Submitter({
    port: {
      post: (body) => {
        sent.push(JSON.stringify(body, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value)));
        accountNonce++;
        return Promise.resolve(ok({ tx_id: `0xtx${sent.length}`, orders: [] }));
      },
    },
    nonces: () => nonces,
    journal,
    sign: (_address, digest) => ok(signDigest(digest, sessionKey)),
    identity: () => ok({ networkId: 'sandbox', owner, tradeAccountId: tradeAccount, sessionAddress }),
    targets: () => ({}),
    newId: () => `entry-${++ids}`,
    reconcile: () => Promise.resolve(ok('not-landed' as const)),
    ordersOf: () => Promise.resolve(ok([])),
  });
  return { submitter, sent };
}

const cancel = [{ market_id: market.market_id, market, actions: [{ kind: 'CancelOrder' as const, order_id: `0x${'33'.repeat(32)}` as never }] }];

describe('a journal found damaged at start', () => {
  it('refuses orders with JOURNAL_DAMAGED until the damage is acknowledged; cancels still go', async () => {
    const journal = await damagedJournal();
    const [report] = journal.damage();
    expect(report).toBeDefined();
    const { submitter, sent } = submitterOver(journal);
    const entriesBefore = journal.list(100).length;

    const refused = await submitter.submit({ groups, description: 'Buy 1 ETH' });
    expect(refused).toMatchObject({ ok: false, code: 'JOURNAL_DAMAGED' });
    expect(refused.ok ? '' : refused.message).toMatch(/found damaged at start.*acknowledge it first; cancelling orders still works/);
    expect(sent).toHaveLength(0);
    // Nothing was signed or journaled for it.
    expect(journal.list(100)).toHaveLength(entriesBefore);

    expect(await submitter.submit({ groups: cancel, description: 'Cancel' })).toMatchObject({ ok: true });
    expect(sent).toHaveLength(1);

    expect(journal.acknowledgeDamage([report!.id])).toEqual({ ok: true, value: [] });
    expect(await submitter.submit({ groups, description: 'Buy 1 ETH' })).toMatchObject({ ok: true });
    expect(sent).toHaveLength(2);
  });

  it('refuses owner requests (withdrawals) too', async () => {
    const journal = await damagedJournal();
    const posted: unknown[] = [];
    const owners = new OwnerSubmitter({
      journal,
      port: {
        postWithdraw: (...args: unknown[]) => {
          posted.push(args);
          return Promise.resolve(ok({ tx_id: '0x1' }));
        },
        putSession: () => Promise.resolve(ok({ tx_id: '0x1' })),
      },
      newId: () => 'owner-1',
    } as unknown as ConstructorParameters<typeof OwnerSubmitter>[0]);
    const answer = await owners.send({
      networkId: 'sandbox',
      owner,
      tradeAccountId: tradeAccount,
      nonce: { mode: 'parallel', lane: 4, value: 1n },
      body: { kind: 'withdraw', body: {} },
      actions: [],
      description: 'Withdraw',
    } as unknown as Parameters<OwnerSubmitter['send']>[0]);
    expect(answer).toMatchObject({ ok: false, code: 'JOURNAL_DAMAGED', details: { outcome: 'refused' } });
    expect(posted).toHaveLength(0);
  });
});
