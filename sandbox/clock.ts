// The sandbox's clock: shared/clock's Clock (logic never reads Date.now() on its own) whose
// time can be moved forward by the control surface, so sessions and parallel nonces expire
// without waiting. Timers still run on wall time; only the reading is offset.
import type { Clock, TimerHandle } from '../shared/clock';

export class AdjustableClock implements Clock {
  private offsetMs = 0;
  constructor(private readonly base: () => number = Date.now) {}
  now(): number {
    return this.base() + this.offsetMs;
  }
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`advance: expected a non-negative number of ms, got ${ms}`);
    this.offsetMs += ms;
  }
  setTimeout(callback: () => void, ms: number): TimerHandle {
    return setTimeout(callback, ms) as unknown as TimerHandle;
  }
  clearTimeout(handle: TimerHandle): void {
    clearTimeout(handle as unknown as NodeJS.Timeout);
  }
}

export function nowSeconds(clock: Pick<Clock, 'now'>): bigint {
  return BigInt(Math.floor(clock.now() / 1000));
}

/** Nanoseconds since the epoch, as streams and order timestamps carry them. */
export function nowNanos(clock: Pick<Clock, 'now'>): bigint {
  return BigInt(Math.floor(clock.now())) * 1_000_000n;
}
