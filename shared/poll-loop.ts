// A pass repeated on a clock: one pass at a time (a call during a pass joins it), the next one
// scheduled when the last has finished, nothing after stop().

import type { Clock, TimerHandle } from './clock';

export class PollLoop {
  private timer: TimerHandle | null = null;
  private running: Promise<void> | null = null;
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

  /** One pass now; a pass under way is joined, not doubled. */
  poll(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.running ??= this.pass().finally(() => {
      this.running = null;
    });
    return this.running;
  }
}
