import { webcrypto, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { IMPORT_INFO, KeyImportExchange } from '../../../../../main/services/keys/key-import';

const subtle = webcrypto.subtle;
const hex = (bytes: Uint8Array | ArrayBuffer) => Buffer.from(bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes).toString('hex');

/** What the renderer does (the same recipe, written independently here). */
async function encryptForMain(challenge: { importId: string; publicKey: string }, secret: Uint8Array) {
  const pair = (await subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits'])) as webcrypto.CryptoKeyPair;
  const mainKey = await subtle.importKey('raw', Buffer.from(challenge.publicKey, 'hex'), { name: 'ECDH', namedCurve: 'P-256' }, false, []);
  const bits = await subtle.deriveBits({ name: 'ECDH', public: mainKey }, pair.privateKey, 256);
  const hkdf = await subtle.importKey('raw', bits, 'HKDF', false, ['deriveKey']);
  const aes = await subtle.deriveKey({ name: 'HKDF', hash: 'SHA-256', salt: Buffer.from(challenge.importId, 'hex'), info: IMPORT_INFO }, hkdf, { name: 'AES-GCM', length: 256 }, false, ['encrypt']);
  const iv = randomBytes(12);
  const ciphertext = await subtle.encrypt({ name: 'AES-GCM', iv }, aes, secret);
  return { importId: challenge.importId, publicKey: hex(await subtle.exportKey('raw', pair.publicKey)), iv: hex(iv), ciphertext: hex(ciphertext) };
}

describe('key import exchange', () => {
  it('recovers the key the renderer encrypted, and nothing on the wire contains it', async () => {
    const exchange = new KeyImportExchange(() => 0);
    const challenge = await exchange.begin();
    const secret = new Uint8Array(randomBytes(32));
    const message = await encryptForMain(challenge, secret);
    expect(JSON.stringify(message)).not.toContain(hex(secret));
    expect(await exchange.open(message)).toEqual({ ok: true, value: secret });
  });

  it('uses each challenge once and lets it expire', async () => {
    let now = 0;
    const exchange = new KeyImportExchange(() => now);
    const challenge = await exchange.begin();
    const message = await encryptForMain(challenge, new Uint8Array(32).fill(7));
    expect((await exchange.open(message)).ok).toBe(true);
    expect(await exchange.open(message)).toMatchObject({ ok: false, code: 'KEY_IMPORT_FAILED' });
    const late = await exchange.begin();
    now = 10 * 60_000;
    expect(await exchange.open(await encryptForMain(late, new Uint8Array(32).fill(7)))).toMatchObject({ ok: false, message: expect.stringMatching(/expired/) });
  });

  it('refuses a tampered ciphertext', async () => {
    const exchange = new KeyImportExchange(() => 0);
    const message = await encryptForMain(await exchange.begin(), new Uint8Array(32).fill(9));
    const flipped = { ...message, ciphertext: `${message.ciphertext.slice(0, -2)}${message.ciphertext.endsWith('00') ? '01' : '00'}` };
    expect(await exchange.open(flipped)).toMatchObject({ ok: false, code: 'KEY_IMPORT_FAILED' });
  });
});
