// Secrets coming in: the keystore passphrase and, for import, the private key. They arrive as
// bytes and stay bytes (a JS string cannot be wiped); they never come from argv (see cli-flags.ts).
import { readFileSync } from 'node:fs';
import { fail, ok, type Result } from '../../shared/result';
import { checkPrivateFile, type OwnershipContext } from './file-permissions';
import type { Terminal } from './terminal';

export const PASSPHRASE_ENVIRONMENT_VARIABLE = 'LT_KEYSTORE_PASSPHRASE';

export const SECRET_CODES = {
  NO_TERMINAL: 'NO_TERMINAL',
  CANCELLED: 'CANCELLED',
  PASSPHRASES_DIFFER: 'PASSPHRASES_DIFFER',
  INVALID_KEY_INPUT: 'INVALID_KEY_INPUT',
} as const;

export interface PassphraseSources {
  readonly passphraseFile: string | undefined;
  readonly environment: Readonly<Record<string, string | undefined>>;
  readonly openTerminal: () => Terminal | null;
  readonly ownership: OwnershipContext;
  readonly warn: (line: string) => void;
}

/** Strip one trailing newline (what an editor or `echo` adds), nothing else: spaces are part of a passphrase. */
function withoutTrailingNewline(bytes: Buffer): Buffer {
  let end = bytes.length;
  if (end > 0 && bytes[end - 1] === 0x0a) end--;
  if (end > 0 && bytes[end - 1] === 0x0d) end--;
  const out = Buffer.from(bytes.subarray(0, end));
  bytes.fill(0);
  return out;
}

/**
 * The passphrase, from (in order) --passphrase-file, the LT_KEYSTORE_PASSPHRASE variable (meant for
 * tests and scripted setups), or a hidden prompt on the terminal; asked twice when `confirm`.
 */
export async function readPassphrase(sources: PassphraseSources, confirm: boolean): Promise<Result<Buffer>> {
  if (sources.passphraseFile !== undefined) {
    const safe = checkPrivateFile(sources.passphraseFile, sources.ownership, 'the passphrase file');
    if (!safe.ok) return safe;
    return ok(withoutTrailingNewline(readFileSync(sources.passphraseFile)));
  }
  const fromEnvironment = sources.environment[PASSPHRASE_ENVIRONMENT_VARIABLE];
  if (fromEnvironment !== undefined) {
    sources.warn(`using the passphrase from ${PASSPHRASE_ENVIRONMENT_VARIABLE} (meant for tests; a person should type it at the prompt)`);
    return ok(Buffer.from(fromEnvironment, 'utf8'));
  }
  const terminal = sources.openTerminal();
  if (terminal === null) {
    return fail(SECRET_CODES.NO_TERMINAL, `passphrase: there is no terminal to ask on; use --passphrase-file FILE or ${PASSPHRASE_ENVIRONMENT_VARIABLE}`, { field: 'passphrase' });
  }
  try {
    const first = await terminal.readHidden('Keystore passphrase (not shown): ');
    if (first === null) return fail(SECRET_CODES.CANCELLED, 'passphrase: cancelled');
    if (!confirm) return ok(first);
    const second = await terminal.readHidden('Repeat the passphrase: ');
    if (second === null) {
      first.fill(0);
      return fail(SECRET_CODES.CANCELLED, 'passphrase: cancelled');
    }
    const same = first.equals(second);
    second.fill(0);
    if (!same) {
      first.fill(0);
      return fail(SECRET_CODES.PASSPHRASES_DIFFER, 'passphrase: the two entries differ; nothing was written');
    }
    return ok(first);
  } finally {
    terminal.close();
  }
}

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

function nibble(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  return -1;
}

/**
 * A private key typed or piped as 64 hex digits (`0x` optional, surrounding whitespace ignored).
 * Messages say where the input is wrong but never echo it: it is a key. The input is wiped.
 */
export function parsePrivateKeyInput(input: Buffer): Result<Buffer> {
  try {
    let start = 0;
    let end = input.length;
    while (start < end && isSpace(input[start]!)) start++;
    while (end > start && isSpace(input[end - 1]!)) end--;
    if (end - start >= 2 && input[start] === 0x30 && (input[start + 1] === 0x78 || input[start + 1] === 0x58)) start += 2;
    if (end - start !== 64) return fail(SECRET_CODES.INVALID_KEY_INPUT, `private key: expected 64 hex digits, got ${end - start} characters`, { field: 'private key' });
    const key = Buffer.alloc(32);
    for (let index = 0; index < 32; index++) {
      const high = nibble(input[start + index * 2]!);
      const low = nibble(input[start + index * 2 + 1]!);
      if (high < 0 || low < 0) {
        key.fill(0);
        return fail(SECRET_CODES.INVALID_KEY_INPUT, `private key: character ${index * 2 + (high < 0 ? 1 : 2)} is not a hex digit`, { field: 'private key' });
      }
      key[index] = high * 16 + low;
    }
    return ok(key);
  } finally {
    input.fill(0);
  }
}
