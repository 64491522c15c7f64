import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addressOf } from '../../../../shared/crypto/address';
import { publicKeyOf } from '../../../../shared/crypto/keys';
import { FILE_CODES, currentOwnership } from '../../../../main/offline/file-permissions';
import {
  createKeystore,
  DEFAULT_SCRYPT,
  KEYSTORE_CODES,
  readKeystore,
  TEST_ONLY_WEAK_SCRYPT,
  withUnlockedKey,
  type CreateKeystoreOptions,
} from '../../../../main/offline/keystore';

const context = currentOwnership();
const posix = process.platform !== 'win32';
const passphrase = () => Buffer.from('correct horse battery staple');
const key = Uint8Array.from({ length: 32 }, (_, index) => index + 1);
const random = (length: number) => new Uint8Array(randomBytes(length));

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'keystore-test-'));
  chmodSync(directory, 0o700);
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

function options(overrides: Partial<CreateKeystoreOptions> = {}): CreateKeystoreOptions {
  return { path: join(directory, 'owner.keystore.json'), privateKey: key, style: 'ledger', passphrase: passphrase(), random, context, kdf: TEST_ONLY_WEAK_SCRYPT, allowWeakParametersForTests: true, ...overrides };
}

async function created(overrides: Partial<CreateKeystoreOptions> = {}): Promise<string> {
  const result = await createKeystore(options(overrides));
  if (!result.ok) throw new Error(result.message);
  return options(overrides).path;
}

function unlock(path: string, secret = passphrase()) {
  const read = readKeystore(path, context);
  if (!read.ok) return Promise.resolve(read);
  return withUnlockedKey(read.value.file, path, secret, (privateKey) => Uint8Array.from(privateKey));
}

function edit(path: string, change: (json: Record<string, unknown>) => void): void {
  const json = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  change(json);
  writeFileSync(path, JSON.stringify(json), { mode: 0o600 });
}

describe('keystore', () => {
  it('round trip: the key comes back; the header names the address and style; the file is 0600', async () => {
    for (const style of ['ledger', 'evm'] as const) {
      const path = await created({ style, path: join(directory, `${style}.json`) });
      const read = readKeystore(path, context);
      expect(read).toMatchObject({ ok: true, value: { header: { address: addressOf(publicKeyOf(key), style), style, kdf: TEST_ONLY_WEAK_SCRYPT, weak: true } } });
      expect(await unlock(path)).toEqual({ ok: true, value: key });
      if (posix) expect(statSync(path).mode & 0o777).toBe(0o600);
      const text = readFileSync(path, 'utf8');
      expect(text).not.toContain(Buffer.from(key).toString('hex'));
      expect(text).not.toContain('correct horse');
    }
  });

  it('the key handed to the caller is wiped when the callback returns', async () => {
    const path = await created();
    const read = readKeystore(path, context);
    if (!read.ok) throw new Error(read.message);
    let seen: Uint8Array | null = null;
    await withUnlockedKey(read.value.file, path, passphrase(), (privateKey) => {
      seen = privateKey;
      expect(Array.from(privateKey)).toEqual(Array.from(key));
    });
    expect(Array.from(seen!)).toEqual(new Array<number>(32).fill(0));
  });

  it('default parameters are strong and stored in the file (scrypt N=2^17, r=8, p=1)', async () => {
    expect(DEFAULT_SCRYPT).toEqual({ n: 131_072, r: 8, p: 1 });
    const path = await created({ kdf: undefined, allowWeakParametersForTests: undefined });
    const json = JSON.parse(readFileSync(path, 'utf8')) as { kdf: Record<string, unknown> };
    expect(json.kdf).toMatchObject({ name: 'scrypt', n: 131_072, r: 8, p: 1, length: 64 });
    expect(readKeystore(path, context)).toMatchObject({ ok: true, value: { header: { weak: false } } });
  });

  it('weak parameters and short passphrases are refused unless explicitly for tests', async () => {
    expect(await createKeystore(options({ allowWeakParametersForTests: false }))).toMatchObject({ ok: false, code: KEYSTORE_CODES.WEAK_PARAMETERS });
    expect(await createKeystore(options({ passphrase: Buffer.from('short') }))).toMatchObject({ ok: false, code: KEYSTORE_CODES.WEAK_PASSPHRASE, message: expect.stringContaining('passphrase: 5 bytes is too short') as unknown });
    expect(await createKeystore(options({ privateKey: new Uint8Array(32) }))).toMatchObject({ ok: false, code: KEYSTORE_CODES.INVALID_KEY });
  });

  it('KDF parameters are read from the file, and bound to it', async () => {
    const path = await created({ kdf: { n: 2 ** 11, r: 4, p: 2 } });
    expect(readKeystore(path, context)).toMatchObject({ ok: true, value: { header: { kdf: { n: 2048, r: 4, p: 2 } } } });
    expect((await unlock(path)).ok).toBe(true);
    // Cheapening the KDF in the file does not give the same key: the passphrase no longer checks.
    edit(path, (json) => ((json.kdf as Record<string, unknown>).n = 1024));
    expect(await unlock(path)).toMatchObject({ ok: false, code: KEYSTORE_CODES.WRONG_PASSPHRASE });
    // A doctored file cannot make the signer allocate gigabytes.
    edit(path, (json) => ((json.kdf as Record<string, unknown>).n = 2 ** 30));
    expect(readKeystore(path, context)).toMatchObject({ ok: false, code: KEYSTORE_CODES.MALFORMED, message: expect.stringContaining('.kdf.n: expected a power of two') as unknown });
  });

  it('a wrong passphrase is refused with a clear message', async () => {
    const path = await created();
    const result = await unlock(path, Buffer.from('correct horse battery stapler'));
    expect(result).toMatchObject({ ok: false, code: KEYSTORE_CODES.WRONG_PASSPHRASE, message: expect.stringContaining('wrong passphrase') as unknown });
    expect((result as { message: string }).message).toContain('Nothing was signed');
  });

  it('a tampered file is refused: another address, another style, a changed ciphertext or tag', async () => {
    const other = addressOf(publicKeyOf(Uint8Array.from({ length: 32 }, () => 9)), 'ledger');
    const edits: ((json: Record<string, unknown>) => void)[] = [
      (json) => (json.address = other),
      (json) => (json.style = 'evm'),
      (json) => (json.ciphertext = `${(json.ciphertext as string).slice(0, -2)}${(json.ciphertext as string).endsWith('00') ? '01' : '00'}`),
      (json) => (json.tag = '00'.repeat(16)),
      (json) => ((json.cipher as Record<string, unknown>).iv = '00'.repeat(12)),
    ];
    for (const [index, change] of edits.entries()) {
      const path = await created({ path: join(directory, `tampered-${index}.json`) });
      edit(path, change);
      const result = await unlock(path);
      expect(result).toMatchObject({ ok: false, code: KEYSTORE_CODES.TAMPERED, message: expect.stringContaining('the file was modified after it was written') as unknown });
    }
  });

  it('a malformed file or unknown version is refused with the field named', async () => {
    const path = await created();
    edit(path, (json) => (json.version = 2));
    expect(readKeystore(path, context)).toMatchObject({ ok: false, code: KEYSTORE_CODES.UNKNOWN_VERSION });
    const second = await created({ path: join(directory, 'second.json') });
    edit(second, (json) => delete json.passphrase_check);
    expect(readKeystore(second, context)).toMatchObject({ ok: false, code: KEYSTORE_CODES.MALFORMED, message: expect.stringContaining('passphrase_check') as unknown });
    writeFileSync(join(directory, 'junk.json'), 'not json', { mode: 0o600 });
    expect(readKeystore(join(directory, 'junk.json'), context)).toMatchObject({ ok: false, code: KEYSTORE_CODES.MALFORMED });
  });

  it.skipIf(!posix)('mode 0600 is enforced on the file, and the directory may not be writable by others', async () => {
    const path = await created();
    chmodSync(path, 0o644);
    const loose = readKeystore(path, context);
    expect(loose).toMatchObject({ ok: false, code: FILE_CODES.UNSAFE_PERMISSIONS });
    expect((loose as { message: string }).message).toMatch(/has mode 0644: other accounts on this machine can read the keystore.*chmod 600/);
    chmodSync(path, 0o600);
    expect(readKeystore(path, context).ok).toBe(true);
    chmodSync(directory, 0o777);
    expect(readKeystore(path, context)).toMatchObject({ ok: false, code: FILE_CODES.UNSAFE_PERMISSIONS, message: expect.stringContaining('other accounts on this machine can write to it') as unknown });
    chmodSync(directory, 0o1777);
    expect(readKeystore(path, context).ok).toBe(true);
    chmodSync(directory, 0o700);
    const link = join(directory, 'link.json');
    symlinkSync(path, link);
    expect(readKeystore(link, context)).toMatchObject({ ok: false, code: FILE_CODES.UNSAFE_PERMISSIONS, message: expect.stringContaining('symbolic link') as unknown });
    const shared = join(directory, 'shared');
    mkdirSync(shared, { mode: 0o777 });
    chmodSync(shared, 0o777);
    expect(await createKeystore(options({ path: join(shared, 'k.json') }))).toMatchObject({ ok: false, code: FILE_CODES.UNSAFE_PERMISSIONS });
  });

  it('never replaces an existing file', async () => {
    const path = await created();
    const before = readFileSync(path, 'utf8');
    expect(await createKeystore(options())).toMatchObject({ ok: false, code: FILE_CODES.EXISTS });
    expect(readFileSync(path, 'utf8')).toBe(before);
  });

  it('a missing file is named', () => {
    expect(readKeystore(join(directory, 'absent.json'), context)).toMatchObject({ ok: false, code: FILE_CODES.NOT_FOUND });
  });
});
