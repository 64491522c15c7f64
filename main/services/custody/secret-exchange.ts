// Secrets typed in the renderer of the offline mode (a keystore passphrase, a private key to
// import) reach main without crossing the bridge in plain text: a page script, a devtools session
// or a logged bridge frame sees only ciphertext under a one-time key. It is the recipe of
// key-import.ts (which the onboarding's key import uses), with a label per purpose so that a
// ciphertext made for one request cannot be replayed as another:
//   main:     one-time ECDH P-256 key pair; `offlineBeginSecret` returns {exchangeId (16 random bytes), publicKey}
//   renderer: its own one-time pair; shared = ECDH (the 32-byte X coordinate)
//   key    = HKDF-SHA-256(shared, salt = exchangeId bytes, info = "ledger-terminal offline secret v1 <purpose>"), 256 bits
//   cipher = AES-256-GCM(key, iv = 12 random bytes, plaintext), the 16-byte tag appended
// Purposes and plaintexts: `sign` and `create`: the passphrase's UTF-8 bytes; `import`: the 32
// private-key bytes followed by the passphrase's UTF-8 bytes. Each exchange is single-use and
// expires after five minutes; the plaintext is handed to one call and wiped by the caller.
import { webcrypto } from 'node:crypto';
import type { RandomBytes } from '../../../shared/crypto/keys';
import { bytesToHex } from '../../../shared/encoding/hex';
import { fail, ok, type Result } from '../../../shared/result';
import { CUSTODY_CODES } from './codes';

export type SecretPurpose = 'sign' | 'create' | 'import';

export const SECRET_INFO_PREFIX = 'ledger-terminal offline secret v1 ';
export const SECRET_CHALLENGE_TTL_MS = 5 * 60_000;
/** Open challenges at once: a page cannot make main hold an unbounded number of keys. */
const MAXIMUM_OPEN = 8;

export interface EncryptedSecret {
  readonly exchangeId: string;
  readonly publicKey: string;
  readonly iv: string;
  readonly ciphertext: string;
}

interface Challenge {
  readonly privateKey: webcrypto.CryptoKey;
  readonly expiresAt: number;
}

const subtle = webcrypto.subtle;

function hexBytes(hex: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}

export class SecretExchange {
  private readonly challenges = new Map<string, Challenge>();

  constructor(
    private readonly now: () => number,
    private readonly random: RandomBytes,
  ) {}

  async begin(): Promise<{ exchangeId: string; publicKey: string }> {
    this.prune();
    if (this.challenges.size >= MAXIMUM_OPEN) this.challenges.delete(this.challenges.keys().next().value!);
    const pair = (await subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, false, ['deriveBits'])) as webcrypto.CryptoKeyPair;
    const exchangeId = bytesToHex(this.random(16));
    this.challenges.set(exchangeId, { privateKey: pair.privateKey, expiresAt: this.now() + SECRET_CHALLENGE_TTL_MS });
    const raw = new Uint8Array(await subtle.exportKey('raw', pair.publicKey));
    return { exchangeId, publicKey: bytesToHex(raw) };
  }

  /** Decrypt a secret for `purpose`; the exchange is consumed whatever the result. The caller wipes the bytes. */
  async open(secret: EncryptedSecret, purpose: SecretPurpose, field: string): Promise<Result<Uint8Array>> {
    this.prune();
    const challenge = this.challenges.get(secret.exchangeId);
    this.challenges.delete(secret.exchangeId);
    if (!challenge) {
      return fail(CUSTODY_CODES.SECRET_EXCHANGE_FAILED, `${field}.exchangeId: exchange ${secret.exchangeId} expired or was already used; type the secret again`, { field: `${field}.exchangeId` });
    }
    try {
      const peer = await subtle.importKey('raw', hexBytes(secret.publicKey), { name: 'ECDH', namedCurve: 'P-256' }, false, []);
      const shared = new Uint8Array(await subtle.deriveBits({ name: 'ECDH', public: peer }, challenge.privateKey, 256));
      const material = await subtle.importKey('raw', shared, 'HKDF', false, ['deriveKey']);
      shared.fill(0);
      const key = await subtle.deriveKey(
        { name: 'HKDF', hash: 'SHA-256', salt: hexBytes(secret.exchangeId), info: new TextEncoder().encode(`${SECRET_INFO_PREFIX}${purpose}`) },
        material,
        { name: 'AES-GCM', length: 256 },
        false,
        ['decrypt'],
      );
      return ok(new Uint8Array(await subtle.decrypt({ name: 'AES-GCM', iv: hexBytes(secret.iv) }, key, hexBytes(secret.ciphertext))));
    } catch {
      return fail(
        CUSTODY_CODES.SECRET_EXCHANGE_FAILED,
        `${field}: the encrypted secret could not be opened (another exchange's key, another purpose than "${purpose}", or altered ciphertext); type it again`,
        { field },
      );
    }
  }

  /** Throw an exchange away unopened (the request was refused before its secret was needed). */
  discard(exchangeId: string): void {
    this.challenges.delete(exchangeId);
  }

  private prune(): void {
    const now = this.now();
    for (const [id, challenge] of this.challenges) if (challenge.expiresAt <= now) this.challenges.delete(id);
  }
}
