// Sending a secret typed on the offline machine (a keystore passphrase, a private key to import) to
// main without putting it on the bridge in plain text: a page script or a logged frame sees only
// ciphertext under a one-time key. The recipe is main's (main/services/custody/secret-exchange.ts),
// the onboarding's key import with a label per purpose:
//   challenge = offlineBeginSecret()  -> { exchangeId (16 bytes hex), publicKey (P-256, raw uncompressed, hex) }
//   shared    = ECDH(our one-time private key, main's public key): 32 bytes
//   key       = HKDF-SHA-256(shared, salt = exchangeId bytes, info = "ledger-terminal offline secret v1 <purpose>")
//   secret    = { exchangeId, publicKey: ours, iv: 12 random bytes, ciphertext: AES-256-GCM with the tag appended }
// Plaintexts: `sign` and `create` the passphrase's UTF-8 bytes; `import` the 32 key bytes then the passphrase.
// The caller wipes the plaintext after this returns.
import { bytesToHex, hexToBytes } from '../../../../shared/encoding/hex';
import type { SecretChallengeView } from '../../../../shared/ipc/views/custody';
import { fail, ok, type Result } from '../../../../shared/result';

export type SecretPurpose = 'sign' | 'create' | 'import';

export const SECRET_INFO_PREFIX = 'ledger-terminal offline secret v1 ';

export interface EncryptedSecretInput {
  readonly exchangeId: string;
  readonly publicKey: string;
  readonly iv: string;
  readonly ciphertext: string;
}

/** WebCrypto's SubtleCrypto, typed the same way in the browser and in Node's tests. */
export type Subtle = typeof crypto.subtle;

export type RandomBytes = (length: number) => Uint8Array<ArrayBuffer>;

export const webRandom: RandomBytes = (length) => crypto.getRandomValues(new Uint8Array(length));

function owned(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  return copy;
}

/** UTF-8 bytes of a passphrase; wipe them after use. */
export function passphraseBytes(text: string): Uint8Array<ArrayBuffer> {
  return owned(new TextEncoder().encode(text));
}

/** The `import` plaintext: the 32 key bytes, then the passphrase. Wipe it after use. */
export function keyThenPassphrase(privateKey: Uint8Array, passphrase: Uint8Array): Uint8Array<ArrayBuffer> {
  const joined = new Uint8Array(privateKey.length + passphrase.length);
  joined.set(privateKey, 0);
  joined.set(passphrase, privateKey.length);
  return joined;
}

export async function encryptSecret(
  subtle: Subtle,
  random: RandomBytes,
  challenge: SecretChallengeView,
  purpose: SecretPurpose,
  plaintext: Uint8Array<ArrayBuffer>,
): Promise<Result<EncryptedSecretInput>> {
  if (!/^[0-9a-f]{32}$/.test(challenge.exchangeId)) return fail('BAD_CHALLENGE', 'Main sent an exchange id that is not 16 bytes of hex.');
  const mainPublic = hexToBytes(challenge.publicKey, 'main public key', { prefix: 'forbidden', length: 65 });
  if (!mainPublic.ok || mainPublic.value[0] !== 4) return fail('BAD_CHALLENGE', 'Main sent a public key that is not an uncompressed P-256 point.');
  const salt = hexToBytes(challenge.exchangeId, 'exchange id', { prefix: 'forbidden', length: 16 });
  if (!salt.ok) return fail('BAD_CHALLENGE', salt.message);
  let mainKey: Awaited<ReturnType<Subtle['importKey']>>;
  try {
    mainKey = await subtle.importKey('raw', owned(mainPublic.value), { name: 'ECDH', namedCurve: 'P-256' }, false, []);
  } catch {
    return fail('BAD_CHALLENGE', 'Main sent a public key that is not on the P-256 curve.');
  }
  const ephemeral = (await subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, false, ['deriveBits'])) as { publicKey: typeof mainKey; privateKey: typeof mainKey };
  const shared = new Uint8Array(await subtle.deriveBits({ name: 'ECDH', public: mainKey }, ephemeral.privateKey, 256));
  const material = await subtle.importKey('raw', shared, 'HKDF', false, ['deriveKey']);
  shared.fill(0);
  const key = await subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: owned(salt.value), info: owned(new TextEncoder().encode(`${SECRET_INFO_PREFIX}${purpose}`)) },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt'],
  );
  const iv = random(12);
  const ciphertext = new Uint8Array(await subtle.encrypt({ name: 'AES-GCM', iv }, key, plaintext));
  const ours = new Uint8Array(await subtle.exportKey('raw', ephemeral.publicKey));
  return ok({ exchangeId: challenge.exchangeId, publicKey: bytesToHex(ours), iv: bytesToHex(iv), ciphertext: bytesToHex(ciphertext) });
}
