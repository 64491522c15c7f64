// The sandbox's numeric error codes (docs/sandbox.md has the table). The spec fixes 4000,
// 4002, 1003 (rate limit, HTTP 429) and 7004 (too many actions); the rest are ours and stable.
// Every refusal body is `{code, name, message}` with a message naming the field and the value;
// `name` is the error's name, the spec's where the spec names one (margin 7: MarketNotFound).

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
 * The name each code carries on the wire (`name`). Spec-named errors keep the spec's name:
 * MarketNotFound (margin 7: turbo=true for a market without a Turbo book, and any unknown
 * market), MarginAccountNotInSessionScope (wire notes). The others are ours and stable.
 */
export const ERROR_NAMES: Readonly<Record<ErrorCodeValue, string>> = {
  1000: 'InvalidJson',
  1001: 'InvalidField',
  1002: 'NotFound',
  1003: 'RateLimited',
  1004: 'BodyTooLarge',
  1005: 'MethodNotAllowed',
  1006: 'InjectedFailure',
  2001: 'MarketNotFound',
  2002: 'OrderNotFound',
  2003: 'AssetNotFound',
  2004: 'MarketPaused',
  2005: 'HouseBookDisconnected',
  4000: 'InvalidSignature',
  4001: 'MissingOwnerId',
  4002: 'AccountNotFound',
  4003: 'NoSession',
  4004: 'SessionExpired',
  4005: 'ContractNotInSessionScope',
  4006: 'NonceMismatch',
  4007: 'ParallelNonceNotUsable',
  4008: 'OwnerMismatch',
  4009: 'InvalidSessionExpiry',
  4010: 'MarginAccountNotInSessionScope',
  4011: 'ParallelNonceRequired',
  4012: 'HouseRoleRequired',
  7001: 'UnknownAction',
  7002: 'EmptyBatch',
  7003: 'TooManyVariableOutputs',
  7004: 'TooManyActions',
  7005: 'HouseActionOnTurboBook',
  7006: 'InvalidExecutionBound',
  7007: 'UnboundedMarketOrder',
};

/** Every refusal's message for a Turbo read or subscription of a market without a Turbo book (margin 7). */
export function noTurboBookMessage(marketId: string): string {
  return `Market ${marketId} has no Turbo order book`;
}

const NO_TURBO_BOOK = /^Market \S+ has no Turbo order book$/;

/** The spec's name of a stream error text, when the spec names it (the WebSocket errors are `{error, name?}`). */
export function streamErrorName(text: string): string | undefined {
  return NO_TURBO_BOOK.test(text) || text.startsWith('Market not found: ') ? ERROR_NAMES[ErrorCode.MARKET_NOT_FOUND] : undefined;
}

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
