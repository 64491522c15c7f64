// The offline mode's signer: keystores made through encrypted secrets, requests shown exactly as
// the CLI shows them, refusals with their reasons, and a response the online side accepts.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { OfflineSigner } from '../../../../../main/services/custody/offline-signer';
import { SecretExchange } from '../../../../../main/services/custody/secret-exchange';
import { currentOwnership } from '../../../../../main/offline/file-permissions';
import { TEST_ONLY_WEAK_SCRYPT } from '../../../../../main/offline/keystore';
import { encryptSecret, keyThenPassphrase, passphraseBytes, type SecretPurpose } from '../../../../../renderer/src/features/custody/secret-crypto';
import { ManualClock } from '../../../../../shared/clock';
import { prettyCanonicalJson } from '../../../../../shared/offline/canonical-json';
import { requestDisplayLines } from '../../../../../shared/offline/describe';
import { encodeDocumentQr } from '../../../../../shared/offline/qr-framing';
import { requestHash, requestToJson } from '../../../../../shared/offline/request-format';
import { verifyOfflineResponse } from '../../../../../shared/offline/verify-response';
import { NOW, OTHER, OWNER, OWNER_KEY, unwrap, withdrawRequest } from '../../../../support/main/custody/fixtures';

const PASSPHRASE = 'correct horse battery staple';
const random = (length: number) => new Uint8Array(randomBytes(length));

const clock = new ManualClock(Number(NOW) * 1000 + 60_000);
const secrets = new SecretExchange(() => clock.now(), random);
const dataDir = mkdtempSync(join(tmpdir(), 'lt-offline-signer-'));
const signer = new OfflineSigner({ dataDir, clock, random, secrets, ownership: currentOwnership(), log: () => undefined, testOnlyKdf: TEST_ONLY_WEAK_SCRYPT });
const request = withdrawRequest();
const requestText = prettyCanonicalJson(requestToJson(request));

async function seal(purpose: SecretPurpose, plaintext: Uint8Array<ArrayBuffer>) {
  return unwrap(await encryptSecret(globalThis.crypto.subtle, random, await signer.beginSecret(), purpose, plaintext));
}

describe('the offline signer of the offline mode', () => {
  beforeAll(async () => {
    const key = new Uint8Array(32);
    key.set(OWNER_KEY);
    unwrap(await signer.createKeystore({ name: 'owner', style: 'ledger', mode: 'import', secret: await seal('import', keyThenPassphrase(key, passphraseBytes(PASSPHRASE))) }));
    unwrap(await signer.createKeystore({ name: 'spare', style: 'ledger', mode: 'generate', secret: await seal('create', passphraseBytes(PASSPHRASE)) }));
  });

  it('creates keystores in the data directory (0600) and lists them with their addresses', () => {
    const listed = unwrap(signer.listKeystores());
    expect(listed.map((view) => view.name)).toEqual(['owner', 'spare']);
    expect(listed[0]).toMatchObject({ address: OWNER, style: 'ledger', weak: true, problem: null });
    expect(listed[1]!.address).toMatch(/^0x[0-9a-f]{64}$/);
    expect(statSync(join(dataDir, 'keystores', 'owner.keystore.json')).mode & 0o777).toBe(0o600);
  });

  it('refuses a short passphrase, an existing name, and a secret sealed for another purpose', async () => {
    expect(await signer.createKeystore({ name: 'short', style: 'ledger', mode: 'generate', secret: await seal('create', passphraseBytes('too short')) })).toMatchObject({ ok: false, code: 'KEYSTORE_WEAK_PASSPHRASE' });
    expect(await signer.createKeystore({ name: 'owner', style: 'ledger', mode: 'generate', secret: await seal('create', passphraseBytes(PASSPHRASE)) })).toMatchObject({ ok: false, code: 'KEYSTORE_EXISTS' });
    expect(await signer.createKeystore({ name: 'third', style: 'ledger', mode: 'generate', secret: await seal('sign', passphraseBytes(PASSPHRASE)) })).toMatchObject({ ok: false, code: 'SECRET_EXCHANGE_FAILED' });
  });

  it('shows a request with the lines the CLI prints, from its file or its QR payloads', () => {
    const preview = unwrap(signer.loadRequest(requestText));
    expect(preview).toMatchObject({ requestId: request.request_id, requestHash: requestHash(request), kind: 'withdraw', owner: OWNER, ownerStyle: 'ledger' });
    expect(preview.lines).toEqual(requestDisplayLines(request, requestHash(request)));
    expect(preview.check).toMatch(/^Check: OK\. The message bytes and digest were rebuilt from the fields and match; .* the request expires in 23 h 59 min\.$/);
    expect(preview.warnings.join(' ')).toMatch(/labels from the online machine/);
    const parts = unwrap(encodeDocumentQr(requestToJson(request)));
    expect(unwrap(signer.loadRequest(parts.join('\n'))).requestHash).toBe(preview.requestHash);
  });

  it('refuses a tampered request with the reason, and loads nothing', async () => {
    const tampered = JSON.parse(requestText) as { withdraw: { amount: string } };
    tampered.withdraw.amount = '99000000';
    const refused = signer.loadRequest(JSON.stringify(tampered));
    expect(refused).toMatchObject({ ok: false, code: 'OFFLINE_MESSAGE_MISMATCH' });
    expect(!refused.ok && refused.message).toMatch(/Nothing was loaded; do not sign this request\.$/);
    expect(await signer.sign({ requestHash: requestHash(request), keystore: 'owner', secret: await seal('sign', passphraseBytes(PASSPHRASE)) })).toMatchObject({ ok: false, code: 'NO_LOADED_REQUEST' });
  });

  it("refuses another owner's keystore before opening the passphrase, a wrong passphrase, and another request's hash", async () => {
    unwrap(signer.loadRequest(requestText));
    const secret = await seal('sign', passphraseBytes(PASSPHRASE));
    const other = await signer.sign({ requestHash: requestHash(request), keystore: 'spare', secret });
    expect(other).toMatchObject({ ok: false, code: 'OFFLINE_WRONG_OWNER', details: { field: 'request.owner.address' } });
    // The passphrase's exchange was thrown away unopened.
    expect(await secrets.open(secret, 'sign', 'secret')).toMatchObject({ ok: false, code: 'SECRET_EXCHANGE_FAILED' });
    expect(await signer.sign({ requestHash: requestHash(request), keystore: 'owner', secret: await seal('sign', passphraseBytes('not the passphrase at all')) })).toMatchObject({ ok: false, code: 'KEYSTORE_WRONG_PASSPHRASE' });
    expect(await signer.sign({ requestHash: `0x${'00'.repeat(32)}`, keystore: 'owner', secret: await seal('sign', passphraseBytes(PASSPHRASE)) })).toMatchObject({ ok: false, code: 'NO_LOADED_REQUEST' });
    expect(await signer.sign({ requestHash: requestHash(request), keystore: 'missing', secret: await seal('sign', passphraseBytes(PASSPHRASE)) })).toMatchObject({ ok: false, code: 'KEYSTORE_NOT_FOUND' });
    expect(OTHER).not.toBe(OWNER);
  });

  it('signs: the response file and its QR codes are accepted by the online side', async () => {
    unwrap(signer.loadRequest(requestText));
    const signed = unwrap(await signer.sign({ requestHash: requestHash(request), keystore: 'owner', secret: await seal('sign', passphraseBytes(PASSPHRASE)) }));
    expect(signed).toMatchObject({ requestId: request.request_id, requestHash: requestHash(request), signer: OWNER, fileName: `withdraw-request-${request.request_id.slice(0, 8)}.signature.json` });
    const accepted = verifyOfflineResponse(request, JSON.parse(signed.fileText), { nowSeconds: NOW + 120n });
    expect(accepted.ok).toBe(true);
    expect(signed.qrPayloads.length).toBeGreaterThanOrEqual(1);
    expect(signed.qrImages[0]).toMatch(/^data:image\/png;base64,/);
  });

  it('refuses an expired request, at load and at signing', async () => {
    unwrap(signer.loadRequest(requestText));
    const later = new ManualClock(clock.now());
    const expiredSigner = new OfflineSigner({ dataDir, clock: later, random, secrets, ownership: currentOwnership(), log: () => undefined });
    unwrap(expiredSigner.loadRequest(requestText));
    later.advance(24 * 3600 * 1000);
    expect(await expiredSigner.sign({ requestHash: requestHash(request), keystore: 'owner', secret: await seal('sign', passphraseBytes(PASSPHRASE)) })).toMatchObject({ ok: false, code: 'OFFLINE_EXPIRED' });
    expect(expiredSigner.loadRequest(requestText)).toMatchObject({ ok: false, code: 'OFFLINE_EXPIRED' });
  });
});
