// Integers on the wire are decimal strings (amounts, prices, quantities, nonces) and a few are hex
// strings (the nonce returned by POST /v1/accounts, chain_id). All become bigint here; a value that is
// not exactly an unsigned integer in range is refused with the field named, never coerced.
import { fail, ok, type Result } from '../result';
import { showValue } from '../schema';

export const INVALID_INTEGER = 'INVALID_INTEGER';
export const OUT_OF_RANGE = 'OUT_OF_RANGE';

export const U32_MAX = 0xffff_ffffn;
export const U64_MAX = 0xffff_ffff_ffff_ffffn;
export const U128_MAX = (1n << 128n) - 1n;
export const U256_MAX = (1n << 256n) - 1n;

const DECIMAL_PATTERN = /^[0-9]+$/;
const HEX_PATTERN = /^(0[xX])?[0-9a-fA-F]+$/;

/** Why a string is not an unsigned decimal integer (for messages). */
export function describeDecimalProblem(value: string): string {
  if (value === '') return 'is empty';
  if (value.trim() !== value) return 'has surrounding whitespace';
  if (value.startsWith('-')) return 'is negative';
  if (value.startsWith('+')) return "has a leading '+'";
  if (value.includes('.')) return 'has a decimal point (raw units are whole numbers)';
  if (/[eE]/.test(value)) return 'is in exponent notation';
  return 'is not a decimal integer';
}

/** The longest decimal read without BigInt's string parser (10^15 - 1 < 2^53: exact as a double). */
const EXACT_DIGITS = 15;

/**
 * The bigint of `text`, or null when it is not an unsigned decimal integer no larger than `max`.
 * Main runs it on every price and quantity of the book stream, so the short decimals of most
 * fields are read without a regular expression or BigInt's string parser (the same values
 * accepted and refused).
 */
export function decimalValue(text: string, max: bigint): bigint | null {
  const length = text.length;
  let parsed: bigint;
  if (length > 0 && length <= EXACT_DIGITS) {
    // Read digit by digit: every value of up to 15 digits is exact in a double (below 2^53).
    let value = 0;
    for (let index = 0; index < length; index++) {
      const digit = text.charCodeAt(index) - 48;
      if (digit < 0 || digit > 9) return null;
      value = value * 10 + digit;
    }
    parsed = BigInt(value);
  } else {
    if (!DECIMAL_PATTERN.test(text)) return null;
    parsed = BigInt(text);
  }
  return parsed > max ? null : parsed;
}

/** Parse an unsigned decimal integer string no larger than `max`. */
export function parseUnsignedDecimal(value: unknown, field: string, max: bigint): Result<bigint> {
  if (typeof value !== 'string') return fail(INVALID_INTEGER, `${field}: expected a decimal string, got ${showValue(value)}`, { field });
  const parsed = decimalValue(value, max);
  if (parsed !== null) return ok(parsed);
  if (!DECIMAL_PATTERN.test(value)) return fail(INVALID_INTEGER, `${field}: ${describeDecimalProblem(value)}, got ${showValue(value)}`, { field });
  return fail(OUT_OF_RANGE, `${field}: ${value} is above the maximum ${max}`, { field });
}

export function parseU64(value: unknown, field: string): Result<bigint> {
  return parseUnsignedDecimal(value, field, U64_MAX);
}

export function parseU256(value: unknown, field: string): Result<bigint> {
  return parseUnsignedDecimal(value, field, U256_MAX);
}

/** Parse an unsigned hex integer string (`0x` optional, at least one digit) no larger than `max`. */
export function parseUnsignedHex(value: unknown, field: string, max: bigint): Result<bigint> {
  if (typeof value !== 'string' || !HEX_PATTERN.test(value)) {
    return fail(INVALID_INTEGER, `${field}: expected a hex integer string, got ${showValue(value)}`, { field });
  }
  const parsed = BigInt(value.startsWith('0x') || value.startsWith('0X') ? `0x${value.slice(2)}` : `0x${value}`);
  if (parsed > max) return fail(OUT_OF_RANGE, `${field}: ${value} is above the maximum ${max}`, { field });
  return ok(parsed);
}

/** The sequential account nonce as GET responses send it (decimal string, u64). */
export function parseNonceDecimal(value: unknown, field = 'nonce'): Result<bigint> {
  return parseU64(value, field);
}

/** The sequential account nonce as POST /v1/accounts returns it (a hex string such as `0x0`, u64). */
export function parseNonceHex(value: unknown, field = 'nonce'): Result<bigint> {
  return parseUnsignedHex(value, field, U64_MAX);
}

/** chain_id from GET /v1/markets: a hex string, u64; zero is a valid network id. */
export function parseChainId(value: unknown, field = 'chain_id'): Result<bigint> {
  return parseUnsignedHex(value, field, U64_MAX);
}

/** The canonical decimal text of an unsigned integer (what the wire expects). */
export function formatDecimal(value: bigint): string {
  return value.toString(10);
}
