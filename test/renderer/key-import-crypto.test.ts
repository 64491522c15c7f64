// Round trip of the key-import recipe against Node's WebCrypto (globalThis.crypto in the node
// environment of this project) playing main's part, written from the recipe in the module's header.
import { describe, expect, it } from 'vitest';
import { bytesToHex, hexToBytes } from '../../shared/encoding/hex';
import { encryptKeyForImport, parsePrivateKeyText } from '../../renderer/src/features/onboarding/key-import-crypto';

const webcrypto = globalThis.crypto;
const subtle = webcrypto.subtle;
const hex = (bytes: Uint8Array) => bytesToHex(bytes);
const unhex = (text: string) => {
  const parsed = hexToBytes(text, 'test hex', { prefix: 'forbidden' });
  if (!parsed.ok) throw new Error(parsed.message);
  const bytes = new Uint8Array(parsed.value.length);
  bytes.set(parsed.value);
  return bytes;
};

async function mainSide() {
  const pair = await webcrypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, false, ['deriveBits']);
  const publicKey = new Uint8Array(await webcrypto.subtle.exportKey('raw', pair.publicKey));
  const importId = hex(webcrypto.getRandomValues(new Uint8Array(16)));
  return { pair, challenge: { importId, publicKey: hex(publicKey) } };
}

async function mainDecrypts(privateKey: CryptoKey, request: { importId: string; publicKey: string; iv: string; ciphertext: string }) {
  const peer = await webcrypto.subtle.importKey('raw', unhex(request.publicKey), { name: 'ECDH', namedCurve: 'P-256' }, false, []);
  const secret = await webcrypto.subtle.deriveBits({ name: 'ECDH', public: peer }, privateKey, 256);
  const hkdf = await webcrypto.subtle.importKey('raw', secret, 'HKDF', false, ['deriveBits']);
  const keyBytes = await webcrypto.subtle.deriveBits(
    { name: 'HKDF', hash: 'SHA-256', salt: unhex(request.importId), info: new TextEncoder().encode('ledger-terminal key import v1') },
    hkdf,
    256,
  );
  const aes = await webcrypto.subtle.importKey('raw', keyBytes, 'AES-GCM', false, ['decrypt']);
  return new Uint8Array(await webcrypto.subtle.decrypt({ name: 'AES-GCM', iv: unhex(request.iv) }, aes, unhex(request.ciphertext)));
}

describe('key import encryption', () => {
  it('round-trips: main recovers exactly the 32 key bytes, and the request carries no plaintext', async () => {
    const { pair, challenge } = await mainSide();
    const keyText = `0x${'11'.repeat(16)}${'a7'.repeat(16)}`;
    const parsed = parsePrivateKeyText(`  ${keyText.toUpperCase().replace('0X', '0x')}\n`);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const result = await encryptKeyForImport(subtle, (n) => new Uint8Array(n).fill(7), challenge, 'evm', parsed.value);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const request = result.value;
    expect(request).toMatchObject({ importId: challenge.importId, style: 'evm', iv: '07'.repeat(12) });
    expect(request.publicKey).toMatch(/^04[0-9a-f]{128}$/);
    expect(request.ciphertext).toMatch(/^[0-9a-f]{96}$/);
    expect(request.ciphertext).not.toContain('11'.repeat(16));
    const recovered = await mainDecrypts(pair.privateKey, request);
    expect(hex(recovered)).toBe(keyText.slice(2));
  });

  it('a tampered ciphertext or the wrong import id does not decrypt', async () => {
    const { pair, challenge } = await mainSide();
    const parsed = parsePrivateKeyText('22'.repeat(32));
    if (!parsed.ok) throw new Error(parsed.message);
    const result = await encryptKeyForImport(subtle, (n) => webcrypto.getRandomValues(new Uint8Array(n)), challenge, 'ledger', parsed.value);
    if (!result.ok) throw new Error(result.message);
    const flipped = { ...result.value, ciphertext: `${result.value.ciphertext.slice(0, -2)}00` === result.value.ciphertext ? `${result.value.ciphertext.slice(0, -2)}01` : `${result.value.ciphertext.slice(0, -2)}00` };
    await expect(mainDecrypts(pair.privateKey, flipped)).rejects.toThrow();
    await expect(mainDecrypts(pair.privateKey, { ...result.value, importId: '00'.repeat(16) })).rejects.toThrow();
  });

  it('refuses a malformed key or challenge with a reason', async () => {
    expect(parsePrivateKeyText('12345').ok).toBe(false);
    expect(parsePrivateKeyText('00'.repeat(32)).ok).toBe(false);
    expect(parsePrivateKeyText('zz'.repeat(32)).ok).toBe(false);
    const bytes = new Uint8Array(32).fill(1);
    const bad = await encryptKeyForImport(subtle, (n) => new Uint8Array(n), { importId: 'xyz', publicKey: '04' }, 'ledger', bytes);
    expect(bad.ok).toBe(false);
    const offCurve = await encryptKeyForImport(subtle, (n) => new Uint8Array(n), { importId: '00'.repeat(16), publicKey: `04${'01'.repeat(64)}` }, 'ledger', bytes);
    expect(offCurve).toMatchObject({ ok: false, code: 'BAD_CHALLENGE' });
  });
});
