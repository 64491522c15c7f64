// Failure codes of the alerts domain.
export const AlertCodes = {
  /** No alert with the id given. */
  UNKNOWN_ALERT: 'UNKNOWN_ALERT',
  /** The list is full (MAX_ALERTS). */
  TOO_MANY_ALERTS: 'TOO_MANY_ALERTS',
} as const;
