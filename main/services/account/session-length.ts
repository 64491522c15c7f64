// How long a trading session lasts, and when main renews it. The configured length (the
// `sessionDays` setting, raised only with the trusted confirmation) bounds what is signed without
// one: a longer session is confirmed when it is created, and a renewal, which nobody confirms,
// keeps the length the trader chose but never more than the configured length.
import { trusted, type TrustedText } from '../confirm/trusted-text';

export const HOUR = 3_600n;
export const DAY = 24n * HOUR;

/** The configured length, in seconds. */
export function configuredSessionSeconds(sessionDays: number): bigint {
  return BigInt(sessionDays) * DAY;
}

/** The length a renewal signs: the trader's choice (the configured length for a session saved without one), at most the configured length. */
export function renewalSeconds(chosenSeconds: bigint | undefined, configuredSeconds: bigint): bigint {
  if (chosenSeconds === undefined) return configuredSeconds;
  return chosenSeconds < configuredSeconds ? chosenSeconds : configuredSeconds;
}

/** Renewal starts when less than a tenth of the session's length is left (or a day, whichever is less). */
export function renewalMargin(lengthSeconds: bigint): bigint {
  const tenth = lengthSeconds / 10n;
  return tenth < DAY ? tenth : DAY;
}

/** Unix seconds from which main renews a session that ends at `expiry` for `lengthSeconds`. */
export function renewalTime(expiry: bigint, lengthSeconds: bigint): bigint {
  return expiry - renewalMargin(lengthSeconds);
}

/** "2 hours", "30 days", "1 day and 5 hours": whole hours, as the trader chose them. */
export function sessionLengthText(seconds: bigint): string {
  const days = seconds / DAY;
  const hours = (seconds % DAY) / HOUR;
  const unit = (count: bigint, one: string) => `${count} ${one}${count === 1n ? '' : 's'}`;
  if (days === 0n) return unit(hours, 'hour');
  return hours === 0n ? unit(days, 'day') : `${unit(days, 'day')} and ${unit(hours, 'hour')}`;
}

/**
 * What the trusted confirmation says of a session longer than the configured length; null when it
 * is not longer (nothing to confirm).
 */
export function longSessionLines(seconds: bigint, sessionDays: number, marketCount: number): TrustedText[] | null {
  if (seconds <= configuredSessionSeconds(sessionDays)) return null;
  return [
    trusted`Session length: ${sessionLengthText(seconds)} (the configured length is ${sessionLengthText(configuredSessionSeconds(sessionDays))}): a session key may trade for longer`,
    trusted`Markets: ${marketCount}`,
  ];
}
