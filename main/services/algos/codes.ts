// Codes of the execution algorithms: the failures of their requests and the reasons an algorithm
// is paused, finished or cancelled (AlgoView.reason).
export const ALGO_CODES = {
  /** No such algorithm on this network. */
  NOT_FOUND: 'ALGO_NOT_FOUND',
  /** The request does not apply to the algorithm's state (resume a running one, pause a finished one). */
  WRONG_STATE: 'ALGO_WRONG_STATE',
  /** The plan cannot be made (a price beyond the limit, no touch to start from). */
  CANNOT_PLAN: 'ALGO_CANNOT_PLAN',
  /** Resume refused while a child's outcome is still being checked with the exchange. */
  CHILD_UNKNOWN: 'ALGO_CHILD_UNKNOWN',
} as const;

export const ALGO_REASONS = {
  BY_TRADER: 'PAUSED_BY_TRADER',
  /** A child was refused by one of main's guards (the guard's message is the text). */
  GUARD: 'PAUSED_BY_GUARD',
  /** A child was refused by the exchange or could not be signed. */
  REFUSED: 'PAUSED_CHILD_REFUSED',
  /** A child's outcome is unknown (its answer was lost): checked with the exchange before anything else. */
  OUTCOME_UNKNOWN: 'PAUSED_OUTCOME_UNKNOWN',
  /** The touch is beyond the price limit. */
  PRICE_LIMIT: 'PAUSED_PRICE_LIMIT',
  /** Main restarted while it ran: nothing restarts trading by itself. */
  RESTART: 'PAUSED_RESTART',
  FILLED: 'FINISHED_FILLED',
  /** Every child was placed and ended without the total filling (cancelled outside the algorithm). */
  ENDED: 'FINISHED_CHILDREN_ENDED',
  CANCELLED_BY_TRADER: 'CANCELLED_BY_TRADER',
  KILL_SWITCH: 'CANCELLED_KILL_SWITCH',
} as const;
