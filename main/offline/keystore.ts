// The offline signer's encrypted owner key. Versioned JSON:
//
//   {format:"ledger-terminal/keystore", version:1, address, style,
//    kdf:{name:"scrypt", n, r, p, salt, length:64}, cipher:{name:"aes-256-gcm", iv},
//    passphrase_check, ciphertext, tag}
//
// scrypt(passphrase, salt) gives 64 bytes: the first 32 are the AES-256-GCM key, the last 32 key
// an HMAC-SHA-256 of a fixed text (passphrase_check), which tells a wrong passphrase apart from a
// modified file. The associated data of the encryption is the canonical JSON of everything but
// passphrase_check, ciphertext and tag, so changing the address, style, KDF parameters or iv makes
// decryption fail: a file cannot be made to show another address, or be re-parameterised to a
// cheaper KDF, without the passphrase. The check value costs an attacker nothing extra: each guess
// still needs a full scrypt, the same as trying the decryption.
//
// scrypt N=2^17, r=8, p=1 (128 MiB, about 0.7 s here) by default; parameters are read from the
// file, so stronger ones can be chosen later without a format change. Secrets are Buffers wiped
// after use (best effort: OpenSSL and V8 may hold copies we cannot reach), never strings, and
// never written anywhere but the encrypted file.
import { createCipheriv, createDecipheriv, createHmac, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { addressOf, type OwnerStyle } from '../../shared/crypto/address';
import { isValidPrivateKey, publicKeyOf, type RandomBytes } from '../../shared/crypto/keys';
import type { B256 } from '../../shared/encoding/b256';
import { canonicalJson, prettyCanonicalJson, type CanonicalValue } from '../../shared/offline/canonical-json';
import { OFFLINE_CODES } from '../../shared/offline/codes';
import { checkFormatAndVersion } from '../../shared/offline/request-format';
import { fail, ok, type Result } from '../../shared/result';
import { parseWith } from '../../shared/schema';
import { checkPrivateFile, writeNewPrivateFile, type OwnershipContext } from './file-permissions';

export const KEYSTORE_FORMAT = 'ledger-terminal/keystore' as const;
export const KEYSTORE_VERSION = 1 as const;

export const KEYSTORE_CODES = {
  MALFORMED: 'KEYSTORE_MALFORMED',
  UNKNOWN_VERSION: 'KEYSTORE_UNKNOWN_VERSION',
  WRONG_PASSPHRASE: 'KEYSTORE_WRONG_PASSPHRASE',
  TAMPERED: 'KEYSTORE_TAMPERED',
  WEAK_PARAMETERS: 'KEYSTORE_WEAK_PARAMETERS',
  WEAK_PASSPHRASE: 'KEYSTORE_WEAK_PASSPHRASE',
  INVALID_KEY: 'KEYSTORE_INVALID_KEY',
} as const;

export interface ScryptParameters {
  /** CPU/memory cost, a power of two. */
  readonly n: number;
  readonly r: number;
  readonly p: number;
}

export const DEFAULT_SCRYPT: ScryptParameters = { n: 2 ** 17, r: 8, p: 1 };
/**
 * For automated tests only (the CLI's --test-only-weak-kdf): 1 MiB and a few milliseconds per
 * guess instead of 128 MiB, so a file made with it falls to a passphrase search 128 times faster.
 * Creating one needs `allowWeakParametersForTests`; opening one prints a warning.
 */
export const TEST_ONLY_WEAK_SCRYPT: ScryptParameters = { n: 2 ** 10, r: 8, p: 1 };

/** Bounds when reading a file: a doctored file must not make the signer allocate gigabytes. */
const LIMITS = { minimumLogN: 10, maximumLogN: 20, maximumR: 16, maximumP: 4, maximumMemory: 1024 * 1024 * 1024 } as const;
export const MINIMUM_PASSPHRASE_BYTES = 12;
const DERIVED_LENGTH = 64 as const;
const CHECK_TEXT = 'ledger-terminal keystore v1 passphrase check';
const MAXIMUM_FILE_BYTES = 64 * 1024;

const hex = (bytes: number, what: string) => z.string().regex(new RegExp(`^[0-9a-f]{${bytes * 2}}$`), `expected ${bytes} bytes as ${bytes * 2} lowercase hex digits (${what})`);

const keystoreSchema = z.strictObject({
  format: z.literal(KEYSTORE_FORMAT),
  version: z.literal(KEYSTORE_VERSION),
  address: z.string().regex(/^0x[0-9a-f]{64}$/, 'expected 0x followed by 64 lowercase hex digits'),
  style: z.enum(['ledger', 'evm']),
  kdf: z.strictObject({
    name: z.literal('scrypt'),
    n: z.number().int(),
    r: z.number().int().min(1).max(LIMITS.maximumR),
    p: z.number().int().min(1).max(LIMITS.maximumP),
    salt: hex(32, 'salt'),
    length: z.literal(DERIVED_LENGTH),
  }),
  cipher: z.strictObject({ name: z.literal('aes-256-gcm'), iv: hex(12, 'iv') }),
  passphrase_check: hex(32, 'HMAC-SHA-256'),
  ciphertext: hex(32, 'encrypted private key'),
  tag: hex(16, 'GCM tag'),
});

export type KeystoreFile = z.output<typeof keystoreSchema>;

/** What can be read without the passphrase (the address is authenticated only at unlock). */
export interface KeystoreHeader {
  readonly address: B256;
  readonly style: OwnerStyle;
  readonly kdf: ScryptParameters;
  /** True when the KDF parameters are below the defaults (a test-only file). */
  readonly weak: boolean;
}

function isWeak(parameters: ScryptParameters): boolean {
  return parameters.n * parameters.r * parameters.p < DEFAULT_SCRYPT.n * DEFAULT_SCRYPT.r * DEFAULT_SCRYPT.p;
}

function checkParameters(parameters: ScryptParameters, field: string): Result<void> {
  const logN = Math.log2(parameters.n);
  if (!Number.isInteger(logN) || logN < LIMITS.minimumLogN || logN > LIMITS.maximumLogN) {
    return fail(KEYSTORE_CODES.MALFORMED, `${field}.n: expected a power of two from 2^${LIMITS.minimumLogN} to 2^${LIMITS.maximumLogN}, got ${parameters.n}`, { field: `${field}.n` });
  }
  if (scryptMemory(parameters) > LIMITS.maximumMemory) {
    return fail(KEYSTORE_CODES.MALFORMED, `${field}: n=${parameters.n}, r=${parameters.r} would need more than 1 GiB of memory`, { field });
  }
  return ok(undefined);
}

function scryptMemory(parameters: ScryptParameters): number {
  return 128 * parameters.r * (parameters.n + parameters.p + 2);
}

function deriveKey(passphrase: Uint8Array, salt: Uint8Array, parameters: ScryptParameters): Promise<Buffer> {
  return new Promise((resolvePromise, reject) => {
    scryptCallback(
      passphrase,
      salt,
      DERIVED_LENGTH,
      { N: parameters.n, r: parameters.r, p: parameters.p, maxmem: scryptMemory(parameters) + 1024 * 1024 },
      (error, derived) => (error ? reject(error) : resolvePromise(derived)),
    );
  });
}

function passphraseCheck(derived: Buffer): Buffer {
  return createHmac('sha256', derived.subarray(32, 64)).update(CHECK_TEXT).digest();
}

/** The associated data: every field but the check value, ciphertext and tag, canonically. */
function associatedData(file: Pick<KeystoreFile, 'format' | 'version' | 'address' | 'style' | 'kdf' | 'cipher'>): Buffer {
  const header: CanonicalValue = { format: file.format, version: file.version, address: file.address, style: file.style, kdf: { ...file.kdf }, cipher: { ...file.cipher } };
  return Buffer.from(canonicalJson(header), 'ascii');
}

export function parseKeystore(value: unknown, path: string): Result<KeystoreFile> {
  const header = checkFormatAndVersion(value, KEYSTORE_FORMAT, KEYSTORE_VERSION, path);
  if (!header.ok) return fail(header.code === OFFLINE_CODES.UNKNOWN_VERSION ? KEYSTORE_CODES.UNKNOWN_VERSION : KEYSTORE_CODES.MALFORMED, header.message, header.details);
  const parsed = parseWith(keystoreSchema, value, path, KEYSTORE_CODES.MALFORMED);
  if (!parsed.ok) return parsed;
  const parameters = checkParameters(parsed.value.kdf, `${path}.kdf`);
  return parameters.ok ? parsed : parameters;
}

/** Read and check the file (permissions first, then shape) without the passphrase. */
export function readKeystore(path: string, context: OwnershipContext): Result<{ file: KeystoreFile; header: KeystoreHeader }> {
  const safe = checkPrivateFile(path, context);
  if (!safe.ok) return safe;
  let text: string;
  try {
    const bytes = readFileSync(path);
    if (bytes.length > MAXIMUM_FILE_BYTES) return fail(KEYSTORE_CODES.MALFORMED, `${path}: ${bytes.length} bytes is far larger than a keystore`, { field: path });
    text = bytes.toString('utf8');
  } catch (error) {
    return fail(KEYSTORE_CODES.MALFORMED, `${path}: could not read: ${error instanceof Error ? error.message : String(error)}`, { field: path });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return fail(KEYSTORE_CODES.MALFORMED, `${path}: not JSON; is this a keystore file?`, { field: path });
  }
  const file = parseKeystore(value, path);
  if (!file.ok) return file;
  const kdf = { n: file.value.kdf.n, r: file.value.kdf.r, p: file.value.kdf.p };
  return ok({ file: file.value, header: { address: file.value.address as B256, style: file.value.style, kdf, weak: isWeak(kdf) } });
}

export interface CreateKeystoreOptions {
  readonly path: string;
  readonly privateKey: Uint8Array;
  readonly style: OwnerStyle;
  readonly passphrase: Uint8Array;
  readonly random: RandomBytes;
  readonly context: OwnershipContext;
  readonly kdf?: ScryptParameters;
  /** Required to create a file with parameters below DEFAULT_SCRYPT. Tests only. */
  readonly allowWeakParametersForTests?: boolean;
}

/** Encrypt `privateKey` into a new file (mode 0600, never replacing one). The caller wipes its inputs. */
export async function createKeystore(options: CreateKeystoreOptions): Promise<Result<KeystoreHeader>> {
  const kdf = options.kdf ?? DEFAULT_SCRYPT;
  const parameters = checkParameters(kdf, 'kdf');
  if (!parameters.ok) return parameters;
  if (isWeak(kdf) && options.allowWeakParametersForTests !== true) {
    return fail(KEYSTORE_CODES.WEAK_PARAMETERS, `kdf: n=${kdf.n}, r=${kdf.r}, p=${kdf.p} is weaker than the default n=${DEFAULT_SCRYPT.n}, r=8, p=1; refused outside tests`, { field: 'kdf' });
  }
  if (options.passphrase.length < MINIMUM_PASSPHRASE_BYTES) {
    return fail(
      KEYSTORE_CODES.WEAK_PASSPHRASE,
      `passphrase: ${options.passphrase.length} bytes is too short; use at least ${MINIMUM_PASSPHRASE_BYTES} (several random words are easier to type than symbols)`,
      { field: 'passphrase' },
    );
  }
  if (!isValidPrivateKey(options.privateKey)) return fail(KEYSTORE_CODES.INVALID_KEY, 'private key: not a valid secp256k1 private key (zero or not below the group order)');
  const address = addressOf(publicKeyOf(options.privateKey), options.style);
  const salt = Buffer.from(options.random(32));
  const iv = Buffer.from(options.random(12));
  const header: Pick<KeystoreFile, 'format' | 'version' | 'address' | 'style' | 'kdf' | 'cipher'> = {
    format: KEYSTORE_FORMAT,
    version: KEYSTORE_VERSION,
    address,
    style: options.style,
    kdf: { name: 'scrypt', n: kdf.n, r: kdf.r, p: kdf.p, salt: salt.toString('hex'), length: DERIVED_LENGTH },
    cipher: { name: 'aes-256-gcm', iv: iv.toString('hex') },
  };
  const derived = await deriveKey(options.passphrase, salt, kdf);
  try {
    const cipher = createCipheriv('aes-256-gcm', derived.subarray(0, 32), iv, { authTagLength: 16 });
    cipher.setAAD(associatedData(header));
    const ciphertext = Buffer.concat([cipher.update(options.privateKey), cipher.final()]);
    const file: KeystoreFile = {
      ...header,
      passphrase_check: passphraseCheck(derived).toString('hex'),
      ciphertext: ciphertext.toString('hex'),
      tag: cipher.getAuthTag().toString('hex'),
    };
    const written = writeNewPrivateFile(options.path, `${prettyCanonicalJson(file)}\n`, options.context);
    if (!written.ok) return written;
    return ok({ address, style: options.style, kdf, weak: isWeak(kdf) });
  } finally {
    derived.fill(0);
  }
}

/**
 * Decrypt the key and hand it to `use`; the key bytes are wiped when `use` returns or throws, so
 * they exist only for the duration of one signature.
 */
export async function withUnlockedKey<T>(file: KeystoreFile, path: string, passphrase: Uint8Array, use: (privateKey: Uint8Array) => T): Promise<Result<T>> {
  const derived = await deriveKey(passphrase, Buffer.from(file.kdf.salt, 'hex'), file.kdf);
  let privateKey: Buffer | null = null;
  try {
    const expectedCheck = Buffer.from(file.passphrase_check, 'hex');
    if (!timingSafeEqual(passphraseCheck(derived), expectedCheck)) {
      return fail(KEYSTORE_CODES.WRONG_PASSPHRASE, `${path}: wrong passphrase (or the file's KDF parameters were changed). Nothing was signed.`, { field: 'passphrase' });
    }
    const decipher = createDecipheriv('aes-256-gcm', derived.subarray(0, 32), Buffer.from(file.cipher.iv, 'hex'), { authTagLength: 16 });
    decipher.setAAD(associatedData(file));
    decipher.setAuthTag(Buffer.from(file.tag, 'hex'));
    try {
      privateKey = Buffer.concat([decipher.update(Buffer.from(file.ciphertext, 'hex')), decipher.final()]);
    } catch {
      return fail(
        KEYSTORE_CODES.TAMPERED,
        `${path}: the passphrase is right but the file was modified after it was written (its address, style, iv or ciphertext ` +
          'no longer authenticate). Do not use it; restore the keystore from your backup.',
        { field: path },
      );
    }
    if (!isValidPrivateKey(privateKey) || addressOf(publicKeyOf(privateKey), file.style) !== file.address) {
      return fail(KEYSTORE_CODES.TAMPERED, `${path}: the decrypted key does not belong to ${file.address}; do not use this file`, { field: path });
    }
    return ok(use(privateKey));
  } finally {
    derived.fill(0);
    privateKey?.fill(0);
  }
}
