// Encrypting a pasted owner key to main, so the plaintext key never crosses the bridge (a page
// script or a logged frame sees only ciphertext under a one-time key).
//
// The recipe, which main implements on its side exactly as written here:
// 1. main: `beginKeyImport()` -> { importId: 32 lowercase hex digits (16 bytes),
//    publicKey: main's one-time ECDH P-256 public key, raw uncompressed (65 bytes, 0x04 || X || Y), hex }.
// 2. renderer: a fresh ephemeral ECDH P-256 key pair (WebCrypto), used once.
// 3. shared secret = ECDH(renderer private, main public): the 32-byte X coordinate (WebCrypto deriveBits, 256 bits).
// 4. AES key = HKDF-SHA-256(ikm = shared secret, salt = the 16 bytes of importId decoded from hex,
//    info = UTF-8 "ledger-terminal key import v1", length 32 bytes), used as AES-256-GCM.
// 5. iv = 12 random bytes; ciphertext = AES-256-GCM(key, iv, plaintext = the 32 raw private key
//    bytes, no additional data); the 16-byte tag is appended to the ciphertext (WebCrypto's layout), 48 bytes in all.
// 6. `importOwnerKey({ importId, style, publicKey: renderer's raw uncompressed public key hex,
//    iv: hex, ciphertext: hex })`, all hex lowercase without 0x.
// Main decrypts, checks the key, and discards its one-time key pair whatever the outcome.
import { bytesToHex, hexToBytes } from '../../../../shared/encoding/hex';
import type { OwnerStyle } from '../../../../shared/crypto/address';
import type { RequestInput } from '../../../../shared/ipc/contract';
import type { KeyImportChallenge } from '../../../../shared/ipc/views/account';
import { fail, ok, type Result } from '../../../../shared/result';

export const KEY_IMPORT_INFO = 'ledger-terminal key import v1';

export type ImportRequest = RequestInput<'importOwnerKey'>;

/** Randomness is a parameter so tests can fix the IV; the app passes crypto.getRandomValues. */
export type RandomBytes = (length: number) => Uint8Array<ArrayBuffer>;

export const webRandom: RandomBytes = (length) => crypto.getRandomValues(new Uint8Array(length));

/**
 * Parse a pasted private key: 64 hex digits, optional 0x, surrounding whitespace ignored.
 * The caller wipes the returned bytes after use.
 */
export function parsePrivateKeyText(text: string): Result<Uint8Array<ArrayBuffer>> {
  const trimmed = text.trim();
  const parsed = hexToBytes(trimmed, 'private key', { prefix: 'optional', length: 32 });
  if (!parsed.ok) return fail('INVALID_KEY', 'The private key must be 64 hexadecimal digits (32 bytes), with or without 0x.');
  const bytes = new Uint8Array(32);
  bytes.set(parsed.value);
  parsed.value.fill(0);
  if (bytes.every((byte) => byte === 0)) return fail('INVALID_KEY', 'The private key cannot be zero.');
  return ok(bytes);
}

function copyBytes(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  return copy;
}

/** Derive the AES-256-GCM key of the recipe from a shared ECDH secret. */
export async function deriveImportKey(subtle: SubtleCrypto, sharedSecret: Uint8Array<ArrayBuffer>, importIdBytes: Uint8Array<ArrayBuffer>, usage: KeyUsage): Promise<CryptoKey> {
  const material = await subtle.importKey('raw', sharedSecret, 'HKDF', false, ['deriveKey']);
  return subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: importIdBytes, info: new TextEncoder().encode(KEY_IMPORT_INFO) },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    [usage],
  );
}

/** Encrypt the private key to main's one-time key; returns the importOwnerKey input. */
export async function encryptKeyForImport(
  subtle: SubtleCrypto,
  random: RandomBytes,
  challenge: KeyImportChallenge,
  style: OwnerStyle,
  privateKey: Uint8Array<ArrayBuffer>,
): Promise<Result<ImportRequest>> {
  if (!/^[0-9a-f]{32}$/.test(challenge.importId)) return fail('BAD_CHALLENGE', 'Main sent an import id that is not 16 bytes of hex.');
  const mainPublic = hexToBytes(challenge.publicKey, 'main public key', { prefix: 'forbidden', length: 65 });
  if (!mainPublic.ok || mainPublic.value[0] !== 4) return fail('BAD_CHALLENGE', 'Main sent a public key that is not an uncompressed P-256 point.');
  const importIdBytes = hexToBytes(challenge.importId, 'import id', { prefix: 'forbidden', length: 16 });
  if (!importIdBytes.ok) return fail('BAD_CHALLENGE', importIdBytes.message);
  if (privateKey.length !== 32) return fail('INVALID_KEY', 'The private key must be 32 bytes.');

  let mainKey: CryptoKey;
  try {
    mainKey = await subtle.importKey('raw', copyBytes(mainPublic.value), { name: 'ECDH', namedCurve: 'P-256' }, false, []);
  } catch {
    return fail('BAD_CHALLENGE', 'Main sent a public key that is not on the P-256 curve.');
  }
  const ephemeral = (await subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, false, ['deriveBits'])) as CryptoKeyPair;
  const shared = new Uint8Array(await subtle.deriveBits({ name: 'ECDH', public: mainKey }, ephemeral.privateKey, 256));
  const aesKey = await deriveImportKey(subtle, shared, copyBytes(importIdBytes.value), 'encrypt');
  shared.fill(0);
  const iv = random(12);
  const ciphertext = new Uint8Array(await subtle.encrypt({ name: 'AES-GCM', iv }, aesKey, privateKey));
  const rendererPublic = new Uint8Array(await subtle.exportKey('raw', ephemeral.publicKey));
  return ok({
    importId: challenge.importId,
    style,
    publicKey: bytesToHex(rendererPublic),
    iv: bytesToHex(iv),
    ciphertext: bytesToHex(ciphertext),
  });
}
