// The trader's maximum number of orders per minute (Settings): every order a signed request
// creates counts (an amend creates one; a pending leg and a cancel do not), over the last 60
// seconds, whichever path signs it. A request that would pass the limit is refused whole, before a
// nonce is taken; one that passes every guard is counted then, so a burst from a compromised page
// or a runaway script stops at the limit.
import { fail, ok, type Result } from '../../../shared/result';
import { GUARD_CODES } from './codes';
import type { OrderIntent } from './order-intent';

const MINUTE_MS = 60_000;

export class OrderRate {
  private readonly times: number[] = [];

  constructor(private readonly now: () => number) {}

  private recent(): number {
    const since = this.now() - MINUTE_MS;
    while (this.times.length > 0 && this.times[0]! <= since) this.times.shift();
    return this.times.length;
  }

  /** Orders counted in the last 60 s. */
  count(): number {
    return this.recent();
  }

  /** Ok when the request's orders fit under the limit (0: no limit); the refusal names the count and the limit. */
  check(intents: readonly OrderIntent[], limit: number): Result<void> {
    const orders = intents.filter((intent) => intent.kind !== 'trigger').length;
    if (limit === 0 || orders === 0) return ok(undefined);
    const recent = this.recent();
    if (recent + orders <= limit) return ok(undefined);
    return fail(
      GUARD_CODES.ORDER_RATE,
      `${recent} order${recent === 1 ? '' : 's'} in the last minute and ${orders} more would pass your maximum of ${limit} orders per minute (Settings). Nothing was signed; wait a moment, or raise the limit.`,
      { field: 'orders', value: (recent + orders).toString(), maximum: limit.toString() },
    );
  }

  /** Counts the orders of a request that passed every guard. */
  record(intents: readonly OrderIntent[]): void {
    const at = this.now();
    for (const intent of intents) if (intent.kind !== 'trigger') this.times.push(at);
    // Bounded: nothing older than a minute is kept past the next check.
    this.recent();
  }
}
