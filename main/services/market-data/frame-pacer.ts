// Coalesces pushes to one window to at most one per frame: marks are cheap, the flush runs once
// per frame interval and sends only what changed since the last flush.
import type { Clock, TimerHandle } from '../../../shared/clock';

export const FRAME_INTERVAL_MS = 16;

export class FramePacer {
  private timer: TimerHandle | null = null;
  private lastFlush = -Infinity;
  private readonly dirty = new Set<string>();

  constructor(
    private readonly clock: Clock,
    private readonly flush: (keys: ReadonlySet<string>) => void,
    private readonly intervalMs = FRAME_INTERVAL_MS,
  ) {}

  mark(key: string): void {
    this.dirty.add(key);
    if (this.timer !== null) return;
    const wait = Math.max(0, this.lastFlush + this.intervalMs - this.clock.now());
    this.timer = this.clock.setTimeout(() => this.run(), wait);
  }

  private run(): void {
    this.timer = null;
    if (this.dirty.size === 0) return;
    // Timers can fire a little early by the clock (they run on the event loop's own time), and a
    // flush takes time: wait out what is left of the interval since the last flush ended.
    const left = this.lastFlush + this.intervalMs - this.clock.now();
    if (left > 0) {
      this.timer = this.clock.setTimeout(() => this.run(), left);
      return;
    }
    const keys = new Set(this.dirty);
    this.dirty.clear();
    this.flush(keys);
    this.lastFlush = this.clock.now();
  }

  /** Drop pending work (window closed). */
  cancel(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    this.dirty.clear();
  }
}
