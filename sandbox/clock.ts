// The sandbox's clock. Logic never reads Date.now() on its own: it is handed a Clock, so
// tests use a manual one and the control surface can move time forward (sessions and
// parallel nonces expire without waiting).

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  nowMs(): number;
}

/** Wall time plus an offset that only grows (POST /control/clock/advance). */
export class AdjustableClock implements Clock {
  private offsetMs = 0;
  constructor(private readonly base: () => number = Date.now) {}
  nowMs(): number {
    return this.base() + this.offsetMs;
  }
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`advance: expected a non-negative number of ms, got ${ms}`);
    this.offsetMs += ms;
  }
}

/** A clock that moves only when told (unit tests). */
export class ManualClock implements Clock {
  constructor(private ms: number) {}
  nowMs(): number {
    return this.ms;
  }
  set(ms: number): void {
    this.ms = ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

export function nowSeconds(clock: Clock): bigint {
  return BigInt(Math.floor(clock.nowMs() / 1000));
}

/** Nanoseconds since the epoch, as the streams and order timestamps carry them. */
export function nowNanos(clock: Clock): bigint {
  return BigInt(Math.floor(clock.nowMs())) * 1_000_000n;
}
