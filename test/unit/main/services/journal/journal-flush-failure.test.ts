// The order path writes its journal entry to the file before it signs, flushes it to the device
// while signing, and sends only once it is on the device. A flush that fails (EIO: the kernel may
// have dropped the dirty pages) means the journal can no longer be trusted: that request is not
// sent, and nothing further is signed or sent until a restart.
import type * as fs from 'node:fs';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const failing = vi.hoisted(() => ({ next: 0, hold: false, release: null as (() => void) | null }));

vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof fs>();
  return {
    ...actual,
    fdatasync: (fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
      if (failing.next > 0) {
        failing.next--;
        const error: NodeJS.ErrnoException = Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO', errno: -5, syscall: 'fdatasync' });
        setImmediate(() => callback(error));
        return;
      }
      if (failing.hold) {
        // A slow device: the flush completes only when the test says so.
        failing.release = () => actual.fdatasync(fd, callback);
        return;
      }
      actual.fdatasync(fd, callback);
    },
  };
});

const { Journal } = await import('../../../../../main/services/journal/journal');
const { NonceManager } = await import('../../../../../main/services/nonces/nonce-manager');
const { Submitter } = await import('../../../../../main/services/trading/submitter');
const { addressOf } = await import('../../../../../shared/crypto/address');
const { publicKeyOf } = await import('../../../../../shared/crypto/keys');
const { signDigest } = await import('../../../../../shared/crypto/signature');
const { ok } = await import('../../../../../shared/result');
const { groups, tradeAccount, owner } = await import('../../../../support/order-fixture');

const sessionKey = new Uint8Array(32).fill(9);
const sessionAddress = addressOf(publicKeyOf(sessionKey), 'ledger');

function setup() {
  const directory = mkdtempSync(join(tmpdir(), 'lt-flush-'));
  const journal = new Journal({ directory, now: () => 1 });
  let accountNonce = 5n;
  const nonces = new NonceManager(
    { accountNonce: () => Promise.resolve(ok(accountNonce)), window: (lane: number) => Promise.resolve(ok({ lane, base: 0n, slots: [] })) },
    { load: () => null, save: () => ok(undefined) },
    0,
    () => 1_700_000_000n,
  );
  const sent: { journalAtSend: string }[] = [];
  let ids = 0;
  const submitter = new Submitter({
    port: {
      post: () => {
        sent.push({ journalAtSend: readFileSync(join(directory, 'journal.log'), 'utf8') });
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
  return { journal, submitter, sent };
}

beforeEach(() => {
  failing.next = 0;
  failing.hold = false;
  failing.release = null;
});

describe('a journal flush that fails', () => {
  it('marks the journal failed and rejects the flush of that entry', async () => {
    const { journal } = setup();
    expect(journal.failure()).toBeNull();
    failing.next = 1;
    const { flushed } = journal.appendSignedDurably({ id: 'a', networkId: 'sandbox', account: tradeAccount, endpoint: 'POST /v1/session/actions', nonce: { mode: 'sequential', value: 5n }, actions: [], description: 'Buy' });
    await expect(flushed).rejects.toThrow(/EIO/);
    expect(journal.failure()).toMatch(/^EIO: /);
  });

  it('an order whose entry is not on the device is not sent; after that nothing more is signed or sent', async () => {
    const { submitter, sent, journal } = setup();
    expect(await submitter.submit({ groups, description: 'Buy 1 ETH' })).toMatchObject({ ok: true });
    expect(sent).toHaveLength(1);
    // Each request leaves only once its entry is on the device.
    expect(sent[0]!.journalAtSend).toContain('Buy 1 ETH');
    failing.next = 1;
    const unflushed = await submitter.submit({ groups, description: 'Buy 1 ETH again' });
    expect(unflushed).toMatchObject({ ok: false, code: 'JOURNAL_FAILURE' });
    expect(unflushed.ok ? '' : unflushed.message).toMatch(/was not sent because its journal entry could not be flushed to disk \(EIO: /);
    expect(sent).toHaveLength(1);
    expect(journal.failure()).toMatch(/^EIO: /);
    const refused = await submitter.submit({ groups, description: 'Buy 1 ETH a third time' });
    expect(refused).toMatchObject({ ok: false, code: 'JOURNAL_FAILURE' });
    expect(refused.ok ? '' : refused.message).toMatch(/could not be flushed to disk \(EIO: .*\)\. Check the disk and restart/);
    expect(sent).toHaveLength(1);
  });

  it('a request waits for its flush: nothing reaches the exchange while the entry is only in the page cache', async () => {
    const { submitter, sent } = setup();
    failing.hold = true;
    const pending = submitter.submit({ groups, description: 'Buy 1 ETH' });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(sent).toHaveLength(0);
    failing.hold = false;
    failing.release?.();
    expect(await pending).toMatchObject({ ok: true });
    expect(sent).toHaveLength(1);
  });
});
