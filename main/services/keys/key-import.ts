// Importing an owner key without the plaintext crossing the bridge. Main hands the renderer a
// one-time ECDH P-256 public key; the renderer encrypts the pasted key to it and sends only the
// ciphertext. Recipe (the renderer implements the same, renderer/src/features/onboarding):
//   shared = ECDH(P-256, main's one-time private key, renderer's one-time public key)
//   key    = HKDF-SHA-256(shared, salt = importId bytes, info = "ledger-terminal key import v1"), 256 bits
//   plain  = AES-256-GCM-decrypt(key, iv (12 bytes), ciphertext) = the 32 raw private-key bytes
// Each challenge is single-use and expires; a recorded bridge payload therefore holds no key.
import { webcrypto, randomBytes } from 'node:crypto';
import { fail, ok, type Result } from '../../../shared/result';

export const IMPORT_INFO = new TextEncoder().encode('ledger-terminal key import v1');
export const IMPORT_CHALLENGE_TTL_MS = 5 * 60_000;
export const KEY_IMPORT_FAILED = 'KEY_IMPORT_FAILED';

interface Challenge {
  readonly privateKey: webcrypto.CryptoKey;
  readonly expiresAt: number;
}

const subtle = webcrypto.subtle;

function hexToBytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}

export class KeyImportExchange {
  private readonly challenges = new Map<string, Challenge>();

  constructor(private readonly now: () => number) {}

  async begin(): Promise<{ importId: string; publicKey: string }> {
    this.prune();
    // At most a handful of open challenges: a page cannot make main hold unbounded keys.
    if (this.challenges.size >= 8) this.challenges.delete(this.challenges.keys().next().value!);
    const pair = (await subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, false, ['deriveBits'])) as webcrypto.CryptoKeyPair;
    const importId = randomBytes(16).toString('hex');
    this.challenges.set(importId, { privateKey: pair.privateKey, expiresAt: this.now() + IMPORT_CHALLENGE_TTL_MS });
    const raw = new Uint8Array(await subtle.exportKey('raw', pair.publicKey));
    return { importId, publicKey: Buffer.from(raw).toString('hex') };
  }

  /** Decrypt the 32-byte key; the challenge is consumed whatever the result. */
  async open(input: { importId: string; publicKey: string; iv: string; ciphertext: string }): Promise<Result<Uint8Array>> {
    this.prune();
    const challenge = this.challenges.get(input.importId);
    this.challenges.delete(input.importId);
    if (!challenge) return fail(KEY_IMPORT_FAILED, 'The key import expired or was already used; start the import again');
    try {
      const peer = await subtle.importKey('raw', hexToBytes(input.publicKey), { name: 'ECDH', namedCurve: 'P-256' }, false, []);
      const shared = await subtle.deriveBits({ name: 'ECDH', public: peer }, challenge.privateKey, 256);
      const hkdfKey = await subtle.importKey('raw', shared, 'HKDF', false, ['deriveKey']);
      const aesKey = await subtle.deriveKey(
        { name: 'HKDF', hash: 'SHA-256', salt: hexToBytes(input.importId), info: IMPORT_INFO },
        hkdfKey,
        { name: 'AES-GCM', length: 256 },
        false,
        ['decrypt'],
      );
      const plain = new Uint8Array(await subtle.decrypt({ name: 'AES-GCM', iv: hexToBytes(input.iv) }, aesKey, hexToBytes(input.ciphertext)));
      if (plain.length !== 32) {
        plain.fill(0);
        return fail(KEY_IMPORT_FAILED, `importOwnerKey: a private key is 32 bytes, the decrypted value has ${plain.length}`);
      }
      return ok(plain);
    } catch {
      return fail(KEY_IMPORT_FAILED, 'importOwnerKey: the encrypted key could not be decrypted (wrong public key, IV or ciphertext)');
    }
  }

  private prune(): void {
    const now = this.now();
    for (const [id, challenge] of this.challenges) if (challenge.expiresAt <= now) this.challenges.delete(id);
  }
}
