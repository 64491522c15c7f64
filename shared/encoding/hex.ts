// Strict hex <-> bytes. Hex on the wire is always an even number of digits; a stray character or an
// odd length is refused with the field named, never silently repaired.
import { fail, ok, type Result } from '../result';
import { showValue } from '../schema';

export const INVALID_HEX = 'INVALID_HEX';

const HEX_DIGITS = '0123456789abcdef';
const BYTE_TO_HEX: readonly string[] = Array.from({ length: 256 }, (_, byte) => HEX_DIGITS[byte >> 4]! + HEX_DIGITS[byte & 15]!);

/**
 * The digits of `bytes` joined after `prefix`, as one flat string. Appending with `+=` built a chain
 * of about thirty concatenation nodes per 32-byte id: every id (transaction, account, contract) kept
 * them until its first comparison or hash flattened it into a new string, on the sandbox's matching
 * path too (each maker's creating transaction is compared with the current one).
 */
function joinHex(prefix: string, bytes: Uint8Array): string {
  const parts = new Array<string>(bytes.length + 1);
  parts[0] = prefix;
  for (let i = 0; i < bytes.length; i++) parts[i + 1] = BYTE_TO_HEX[bytes[i]!]!;
  return parts.join('');
}

/** Lowercase hex of `bytes`, without a prefix. */
export function bytesToHex(bytes: Uint8Array): string {
  return joinHex('', bytes);
}

/** Lowercase hex of `bytes` with the `0x` prefix. */
export function bytesToPrefixedHex(bytes: Uint8Array): string {
  return joinHex('0x', bytes);
}

export type HexPrefixRule = 'required' | 'optional' | 'forbidden';

export interface HexOptions {
  /** Whether the `0x` prefix must, may or must not be there (default `required`). */
  readonly prefix?: HexPrefixRule;
  /** Exact number of bytes expected, if any. */
  readonly length?: number;
}

function digitValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  if (code >= 65 && code <= 70) return code - 55;
  return -1;
}

/** Parse a hex string into bytes; `field` names the value in the error message. */
export function hexToBytes(value: unknown, field: string, options: HexOptions = {}): Result<Uint8Array> {
  const prefixRule = options.prefix ?? 'required';
  if (typeof value !== 'string') return fail(INVALID_HEX, `${field}: expected a hex string, got ${showValue(value)}`, { field });
  const hasPrefix = value.startsWith('0x') || value.startsWith('0X');
  if (prefixRule === 'required' && !hasPrefix) return fail(INVALID_HEX, `${field}: expected a 0x-prefixed hex string, got ${showValue(value)}`, { field });
  if (prefixRule === 'forbidden' && hasPrefix) return fail(INVALID_HEX, `${field}: expected hex without a 0x prefix, got ${showValue(value)}`, { field });
  const digits = hasPrefix ? value.slice(2) : value;
  if (digits.length % 2 !== 0) return fail(INVALID_HEX, `${field}: hex has an odd number of digits (${digits.length}), got ${showValue(value)}`, { field });
  const bytes = new Uint8Array(digits.length / 2);
  for (let index = 0; index < bytes.length; index++) {
    const high = digitValue(digits.charCodeAt(index * 2));
    const low = digitValue(digits.charCodeAt(index * 2 + 1));
    if (high < 0 || low < 0) return fail(INVALID_HEX, `${field}: not a hex digit at position ${index * 2 + (high < 0 ? 0 : 1)}, got ${showValue(value)}`, { field });
    bytes[index] = high * 16 + low;
  }
  if (options.length !== undefined && bytes.length !== options.length) {
    return fail(INVALID_HEX, `${field}: expected ${options.length} bytes, got ${bytes.length} in ${showValue(value)}`, { field });
  }
  return ok(bytes);
}

/** Bytes equality in constant shape (no early exit on the first difference is needed here: these are public values). */
export function bytesEqual(left: Uint8Array, right: Uint8Array): boolean {
  if (left.length !== right.length) return false;
  for (let index = 0; index < left.length; index++) if (left[index] !== right[index]) return false;
  return true;
}

/** Concatenate byte arrays. */
export function concatBytes(...parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
