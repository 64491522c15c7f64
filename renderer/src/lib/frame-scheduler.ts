// At most one UI write per frame for high-rate views: pushes arrive faster than the screen
// refreshes (100 book frames a second against 60 Hz), so each view keeps only the latest value
// and draws it once, on the next animation frame.
import { batch } from 'solid-js';

export type RequestFrame = (callback: (time: number) => void) => number;
export type CancelFrame = (handle: number) => void;

export interface FrameScheduler {
  /** Run `work` on the next frame; a later call with the same key before then replaces it. */
  schedule(key: string, work: () => void): void;
  cancel(key: string): void;
  dispose(): void;
}

export function createFrameScheduler(
  requestFrame: RequestFrame = (callback) => requestAnimationFrame(callback),
  cancelFrame: CancelFrame = (handle) => cancelAnimationFrame(handle),
): FrameScheduler {
  const pending = new Map<string, () => void>();
  let handle: number | null = null;

  const flush = () => {
    handle = null;
    const works = [...pending.values()];
    pending.clear();
    batch(() => {
      for (const work of works) work();
    });
  };

  return {
    schedule(key, work) {
      pending.set(key, work);
      if (handle === null) handle = requestFrame(flush);
    },
    cancel(key) {
      pending.delete(key);
    },
    dispose() {
      pending.clear();
      if (handle !== null) cancelFrame(handle);
      handle = null;
    },
  };
}
