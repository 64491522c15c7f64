// The offline signer of the app's offline mode: the same checks and words as the CLI
// (main/offline/cli.ts), behind the contract instead of a terminal. A request is loaded (file text
// or QR payloads), verified and shown line by line; a keystore of the data directory is chosen or
// made; the passphrase (and, to import, the private key) arrives encrypted through the secret
// exchange; the digest rebuilt from the fields is signed and the response handed back as a file
// text and QR codes. The key is decrypted only inside one signature and wiped after it.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../../../shared/clock';
import type { OwnerStyle } from '../../../shared/crypto/address';
import { generatePrivateKey, type RandomBytes } from '../../../shared/crypto/keys';
import type { KeystoreView, OfflineRequestPreview, OfflineSignatureView, SecretChallengeView } from '../../../shared/ipc/views';
import { OFFLINE_CODES } from '../../../shared/offline/codes';
import { formatUnixSeconds, requestDisplayLines } from '../../../shared/offline/describe';
import type { OfflineResponse } from '../../../shared/offline/response-format';
import { signVerifiedRequest } from '../../../shared/offline/sign';
import { verifyParsedRequest, type VerifiedRequest } from '../../../shared/offline/verify-request';
import { fail, ok, type Result } from '../../../shared/result';
import { checkPrivateDirectory, type OwnershipContext } from '../../offline/file-permissions';
import { createKeystore, readKeystore, withUnlockedKey, type ScryptParameters } from '../../offline/keystore';
import { ensureDirectory } from '../storage/files';
import { CUSTODY_CODES } from './codes';
import { carry, readDocumentText } from './documents';
import { requestFileName } from './request-views';
import type { EncryptedSecret, SecretExchange } from './secret-exchange';

export const KEYSTORE_DIRECTORY = 'keystores';
const KEYSTORE_SUFFIX = '.keystore.json';
const MAXIMUM_KEYSTORES = 64;
const PRIVATE_KEY_BYTES = 32;

export interface OfflineSignerDeps {
  readonly dataDir: string;
  readonly clock: Clock;
  readonly random: RandomBytes;
  readonly secrets: SecretExchange;
  readonly ownership: OwnershipContext;
  readonly log: (line: string) => void;
  /** Tests only: weaker scrypt parameters for keystores made here (keystore.ts refuses them otherwise). */
  readonly testOnlyKdf?: ScryptParameters;
}

function formatDuration(seconds: bigint): string {
  const hours = seconds / 3_600n;
  const minutes = (seconds % 3_600n) / 60n;
  return hours > 0n ? `${hours} h ${minutes} min` : `${minutes} min ${seconds % 60n} s`;
}

export class OfflineSigner {
  /** One request at a time, as Frame's air-gapped signer: the one shown is the one signed. */
  private loaded: VerifiedRequest | null = null;

  constructor(private readonly deps: OfflineSignerDeps) {}

  private nowSeconds(): bigint {
    return BigInt(Math.floor(this.deps.clock.now() / 1000));
  }

  private directory(): string {
    return join(this.deps.dataDir, KEYSTORE_DIRECTORY);
  }

  private keystorePath(name: string): string {
    return join(this.directory(), `${name}${KEYSTORE_SUFFIX}`);
  }

  async beginSecret(): Promise<SecretChallengeView> {
    return this.deps.secrets.begin();
  }

  loadRequest(text: string): Result<OfflineRequestPreview> {
    this.loaded = null;
    const document = readDocumentText(text, 'request');
    if (!document.ok) return document;
    const request = document.value.request;
    const now = this.nowSeconds();
    const verified = verifyParsedRequest(request, { nowSeconds: now });
    if (!verified.ok) return fail(verified.code, `${verified.message}. Nothing was loaded; do not sign this request.`, verified.details);
    this.loaded = verified.value;
    const warnings = [...verified.value.warnings];
    if (request.kind === 'withdraw') warnings.push('The symbol and decimals are labels from the online machine: check the asset id and the raw amount.');
    return ok({
      requestId: request.request_id,
      requestHash: verified.value.hash,
      kind: request.kind,
      owner: request.owner.address,
      ownerStyle: request.owner.style,
      lines: requestDisplayLines(request, verified.value.hash),
      warnings,
      check:
        `Check: OK. The message bytes and digest were rebuilt from the fields and match; this machine's clock says ${formatUnixSeconds(now)}, ` +
        `the request expires in ${formatDuration(request.expires_at - now)}.`,
      expiresAt: request.expires_at,
      checkedAt: now,
    });
  }

  listKeystores(): Result<KeystoreView[]> {
    const directory = this.directory();
    ensureDirectory(directory);
    let names: string[];
    try {
      names = readdirSync(directory).filter((file) => file.endsWith(KEYSTORE_SUFFIX) && !file.startsWith('.'));
    } catch (error) {
      return fail('FILE_IO', `${directory}: could not list the keystores: ${error instanceof Error ? error.message : String(error)}`);
    }
    return ok(
      names
        .sort()
        .slice(0, MAXIMUM_KEYSTORES)
        .map((file) => {
          const name = file.slice(0, -KEYSTORE_SUFFIX.length);
          const read = readKeystore(join(directory, file), this.deps.ownership);
          return read.ok
            ? { name, address: read.value.header.address, style: read.value.header.style, weak: read.value.header.weak, problem: null }
            : { name, address: null, style: null, weak: false, problem: `${read.code}: ${read.message}` };
        }),
    );
  }

  async createKeystore(input: { name: string; style: OwnerStyle; mode: 'generate' | 'import'; secret: EncryptedSecret }): Promise<Result<KeystoreView>> {
    const directory = this.directory();
    ensureDirectory(directory);
    const safe = checkPrivateDirectory(directory, this.deps.ownership);
    if (!safe.ok) {
      this.deps.secrets.discard(input.secret.exchangeId);
      return safe;
    }
    const opened = await this.deps.secrets.open(input.secret, input.mode === 'import' ? 'import' : 'create', 'secret');
    if (!opened.ok) return opened;
    const plain = opened.value;
    let privateKey: Uint8Array | null = null;
    try {
      if (input.mode === 'import' && plain.length <= PRIVATE_KEY_BYTES) {
        return fail(CUSTODY_CODES.SECRET_EXCHANGE_FAILED, `secret: an import carries the 32 key bytes and then the passphrase; got ${plain.length} bytes in all`, { field: 'secret' });
      }
      privateKey = input.mode === 'import' ? plain.slice(0, PRIVATE_KEY_BYTES) : generatePrivateKey(this.deps.random);
      const passphrase = input.mode === 'import' ? plain.subarray(PRIVATE_KEY_BYTES) : plain;
      const created = await createKeystore({
        path: this.keystorePath(input.name),
        privateKey,
        style: input.style,
        passphrase,
        random: this.deps.random,
        context: this.deps.ownership,
        ...(this.deps.testOnlyKdf ? { kdf: this.deps.testOnlyKdf, allowWeakParametersForTests: true } : {}),
      });
      if (!created.ok) return created.code === 'FILE_EXISTS' ? fail(CUSTODY_CODES.KEYSTORE_EXISTS, `name: a keystore named ${JSON.stringify(input.name)} exists already; it is never replaced`, { field: 'name' }) : created;
      this.deps.log(`offline signer: keystore ${input.name} created for ${created.value.address}`);
      return ok({ name: input.name, address: created.value.address, style: created.value.style, weak: created.value.weak, problem: null });
    } finally {
      plain.fill(0);
      privateKey?.fill(0);
    }
  }

  async sign(input: { requestHash: string; keystore: string; secret: EncryptedSecret }): Promise<Result<OfflineSignatureView>> {
    const loaded = this.loaded;
    const refuse = (result: Result<never>) => {
      this.deps.secrets.discard(input.secret.exchangeId);
      return result;
    };
    if (loaded === null) return refuse(fail(CUSTODY_CODES.NO_LOADED_REQUEST, 'requestHash: no request is loaded; load one and read it before signing', { field: 'requestHash' }));
    if (loaded.hash !== input.requestHash) {
      return refuse(
        fail(CUSTODY_CODES.NO_LOADED_REQUEST, `requestHash: the loaded request is ${loaded.hash}, not ${input.requestHash}; sign only the request on the screen`, { field: 'requestHash' }),
      );
    }
    // Time has passed since it was loaded: check again, expiry included.
    const verified = verifyParsedRequest(loaded.request, { nowSeconds: this.nowSeconds() });
    if (!verified.ok) return refuse(verified);
    const request = verified.value.request;
    const path = this.keystorePath(input.keystore);
    const read = readKeystore(path, this.deps.ownership);
    if (!read.ok) return refuse(read.code === 'FILE_NOT_FOUND' ? fail(CUSTODY_CODES.KEYSTORE_NOT_FOUND, `keystore: there is no keystore named ${JSON.stringify(input.keystore)}`, { field: 'keystore' }) : read);
    const { file, header } = read.value;
    if (header.address !== request.owner.address || header.style !== request.owner.style) {
      // Before the passphrase is opened: it should not be used for a key that cannot sign this.
      return refuse(
        fail(
          OFFLINE_CODES.WRONG_OWNER,
          `request.owner.address: the request is for owner ${request.owner.address} (${request.owner.style} style), but keystore ${input.keystore} holds ` +
            `${header.address} (${header.style} style); use that owner's keystore`,
          { field: 'request.owner.address' },
        ),
      );
    }
    const passphrase = await this.deps.secrets.open(input.secret, 'sign', 'secret');
    if (!passphrase.ok) return passphrase;
    let signed: Result<Result<OfflineResponse>>;
    try {
      signed = await withUnlockedKey(file, path, passphrase.value, (privateKey) => signVerifiedRequest(verified.value, privateKey));
    } finally {
      passphrase.value.fill(0);
    }
    if (!signed.ok) return signed;
    if (!signed.value.ok) return signed.value;
    const response = signed.value.value;
    const carried = await carry({ kind: 'response', response });
    if (!carried.ok) return carried;
    this.deps.log(`offline signer: signed request ${request.request_id} (${request.kind}) with ${header.address}`);
    return ok({
      requestId: request.request_id,
      requestHash: response.request_hash,
      signature: response.signature,
      signer: response.signer,
      fileName: requestFileName(request).replace(/\.json$/, '.signature.json'),
      ...carried.value,
    });
  }
}
