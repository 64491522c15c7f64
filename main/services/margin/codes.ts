// Stable codes of the margin service's expected failures (docs/protocol.md (Margin), client side).
export const MarginCodes = {
  /** No live trading session, or no trading account: onboarding first. */
  NOT_READY: 'MARGIN_NOT_READY',
  /** The margin account is not a registered child of the trading account. */
  UNKNOWN_ACCOUNT: 'MARGIN_UNKNOWN_ACCOUNT',
  /** The state of the account is stale (reconnect, sequence gap, failed fold) and is being fetched again. */
  STALE: 'MARGIN_STALE',
  /** The parent session's contract list lacks the pool, the registry or this account. */
  SCOPE_MISSING: 'MARGIN_SCOPE_MISSING',
  /** The account has no live session (credit actions, Turbo orders). */
  NO_SESSION: 'MARGIN_NO_SESSION',
  /** The account has a live session (open, withdraw from a closed account). */
  SESSION_ACTIVE: 'MARGIN_SESSION_ACTIVE',
  UNKNOWN_TIER: 'MARGIN_UNKNOWN_TIER',
  /** A tier or state without a member the formulas need (capital, fees). */
  TIER_INCOMPLETE: 'MARGIN_TIER_INCOMPLETE',
  /** The confirmed amount is not the exact prepaid opening amount (or is below a legacy floor). */
  INEXACT_OPENING_AMOUNT: 'MARGIN_INEXACT_OPENING_AMOUNT',
  PERIOD_NOT_ALLOWED: 'MARGIN_PERIOD_NOT_ALLOWED',
  /** A legacy remedy asked of a prepaid session (prolong, auto-prolong). */
  LEGACY_ONLY: 'MARGIN_LEGACY_ONLY',
  /** The batch would leave outstanding above the credit line L (the protocol's OutstandingAboveCreditLine). */
  ABOVE_CREDIT_LINE: 'MARGIN_ABOVE_CREDIT_LINE',
  /** The account is frozen and the request would increase exposure (the protocol's AccountFrozen). */
  FROZEN: 'MARGIN_FROZEN',
  /** An order above buy capacity, a borrow above borrowable, a repay above the debt. */
  ABOVE_LIMIT: 'MARGIN_ABOVE_LIMIT',
  /** A plain Market order on a Turbo Account with conversion switched off. */
  UNBOUNDED_MARKET_ORDER: 'UNBOUNDED_MARKET_ORDER',
  /** The market has no Turbo book, or it is paused or disconnected. */
  TURBO_UNAVAILABLE: 'MARGIN_TURBO_UNAVAILABLE',
  /** The pool is paused: draws, borrows and opens are refused. */
  POOL_PAUSED: 'MARGIN_POOL_PAUSED',
  /** Nothing to do (withdraw from an empty account, ...). */
  NOTHING_TO_DO: 'MARGIN_NOTHING_TO_DO',
  /** A close that cannot be clean yet: what remains is in the message. */
  CLOSE_BLOCKED: 'MARGIN_CLOSE_BLOCKED',
  /** Too many accounts followed at once. */
  TOO_MANY_ACCOUNTS: 'MARGIN_TOO_MANY_ACCOUNTS',
  UNKNOWN_SUBSCRIPTION: 'MARGIN_UNKNOWN_SUBSCRIPTION',
  /** A watch-only owner: the new session must be signed on the offline signer. */
  WATCH_ONLY: 'MARGIN_WATCH_ONLY',
} as const;

export type MarginCode = (typeof MarginCodes)[keyof typeof MarginCodes];
