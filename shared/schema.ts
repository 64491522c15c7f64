// Parsing at a boundary: every inbound value is `unknown` until a schema narrows it.
// Errors name the field (its path) and the offending value, so the user and the log both
// learn what to fix.
import type { z } from 'zod';
import { fail, ok, type Result } from './result';
import { visibleText } from './text/visible-text';

export const INVALID_INPUT = 'INVALID_INPUT';

const MAX_SHOWN = 80;
const MAX_PROBLEM = 200;

/** A short, printable rendering of an offending value for an error message (bidi and invisible characters it holds shown as escapes). */
export function showValue(value: unknown): string {
  let text: string;
  if (typeof value === 'bigint') text = `${value}n`;
  else if (typeof value === 'string') text = JSON.stringify(value);
  else if (value === undefined) text = 'undefined';
  else {
    try {
      text = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)) ?? String(value);
    } catch {
      text = Object.prototype.toString.call(value);
    }
  }
  // The value is quoted back to a person (a notice, the log on the host's terminal): a CR, an ESC
  // or a bidi override in it must show as what it is, not act.
  return visibleText(text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text, Number.MAX_SAFE_INTEGER, false);
}

function formatPath(root: string, path: readonly PropertyKey[]): string {
  let out = root;
  for (const key of path) {
    // A record's key is input too: a megabyte key must not make a megabyte message.
    const name = String(key).length > MAX_SHOWN ? `${String(key).slice(0, MAX_SHOWN)}…` : String(key);
    out += typeof key === 'number' ? `[${key}]` : `${out ? '.' : ''}${name}`;
  }
  return out || '(value)';
}

/**
 * Parse `value` with `schema`. On failure the message names the first offending field and
 * its value: `order.price: expected a decimal string, got "1.5"`.
 */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, root = '', code = INVALID_INPUT): Result<z.output<S>> {
  const parsed = schema.safeParse(value, { reportInput: true });
  if (parsed.success) return ok(parsed.data);
  const issues = parsed.error.issues;
  const first = issues[0];
  if (!first) return fail(code, `${root || 'value'}: invalid`);
  const field = visibleText(formatPath(root, first.path), Number.MAX_SAFE_INTEGER, false);
  // zod's own text can quote the input too (an unrecognised key in full): bounded like the value.
  const said = visibleText(first.message, Number.MAX_SAFE_INTEGER, false);
  const problem = said.length > MAX_PROBLEM ? `${said.slice(0, MAX_PROBLEM)}…` : said;
  const got = 'input' in first ? `, got ${showValue(first.input)}` : '';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
  return fail(code, `${field}: ${problem}${got}${more}`, { field });
}
