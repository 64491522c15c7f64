// Text encoding of bridge frames for transports without structured clone (the browser host's
// WebSocket). Structured clone carries bigint natively; JSON does not, so a bigint travels as
// {"$bigint":"<decimal>"} and is revived on the other side before any schema sees it.
import { isFrozenRecord } from '../frozen-record';

const BIGINT_TAG = '$bigint';

/**
 * The deepest nesting of arrays and objects a frame may have, the frame itself counting as one.
 * Reviving a frame recurses once per level, so without a stated limit the limit would be wherever
 * the stack runs out, which moves with the caller's own depth. No contract input or result comes
 * near it (they nest a handful of levels).
 */
export const MAX_FRAME_DEPTH = 64;

/** A frame nested deeper than MAX_FRAME_DEPTH: malformed like any other unreadable text. */
export class FrameTooDeepError extends SyntaxError {
  constructor() {
    super(`bridge frame nests deeper than ${MAX_FRAME_DEPTH} levels`);
    this.name = 'FrameTooDeepError';
  }
}

/**
 * How deep encodeFrame follows nested values before it stops: deeper is a cycle or a mistake
 * (JSON.stringify would throw on a cycle too, with a TypeError, as this does).
 */
const MAX_ENCODE_DEPTH = 1_000;

/**
 * The text JSON.stringify(value, replacer) gives with a replacer that turns every bigint into
 * {"$bigint":"<decimal>"}, character for character, written in one walk instead: a replacer is
 * called for every value of the frame, which made encoding the largest part of main's work while
 * it pushed book frames to four windows. Strings and keys are still escaped by JSON.stringify.
 */
export function encodeFrame(value: unknown): string {
  // Like JSON.stringify, undefined (or a function) at the top gives undefined, whatever the type says.
  return writeValue(value, '', 0) as string;
}

/** Member names escaped once: frames repeat the same few (price, quantity, ...) thousands of times. */
const quotedKeys = new Map<string, string>();
const MAX_QUOTED_KEYS = 2_000;

function quotedKey(key: string): string {
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    quoted = JSON.stringify(key);
    // Names that are ids (a record keyed by order) would grow the map without end: past the bound, escape each time.
    if (quotedKeys.size < MAX_QUOTED_KEYS) quotedKeys.set(key, quoted);
  }
  return quoted;
}

/**
 * The text of each frozen record written so far. Main's order and fill views are frozen records,
 * and an orders push carries every resting order: writing each one's text once, not on every push,
 * took the encoding of 505 orders and 200 fills from about 3 ms to a fraction of one.
 */
const frozenTexts = new WeakMap<object, string>();

/** One value as JSON text, or undefined where JSON.stringify leaves it out (functions, symbols, undefined). */
function writeValue(input: unknown, key: string, depth: number): string | undefined {
  let value = input;
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') value = (value as { toJSON: (key: string) => unknown }).toJSON(key);
  switch (typeof value) {
    case 'bigint':
      return `{"${BIGINT_TAG}":"${value.toString()}"}`;
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (depth >= MAX_ENCODE_DEPTH) throw new TypeError(`bridge frame: nested deeper than ${MAX_ENCODE_DEPTH} levels (a cycle?)`);
      // Boxed primitives are written as JSON.stringify writes them: as their primitive.
      if (value instanceof Number || value instanceof String || value instanceof Boolean) return writeValue(value.valueOf(), key, depth);
      if (Array.isArray(value)) {
        let text = '[';
        for (let index = 0; index < value.length; index++) {
          if (index > 0) text += ',';
          text += writeValue(value[index], String(index), depth + 1) ?? 'null';
        }
        return `${text}]`;
      }
      // A frozen record of primitives (shared/frozen-record.ts) always writes the same text: kept.
      const frozen = value === input && isFrozenRecord(value);
      if (frozen) {
        const kept = frozenTexts.get(value);
        if (kept !== undefined) return kept;
      }
      let text = '{';
      let first = true;
      const record = value as Record<string, unknown>;
      for (const member of Object.keys(record)) {
        const written = writeValue(record[member], member, depth + 1);
        if (written === undefined) continue;
        text += `${first ? '' : ','}${quotedKey(member)}:${written}`;
        first = false;
      }
      text += '}';
      if (frozen) frozenTexts.set(value, text);
      return text;
    }
    default:
      return undefined;
  }
}

/**
 * Replaces every bigint object in a parsed frame, in place, innermost first (as a JSON.parse
 * reviver would, at about half its cost: the reviver is called for every value). A replaced member
 * is defined, not assigned, so a key named `__proto__` stays a plain member. `depth` is the level
 * of `value`, the frame itself being 1: deeper than MAX_FRAME_DEPTH throws before recursing
 * further, in the same walk (JSON.parse itself does not recurse, so any depth parses).
 */
function reviveBigints(value: object, depth: number): unknown {
  if (depth > MAX_FRAME_DEPTH) throw new FrameTooDeepError();
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const member: unknown = value[index];
      if (member !== null && typeof member === 'object') value[index] = reviveBigints(member, depth + 1);
    }
    return value;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  // A bigint: {"$bigint": "<decimal>"} and nothing else.
  if (keys.length === 1 && keys[0] === BIGINT_TAG) {
    const digits = record[BIGINT_TAG];
    if (typeof digits === 'string' && /^-?\d{1,100}$/.test(digits)) return BigInt(digits);
  }
  for (const key of keys) {
    const member = record[key];
    if (member === null || typeof member !== 'object') continue;
    const revived = reviveBigints(member, depth + 1);
    if (revived !== member) Object.defineProperty(record, key, { value: revived, writable: true, enumerable: true, configurable: true });
  }
  return record;
}

/**
 * Throws SyntaxError on malformed text, and FrameTooDeepError (a SyntaxError) on a frame nested
 * deeper than MAX_FRAME_DEPTH, found while reviving it and before recursing past the limit:
 * callers at a boundary catch it and refuse the frame.
 */
export function decodeFrame(text: string): unknown {
  const parsed: unknown = JSON.parse(text);
  return parsed !== null && typeof parsed === 'object' ? reviveBigints(parsed, 1) : parsed;
}
