// A chase (peg) order follows the touch on its own side: a buy rests at the best bid less
// `offsetTicks` ticks, a sell at the best ask plus them. It never goes past the trader's limit, and
// its amends are held to a number per sliding minute, because each one costs a request of the rate
// limit budget and counts against the orders-per-minute guard.
import type { Market } from '../market/market';
import type { Side } from '../market/order-type';
import { priceTick } from '../market/tick';
import { BugError } from '../result';

export type ChasePrice =
  /** Where the order rests now: on the tick, never beyond the limit. */
  | { readonly kind: 'price'; readonly price: bigint }
  /** The touch is beyond the limit: the engine pauses; `price` is the limit on the tick (the best the trader allows). */
  | { readonly kind: 'beyond-limit'; readonly price: bigint };

function floorToTick(value: bigint, tick: bigint): bigint {
  const remainder = ((value % tick) + tick) % tick;
  return value - remainder;
}

function ceilToTick(value: bigint, tick: bigint): bigint {
  const floored = floorToTick(value, tick);
  return floored === value ? value : floored + tick;
}

/**
 * The chase order's price for a touch (the best bid for a buy, the best ask for a sell). A buy
 * rounds down to the tick and a sell up, never worse for the trader; a buy never rests below one
 * tick.
 */
export function chasePrice(market: Market, input: { side: Side; touch: bigint; offsetTicks: bigint; limitPrice: bigint | null }): ChasePrice {
  const tick = priceTick(market);
  const offset = (input.offsetTicks < 0n ? 0n : input.offsetTicks) * tick;
  if (input.side === 'Buy') {
    const target = floorToTick(input.touch - offset, tick);
    const price = target < tick ? tick : target;
    if (input.limitPrice !== null) {
      const limit = floorToTick(input.limitPrice, tick);
      if (price > limit) return { kind: 'beyond-limit', price: limit };
    }
    return { kind: 'price', price };
  }
  const price = ceilToTick(input.touch + offset, tick);
  if (input.limitPrice !== null) {
    const limit = ceilToTick(input.limitPrice, tick);
    if (price < limit) return { kind: 'beyond-limit', price: limit };
  }
  return { kind: 'price', price };
}

const WINDOW_MS = 60_000;

/**
 * The amends of one chase in the last minute. An amend at `t` counts until `t + 60 s`; in any
 * 60-second span at most `maxPerMinute` are allowed. Its times are persisted with the algorithm
 * (toJSON / from), so a restart does not hand out a fresh minute.
 */
export class AmendWindow {
  private times: number[] = [];

  constructor(private readonly maxPerMinute: number) {
    if (!Number.isSafeInteger(maxPerMinute) || maxPerMinute < 0) throw new BugError(`maxPerMinute must be a whole number >= 0, got ${maxPerMinute}`);
  }

  /** The amends still counting at `now` (those of the last 60 s). */
  private inWindow(now: number): number[] {
    return this.times.filter((time) => time > now - WINDOW_MS);
  }

  /** True when one more amend at `now` keeps every 60-second span within the maximum. */
  allowed(now: number): boolean {
    return this.inWindow(now).length < this.maxPerMinute;
  }

  /** Count an amend made at `now` (times older than the window are dropped). */
  record(now: number): void {
    this.times = [...this.inWindow(now), now].sort((left, right) => left - right);
  }

  /** When the next amend is allowed: `now` when it is already, null when never (a maximum of zero). */
  nextAt(now: number): number | null {
    if (this.maxPerMinute === 0) return null;
    const counting = this.inWindow(now);
    if (counting.length < this.maxPerMinute) return now;
    // The oldest amends must leave the window until one place is free.
    const freeing = counting[counting.length - this.maxPerMinute];
    if (freeing === undefined) throw new BugError('an amend window over its maximum has no oldest amend');
    return freeing + WINDOW_MS;
  }

  /** The times still counting when last recorded, oldest first, to persist. */
  toJSON(): number[] {
    return [...this.times];
  }

  static from(maxPerMinute: number, times: readonly number[]): AmendWindow {
    const amends = new AmendWindow(maxPerMinute);
    amends.times = times.filter((time) => Number.isFinite(time)).sort((left, right) => left - right);
    return amends;
  }
}
