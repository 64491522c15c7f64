// The offline signer as a person runs it: the real CLI in a child process, a keystore it creates,
// a withdraw request built by the online side with shared/protocol, and the signature checked the
// way the online terminal checks it before submitting. Refusals exit 1 with the reason on stderr.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '../../../shared/crypto/signature';
import { b256, type B256 } from '../../../shared/encoding/b256';
import { packParallelNonce } from '../../../shared/nonce/parallel-packing';
import { parallelNonce, sequentialNonce, type NonceChoice } from '../../../shared/protocol/nonce-choice';
import { withdrawMessage } from '../../../shared/protocol/owner-messages';
import { personalSignDigest } from '../../../shared/crypto/digest';
import { buildWithdrawRequest, OFFLINE_NONCE_TTL_SECONDS } from '../../../shared/offline/build-request';
import { prettyCanonicalJson } from '../../../shared/offline/canonical-json';
import { requestToJson, type OfflineRequest } from '../../../shared/offline/request-format';
import { verifyOfflineResponse } from '../../../shared/offline/verify-response';

const root = resolve(import.meta.dirname, '../../..');
const PASSPHRASE = 'correct horse battery staple';
const tradeAccount = b256(`0x${'77'.repeat(32)}`);
const usdc = b256(`0x${'9c'.repeat(32)}`);
const destination = b256(`0x${'4e'.repeat(32)}`);

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(...args: string[]): Promise<Run> {
  return new Promise((resolvePromise, reject) => {
    // No LT_KEYSTORE_PASSPHRASE: the passphrase comes from a 0600 file, as --passphrase-file documents.
    const env = { ...process.env };
    delete env.LT_KEYSTORE_PASSPHRASE;
    const child = spawn(process.execPath, ['--import', 'tsx', 'main/offline/cli.ts', ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

const nowSeconds = () => BigInt(Math.floor(Date.now() / 1000));

let directory: string;
let keystore: string;
let passphraseFile: string;
let owner: B256;

function request(options: { owner?: B256; createdAt?: bigint; nonce?: NonceChoice; amount?: bigint } = {}): OfflineRequest {
  const built = buildWithdrawRequest({
    network: 'testnet',
    chain_id: 9n,
    owner: { address: options.owner ?? owner, style: 'ledger' },
    trade_account_id: tradeAccount,
    nowSeconds: options.createdAt ?? nowSeconds(),
    random: (length) => new Uint8Array(randomBytes(length)),
    nonce: options.nonce ?? sequentialNonce(41n),
    to: { Address: destination },
    amount: options.amount ?? 12_500_000n,
    asset: { id: usdc, symbol: 'USDC', decimals: 6 },
  });
  if (!built.ok) throw new Error(built.message);
  return built.value.request;
}

function writeRequest(name: string, value: OfflineRequest): string {
  return writeJson(name, JSON.parse(prettyCanonicalJson(requestToJson(value))));
}

function writeJson(name: string, value: unknown): string {
  const path = join(directory, name);
  writeFileSync(path, JSON.stringify(value, null, 2));
  return path;
}

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'offline-signer-'));
  chmodSync(directory, 0o700);
  passphraseFile = join(directory, 'passphrase.txt');
  writeFileSync(passphraseFile, `${PASSPHRASE}\n`, { mode: 0o600 });
  keystore = join(directory, 'owner.keystore.json');
  const created = await cli('create-keystore', '--out', keystore, '--style', 'ledger', '--passphrase-file', passphraseFile, '--test-only-weak-kdf');
  expect(created.code, created.stderr).toBe(0);
  const match = /^address: (0x[0-9a-f]{64})$/m.exec(created.stdout);
  if (!match) throw new Error(`no address in ${created.stdout}`);
  owner = b256(match[1]!);
  if (process.platform !== 'win32') expect(statSync(keystore).mode & 0o777).toBe(0o600);
});

afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('offline signer CLI (child process)', () => {
  it('address prints the keystore owner', async () => {
    const run = await cli('address', '--keystore', keystore);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`address: ${owner}`);
  });

  it('signs a withdraw request; the signature recovers to the owner and the online side accepts it', async () => {
    const pending = request();
    const requestPath = writeRequest('withdraw.json', pending);
    const qrDirectory = join(directory, 'qr');
    const run = await cli('sign', '--keystore', keystore, '--request', requestPath, '--yes', '--passphrase-file', passphraseFile, '--qr-dir', qrDirectory);
    expect(run.code, run.stderr).toBe(0);
    // It showed exactly what it signed.
    for (const needle of [pending.description, pending.message, pending.digest, 'sequential 41', '12500000 raw units = 12.5 USDC', 'Check: OK.']) expect(run.stdout).toContain(needle);
    const response = JSON.parse(readFileSync(join(directory, 'withdraw.signature.json'), 'utf8')) as Record<string, unknown>;
    expect(response.signer).toBe(owner);

    // Independently of the offline code: the message shared/protocol builds, the owner's digest, recovery.
    const message = withdrawMessage({ nonce: sequentialNonce(41n), chain_id: 9n }, { to: { Address: destination }, amount: 12_500_000n, asset_id: usdc });
    const signature = Buffer.from((response.signature as string).slice(2), 'hex');
    expect(verifySignature(signature, personalSignDigest(message, 'ledger'), owner, 'ledger')).toEqual({ ok: true, value: undefined });

    const accepted = verifyOfflineResponse(pending, response, { nowSeconds: nowSeconds() });
    expect(accepted).toMatchObject({ ok: true, value: { body: { kind: 'withdraw', body: { nonce: '41', amount: '12500000', signature: { Secp256k1: response.signature } } } } });

    // The same response through the QR parts, pasted in reverse order.
    const partsFile = readdirSync(qrDirectory).find((name) => name.endsWith('-parts.txt'))!;
    const parts = readFileSync(join(qrDirectory, partsFile), 'utf8').trim().split('\n');
    expect(readdirSync(qrDirectory).filter((name) => name.endsWith('.png'))).toHaveLength(parts.length);
    const png = readFileSync(join(qrDirectory, readdirSync(qrDirectory).find((name) => name.endsWith('.png'))!));
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
    const decodedPath = join(directory, 'from-qr.json');
    const decoded = await cli('qr-decode', '--out', decodedPath, ...[...parts].reverse());
    expect(decoded.code, decoded.stderr).toBe(0);
    expect(JSON.parse(readFileSync(decodedPath, 'utf8'))).toEqual(response);
  });

  it('a parallel-nonce request travels as QR parts and is signed with the typed variant', async () => {
    const expiry = nowSeconds() + OFFLINE_NONCE_TTL_SECONDS;
    const packed = packParallelNonce({ lane: 2, expiry, word_position: 5n, bit_position: 9 });
    if (!packed.ok) throw new Error(packed.message);
    const pending = request({ nonce: parallelNonce(packed.value) });
    const encoded = await cli('qr-encode', '--in', writeRequest('parallel.json', pending), '--out-dir', join(directory, 'qr-request'));
    expect(encoded.code, encoded.stderr).toBe(0);
    const parts = encoded.stdout.split('\n').filter((line) => line.startsWith('LTQR1/'));
    expect(parts.length).toBeGreaterThan(1);
    const carried = join(directory, 'carried.json');
    expect((await cli('qr-decode', '--out', carried, ...parts.slice(1), parts[0]!, parts[1]!)).code).toBe(0);
    const shown = await cli('show', '--request', carried);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('lane 2, word 5, bit 9');
    const signed = await cli('sign', '--keystore', keystore, '--request', carried, '--yes', '--passphrase-file', passphraseFile, '--out', join(directory, 'parallel.signature.json'));
    expect(signed.code, signed.stderr).toBe(0);
    const response = JSON.parse(readFileSync(join(directory, 'parallel.signature.json'), 'utf8')) as unknown;
    expect(verifyOfflineResponse(pending, response, { nowSeconds: nowSeconds() })).toMatchObject({ ok: true, value: { body: { body: { signature: { TypedSecp256k1: expect.any(String) as unknown } } } } });
  });

  it('refuses a tampered request (amount changed after the request was made)', async () => {
    const json = JSON.parse(JSON.stringify(requestToJson(request()))) as Record<string, Record<string, unknown>>;
    json.withdraw!.amount = '99912500000';
    const run = await cli('sign', '--keystore', keystore, '--request', writeJson('tampered.json', json), '--yes', '--passphrase-file', passphraseFile);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('REFUSED [OFFLINE_MESSAGE_MISMATCH] request.message: the stated bytes differ from the bytes rebuilt from the fields');
    expect(readdirSync(directory).some((name) => name.startsWith('tampered.signature'))).toBe(false);
  });

  it('refuses a request for another owner, before asking for the passphrase', async () => {
    const stranger = b256(`0x${'ab'.repeat(32)}`);
    const run = await cli('sign', '--keystore', keystore, '--request', writeRequest('stranger.json', request({ owner: stranger })), '--yes', '--passphrase-file', join(directory, 'absent'));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`REFUSED [OFFLINE_WRONG_OWNER] request.owner.address: the request is for owner ${stranger}`);
  });

  it('refuses an expired request', async () => {
    const stale = request({ createdAt: nowSeconds() - 2n * 86_400n });
    const run = await cli('sign', '--keystore', keystore, '--request', writeRequest('expired.json', stale), '--yes', '--passphrase-file', passphraseFile);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/REFUSED \[OFFLINE_EXPIRED\] request\.expires_at: the request expired at \S+ \(\d+\), \d+ seconds ago/);
  });

  it('a wrong passphrase, and a bad flag (exit 2, naming the flag and the value)', async () => {
    const wrongFile = join(directory, 'wrong.txt');
    writeFileSync(wrongFile, 'not the passphrase at all\n', { mode: 0o600 });
    const wrong = await cli('sign', '--keystore', keystore, '--request', writeRequest('again.json', request()), '--yes', '--passphrase-file', wrongFile);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('REFUSED [KEYSTORE_WRONG_PASSPHRASE]');
    const flag = await cli('sign', '--keystore', keystore, '--request', 'x.json', '--qr-level', 'H');
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('sign: unknown flag --qr-level');
    const value = await cli('import-keystore', '--out', 'x', '--style', 'bitcoin');
    expect(value.code).toBe(2);
    expect(value.stderr).toContain('--style: expected ledger or evm, got "bitcoin"');
  });
});
