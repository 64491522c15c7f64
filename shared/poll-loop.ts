// A pass repeated on a clock: one pass at a time, the next one scheduled when the last has finished,
// nothing after stop(). A call during a pass joins it and asks for one more pass right after it, so
// a change noticed while a pass runs is acted on at once rather than an interval later.

import type { Clock, TimerHandle } from './clock';

export class PollLoop {
  private timer: TimerHandle | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    private readonly clock: Clock,
    private readonly intervalMs: number,
    private readonly pass: () => Promise<void>,
  ) {}

  /** Begin passing every interval (the first one interval from now). */
  start(): void {
    this.stopped = false;
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  /** Run the next pass after `ms` instead of the interval (0: as soon as the clock turns). */
  schedule(ms = this.intervalMs): void {
    if (this.stopped) return;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      void this.poll().finally(() => this.schedule());
    }, ms);
  }

  /** One pass now; a pass under way is joined (never run alongside it) and followed by one more. */
  poll(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running !== null) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.pass();
      } while (this.again && !this.stopped);
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }
}
