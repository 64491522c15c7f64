// The custody area through the real bridge of the browser host (no page mounted: the components are
// wired into the shell separately): the online app with its embedded sandbox and the OS keychain,
// and the same app started with --offline as the offline signer, with no sandbox in its process tree.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupedId } from '../../../main/services/confirm/confirmation-text';
import { encryptSecret, keyThenPassphrase, passphraseBytes, type SecretPurpose } from '../../../renderer/src/features/custody/secret-crypto';
import { addressOf } from '../../../shared/crypto/address';
import { generatePrivateKey, publicKeyOf } from '../../../shared/crypto/keys';
import { b256 } from '../../../shared/encoding/b256';
import type { TerminalApi } from '../../../shared/ipc/contract';
import type { OwnerRequestsView } from '../../../shared/ipc/views';
import { buildWithdrawRequest } from '../../../shared/offline/build-request';
import { prettyCanonicalJson } from '../../../shared/offline/canonical-json';
import { requestToJson } from '../../../shared/offline/request-format';
import { verifyOfflineResponse } from '../../../shared/offline/verify-response';
import { sequentialNonce } from '../../../shared/protocol/nonce-choice';
import type { Result } from '../../../shared/result';
import type { RunningHost } from '../../support/browser-host';
import { openTerminal, type OpenTerminal } from '../../support/open-terminal';

const random = (length: number) => new Uint8Array(randomBytes(length));

function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return result.value;
}

/** Command lines of every process of the host's process group (the host is started detached). */
function processGroup(host: RunningHost): string[] {
  return execFileSync('ps', ['-o', 'args=', '-g', String(host.child.pid)], { encoding: 'utf8' }).trim().split('\n');
}

async function until<T>(probe: () => T | null | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = probe();
    if (found) return found;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('custody over the browser host bridge, online', () => {
  let terminal: OpenTerminal;
  let host: RunningHost;
  let api: TerminalApi;

  beforeAll(async () => {
    terminal = await openTerminal({ browser: false, bridge: true });
    ({ host, api } = terminal);
  });

  afterAll(() => terminal?.close());

  it('a hot owner withdraws; a watch-only owner prepares a request that streams with its QR codes', async () => {
    const pushes: OwnerRequestsView[] = [];
    api.onOwnerRequests((view) => pushes.push(view));
    expect(value(await api.getAppInfo({})).offline).toBe(false);
    expect(await api.offlineListKeystores({})).toMatchObject({ ok: false, code: 'OFFLINE_ONLY' });
    await until(async () => (await api.listMarkets({})).ok || null);
    value(await api.createOwnerKey({ style: 'ledger' }));
    value(await api.createTradeAccount({}));
    value(await api.mintFromFaucet({}));
    const deposit = value(await api.getDepositInstructions({}));
    const usdc = deposit.assets.find((asset) => asset.symbol === 'USDC')!;
    expect(deposit.sentences[0]).toContain(deposit.tradeAccountId!);

    const to = b256(`0x${randomBytes(32).toString('hex')}`);
    // The bridge alone cannot withdraw: the destination must be on the allow-list, adding it and
    // the withdrawal itself each need the code the host prints on its own terminal.
    expect(await api.withdraw({ assetId: usdc.assetId, amount: 1_000_000n, to: { Address: to } })).toMatchObject({ ok: false, code: 'ADDRESS_NOT_ALLOWED' });
    let since = host.output.length;
    expect(await api.allowWithdrawAddress({ to: { Address: to } })).toMatchObject({ ok: false, code: 'CONFIRMATION_REQUIRED' });
    const allowCode = await host.confirmationCode(since);
    expect(allowCode.printed).toContain(`Address to allow (Address):\n      ${groupedId(to)}\n`);
    const allowed = value(await api.allowWithdrawAddress({ to: { Address: to }, confirmationCode: allowCode.code }));
    expect(allowed).toMatchObject({ confirmation: 'host-code', delayMs: 10_000, addresses: [{ kind: 'Address', value: to }] });
    expect(await api.withdraw({ assetId: usdc.assetId, amount: 1_000_000n, to: { Address: to } })).toMatchObject({ ok: false, code: 'ADDRESS_NOT_YET_USABLE' });
    await until(() => Date.now() >= allowed.addresses[0]!.usableFrom + 50 || null, 20_000);
    since = host.output.length;
    expect(await api.withdraw({ assetId: usdc.assetId, amount: 1_000_000n, to: { Address: to } })).toMatchObject({ ok: false, code: 'CONFIRMATION_REQUIRED' });
    const withdrawCode = await host.confirmationCode(since);
    expect(withdrawCode.printed).toContain(`To (Address, on the allow-list):\n      ${groupedId(to)}\n`);
    expect(withdrawCode.printed).toContain('Amount: 1 USDC (1000000 raw units)');
    // The code is good for this exact withdrawal only.
    expect(await api.withdraw({ assetId: usdc.assetId, amount: 2_000_000n, to: { Address: to }, confirmationCode: withdrawCode.code })).toMatchObject({ ok: false, code: 'CONFIRMATION_EXPIRED' });
    const sent = value(await api.withdraw({ assetId: usdc.assetId, amount: 1_000_000n, to: { Address: to }, confirmationCode: withdrawCode.code }));
    expect(sent).toMatchObject({ status: 'accepted', kind: 'withdraw' });
    await until(() => pushes.find((push) => push.lastResult?.journalId === sent.journalId));

    const watchKey = generatePrivateKey(random);
    const watched = addressOf(publicKeyOf(watchKey), 'ledger');
    value(await api.registerWatchOnlyOwner({ address: watched, style: 'ledger' }));
    value(await api.createTradeAccount({}));
    value(await api.mintFromFaucet({}));
    const prepared = value(await api.prepareOwnerRequest({ kind: 'withdraw', assetId: usdc.assetId, amount: 2_000_000n, to: { Address: to } }));
    const streamed = await until(() => pushes.find((push) => push.pending.some((pending) => pending.requestId === prepared.requestId)));
    expect(streamed.custody).toBe('watch-only');
    expect(streamed.pending[0]!.qrImages[0]).toMatch(/^data:image\/png;base64,/);
    expect(value(await api.cancelOwnerRequest({ kind: 'withdraw' })).pending).toEqual([]);
  });
});

describe('the app in offline mode (--offline)', () => {
  let terminal: OpenTerminal;
  let host: RunningHost;
  let api: TerminalApi;

  const seal = async (purpose: SecretPurpose, plaintext: Uint8Array<ArrayBuffer>) =>
    value(await encryptSecret(globalThis.crypto.subtle, random, value(await api.offlineBeginSecret({})), purpose, plaintext));

  beforeAll(async () => {
    terminal = await openTerminal({ browser: false, bridge: true, host: { args: ['--offline'] } });
    ({ host, api } = terminal);
  });

  afterAll(() => terminal?.close());

  it('runs no sandbox and connects nowhere: online requests answer ONLINE_ONLY', async () => {
    expect(value(await api.getAppInfo({}))).toMatchObject({ offline: true, host: 'browser' });
    expect(await api.listMarkets({})).toMatchObject({ ok: false, code: 'ONLINE_ONLY' });
    expect(await api.getConnection({})).toMatchObject({ ok: false, code: 'ONLINE_ONLY' });
    expect(await api.withdraw({ assetId: `0x${'11'.repeat(32)}`, amount: 1n, to: { Address: `0x${'22'.repeat(32)}` } })).toMatchObject({ ok: false, code: 'ONLINE_ONLY' });
    const processes = processGroup(host);
    expect(processes.some((line) => line.includes('out/main/host.js') && line.includes('--offline'))).toBe(true);
    expect(processes.filter((line) => line.includes('sandbox'))).toEqual([]);
    expect(host.output.join('\n')).not.toMatch(/sandbox (listening|started)/i);
  });

  it('imports a key into a keystore, shows a request, signs it, and the online side accepts the response', async () => {
    const key = generatePrivateKey(random);
    const owner = addressOf(publicKeyOf(key), 'ledger');
    const plain = new Uint8Array(32);
    plain.set(key);
    const created = value(await api.offlineCreateKeystore({ name: 'owner', style: 'ledger', mode: 'import', secret: await seal('import', keyThenPassphrase(plain, passphraseBytes('correct horse battery staple'))) }));
    expect(created).toMatchObject({ name: 'owner', address: owner, style: 'ledger', weak: false });
    expect(value(await api.offlineListKeystores({})).map((keystore) => keystore.address)).toEqual([owner]);

    const now = BigInt(Math.floor(Date.now() / 1000));
    const request = value(
      buildWithdrawRequest({
        network: 'sandbox',
        chain_id: 9889n,
        owner: { address: owner, style: 'ledger' },
        trade_account_id: b256(`0x${'77'.repeat(32)}`),
        nowSeconds: now,
        random,
        nonce: sequentialNonce(3n),
        to: { Address: b256(`0x${'4e'.repeat(32)}`) },
        amount: 1_500_000n,
        asset: { id: b256(`0x${'9c'.repeat(32)}`), symbol: 'USDC', decimals: 6 },
      }),
    ).request;
    const preview = value(await api.offlineLoadRequest({ text: prettyCanonicalJson(requestToJson(request)) }));
    expect(preview.lines[0]).toEqual({ label: 'What it does', value: request.description });
    expect(preview.check).toMatch(/^Check: OK/);
    const wrong = await api.offlineSign({ requestHash: preview.requestHash, keystore: 'owner', secret: await seal('sign', passphraseBytes('not the right passphrase')) });
    expect(wrong).toMatchObject({ ok: false, code: 'KEYSTORE_WRONG_PASSPHRASE' });
    const signed = value(await api.offlineSign({ requestHash: preview.requestHash, keystore: 'owner', secret: await seal('sign', passphraseBytes('correct horse battery staple')) }));
    expect(verifyOfflineResponse(request, JSON.parse(signed.fileText), { nowSeconds: now + 1n }).ok).toBe(true);
    expect(signed.qrImages.length).toBe(signed.qrPayloads.length);
  });
});
