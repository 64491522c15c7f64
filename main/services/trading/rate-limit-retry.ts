// What the submitter does when the exchange answers a signed request with its rate limit (HTTP 429
// or code 1003). The spec does not say whether a request over its limit was executed first
// ("the response to a request over its rate limit: not shown"), so a 429 is not proof that nothing
// landed: the request's nonce is asked first, and it is signed again only when the nonce shows it
// did not land, and with the same nonce, so at most one of the two can ever land.
import type { ConsumedAnswer } from '../nonces/nonce-manager';

/**
 * The waits before each retry. The exchange's budget for signed session actions is 5 per second
 * per owner (spec section 8): the first wait is one whole window plus the 50 ms the rate limiter
 * allows for clock differences, so every request counted against the budget when the 429 was
 * answered has left it; each further wait doubles, so two devices sharing an owner stop colliding.
 * Three retries: about 7.4 s in all before the trader is told it was not placed.
 */
export const RATE_LIMIT_BACKOFF_MS: readonly number[] = [1_050, 2_100, 4_200];

/**
 * What a rate-limited request's nonce allows: `retry-same-nonce` when it provably did not land
 * (sequential: the account nonce is still the request's; parallel: its position is unused and not
 * expired) and the retry can reuse the nonce; `retry-new-nonce` when it can no longer land (a
 * parallel position that expired unused); `look-up` when the nonce was used or cannot be read
 * (the lookup of its orders decides, as for a refusal for a stale nonce).
 */
export type RateLimitedNonce = 'retry-same-nonce' | 'retry-new-nonce' | 'look-up';

export function rateLimitedNonce(mode: 'sequential' | 'parallel', answer: ConsumedAnswer | null): RateLimitedNonce {
  if (answer === 'pending') return 'retry-same-nonce';
  if (answer === 'not-landed') return mode === 'sequential' ? 'retry-same-nonce' : 'retry-new-nonce';
  return 'look-up';
}

/** The notice before a retry: what happened, why it is safe, and when the retry goes. */
export function rateLimitRetryText(description: string, retry: number, delayMs: number): string {
  return (
    `${description}: the exchange's rate limit refused it (HTTP 429; another device on the same owner may be using the budget). ` +
    `Its nonce shows it did not land, so it is signed again with the same nonce in ${(delayMs / 1000).toFixed(1)} s ` +
    `(retry ${retry} of ${RATE_LIMIT_BACKOFF_MS.length}); at most one of them can land.`
  );
}
