// Display edge: raw units <-> human decimal text. Exact in both directions (bigint only, no floats),
// so what the trader typed is exactly what is signed, or it is refused with the reason.
import { BugError, fail, ok, type Result } from '../result';
import { showValue } from '../schema';
import { U64_MAX } from './decimal';

export const INVALID_AMOUNT = 'INVALID_AMOUNT';
export const TOO_MANY_DECIMALS = 'TOO_MANY_DECIMALS';
export const AMOUNT_OUT_OF_RANGE = 'AMOUNT_OUT_OF_RANGE';

const HUMAN_PATTERN = /^([0-9]*)(?:\.([0-9]*))?$/;

function checkDecimals(decimals: number): void {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 77) throw new BugError(`decimals must be an integer in 0..77, got ${decimals}`);
}

export interface FormatUnitsOptions {
  /** Keep at least this many fraction digits (padding with zeros); default 0, trailing zeros trimmed. */
  readonly minimumFractionDigits?: number;
  /** Group the integer part in thousands with this separator (default none). */
  readonly groupSeparator?: string;
}

/** `formatUnits(1500000000n, 9)` is `"1.5"`. Never rounds: every raw unit is shown. */
export function formatUnits(raw: bigint, decimals: number, options: FormatUnitsOptions = {}): string {
  checkDecimals(decimals);
  const negative = raw < 0n;
  const magnitude = negative ? -raw : raw;
  const scale = 10n ** BigInt(decimals);
  let whole = (magnitude / scale).toString();
  let fraction = decimals === 0 ? '' : (magnitude % scale).toString().padStart(decimals, '0');
  const minimum = Math.min(options.minimumFractionDigits ?? 0, decimals);
  let end = fraction.length;
  while (end > minimum && fraction[end - 1] === '0') end--;
  fraction = fraction.slice(0, end);
  if (options.groupSeparator) whole = whole.replace(/\B(?=(\d{3})+(?!\d))/g, options.groupSeparator);
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/**
 * Parse what a trader typed (`"1.5"`, `".25"`, `"100"`) into raw units with `decimals` places.
 * Refuses a sign, exponent, separators, and more fraction digits than `decimals` (it never rounds).
 */
export function parseUnits(text: unknown, decimals: number, field: string, max: bigint = U64_MAX): Result<bigint> {
  checkDecimals(decimals);
  if (typeof text !== 'string') return fail(INVALID_AMOUNT, `${field}: expected a number as text, got ${showValue(text)}`, { field });
  const match = HUMAN_PATTERN.exec(text);
  const whole = match?.[1] ?? '';
  const fraction = match?.[2] ?? '';
  if (!match || (whole === '' && fraction === '')) {
    return fail(INVALID_AMOUNT, `${field}: ${showValue(text)} is not a plain decimal number (digits with at most one '.')`, { field });
  }
  const significantFraction = fraction.replace(/0+$/, '');
  if (significantFraction.length > decimals) {
    return fail(
      TOO_MANY_DECIMALS,
      `${field}: ${showValue(text)} has ${significantFraction.length} decimal places; at most ${decimals} are allowed`,
      { field, allowed: decimals },
    );
  }
  const raw = BigInt(whole || '0') * 10n ** BigInt(decimals) + BigInt((significantFraction || '0').padEnd(decimals, '0') || '0');
  if (raw > max) return fail(AMOUNT_OUT_OF_RANGE, `${field}: ${text} is above the largest amount ${formatUnits(max, decimals)}`, { field });
  return ok(raw);
}
