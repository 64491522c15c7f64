// The failure codes of main's order guards: each refusal happens before a nonce is taken, so
// nothing is signed and nothing reaches the exchange.
export const GUARD_CODES = {
  /** A price outside the market's band around the book's reference. */
  PRICE_BAND: 'GUARD_PRICE_BAND',
  /** The band cannot be checked: no reference price (the book could not be read, or an order that takes liquidity on an empty book). */
  NO_REFERENCE: 'GUARD_NO_REFERENCE',
  /** A reduce-only order that would add to the position, flip it, or rest where later fills could. */
  REDUCE_ONLY: 'GUARD_REDUCE_ONLY',
  /** A reduce-only order whose position main cannot read now. */
  REDUCE_ONLY_UNKNOWN: 'GUARD_REDUCE_ONLY_UNKNOWN',
  /** An order whose notional (price × quantity) is above the trader's maximum for the market. */
  MAX_NOTIONAL: 'GUARD_MAX_NOTIONAL',
  /** An order that could leave the position (with the resting orders on its side) above the trader's maximum. */
  MAX_POSITION: 'GUARD_MAX_POSITION',
  /** A maximum position is set but the position cannot be read now. */
  MAX_POSITION_UNKNOWN: 'GUARD_MAX_POSITION_UNKNOWN',
  /** An order that adds exposure once the day's P&L is at or past the trader's daily loss limit. */
  DAILY_LOSS: 'GUARD_DAILY_LOSS',
  /** A daily loss limit is set but the day's P&L cannot be read now (an order that adds exposure is refused). */
  DAILY_LOSS_UNKNOWN: 'GUARD_DAILY_LOSS_UNKNOWN',
  /** A request whose orders would pass the trader's maximum number of orders per minute. */
  ORDER_RATE: 'GUARD_ORDER_RATE',
} as const;
