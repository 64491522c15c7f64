// Keys live in the OS keychain and are used only here, in main. Owner keys held hot and session
// keys are stored as small JSON records under accounts named `owner:<address>` and
// `session:<address>`. Nothing in this module returns a private key to its caller: callers get
// addresses and signatures over digests they computed for a request main itself built.
import { z } from 'zod';
import { b256, type B256 } from '../../../shared/encoding/b256';
import { bytesToHex } from '../../../shared/encoding/hex';
import { addressOf, type OwnerStyle } from '../../../shared/crypto/address';
import { generatePrivateKey, parsePrivateKey, publicKeyOf, type RandomBytes } from '../../../shared/crypto/keys';
import { signDigest } from '../../../shared/crypto/signature';
import { fail, ok, type Result } from '../../../shared/result';
import type { SecretStore } from './secret-store';

const recordSchema = z.object({
  v: z.literal(1),
  kind: z.enum(['owner', 'session']),
  style: z.enum(['ledger', 'evm']),
  key: z.string().regex(/^[0-9a-f]{64}$/),
});

type KeyRecord = z.output<typeof recordSchema>;

export const KEY_NOT_FOUND = 'KEY_NOT_FOUND';
export const KEY_CORRUPT = 'KEY_CORRUPT';

const ownerAccount = (address: B256) => `owner:${address}`;
const sessionAccount = (address: B256) => `session:${address}`;

function wipe(bytes: Uint8Array): void {
  bytes.fill(0);
}

/** Signs a 32-byte digest (spec 5.4 layout); shared/crypto's `signDigest` or an equivalent. */
export type DigestSigner = (digest: Uint8Array, privateKey: Uint8Array) => Uint8Array;

export class KeyVault {
  /** Session keys sign every order; keeping them in main's memory avoids a keychain round trip per order. */
  private readonly sessionKeys = new Map<B256, Uint8Array>();

  constructor(
    private readonly store: SecretStore,
    private readonly random: RandomBytes,
    private readonly signer: DigestSigner = signDigest,
  ) {}

  get storeDescription(): string {
    return this.store.description;
  }

  private async save(account: string, record: KeyRecord): Promise<Result<void>> {
    return this.store.set(account, JSON.stringify(record));
  }

  private async load(account: string, what: string): Promise<Result<{ key: Uint8Array; style: OwnerStyle }>> {
    const stored = await this.store.get(account);
    if (!stored.ok) return stored;
    if (stored.value === null) return fail(KEY_NOT_FOUND, `${what} is not in the ${this.store.description}`);
    let record: KeyRecord;
    try {
      record = recordSchema.parse(JSON.parse(stored.value));
    } catch {
      // Never echo the stored text: it is a secret.
      return fail(KEY_CORRUPT, `The ${this.store.description} entry for ${what} is not a key this app wrote`);
    }
    const key = parsePrivateKey(record.key, 'stored key');
    if (!key.ok) return fail(KEY_CORRUPT, `The ${this.store.description} entry for ${what} does not hold a valid key`);
    return ok({ key: key.value, style: record.style });
  }

  private async storeKey(kind: 'owner' | 'session', key: Uint8Array, style: OwnerStyle): Promise<Result<B256>> {
    const address = addressOf(publicKeyOf(key), style);
    const account = kind === 'owner' ? ownerAccount(address) : sessionAccount(address);
    const saved = await this.save(account, { v: 1, kind, style, key: bytesToHex(key) });
    if (!saved.ok) return saved;
    return ok(address);
  }

  async createOwnerKey(style: OwnerStyle): Promise<Result<B256>> {
    const key = generatePrivateKey(this.random);
    try {
      return await this.storeKey('owner', key, style);
    } finally {
      wipe(key);
    }
  }

  /** Store an owner key the user already has. The caller wipes its copy. */
  async importOwnerKey(key: Uint8Array, style: OwnerStyle): Promise<Result<B256>> {
    return this.storeKey('owner', key, style);
  }

  async hasOwnerKey(address: B256): Promise<Result<boolean>> {
    const stored = await this.store.get(ownerAccount(address));
    return stored.ok ? ok(stored.value !== null) : stored;
  }

  async deleteOwnerKey(address: B256): Promise<Result<boolean>> {
    return this.store.delete(ownerAccount(address));
  }

  /** Owner addresses whose keys are held in the keychain. */
  async ownerAddresses(): Promise<Result<B256[]>> {
    const listed = await this.store.list();
    if (!listed.ok) return listed;
    return ok(listed.value.filter((account) => account.startsWith('owner:')).map((account) => b256(account.slice('owner:'.length))));
  }

  /** Sign a digest main computed for an owner-signed request; the key is read, used and wiped. */
  async signAsOwner(address: B256, digest: Uint8Array): Promise<Result<Uint8Array>> {
    const loaded = await this.load(ownerAccount(address), `the owner key of ${address}`);
    if (!loaded.ok) return loaded;
    try {
      if (addressOf(publicKeyOf(loaded.value.key), loaded.value.style) !== address) {
        return fail(KEY_CORRUPT, `The key stored for ${address} belongs to another address`);
      }
      return ok(this.signer(digest, loaded.value.key));
    } finally {
      wipe(loaded.value.key);
    }
  }

  /** A new session key (always ledger-style); its address goes into the owner-signed session. */
  async createSessionKey(): Promise<Result<B256>> {
    const key = generatePrivateKey(this.random);
    const stored = await this.storeKey('session', key, 'ledger');
    if (!stored.ok) {
      wipe(key);
      return stored;
    }
    this.sessionKeys.set(stored.value, key);
    return stored;
  }

  async hasSessionKey(address: B256): Promise<Result<boolean>> {
    if (this.sessionKeys.has(address)) return ok(true);
    const stored = await this.store.get(sessionAccount(address));
    return stored.ok ? ok(stored.value !== null) : stored;
  }

  async signAsSession(address: B256, digest: Uint8Array): Promise<Result<Uint8Array>> {
    let key = this.sessionKeys.get(address);
    if (!key) {
      const loaded = await this.load(sessionAccount(address), `the session key ${address}`);
      if (!loaded.ok) return loaded;
      key = loaded.value.key;
      this.sessionKeys.set(address, key);
    }
    return ok(this.signer(digest, key));
  }

  /** Bring a session key into memory ahead of the hot path (after a restart). */
  async loadSessionKey(address: B256): Promise<Result<void>> {
    if (this.sessionKeys.has(address)) return ok(undefined);
    const loaded = await this.load(sessionAccount(address), `the session key ${address}`);
    if (!loaded.ok) return loaded;
    this.sessionKeys.set(address, loaded.value.key);
    return ok(undefined);
  }

  /** Synchronous signing for the hot order path, once the session key has been loaded. */
  signAsLoadedSession(address: B256, digest: Uint8Array): Result<Uint8Array> {
    const key = this.sessionKeys.get(address);
    if (!key) return fail(KEY_NOT_FOUND, `the session key ${address} is not loaded`);
    return ok(this.signer(digest, key));
  }

  async deleteSessionKey(address: B256): Promise<Result<boolean>> {
    const key = this.sessionKeys.get(address);
    if (key) wipe(key);
    this.sessionKeys.delete(address);
    return this.store.delete(sessionAccount(address));
  }

  /** Forget cached session keys (app quit); the keychain still holds them. */
  clearMemory(): void {
    for (const key of this.sessionKeys.values()) wipe(key);
    this.sessionKeys.clear();
  }
}
