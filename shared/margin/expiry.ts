// The no-expiry sentinel (spec margin-api 2.2 and 8): u64 max in `duration`, `term_seconds`
// and `expires_at`. It is a flag, not a time: adding it to a timestamp overflows a u64 and
// shows a countdown of 584 billion years.

/** 18446744073709551615, the u64 maximum. */
export const NO_EXPIRY = 0xffff_ffff_ffff_ffffn;

export function isNoExpiry(value: bigint): boolean {
  return value === NO_EXPIRY;
}

/**
 * Seconds left until `expiresAt` (both unix seconds), zero once it has passed, and null for
 * the no-expiry value: a caller must not show a countdown then.
 */
export function secondsUntilExpiry(expiresAt: bigint, now: bigint): bigint | null {
  if (isNoExpiry(expiresAt)) return null;
  return expiresAt > now ? expiresAt - now : 0n;
}

