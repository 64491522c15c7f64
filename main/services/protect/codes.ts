// Stable codes of the protective stops' expected failures (trailing stops and break-even).
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
  /** No managed stop of that id. */
  NOT_MANAGED: 'NOT_MANAGED',
} as const;
