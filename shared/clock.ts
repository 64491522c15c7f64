// Time is a parameter: logic takes a Clock so tests can drive it with a fake one.

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export interface TimerHandle {
  readonly __timer: unique symbol;
}

/** A clock that only moves when told to; timers fire in order of their due time. */
export class ManualClock implements Clock {
  private current: number;
  private sequence = 0;
  private readonly timers = new Map<number, { due: number; callback: () => void }>();

  constructor(start = 0) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimeout(callback: () => void, ms: number): TimerHandle {
    const id = ++this.sequence;
    this.timers.set(id, { due: this.current + Math.max(0, ms), callback });
    return id as unknown as TimerHandle;
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers.delete(handle as unknown as number);
  }

  /** Move time forward, firing every timer that falls due, in order. */
  advance(ms: number): void {
    const target = this.current + ms;
    for (;;) {
      let nextId = -1;
      let nextDue = Infinity;
      for (const [id, timer] of this.timers) {
        if (timer.due <= target && timer.due < nextDue) {
          nextDue = timer.due;
          nextId = id;
        }
      }
      if (nextId < 0) break;
      const timer = this.timers.get(nextId);
      this.timers.delete(nextId);
      this.current = nextDue;
      timer?.callback();
    }
    this.current = target;
  }

  pendingTimers(): number {
    return this.timers.size;
  }
}
