// Expected failures travel as data with a stable code; exceptions are kept for bugs.
// Codes are stable strings (SCREAMING_SNAKE_CASE) that survive any serialization and are
// matched by value, never by `instanceof` across a process boundary.

export interface Ok<T> {
  readonly ok: true;
  readonly value: T;
}

export interface Failure {
  readonly ok: false;
  /** Stable machine-readable code, for example `INVALID_INPUT` or `MIN_ORDER`. */
  readonly code: string;
  /** A sentence for a person: names the field and the value where there is one. */
  readonly message: string;
  /** Optional structured detail (the exchange's numeric code, the offending field, ...). */
  readonly details?: Readonly<Record<string, string | number | boolean | null>>;
}

export type Result<T> = Ok<T> | Failure;

export function ok<T>(value: T): Ok<T> {
  return { ok: true, value };
}

export function fail(code: string, message: string, details?: Failure['details']): Failure {
  return details === undefined ? { ok: false, code, message } : { ok: false, code, message, details };
}

export function isFailure<T>(result: Result<T>): result is Failure {
  return !result.ok;
}

/** Thrown only for programming errors (a broken invariant), never for expected failures. */
export class BugError extends Error {
  override readonly name = 'BugError';
}

/** Narrow a value that must be there; a missing one is a bug, not an expected failure. */
export function assertDefined<T>(value: T | undefined | null, what: string): T {
  if (value === undefined || value === null) throw new BugError(`${what} is missing`);
  return value;
}
