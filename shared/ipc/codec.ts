// Text encoding of bridge frames for transports without structured clone (the browser host's
// WebSocket). Structured clone carries bigint natively; JSON does not, so a bigint travels as
// {"$bigint":"<decimal>"} and is revived on the other side before any schema sees it.
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

export function encodeFrame(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? { [BIGINT_TAG]: v.toString() } : v));
}

/** Whether JSON text opens more than `limit` arrays or objects at once (brackets inside strings do not count). */
function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index++; // a backslash: the next character is escaped
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      if (++depth > limit) return true;
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return false;
}

/**
 * Throws SyntaxError on malformed text, and FrameTooDeepError (a SyntaxError) on text nested deeper
 * than MAX_FRAME_DEPTH, before any recursion: callers at a boundary catch it and refuse the frame.
 */
export function decodeFrame(text: string): unknown {
  if (nestsDeeperThan(text, MAX_FRAME_DEPTH)) throw new FrameTooDeepError();
  return JSON.parse(text, (_key, v: unknown) => {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      const keys = Object.keys(v);
      if (keys.length === 1 && keys[0] === BIGINT_TAG) {
        const digits = (v as Record<string, unknown>)[BIGINT_TAG];
        if (typeof digits === 'string' && /^-?\d{1,100}$/.test(digits)) return BigInt(digits);
      }
    }
    return v;
  });
}
