// B256: a 32-byte id (contract, asset, address, order, market) as a lowercase `0x` + 64 hex string.
// The brand keeps an unchecked string from being used where an id is expected.
import { BugError, fail, ok, type Result } from '../result';
import { showValue } from '../schema';
import { bytesToPrefixedHex, hexToBytes } from './hex';

export type B256 = string & { readonly __brand: 'B256' };

export const INVALID_B256 = 'INVALID_B256';

export const B256_LENGTH = 32;
export const ZERO_B256 = `0x${'0'.repeat(64)}` as B256;

/** Source of the B256 pattern, for schemas that build their own RegExp. */
export const B256_PATTERN_TEXT = '^0x[0-9a-fA-F]{64}$';
const B256_PATTERN = new RegExp(B256_PATTERN_TEXT);
const BARE_B256_PATTERN = /^[0-9a-fA-F]{64}$/;

/** Parse a `0x`-prefixed 64-digit hex id. Mixed case is accepted and normalised to lowercase. */
export function parseB256(value: unknown, field: string): Result<B256> {
  if (typeof value !== 'string' || !B256_PATTERN.test(value)) {
    return fail(INVALID_B256, `${field}: expected 0x followed by 64 hex digits, got ${showValue(value)}`, { field });
  }
  return ok(value.toLowerCase() as B256);
}

/** Parse the owner id as the `Svc-Owner-Id` header allows it: with or without `0x`. */
export function parseOwnerB256(value: unknown, field: string): Result<B256> {
  if (typeof value === 'string' && BARE_B256_PATTERN.test(value)) return ok(`0x${value.toLowerCase()}` as B256);
  return parseB256(value, field);
}

/** True when `value` already is a canonical (lowercase) B256. */
export function isB256(value: unknown): value is B256 {
  return typeof value === 'string' && B256_PATTERN.test(value) && value === value.toLowerCase();
}

/** The 32 raw bytes of an id. */
export function b256ToBytes(value: B256): Uint8Array {
  const parsed = hexToBytes(value, 'B256', { length: B256_LENGTH });
  if (!parsed.ok) throw new BugError(`a B256 value was not canonical: ${parsed.message}`);
  return parsed.value;
}

/** The id of 32 raw bytes. */
export function b256FromBytes(bytes: Uint8Array): B256 {
  if (bytes.length !== B256_LENGTH) throw new BugError(`b256FromBytes: expected 32 bytes, got ${bytes.length}`);
  return bytesToPrefixedHex(bytes) as B256;
}

/** A checked literal, for constants and tests: throws (a bug) when the text is not a B256. */
export function b256(value: string): B256 {
  const parsed = parseB256(value, 'b256 literal');
  if (!parsed.ok) throw new BugError(parsed.message);
  return parsed.value;
}
