// The offline signer's commands. Everything the process touches (output, environment, clock,
// randomness, stdin, the terminal) comes in through CliEnvironment, so the logic runs the same
// under tests; cli.ts binds it to the real process.
// Exit codes: 0 done, 1 refused or failed (the reason on stderr with its code), 2 usage error.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { evmAddressText, type OwnerStyle } from '../../shared/crypto/address';
import { generatePrivateKey, type RandomBytes } from '../../shared/crypto/keys';
import { checkAssetLabels, parseAssetLabels } from '../../shared/offline/asset-labels';
import { prettyCanonicalJson } from '../../shared/offline/canonical-json';
import { OFFLINE_CODES } from '../../shared/offline/codes';
import { formatDisplayLines, formatUnixSeconds, requestDisplayLines } from '../../shared/offline/describe';
import { parseOfflineDocument, type OfflineDocument } from '../../shared/offline/documents';
import { decodeQrParts, encodeDocumentQr, parsePayloadJson } from '../../shared/offline/qr-framing';
import { parseOfflineRequest, REQUEST_FORMAT, REQUEST_VERSION, requestHash, requestToJson, type OfflineRequest } from '../../shared/offline/request-format';
import { responseToJson, type OfflineResponse } from '../../shared/offline/response-format';
import { signVerifiedRequest } from '../../shared/offline/sign';
import { verifyParsedRequest, type VerifiedRequest } from '../../shared/offline/verify-request';
import { fail, ok, type Failure, type Result } from '../../shared/result';
import { parseCommandLine, usageText, USAGE_ERROR, type CommandSpec, type ParsedCommand } from './cli-flags';
import { writeNewPublicFile, type OwnershipContext } from './file-permissions';
import { createKeystore, readKeystore, TEST_ONLY_WEAK_SCRYPT, withUnlockedKey, type KeystoreHeader } from './keystore';
import { terminalQr, writeQrFiles } from './qr-output';
import { parsePrivateKeyInput, readPassphrase, PASSPHRASE_ENVIRONMENT_VARIABLE } from './secrets-input';
import type { Terminal } from './terminal';

export const EXIT = { OK: 0, REFUSED: 1, USAGE: 2 } as const;

export interface CliEnvironment {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Unix seconds. */
  readonly nowSeconds: () => bigint;
  readonly random: RandomBytes;
  readonly stdinIsTerminal: boolean;
  /** All of stdin, refused past `limit` bytes. */
  readonly readStdin: (limit: number) => Promise<Result<Buffer>>;
  readonly openTerminal: () => Terminal | null;
  readonly ownership: OwnershipContext;
}

const PROGRAM = 'offline-signer';
const MAXIMUM_DOCUMENT_BYTES = 1024 * 1024;

const file = (required: boolean) => ({ kind: 'string', required, placeholder: 'FILE' }) as const;
const styleFlag = { kind: 'string', required: true, values: ['ledger', 'evm'] } as const;
const passphraseFile = { kind: 'string', placeholder: 'FILE' } as const;

export const COMMANDS: Readonly<Record<string, CommandSpec>> = {
  'create-keystore': {
    flags: { out: file(true), style: styleFlag, 'passphrase-file': passphraseFile, 'test-only-weak-kdf': { kind: 'boolean' } },
    positionals: { minimum: 0, maximum: 0, name: 'arguments' },
    summary: 'generate an owner key, encrypt it into a new keystore FILE (mode 0600), print the address. --test-only-weak-kdf: scrypt N=2^10, for automated tests only',
  },
  'import-keystore': {
    flags: { out: file(true), style: styleFlag, 'passphrase-file': passphraseFile, 'test-only-weak-kdf': { kind: 'boolean' } },
    positionals: { minimum: 0, maximum: 0, name: 'arguments' },
    summary: 'encrypt an existing owner key into a new keystore FILE; the key (64 hex digits) is read from stdin, or from a hidden prompt',
  },
  address: {
    flags: { keystore: file(true), verify: { kind: 'boolean' }, 'passphrase-file': passphraseFile },
    positionals: { minimum: 0, maximum: 0, name: 'arguments' },
    summary: "print the keystore's address and style; --verify unlocks it to prove the key inside is that address",
  },
  show: {
    flags: { request: file(true), assets: file(false) },
    positionals: { minimum: 0, maximum: 0, name: 'arguments' },
    summary: 'print exactly what a request would sign (words, every field, nonce, message bytes, digest) and any reason it is refused',
  },
  sign: {
    flags: {
      keystore: file(true),
      request: file(true),
      out: file(false),
      'qr-dir': { kind: 'string', placeholder: 'DIR' },
      'qr-terminal': { kind: 'boolean' },
      yes: { kind: 'boolean' },
      'passphrase-file': passphraseFile,
      assets: file(false),
    },
    positionals: { minimum: 0, maximum: 0, name: 'arguments' },
    summary: 'show the request, ask for confirmation (unless --yes) and the passphrase, sign, write the signature response (and QR parts)',
  },
  'qr-encode': {
    flags: { in: file(true), 'out-dir': { kind: 'string', required: true, placeholder: 'DIR' }, terminal: { kind: 'boolean' } },
    positionals: { minimum: 0, maximum: 0, name: 'arguments' },
    summary: 'split a request or response file into QR parts: PNG and SVG files per part, the payload strings on stdout',
  },
  'qr-decode': {
    flags: { out: file(true) },
    positionals: { minimum: 1, maximum: 1_000, name: 'parts' },
    summary: 'reassemble QR payload strings (any order, repeats allowed) into a request or response FILE',
  },
  help: { flags: {}, positionals: { minimum: 0, maximum: 0, name: 'arguments' }, summary: 'print this text' },
};

class Refusal {
  constructor(readonly failure: Failure) {}
}

/** Unwrap or stop the command with the failure (caught in runCli and reported with its code). */
function need<T>(result: Result<T>): T {
  if (!result.ok) throw new Refusal(result);
  return result.value;
}

function readJsonFile(path: string, what: string): Result<unknown> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return fail(code === 'ENOENT' ? 'FILE_NOT_FOUND' : 'FILE_IO', `${path}: could not read ${what}: ${code === 'ENOENT' ? 'no such file' : String(error)}`, { field: path });
  }
  if (bytes.length > MAXIMUM_DOCUMENT_BYTES) return fail('FILE_TOO_LARGE', `${path}: ${bytes.length} bytes is larger than any ${what}`, { field: path });
  try {
    return ok(JSON.parse(bytes.toString('utf8')) as unknown);
  } catch (error) {
    return fail('NOT_JSON', `${path}: ${what} is not JSON (${error instanceof Error ? error.message : String(error)})`, { field: path });
  }
}

function formatDuration(seconds: bigint): string {
  const hours = seconds / 3_600n;
  const minutes = (seconds % 3_600n) / 60n;
  return hours > 0n ? `${hours} h ${minutes} min` : `${minutes} min ${seconds % 60n} s`;
}

class Session {
  constructor(
    private readonly environment: CliEnvironment,
    private readonly parsed: ParsedCommand,
  ) {}

  private flag(name: string): string | undefined {
    return this.parsed.strings.get(name);
  }

  private required(name: string): string {
    const value = this.parsed.strings.get(name);
    if (value === undefined) throw new Refusal(fail(USAGE_ERROR, `missing --${name}`));
    return value;
  }

  private out(text: string): void {
    this.environment.stdout(`${text}\n`);
  }

  private warn(text: string): void {
    this.environment.stderr(`warning: ${text}\n`);
  }

  private passphraseSources() {
    return {
      passphraseFile: this.flag('passphrase-file'),
      environment: this.environment.env,
      openTerminal: this.environment.openTerminal,
      ownership: this.environment.ownership,
      warn: (line: string) => this.warn(line),
    };
  }

  private reportKeystore(header: KeystoreHeader, path: string): void {
    this.out(`address: ${header.address}`);
    this.out(`style:   ${header.style}${header.style === 'evm' ? ` (20-byte form ${evmAddressText(header.address)})` : ''}`);
    this.out(`keystore: ${path} (scrypt n=${header.kdf.n}, r=${header.kdf.r}, p=${header.kdf.p}; AES-256-GCM)`);
    if (header.weak) this.warn(`this keystore uses test-only KDF parameters (scrypt n=${header.kdf.n}): never keep a real key in it`);
  }

  private async writeKeystore(privateKey: Uint8Array): Promise<number> {
    const path = this.required('out');
    const style = this.required('style') as OwnerStyle;
    const weak = this.parsed.booleans.has('test-only-weak-kdf');
    if (weak) this.warn('--test-only-weak-kdf: scrypt n=1024 (not 131072); a passphrase search against this file is about 128 times cheaper');
    const passphrase = need(await readPassphrase(this.passphraseSources(), true));
    try {
      const header = need(
        await createKeystore({
          path,
          privateKey,
          style,
          passphrase,
          random: this.environment.random,
          context: this.environment.ownership,
          ...(weak ? { kdf: TEST_ONLY_WEAK_SCRYPT, allowWeakParametersForTests: true } : {}),
        }),
      );
      this.reportKeystore(header, path);
      this.out('Back up this file and remember the passphrase: without both, the key is gone.');
      return EXIT.OK;
    } finally {
      passphrase.fill(0);
    }
  }

  async createKeystore(): Promise<number> {
    const key = generatePrivateKey(this.environment.random);
    try {
      return await this.writeKeystore(key);
    } finally {
      key.fill(0);
    }
  }

  async importKeystore(): Promise<number> {
    let input: Buffer;
    if (this.environment.stdinIsTerminal) {
      const terminal = this.environment.openTerminal();
      if (terminal === null) throw new Refusal(fail('NO_TERMINAL', 'private key: no terminal to ask on; pipe the key on stdin'));
      try {
        const typed = await terminal.readHidden('Private key, 64 hex digits (not shown): ');
        if (typed === null) throw new Refusal(fail('CANCELLED', 'private key: cancelled'));
        input = typed;
      } finally {
        terminal.close();
      }
    } else {
      input = need(await this.environment.readStdin(4096));
    }
    const key = need(parsePrivateKeyInput(input));
    try {
      return await this.writeKeystore(key);
    } finally {
      key.fill(0);
    }
  }

  async address(): Promise<number> {
    const path = this.required('keystore');
    const { file, header } = need(readKeystore(path, this.environment.ownership));
    this.reportKeystore(header, path);
    if (!this.parsed.booleans.has('verify')) {
      this.out('(read from the file header; it is authenticated when the key is unlocked: add --verify to unlock it now)');
      return EXIT.OK;
    }
    const passphrase = need(await readPassphrase(this.passphraseSources(), false));
    try {
      need(await withUnlockedKey(file, path, passphrase, () => undefined));
    } finally {
      passphrase.fill(0);
    }
    this.out('verified: the key in this keystore is this address');
    return EXIT.OK;
  }

  /** Read, parse and verify a request, printing it; refusals are printed and thrown. */
  private loadRequest(path: string): VerifiedRequest {
    const now = this.environment.nowSeconds();
    const request: OfflineRequest = need(parseOfflineRequest(need(readJsonFile(path, 'the request'))));
    const verified = verifyParsedRequest(request, { nowSeconds: now });
    this.out(`Offline signing request (${REQUEST_FORMAT}, version ${REQUEST_VERSION}) from ${path}`);
    this.out(formatDisplayLines(requestDisplayLines(request, requestHash(request))));
    if (!verified.ok) {
      this.out('NOT VERIFIED: the lines above are what the file says, not what would be signed.');
      throw new Refusal(verified);
    }
    const assetsPath = this.flag('assets');
    if (assetsPath !== undefined) {
      const labels = need(parseAssetLabels(need(readJsonFile(assetsPath, 'the asset list'))));
      need(checkAssetLabels(request, labels));
      if (request.kind === 'withdraw') this.out(`Asset label checked against ${assetsPath}.`);
    } else if (request.kind === 'withdraw') {
      this.out('The symbol and decimals are labels from the online machine: check the asset id (or pass --assets FILE).');
    }
    for (const warning of verified.value.warnings) this.out(`Note: ${warning}`);
    this.out(
      `Check: OK. The message bytes and digest were rebuilt from the fields and match; this machine's clock says ${formatUnixSeconds(now)}, ` +
        `the request expires in ${formatDuration(request.expires_at - now)}.`,
    );
    return verified.value;
  }

  show(): number {
    this.loadRequest(this.required('request'));
    return EXIT.OK;
  }

  private async confirm(): Promise<void> {
    if (this.parsed.booleans.has('yes')) {
      this.out('--yes: signing without asking.');
      return;
    }
    const terminal = this.environment.openTerminal();
    if (terminal === null) throw new Refusal(fail('NO_TERMINAL', 'confirmation: no terminal to ask on; review with `show` and pass --yes'));
    try {
      const answer = await terminal.readLine('Sign exactly this? Type yes and press Enter: ');
      if (answer?.trim() !== 'yes') throw new Refusal(fail('DECLINED', `confirmation: you answered ${JSON.stringify(answer ?? '')}, not "yes"; nothing was signed`));
    } finally {
      terminal.close();
    }
  }

  async sign(): Promise<number> {
    const requestPath = this.required('request');
    const keystorePath = this.required('keystore');
    const verified = this.loadRequest(requestPath);
    const { request } = verified;
    const { file, header } = need(readKeystore(keystorePath, this.environment.ownership));
    if (header.address !== request.owner.address || header.style !== request.owner.style) {
      // Checked before the passphrase is asked: a person should not type it for a key that cannot sign this.
      throw new Refusal(
        fail(
          OFFLINE_CODES.WRONG_OWNER,
          `request.owner.address: the request is for owner ${request.owner.address} (${request.owner.style} style), but ${keystorePath} holds ` +
            `${header.address} (${header.style} style); use that owner's keystore`,
          { field: 'request.owner.address' },
        ),
      );
    }
    if (header.weak) this.warn(`this keystore uses test-only KDF parameters (scrypt n=${header.kdf.n}): never keep a real key in it`);
    const outPath = this.flag('out') ?? `${requestPath.replace(/\.json$/, '')}.signature.json`;
    await this.confirm();
    const passphrase = need(await readPassphrase(this.passphraseSources(), false));
    let response: OfflineResponse;
    try {
      response = need(need(await withUnlockedKey(file, keystorePath, passphrase, (privateKey) => signVerifiedRequest(verified, privateKey))));
    } finally {
      passphrase.fill(0);
    }
    const document = responseToJson(response);
    need(writeNewPublicFile(outPath, `${prettyCanonicalJson(document)}\n`));
    this.out(`Signed. Signature ${response.signature}`);
    this.out(`Response written to ${outPath}: carry it (or the QR parts) back to the online terminal.`);
    await this.emitQr({ kind: 'response', response }, this.flag('qr-dir'), this.parsed.booleans.has('qr-terminal'));
    return EXIT.OK;
  }

  /** Frame the document as QR parts, write them to `directory` and/or the terminal; returns the parts. */
  private async emitQr(document: OfflineDocument, directory: string | undefined, terminal: boolean): Promise<string[]> {
    const json = document.kind === 'request' ? requestToJson(document.request) : responseToJson(document.response);
    const id = document.kind === 'request' ? document.request.request_id : document.response.request_id;
    const parts = need(encodeDocumentQr(json));
    if (directory !== undefined) {
      const written = need(await writeQrFiles(parts, directory, `${document.kind === 'request' ? 'request' : 'signature'}-${id.slice(0, 8)}`));
      this.out(`QR: ${parts.length} part${parts.length === 1 ? '' : 's'} written to ${directory} (${written.map((path) => basename(path)).join(', ')})`);
    }
    if (terminal) {
      for (const [index, part] of parts.entries()) {
        this.out(`QR part ${index + 1} of ${parts.length}:`);
        this.out(await terminalQr(part));
      }
    }
    return parts;
  }

  async qrEncode(): Promise<number> {
    const document = need(parseOfflineDocument(need(readJsonFile(this.required('in'), 'the document'))));
    const parts = await this.emitQr(document, this.required('out-dir'), this.parsed.booleans.has('terminal'));
    for (const part of parts) this.out(part);
    return EXIT.OK;
  }

  qrDecode(): number {
    const parts = this.parsed.positionals.map((part) => part.trim()).filter((part) => part !== '');
    const decoded = need(decodeQrParts(parts));
    const document = need(parseOfflineDocument(need(parsePayloadJson(decoded.payload))));
    const json = document.kind === 'request' ? requestToJson(document.request) : responseToJson(document.response);
    const outPath = this.required('out');
    need(writeNewPublicFile(outPath, `${prettyCanonicalJson(json)}\n`));
    const repeats = decoded.duplicates > 0 ? ` (${decoded.duplicates} repeated part${decoded.duplicates === 1 ? '' : 's'} ignored)` : '';
    if (document.kind === 'request') {
      this.out(`Request ${document.request.request_id} (${document.request.kind}) written to ${outPath}${repeats}. Review it with: ${PROGRAM} show --request ${outPath}`);
    } else {
      this.out(`Signature response for request ${document.response.request_id} written to ${outPath}${repeats}.`);
    }
    return EXIT.OK;
  }
}

/** Run one command; returns the exit code. */
export async function runCli(argv: readonly string[], environment: CliEnvironment): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h') {
    environment.stdout(`${usageText(PROGRAM, COMMANDS)}\n`);
    return argv.length === 0 ? EXIT.USAGE : EXIT.OK;
  }
  const parsed = parseCommandLine(argv, COMMANDS);
  if (!parsed.ok) {
    environment.stderr(`${PROGRAM}: ${parsed.message}\nRun "${PROGRAM} help" for the commands and flags.\n`);
    return EXIT.USAGE;
  }
  const session = new Session(environment, parsed.value);
  try {
    switch (parsed.value.command) {
      case 'help':
        environment.stdout(`${usageText(PROGRAM, COMMANDS)}\n\nThe passphrase comes from a hidden prompt, --passphrase-file FILE, or ${PASSPHRASE_ENVIRONMENT_VARIABLE} (tests); never from argv.\n`);
        return EXIT.OK;
      case 'create-keystore':
        return await session.createKeystore();
      case 'import-keystore':
        return await session.importKeystore();
      case 'address':
        return await session.address();
      case 'show':
        return session.show();
      case 'sign':
        return await session.sign();
      case 'qr-encode':
        return await session.qrEncode();
      case 'qr-decode':
        return session.qrDecode();
      default:
        environment.stderr(`${PROGRAM}: no handler for ${parsed.value.command}\n`);
        return EXIT.USAGE;
    }
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    const { code, message } = error.failure;
    environment.stderr(`REFUSED [${code}] ${message}\n`);
    return code === USAGE_ERROR ? EXIT.USAGE : EXIT.REFUSED;
  }
}
