// Stable codes of the protective orders' expected failures (trailing stops, break-even, position TP/SL).
export const PROTECT_CODES = {
  /** Neither a trailing distance nor a break-even was chosen. */
  NOTHING_TO_MANAGE: 'NOTHING_TO_MANAGE',
  /** The leg is not a pending leg of the account on that book. */
  STOP_NOT_PENDING: 'STOP_NOT_PENDING',
  /** The leg is already trailed or waiting for break-even. */
  ALREADY_MANAGED: 'ALREADY_MANAGED',
  /** The leg sits on the profit side of the price (a take-profit): only a stop-loss trails. */
  NOT_A_STOP_LOSS: 'NOT_A_STOP_LOSS',
  /** Break-even needs the position's average entry, and it could not be read. */
  ENTRY_UNKNOWN: 'ENTRY_UNKNOWN',
  /** The price is not past the entry yet, or the stop is already tighter than the entry. */
  BREAK_EVEN_NOT_REACHED: 'BREAK_EVEN_NOT_REACHED',
  /** A move of the stop is in flight (main's own, or one asked for a moment ago). */
  MOVE_IN_FLIGHT: 'MOVE_IN_FLIGHT',
  /** The position could not be read (a position TP/SL is sized to it). */
  POSITION_UNKNOWN: 'POSITION_UNKNOWN',
  /** There is no position on the book to protect. */
  POSITION_FLAT: 'POSITION_FLAT',
  /** The position is below what a leg may close (dust or the minimum order). */
  POSITION_TOO_SMALL: 'POSITION_TOO_SMALL',
  /** A take-profit on the losing side of the price, or a stop-loss on the profit side. */
  PRICE_WRONG_SIDE: 'PRICE_WRONG_SIDE',
  /** No managed stop of that id. */
  NOT_MANAGED: 'NOT_MANAGED',
  /** The leg belongs to a position TP/SL main keeps sized to the position: it changes as a pair, from Positions. */
  LEG_OF_POSITION_TPSL: 'LEG_OF_POSITION_TPSL',
} as const;
