// Text encoding of bridge frames for transports without structured clone (the browser host's
// WebSocket). Structured clone carries bigint natively; JSON does not, so a bigint travels as
// {"$bigint":"<decimal>"} and is revived on the other side before any schema sees it.
const BIGINT_TAG = '$bigint';

export function encodeFrame(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? { [BIGINT_TAG]: v.toString() } : v));
}

/** Throws SyntaxError on malformed text: callers at a boundary catch it and refuse the frame. */
export function decodeFrame(text: string): unknown {
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
