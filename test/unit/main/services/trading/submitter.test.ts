import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Journal } from '../../../../../main/services/journal/journal';
import { NonceManager, type NoncePort } from '../../../../../main/services/nonces/nonce-manager';
import { Submitter, type SubmitterPort } from '../../../../../main/services/trading/submitter';
import { addressOf } from '../../../../../shared/crypto/address';
import { publicKeyOf } from '../../../../../shared/crypto/keys';
import { recoverAddress, signDigest } from '../../../../../shared/crypto/signature';
import { sha256 } from '../../../../../shared/crypto/hashes';
import type { B256 } from '../../../../../shared/encoding/b256';
import { fail, ok } from '../../../../../shared/result';
import { prepareSessionActions, type SessionActionsBody } from '../../../../../shared/protocol/session-actions';
import { encodeFrame } from '../../../../../shared/ipc/codec';
import { addressIdentity } from '../../../../../shared/encoding/identity';
import { groups, owner, tradeAccount } from '../../../../support/order-fixture';

const sessionKey = new Uint8Array(32).fill(7);
const sessionAddress = addressOf(publicKeyOf(sessionKey), 'ledger');

class NonceExchange implements NoncePort {
  nonce = 5n;
  accountNonce() {
    return Promise.resolve(ok(this.nonce));
  }
  window(lane: number) {
    return Promise.resolve(ok({ lane, base: 0n, slots: [] }));
  }
}

function setup(answer: (body: SessionActionsBody, call: number) => ReturnType<SubmitterPort['post']>) {
  const directory = mkdtempSync(join(tmpdir(), 'lt-submit-'));
  const journal = new Journal({ directory, now: () => 1 });
  const exchange = new NonceExchange();
  const nonces = new NonceManager(exchange, { load: () => null, save: () => ok(undefined) }, 0, () => 1_700_000_000n);
  const posted: SessionActionsBody[] = [];
  const reconciled: string[] = [];
  let ids = 0;
  const submitter = new Submitter({
    port: {
      post: (body) => {
        posted.push(body);
        return answer(body, posted.length);
      },
    },
    nonces: () => nonces,
    journal,
    sign: (_address, digest) => ok(signDigest(digest, sessionKey)),
    identity: () => ok({ networkId: 'sandbox', owner, tradeAccountId: tradeAccount, sessionAddress: sessionAddress as B256 }),
    targets: () => ({}),
    newId: () => `entry-${++ids}`,
    reconcile: async (id) => {
      reconciled.push(id);
      journal.appendReconciled({ id, status: 'not-landed', detail: 'nonce not consumed' });
      return ok('not-landed');
    },
    ordersOf: () => Promise.resolve(ok([])),
  });
  return { directory, journal, exchange, posted, reconciled, submitter };
}

async function until(condition: () => boolean): Promise<void> {
  for (let turn = 0; turn < 1_000 && !condition(); turn++) await new Promise((resolve) => setTimeout(resolve, 1));
  if (!condition()) throw new Error('the condition was not met');
}

describe('submitter', () => {
  it('journals the signed request on disk before it is sent, and its outcome after', async () => {
    let journalAtSend = '';
    const { directory, journal, posted, submitter } = setup(() => {
      journalAtSend = readFileSync(join(directory, 'journal.log'), 'utf8');
      return Promise.resolve(ok({ tx_id: '0xtx', orders: [{ order_id: '0xorder' }] }));
    });
    const result = await submitter.submit({ groups, description: 'Buy 1 ETH at 3,000' });
    expect(result).toMatchObject({ ok: true, value: { txId: '0xtx', journalId: 'entry-1' } });
    expect(journalAtSend).toContain('"kind":"signed"');
    expect(journalAtSend).not.toContain('"kind":"outcome"');
    expect(journal.list(5)[0]).toMatchObject({ kind: 'outcome', status: 'accepted', orderIds: ['0xorder'] });
    // Signed by the session key over the sequential nonce of the account, SettleBalance first.
    const body = posted[0]!;
    expect(body).toMatchObject({ nonce: '5', trade_account_id: tradeAccount, session_id: { Address: sessionAddress } });
    expect(Object.keys(body.actions[0]!.actions[0]!)).toEqual(['SettleBalance']);
    expect(encodeFrame(journal.list(5))).not.toContain((body.signature as { Secp256k1: string }).Secp256k1.slice(2, 20));
  });

  it('never resends a request whose answer was lost: it reconciles first', async () => {
    const { posted, reconciled, submitter, journal } = setup((_body, call) =>
      Promise.resolve(call === 1 ? fail('OUTCOME_UNKNOWN', 'POST /v1/session/actions: the answer was lost') : ok({ tx_id: '0xtx2', orders: [] })),
    );
    const first = await submitter.submit({ groups, description: 'first' });
    expect(first).toMatchObject({ ok: false, code: 'OUTCOME_UNKNOWN' });
    expect(posted).toHaveLength(1);
    const second = await submitter.submit({ groups, description: 'second' });
    expect(second.ok).toBe(true);
    expect(reconciled).toEqual(['entry-1']);
    expect(posted).toHaveLength(2);
    // The second request re-reads the nonce: the lost one may or may not have consumed it.
    expect(posted[1]!).toMatchObject({ nonce: '5' });
    expect(journal.unresolved()).toHaveLength(0);
  });

  it('a request still waiting for its answer is not reconciled by one signed beside it (an algorithm and a click)', async () => {
    // The first request's answer is held back until the second has been sent.
    let answerFirst: (() => void) | null = null;
    const { posted, reconciled, submitter, journal } = setup((_body, call) =>
      call === 1 ? new Promise((resolve) => (answerFirst = () => resolve(ok({ tx_id: '0xtx1', orders: [{ order_id: '0xorder1' }] })))) : Promise.resolve(ok({ tx_id: '0xtx2', orders: [{ order_id: '0xorder2' }] })),
    );
    const first = submitter.submit({ groups, description: 'iceberg slice' });
    await until(() => posted.length === 1);
    expect(journal.unresolved().map((record) => record.signed.id)).toEqual(['entry-1']);
    // The click: it waits for the nonce after the one in flight, and asks nothing about the first.
    const second = submitter.submit({ groups, description: 'click' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reconciled).toEqual([]);
    answerFirst!();
    expect(await first).toMatchObject({ ok: true, value: { journalId: 'entry-1' } });
    expect(await second).toMatchObject({ ok: true, value: { journalId: 'entry-2' } });
    expect(posted.map((body) => (body as { nonce?: string }).nonce)).toEqual(['5', '6']);
    expect(reconciled).toEqual([]);
    expect(journal.unresolved()).toHaveLength(0);
    expect(journal.list(10).filter((entry) => entry.kind === 'reconciled')).toEqual([]);
  });

  it('signs again once after a stale-nonce refusal whose nonce the exchange shows unused, not more', async () => {
    const { posted, submitter } = setup(() => Promise.resolve(fail('PREFLIGHT_REFUSED', 'Nonce in the request is not the account nonce')));
    const result = await submitter.submit({ groups, description: 'stale' });
    expect(result).toMatchObject({ ok: false, code: 'PREFLIGHT_REFUSED' });
    expect(posted.map((body) => (body as { nonce?: string }).nonce)).toEqual(['5', '5']);
  });

  it('signs nothing again after a stale-nonce refusal whose nonce was used meanwhile (it may have been this request)', async () => {
    const { exchange, posted, submitter } = setup(() => {
      exchange.nonce = 9n;
      return Promise.resolve(fail('PREFLIGHT_REFUSED', 'Nonce in the request is not the account nonce'));
    });
    const result = await submitter.submit({ groups, description: 'stale' });
    expect(result).toMatchObject({ ok: false, code: 'NONCE_USED_ELSEWHERE' });
    expect(posted.map((body) => (body as { nonce?: string }).nonce)).toEqual(['5']);
  });

  it('an on-chain revert consumes the nonce; a pre-flight refusal does not', async () => {
    const { posted, submitter } = setup((_body, call) =>
      Promise.resolve(call === 1 ? fail('ONCHAIN_REVERT', 'reverted', { reason: 'TraderNotWhiteListed' }) : call === 2 ? fail('PREFLIGHT_REFUSED', 'market paused') : ok({ tx_id: '0x', orders: [] })),
    );
    expect(await submitter.submit({ groups, description: 'a' })).toMatchObject({ ok: false, code: 'ONCHAIN_REVERT' });
    expect(await submitter.submit({ groups, description: 'b' })).toMatchObject({ ok: false, code: 'PREFLIGHT_REFUSED' });
    expect((await submitter.submit({ groups, description: 'c' })).ok).toBe(true);
    expect(posted.map((body) => (body as { nonce?: string }).nonce)).toEqual(['5', '6', '6']);
  });

  it('the signature recovers to the session key over the digest of the exact body', async () => {
    const { posted, submitter } = setup(() => Promise.resolve(ok({ tx_id: '0x', orders: [] })));
    await submitter.submit({ groups, description: 'x' });
    const hex = (posted[0]!.signature as { Secp256k1: string }).Secp256k1;
    const signature = Uint8Array.from(Buffer.from(hex.slice(2), 'hex'));
    expect(signature).toHaveLength(64);
    const rebuilt = prepareSessionActions({ trade_account_id: tradeAccount, session_id: addressIdentity(sessionAddress), nonce: { kind: 'sequential', value: 5n }, groups, collect_orders: true });
    if (!rebuilt.ok) throw new Error(rebuilt.message);
    expect(recoverAddress(signature, rebuilt.value.digest, 'ledger')).toEqual({ ok: true, value: sessionAddress });
    // Any other digest recovers to someone else.
    expect(recoverAddress(signature, sha256(new Uint8Array([1])), 'ledger')).not.toEqual({ ok: true, value: sessionAddress });
  });
});

describe('submitter during a session renewal', () => {
  it('signs with the session that is current once the nonce is leased, not one renewed (and deleted) meanwhile', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'lt-submit-renew-'));
    const journal = new Journal({ directory, now: () => 1 });
    const renewedKey = new Uint8Array(32).fill(9);
    const renewedAddress = addressOf(publicKeyOf(renewedKey), 'ledger') as B256;
    // The keys main holds in memory: the renewal adds the new one and deletes the old one.
    const loaded = new Map<string, Uint8Array>([[sessionAddress, sessionKey]]);
    let current = sessionAddress as B256;
    let releaseAccountNonce: () => void = () => undefined;
    const exchange: NoncePort = {
      // The first nonce read waits: the renewal lands while the order waits for its nonce.
      accountNonce: () => new Promise((resolve) => (releaseAccountNonce = () => resolve(ok(5n)))),
      window: (lane) => Promise.resolve(ok({ lane, base: 0n, slots: [] })),
    };
    const nonces = new NonceManager(exchange, { load: () => null, save: () => ok(undefined) }, 0, () => 1_700_000_000n);
    const posted: SessionActionsBody[] = [];
    const submitter = new Submitter({
      port: {
        post: (body) => {
          posted.push(body);
          return Promise.resolve(ok({ tx_id: '0xtx', orders: [{ order_id: '0xorder' }] }));
        },
      },
      nonces: () => nonces,
      journal,
      sign: (address, digest) => {
        const key = loaded.get(address);
        return key ? ok(signDigest(digest, key)) : fail('KEY_NOT_FOUND', `the session key ${address} is not loaded`);
      },
      identity: () => ok({ networkId: 'sandbox', owner, tradeAccountId: tradeAccount, sessionAddress: current }),
      targets: () => ({}),
      newId: () => 'entry-1',
      reconcile: async () => ok('not-landed'),
      ordersOf: () => Promise.resolve(ok([])),
    });
    const placing = submitter.submit({ groups, description: 'Buy 1 ETH at 3,000' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    loaded.set(renewedAddress, renewedKey);
    current = renewedAddress;
    loaded.delete(sessionAddress);
    releaseAccountNonce();
    const result = await placing;
    expect(result).toMatchObject({ ok: true, value: { txId: '0xtx' } });
    expect(posted[0]).toMatchObject({ session_id: addressIdentity(renewedAddress) });
  });
});
