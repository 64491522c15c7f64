// The sandbox's numeric error codes (docs/sandbox.md has the table). The spec fixes 4000,
// 4002, 1003 (rate limit, HTTP 429) and 7004 (too many actions); the rest are ours and stable.
// Every refusal body is `{code, message}` with a message naming the field and the value.

export const ErrorCode = {
  INVALID_JSON: 1000,
  INVALID_FIELD: 1001,
  NOT_FOUND: 1002,
  RATE_LIMITED: 1003,
  BODY_TOO_LARGE: 1004,
  METHOD_NOT_ALLOWED: 1005,
  INJECTED_FAILURE: 1006,
  MARKET_NOT_FOUND: 2001,
  ORDER_NOT_FOUND: 2002,
  ASSET_NOT_FOUND: 2003,
  MARKET_PAUSED: 2004,
  HOUSE_BOOK_DISCONNECTED: 2005,
  BAD_SIGNATURE: 4000,
  MISSING_OWNER: 4001,
  ACCOUNT_NOT_FOUND: 4002,
  NO_SESSION: 4003,
  SESSION_EXPIRED: 4004,
  OUT_OF_SESSION_SCOPE: 4005,
  NONCE_MISMATCH: 4006,
  PARALLEL_NONCE: 4007,
  OWNER_MISMATCH: 4008,
  SESSION_EXPIRY: 4009,
  MARGIN_NOT_IN_SCOPE: 4010,
  PARALLEL_NONCE_REQUIRED: 4011,
  HOUSE_ROLE_REQUIRED: 4012,
  UNKNOWN_ACTION: 7001,
  EMPTY_BATCH: 7002,
  VARIABLE_OUTPUTS: 7003,
  TOO_MANY_ACTIONS: 7004,
  HOUSE_ON_TURBO_BOOK: 7005,
  INVALID_BOUND: 7006,
  UNBOUNDED_MARKET_ORDER: 7007,
} as const;

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * A refusal before anything is applied: nothing changed, no nonce consumed. A class so that a
 * parser can return `T | Refusal` and the caller tell them apart with instanceof (in-process).
 */
export class Refusal {
  constructor(
    readonly status: number,
    readonly code: ErrorCodeValue,
    readonly message: string,
  ) {}
}

export function refusal(code: ErrorCodeValue, message: string, status = 400): Refusal {
  return new Refusal(status, code, message);
}

export function invalid(message: string): Refusal {
  return new Refusal(400, ErrorCode.INVALID_FIELD, message);
}

/** Render a value for a message: short, quoted when a string. */
export function show(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'bigint') return value.toString();
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    // A cycle or a structure too deep to print: String() of it would recurse just as deep.
    text = Array.isArray(value) ? '[…]' : typeof value === 'object' && value !== null ? '{…}' : '…';
  }
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
