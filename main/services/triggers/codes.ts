// Stable codes of the triggers area's expected failures (beyond shared/protocol's ACTION_CODES and
// shared/market's ORDER_CODES, which pre-flight refusals carry as they are).
export const TRIGGER_CODES = {
  /** The leg is not one of the account's known legs. */
  TRIGGER_NOT_FOUND: 'TRIGGER_NOT_FOUND',
  /** The leg already fired or was cancelled. */
  TRIGGER_NOT_PENDING: 'TRIGGER_NOT_PENDING',
  /** The exchange did not report the leg as signed (kind, size), so it cannot be rebuilt. */
  TRIGGER_DETAILS_UNKNOWN: 'TRIGGER_DETAILS_UNKNOWN',
  /** The order a leg should be sized from is unknown, on another book, or closed without a fill. */
  PARENT_NOT_FOUND: 'PARENT_NOT_FOUND',
  /** A slippage so wide the minimum price is not above zero. */
  SLIPPAGE_TOO_WIDE: 'SLIPPAGE_TOO_WIDE',
  /** A move that would put a price at or below zero, or a limit price for a leg without one. */
  INVALID_MOVE: 'INVALID_MOVE',
  /**
   * The size entered is not one the legs can be signed at (off the step, or not a whole quote
   * amount at a leg's price): refused before signing, naming the size that is (never signed in its place).
   */
  SIZE_NOT_SIGNABLE: 'SIZE_NOT_SIGNABLE',
  /** Quantity lowered to nothing by the step and whole-quote rules. */
  ZERO_QUANTITY: 'ZERO_QUANTITY',
  /** A Turbo Account is selected: its legs are not signed by this area yet. */
  TURBO_ACCOUNT_SELECTED: 'TURBO_ACCOUNT_SELECTED',
  /** The cancel (or the cancel of a move) reverted: the leg fired or was cancelled meanwhile. */
  CANCEL_FAILED: 'CANCEL_FAILED',
  /** The exchange cancelled a protective leg (DustOrder, …) and it could not be re-created: the position is unprotected. */
  POSITION_UNPROTECTED: 'POSITION_UNPROTECTED',
} as const;
