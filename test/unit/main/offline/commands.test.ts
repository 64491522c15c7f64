// The CLI's commands with a scripted terminal and stdin (the real process is covered by
// test/integration/offline). Keystores use the test-only KDF so each unlock takes milliseconds.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, type CliEnvironment } from '../../../../main/offline/commands';
import { currentOwnership } from '../../../../main/offline/file-permissions';
import type { Terminal } from '../../../../main/offline/terminal';
import { prettyCanonicalJson } from '../../../../shared/offline/canonical-json';
import { requestToJson } from '../../../../shared/offline/request-format';
import { ok } from '../../../../shared/result';
import { ledgerKey, NOW, ownerCallRequest, withdrawRequest } from '../../../support/shared/offline/fixtures';

const PASS = 'correct horse battery staple';

interface Script {
  hidden: (string | null)[];
  lines: (string | null)[];
}

function scriptedTerminal(script: Script): Terminal {
  return {
    readHidden: () => {
      const next = script.hidden.shift();
      return Promise.resolve(next === undefined || next === null ? null : Buffer.from(next));
    },
    readLine: () => Promise.resolve(script.lines.shift() ?? null),
    close: () => undefined,
  };
}

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'offline-cli-'));
  chmodSync(directory, 0o700);
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

function environment(options: { script?: Script; stdin?: string; terminal?: boolean; env?: Record<string, string> } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const script = options.script ?? { hidden: [], lines: [] };
  const env: CliEnvironment = {
    stdout: (text) => void out.push(text),
    stderr: (text) => void err.push(text),
    env: options.env ?? {},
    nowSeconds: () => NOW + 60n,
    random: (length) => new Uint8Array(randomBytes(length)),
    stdinIsTerminal: options.stdin === undefined,
    readStdin: () => Promise.resolve(ok(Buffer.from(options.stdin ?? ''))),
    openTerminal: () => (options.terminal === false ? null : scriptedTerminal(script)),
    ownership: currentOwnership(),
  };
  return { env, stdout: () => out.join(''), stderr: () => err.join('') };
}

async function importOwnerKeystore(): Promise<string> {
  const path = join(directory, 'owner.keystore.json');
  const run = environment({ stdin: `0x${Buffer.from(ledgerKey).toString('hex')}\n`, env: { LT_KEYSTORE_PASSPHRASE: PASS } });
  expect(await runCli(['import-keystore', '--out', path, '--style', 'ledger', '--test-only-weak-kdf'], run.env)).toBe(0);
  expect(run.stdout()).toContain(`address: ${withdrawRequest().request.owner.address}`);
  expect(run.stderr()).toContain('--test-only-weak-kdf');
  return path;
}

function writeRequest(): string {
  const path = join(directory, 'withdraw.json');
  writeFileSync(path, prettyCanonicalJson(requestToJson(withdrawRequest().request)));
  return path;
}

describe('offline signer commands', () => {
  it('import-keystore reads the key from stdin; sign asks for confirmation and the passphrase on the terminal', async () => {
    const keystore = await importOwnerKeystore();
    const request = writeRequest();
    const script: Script = { hidden: [PASS], lines: ['yes'] };
    const run = environment({ script });
    expect(await runCli(['sign', '--keystore', keystore, '--request', request], run.env)).toBe(0);
    expect(run.stdout()).toContain('What it does:');
    expect(run.stdout()).toContain('Check: OK.');
    const response = JSON.parse(readFileSync(join(directory, 'withdraw.signature.json'), 'utf8')) as Record<string, unknown>;
    expect(response).toMatchObject({ format: 'ledger-terminal/offline-signature', request_id: withdrawRequest().request.request_id });
    expect(script.lines).toEqual([]);
  });

  it('a declined confirmation signs nothing, and the passphrase is not even asked', async () => {
    const keystore = await importOwnerKeystore();
    const request = writeRequest();
    const script: Script = { hidden: [PASS], lines: ['no'] };
    const run = environment({ script });
    expect(await runCli(['sign', '--keystore', keystore, '--request', request], run.env)).toBe(1);
    expect(run.stderr()).toContain('REFUSED [DECLINED] confirmation: you answered "no"');
    expect(script.hidden).toEqual([PASS]);
  });

  it('without a terminal, sign needs --yes and a passphrase source', async () => {
    const keystore = await importOwnerKeystore();
    const request = writeRequest();
    const run = environment({ terminal: false });
    expect(await runCli(['sign', '--keystore', keystore, '--request', request], run.env)).toBe(1);
    expect(run.stderr()).toContain('REFUSED [NO_TERMINAL] confirmation');
    const second = environment({ terminal: false });
    expect(await runCli(['sign', '--keystore', keystore, '--request', request, '--yes'], second.env)).toBe(1);
    expect(second.stderr()).toContain('REFUSED [NO_TERMINAL] passphrase: there is no terminal to ask on; use --passphrase-file FILE or LT_KEYSTORE_PASSPHRASE');
  });

  it('a cancelled passphrase prompt, a wrong passphrase and a loose passphrase file are refused', async () => {
    const keystore = await importOwnerKeystore();
    const request = writeRequest();
    const cancelled = environment({ script: { hidden: [null], lines: [] } });
    expect(await runCli(['sign', '--keystore', keystore, '--request', request, '--yes'], cancelled.env)).toBe(1);
    expect(cancelled.stderr()).toContain('REFUSED [CANCELLED]');
    const wrong = environment({ env: { LT_KEYSTORE_PASSPHRASE: 'not the passphrase' } });
    expect(await runCli(['sign', '--keystore', keystore, '--request', request, '--yes'], wrong.env)).toBe(1);
    expect(wrong.stderr()).toContain('REFUSED [KEYSTORE_WRONG_PASSPHRASE]');
    const passphraseFile = join(directory, 'pass.txt');
    writeFileSync(passphraseFile, `${PASS}\n`, { mode: 0o644 });
    chmodSync(passphraseFile, 0o644);
    const loose = environment();
    expect(await runCli(['sign', '--keystore', keystore, '--request', request, '--yes', '--passphrase-file', passphraseFile], loose.env)).toBe(1);
    expect(loose.stderr()).toContain('REFUSED [FILE_UNSAFE_PERMISSIONS]');
  });

  it('create-keystore asks twice and refuses different entries', async () => {
    const run = environment({ script: { hidden: [PASS, null], lines: [] } });
    expect(await runCli(['create-keystore', '--out', join(directory, 'k.json'), '--style', 'evm', '--test-only-weak-kdf'], run.env)).toBe(1);
    expect(run.stderr()).toContain('REFUSED [CANCELLED]');
    const good = environment({ script: { hidden: [PASS, PASS], lines: [] } });
    expect(await runCli(['create-keystore', '--out', join(directory, 'k.json'), '--style', 'evm', '--test-only-weak-kdf'], good.env)).toBe(0);
    expect(good.stdout()).toMatch(/address: 0x0{24}[0-9a-f]{40}\nstyle: {3}evm \(20-byte form 0x[0-9a-f]{40}\)/);
  });

  it('import-keystore refuses a malformed key without echoing it', async () => {
    const run = environment({ stdin: 'deadbeef-not-a-key', env: { LT_KEYSTORE_PASSPHRASE: PASS } });
    expect(await runCli(['import-keystore', '--out', join(directory, 'k.json'), '--style', 'ledger'], run.env)).toBe(1);
    expect(run.stderr()).toContain('REFUSED [INVALID_KEY_INPUT] private key: expected 64 hex digits, got 18 characters');
    expect(run.stderr()).not.toContain('deadbeef');
  });

  it('show prints the refusal after the stated lines, marked as not verified', async () => {
    const path = writeRequest();
    const json = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    json.digest = `0x${'11'.repeat(32)}`;
    writeFileSync(path, JSON.stringify(json));
    const run = environment();
    expect(await runCli(['show', '--request', path], run.env)).toBe(1);
    expect(run.stdout()).toContain('NOT VERIFIED');
    expect(run.stderr()).toContain('REFUSED [OFFLINE_DIGEST_MISMATCH] request.digest: stated 0x1111');
  });

  it('show prints an owner-call request call by call, the stated method and parameters marked as unsigned', async () => {
    const verified = ownerCallRequest();
    const path = join(directory, 'owner-call.json');
    writeFileSync(path, prettyCanonicalJson(requestToJson(verified.request)));
    const run = environment();
    expect(await runCli(['show', '--request', path], run.env)).toBe(0);
    const call = verified.request.kind === 'owner-call' ? verified.request.owner_call.calls[0]! : null;
    expect(run.stdout()).toContain('Owner method:');
    expect(run.stdout()).toContain('settleBalance (stated by the online terminal; the calls below are what is signed)');
    expect(run.stdout()).toMatch(new RegExp(`Call 1/1 contract: +${call!.contract_id}`));
    expect(run.stdout()).toMatch(new RegExp(`Call 1/1 call data: +${call!.call_data!} \\(40 bytes\\)`));
    expect(run.stdout()).toContain('Check: OK.');
    // A control character in a stated parameter never reaches the terminal: the strict parse refuses the file first.
    const json = JSON.parse(readFileSync(path, 'utf8')) as { owner_call: { parameters: { value: string }[] } };
    json.owner_call.parameters[0]!.value = 'ETH\u001b]0;owned\u0007';
    writeFileSync(path, JSON.stringify(json));
    const tampered = environment();
    expect(await runCli(['show', '--request', path], tampered.env)).toBe(1);
    expect(tampered.stdout()).not.toContain('\u001b');
    expect(tampered.stderr()).toContain('request.owner_call.parameters[0].value');
  });

  it('usage errors exit 2', async () => {
    const run = environment();
    expect(await runCli(['sign', '--keystore'], run.env)).toBe(2);
    expect(run.stderr()).toContain('--keystore: needs a value (FILE)');
    expect(await runCli(['help'], environment().env)).toBe(0);
  });
});
