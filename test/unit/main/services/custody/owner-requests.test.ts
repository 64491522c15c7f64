// The owner-request service over a scripted exchange and a manual clock: expiry, one request per
// kind, a lost answer kept as "outcome unknown" and settled by its nonce on the next import
// (never sent twice), a restart, a crash between journal and answer reconciled first, and session
// keys that are deleted when their request is dropped.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CustodyKeys, CustodyRuntime, ExchangeSession } from '../../../../../main/services/custody/custody-runtime';
import { OwnerRequests } from '../../../../../main/services/custody/owner-requests';
import { PendingStore } from '../../../../../main/services/custody/pending-store';
import type { WithdrawApproval } from '../../../../../main/services/custody/withdraw-approval';
import { Journal } from '../../../../../main/services/journal/journal';
import { NonceManager } from '../../../../../main/services/nonces/nonce-manager';
import type { AccountRecord, OwnerRecord, SessionRecord } from '../../../../../main/services/storage/preferences';
import { ManualClock } from '../../../../../shared/clock';
import type { B256 } from '../../../../../shared/encoding/b256';
import type { OwnerRequestsView, OwnerRequestView } from '../../../../../shared/ipc/views';
import type { WindowSnapshot } from '../../../../../shared/nonce/lane-window';
import { requestToJson } from '../../../../../shared/offline/request-format';
import { responseToJson } from '../../../../../shared/offline/response-format';
import { signVerifiedRequest } from '../../../../../shared/offline/sign';
import { verifyOfflineRequest } from '../../../../../shared/offline/verify-request';
import { fail, ok, type Result } from '../../../../../shared/result';
import { DESTINATION, MARKET, marketsIndex, NOW, OWNER, OWNER_KEY, TRADE_ACCOUNT, unwrap, USDC } from '../../../../support/main/custody/fixtures';

class FakeRuntime implements CustodyRuntime {
  readonly network = { id: 'devnet', name: 'Devnet', kind: 'devnet' as const, restUrl: 'http://x', wsUrl: null, faucetUrl: null, faucetNetwork: null, production: false };
  readonly markets_ = marketsIndex();
  owner: OwnerRecord = { address: OWNER, style: 'ledger', custody: 'watch-only' };
  record: AccountRecord = { tradeAccountId: TRADE_ACCOUNT, whitelisted: true, session: null, laneCursors: {} };
  accountNonceValue = 5n;
  consumedSequential = false;
  consumedPositions = new Set<string>();
  balance = 100_000_000n;
  sends: string[] = [];
  answer: () => Result<{ tx_id: string }> = () => ok({ tx_id: 'tx' });
  session: ExchangeSession = { kind: 'unknown' };
  stored: SessionRecord | null = null;
  readonly nonceManager: NonceManager;

  constructor(private readonly clock: ManualClock) {
    this.nonceManager = new NonceManager(
      {
        accountNonce: () => Promise.resolve(ok(this.accountNonceValue + (this.consumedSequential ? 1n : 0n))),
        window: (lane) => Promise.resolve(ok(this.windowOf(lane))),
      },
      { load: () => null, save: () => ok(undefined) },
      0,
      () => BigInt(Math.floor(this.clock.now() / 1000)),
    );
  }
  windowOf(lane: number): WindowSnapshot {
    const bitmap = [...this.consumedPositions].filter((key) => key.startsWith(`${lane}:`)).reduce((bits, key) => bits | (1n << BigInt(key.split(':')[1]!)), 0n);
    return { lane, base: 0n, slots: bitmap === 0n ? [] : [{ word_position: 0n, bitmap }] };
  }
  markets() {
    return Promise.resolve(ok(this.markets_));
  }
  activeOwner() {
    return this.owner;
  }
  accountRecord() {
    return this.record;
  }
  nonces() {
    return this.nonceManager;
  }
  orderLanes() {
    return 0;
  }
  onAccountBalance() {
    return Promise.resolve(ok(this.balance));
  }
  accountNonce() {
    return Promise.resolve(ok(this.accountNonceValue));
  }
  window(_tradeAccountId: B256, lane: number) {
    return Promise.resolve(ok(this.windowOf(lane)));
  }
  exchangeSession() {
    return Promise.resolve(ok(this.session));
  }
  postWithdraw() {
    this.sends.push('withdraw');
    return Promise.resolve(this.answer());
  }
  putSession() {
    this.sends.push('session');
    return Promise.resolve(this.answer());
  }
  postOwnerCall() {
    this.sends.push('owner-call');
    return Promise.resolve(this.answer());
  }
  referralInfo() {
    return Promise.resolve(fail('UNUSED', 'unused'));
  }
  withdrawBudget() {
    return { remaining: 10, nextFreeAt: null };
  }
  submitSessionActions() {
    return Promise.resolve(fail('UNUSED', 'unused'));
  }
  reconcileOrders() {
    return Promise.resolve();
  }
  loadLaneCursor(lane: number) {
    return this.record.laneCursors[String(lane)] ?? null;
  }
  saveLaneCursor(lane: number, next: bigint) {
    this.record = { ...this.record, laneCursors: { ...this.record.laneCursors, [String(lane)]: next } };
    return ok(undefined);
  }
  storeSession(session: SessionRecord) {
    this.stored = session;
    this.record = { ...this.record, session };
    return ok(undefined);
  }
  refreshAccount() {}
}

class FakeKeys implements CustodyKeys {
  readonly sessionKeys = new Set<string>();
  private next = 0;
  signAsOwner() {
    return Promise.resolve(fail('UNUSED', 'a watch-only owner is never signed for here'));
  }
  createSessionKey() {
    const address = `0x${(++this.next).toString(16).padStart(64, 'a')}` as B256;
    this.sessionKeys.add(address);
    return Promise.resolve(ok(address));
  }
  deleteSessionKey(address: B256) {
    return Promise.resolve(ok(this.sessionKeys.delete(address)));
  }
  loadSessionKey(address: B256) {
    return Promise.resolve(this.sessionKeys.has(address) ? ok(undefined) : fail('KEY_NOT_FOUND', address));
  }
}

function setup(dataDir = mkdtempSync(join(tmpdir(), 'lt-owner-requests-')), clock = new ManualClock(Number(NOW) * 1000), runtime = new FakeRuntime(clock), keys = new FakeKeys()) {
  const journal = new Journal({ directory: join(dataDir, 'journal'), now: () => clock.now() });
  const published: OwnerRequestsView[] = [];
  const approvals: WithdrawApproval[] = [];
  const approve: { next: Result<void> } = { next: ok(undefined) };
  let ids = 0;
  const service = new OwnerRequests({
    clock,
    random: (length) => Uint8Array.from({ length }, () => ++ids % 251),
    journal,
    pending: new PendingStore(dataDir, () => undefined),
    runtime: () => runtime,
    keys: () => keys,
    keychainReason: () => 'none',
    publish: (view) => published.push(view),
    notice: () => undefined,
    log: () => undefined,
    newId: () => `owner-${++ids}`,
    wait: () => Promise.resolve(),
    reconcileWaitMs: 2_000,
    // These tests are about the request's life after it is approved; the approval (allow-list and
    // trusted confirmation) has its own tests (withdraw-approval.test.ts) and is recorded here.
    approveWithdraw: (approval) => {
      approvals.push(approval);
      return Promise.resolve(approve.next);
    },
  });
  return { service, runtime, keys, clock, journal, published, dataDir, approvals, approve };
}

function signedResponse(view: OwnerRequestView, nowSeconds: bigint): string {
  const verified = unwrap(verifyOfflineRequest(JSON.parse(view.fileText), { nowSeconds }));
  return JSON.stringify(responseToJson(unwrap(signVerifiedRequest(verified, OWNER_KEY))));
}

const withdraw = { kind: 'withdraw' as const, assetId: USDC, amount: 2_500_000n, to: { Address: DESTINATION } };

describe('owner requests of a watch-only owner', () => {
  it('prepares one request per kind, publishes it, and refuses a second while the first waits', async () => {
    const { service, published } = setup();
    const view = unwrap(await service.prepare(withdraw));
    expect(view).toMatchObject({ kind: 'withdraw', state: 'awaiting-signature', nonce: { kind: 'parallel', lane: 4, expiry: NOW + 25n * 3600n } });
    expect(published.at(-1)?.pending.map((pending) => pending.requestId)).toEqual([view.requestId]);
    const second = await service.prepare(withdraw);
    expect(second).toMatchObject({ ok: false, code: 'REQUEST_PENDING', details: { field: 'kind' } });
  });

  it('refuses an expired request with the reason, shows it expired, and replaces it on the next prepare', async () => {
    const { service, clock } = setup();
    const view = unwrap(await service.prepare({ ...withdraw, lifetimeHours: 2 }));
    const response = signedResponse(view, NOW);
    clock.advance(2 * 3600 * 1000);
    const refused = await service.importSignature(response);
    expect(refused).toMatchObject({ ok: false, code: 'OFFLINE_EXPIRED', details: { field: 'request.expires_at' } });
    const listed = unwrap(await service.requests());
    expect(listed.pending[0]).toMatchObject({ state: 'expired', detail: expect.stringMatching(/^Expired at .*Cancel it and prepare a new one\.$/) });
    const fresh = unwrap(await service.prepare(withdraw));
    expect(fresh.requestId).not.toBe(view.requestId);
  });

  it('keeps a request whose answer was lost as "outcome unknown", and on re-import looks before sending again', async () => {
    const { service, runtime, journal } = setup();
    const view = unwrap(await service.prepare(withdraw));
    const response = signedResponse(view, NOW);
    runtime.answer = () => fail('OUTCOME_UNKNOWN', 'the connection closed before the answer');
    const lost = await service.importSignature(response);
    expect(lost).toMatchObject({ ok: false, code: 'OUTCOME_UNKNOWN', details: { outcome: 'unknown' } });
    expect(!lost.ok && lost.message).toMatch(/may still land until .*importing the same signature again checks the nonce first/);
    expect(unwrap(await service.requests()).pending[0]?.state).toBe('outcome-unknown');
    expect(runtime.sends).toEqual(['withdraw']);

    // It landed meanwhile: the re-import finds the position consumed and sends nothing.
    if (view.nonce.kind !== 'parallel') throw new Error('expected a parallel nonce');
    runtime.consumedPositions.add(`4:${view.nonce.bitPosition}`);
    const settled = unwrap(await service.importSignature(response));
    expect(settled).toMatchObject({ status: 'landed', txId: null, requestId: view.requestId });
    expect(runtime.sends).toEqual(['withdraw']);
    expect(unwrap(await service.requests()).pending).toEqual([]);
    expect(journal.list(1)[0]).toMatchObject({ kind: 'reconciled', status: 'landed' });
  });

  it('sends the same signed request again only when its nonce is still unused', async () => {
    const { service, runtime } = setup();
    const view = unwrap(await service.prepare(withdraw));
    const response = signedResponse(view, NOW);
    runtime.answer = () => fail('OUTCOME_UNKNOWN', 'lost');
    await service.importSignature(response);
    runtime.answer = () => ok({ tx_id: 'tx-2' });
    const again = unwrap(await service.importSignature(response));
    expect(again).toMatchObject({ status: 'accepted', txId: 'tx-2' });
    expect(again.description).toBe(view.description);
    expect(runtime.sends).toEqual(['withdraw', 'withdraw']);
  });

  it('survives a restart, and reconciles a request journaled but never answered (a crash) before anything else', async () => {
    const first = setup();
    const view = unwrap(await first.service.prepare({ kind: 'session', marketIds: [MARKET], hours: 48 }));
    const sessionAddress = view.lines.find((line) => line.label === 'Session key')!.value;
    expect(first.keys.sessionKeys.has(sessionAddress)).toBe(true);
    // A crash after the journal entry of some earlier withdrawal was flushed and before its answer.
    first.journal.appendSigned({ id: 'crashed', networkId: 'devnet', account: TRADE_ACCOUNT, endpoint: 'POST /v1/accounts/withdraw', nonce: { mode: 'sequential', value: 4n }, actions: [], description: 'Withdraw 1' });
    await first.journal.close();

    const restarted = setup(first.dataDir, first.clock, first.runtime, first.keys);
    const listed = unwrap(await restarted.service.requests());
    expect(listed.pending.map((pending) => pending.requestId)).toEqual([view.requestId]);
    expect(restarted.journal.unresolved().map((record) => record.signed.id)).toEqual(['crashed']);
    const result = unwrap(await restarted.service.importSignature(signedResponse(view, NOW)));
    expect(restarted.journal.unresolved()).toEqual([]);
    expect(restarted.journal.list(10).find((entry) => entry.kind === 'reconciled' && entry.id === 'crashed')).toMatchObject({ status: 'landed' });
    expect(result).toMatchObject({ kind: 'session', status: 'accepted', session: { sessionAddress, state: 'active' } });
    expect(first.runtime.stored).toMatchObject({ sessionAddress, expiry: NOW + 48n * 3600n });
  });

  it('a crash while submitting: found as outcome unknown, settled by its nonce, never sent twice', async () => {
    const first = setup();
    const view = unwrap(await first.service.prepare(withdraw));
    if (view.nonce.kind !== 'parallel') throw new Error('expected a parallel nonce');
    // What importNow leaves on disk just before the request leaves, then the crash.
    const pending = new PendingStore(first.dataDir, () => undefined);
    pending.update('devnet', OWNER, 'withdraw', { state: 'submitting', journalId: 'owner-crash' });
    first.journal.appendSigned({ id: 'owner-crash', networkId: 'devnet', account: TRADE_ACCOUNT, endpoint: 'POST /v1/accounts/withdraw', nonce: { mode: 'parallel', lane: 4, value: view.nonce.value }, actions: [], description: view.description });
    await first.journal.close();
    first.runtime.consumedPositions.add(`4:${view.nonce.bitPosition}`);

    const restarted = setup(first.dataDir, first.clock, first.runtime, first.keys);
    const listed = unwrap(await restarted.service.requests());
    expect(listed.pending).toEqual([]);
    expect(listed.lastResult).toMatchObject({ status: 'landed', journalId: 'owner-crash', requestId: view.requestId });
    expect(first.runtime.sends).toEqual([]);
    expect(restarted.journal.unresolved()).toEqual([]);
  });

  it('a session whose nonce was used by someone else is not put in force', async () => {
    const { service, runtime } = setup();
    const view = unwrap(await service.prepare({ kind: 'session', marketIds: [MARKET], hours: 48 }));
    const response = signedResponse(view, NOW);
    runtime.answer = () => fail('OUTCOME_UNKNOWN', 'lost');
    runtime.consumedSequential = true;
    runtime.session = { kind: 'known', sessionAddress: `0x${'99'.repeat(32)}` };
    const refused = await service.importSignature(response);
    expect(refused).toMatchObject({ ok: false, code: 'OWNER_NONCE_STALE' });
    expect(runtime.stored).toBeNull();
  });

  it('cancelling a session request deletes its unused session key', async () => {
    const { service, keys } = setup();
    const view = unwrap(await service.prepare({ kind: 'session', marketIds: [MARKET], hours: 48 }));
    const sessionAddress = view.lines.find((line) => line.label === 'Session key')!.value;
    expect(unwrap(await service.cancel('session')).pending).toEqual([]);
    expect(keys.sessionKeys.has(sessionAddress)).toBe(false);
    expect(await service.cancel('session')).toMatchObject({ ok: false, code: 'NO_PENDING_REQUEST' });
  });

  it('answers a hot owner and a watch-only owner each with the path that fits', async () => {
    const { service, runtime } = setup();
    expect(await service.withdraw({ ...withdraw, windowId: 'tab-1' })).toMatchObject({ ok: false, code: 'WRONG_CUSTODY' });
    runtime.owner = { ...runtime.owner, custody: 'keychain' };
    expect(await service.prepare(withdraw)).toMatchObject({ ok: false, code: 'WRONG_CUSTODY' });
  });

  it('refuses a signature for a request it did not make', async () => {
    const { service } = setup();
    unwrap(await service.prepare(withdraw));
    const other = { ...JSON.parse(JSON.stringify(requestToJson(unwrap(verifyOfflineRequest(JSON.parse(unwrap(await service.requests()).pending[0]!.fileText), { nowSeconds: NOW })).request))), request_id: 'f'.repeat(32) };
    const response = JSON.stringify({ format: 'ledger-terminal/offline-signature', version: 1, request_id: other.request_id, request_hash: `0x${'00'.repeat(32)}`, signature: `0x${'11'.repeat(64)}`, signer: OWNER });
    expect(await service.importSignature(response)).toMatchObject({ ok: false, code: 'OFFLINE_RESPONSE_MISMATCH', details: { field: 'response.request_id' } });
  });
});

describe('owner methods of a watch-only owner', () => {
  const settle = { kind: 'owner-call' as const, method: 'settleBalance', parameters: { marketId: MARKET } };

  it('prepares an owner-call request from main table, one at a time, and submits it once on import', async () => {
    const { service, runtime, journal } = setup();
    expect(await service.prepare({ kind: 'owner-call', method: 'transfer', parameters: {} })).toMatchObject({ ok: false, code: 'OWNER_METHOD_NOT_ALLOWED' });
    const view = unwrap(await service.prepare(settle));
    expect(view).toMatchObject({ kind: 'owner-call', state: 'awaiting-signature', nonce: { kind: 'parallel', lane: 4 } });
    expect(view.lines.find((line) => line.label === 'Call 1/1 function')?.value).toBe('settle_balance');
    expect(await service.prepare({ ...settle, method: 'whitelist' })).toMatchObject({ ok: false, code: 'REQUEST_PENDING' });
    const result = unwrap(await service.importSignature(signedResponse(view, NOW)));
    expect(result).toMatchObject({ kind: 'owner-call', status: 'accepted', requestId: view.requestId });
    expect(runtime.sends).toEqual(['owner-call']);
    expect(journal.unresolved()).toEqual([]);
    expect(unwrap(await service.requests()).pending).toEqual([]);
  });

  it('sends nothing when main table no longer rebuilds the signed message (the book moved since)', async () => {
    const { service, runtime } = setup();
    const view = unwrap(await service.prepare(settle));
    runtime.markets = () => Promise.resolve(ok(marketsIndex(`0x${'b2'.repeat(32)}` as B256)));
    const refused = await service.importSignature(signedResponse(view, NOW));
    expect(refused).toMatchObject({ ok: false, code: 'OWNER_METHOD_REBUILT_MISMATCH', details: { field: 'request.owner_call' } });
    expect(runtime.sends).toEqual([]);
  });

  it('a hot owner is signed for directly, not through an offline request', async () => {
    const { service, runtime } = setup();
    runtime.owner = { ...runtime.owner, custody: 'keychain' };
    expect(await service.prepare(settle)).toMatchObject({ ok: false, code: 'WRONG_CUSTODY', message: expect.stringContaining('callOwnerMethod') });
  });
});
