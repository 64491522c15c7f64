// Stable codes of the expected failures of the margin formulas. A snapshot that cannot be
// valued (a position without a price, a negative amount) is data to show, not a crash.

export const MarginErrorCode = {
  /** An asset with a position, debt or resting order has no price in the snapshot. */
  MISSING_PRICE: 'MARGIN_MISSING_PRICE',
  /** A short, a debt or a resting sell would be valued at an ask of zero. */
  ZERO_ASK: 'MARGIN_ZERO_ASK',
  /** An amount, price, fee or band that must be >= 0 is negative. */
  NEGATIVE_VALUE: 'MARGIN_NEGATIVE_VALUE',
  /** Decimals outside 0..MAX_DECIMALS or not an integer. */
  INVALID_DECIMALS: 'MARGIN_INVALID_DECIMALS',
  /** The collateral asset carries in-kind debt or resting orders keyed by it. */
  INVALID_COLLATERAL_ENTRY: 'MARGIN_INVALID_COLLATERAL_ENTRY',
  /** A Turbo (prepaid) session whose tier has no `turbo` terms, or terms that cannot be used. */
  INVALID_TURBO_TERMS: 'MARGIN_INVALID_TURBO_TERMS',
  /** A rollover counter that is not a non-negative integer. */
  INVALID_ROLLOVER: 'MARGIN_INVALID_ROLLOVER',
  /** A discount outside 0..10,000 bps. */
  INVALID_DISCOUNT: 'MARGIN_INVALID_DISCOUNT',
  /** A period the cohort refuses at open (prepaid: every period but Week). */
  PERIOD_NOT_ALLOWED: 'MARGIN_PERIOD_NOT_ALLOWED',
  /** The tier publishes no prolong fee or prolong length for the chosen period. */
  MISSING_PERIOD_TERMS: 'MARGIN_MISSING_PERIOD_TERMS',
} as const;

export type MarginErrorCode = (typeof MarginErrorCode)[keyof typeof MarginErrorCode];
