// How long a toast stays open by itself: infos a few seconds, warnings longer, errors longest, so a
// refusal is seen but never pins the corner for good. Closing a toast by its timer does not read
// the notice: the notification centre keeps it and the bell counts it until it is read there or
// dismissed. The trader closes any toast at once with its close button.
import type { Notice } from '../../../../shared/ipc/views';

export const TOAST_LIFETIME_MS: Readonly<Record<Notice['level'], number>> = {
  info: 6_000,
  warning: 15_000,
  error: 30_000,
};

interface Timers {
  readonly setTimeout: (run: () => void, ms: number) => unknown;
  readonly clearTimeout: (timer: unknown) => void;
  /** Close the toast of this notice (the centre keeps it). */
  readonly close: (id: string) => void;
}

/** One timer per open toast, started when it is first seen open; `sync` is called with every list of notices. */
export function toastTimers(timers: Timers): { sync(notices: readonly { readonly id: string; readonly level: Notice['level']; readonly closed: boolean }[]): void; dispose(): void } {
  const pending = new Map<string, unknown>();
  return {
    sync(notices) {
      const open = new Set<string>();
      for (const notice of notices) {
        if (notice.closed) continue;
        open.add(notice.id);
        if (pending.has(notice.id)) continue;
        pending.set(
          notice.id,
          timers.setTimeout(() => {
            pending.delete(notice.id);
            timers.close(notice.id);
          }, TOAST_LIFETIME_MS[notice.level]),
        );
      }
      // A toast closed by hand (or read in the centre) needs its timer no more.
      for (const [id, timer] of pending) {
        if (open.has(id)) continue;
        timers.clearTimeout(timer);
        pending.delete(id);
      }
    },
    dispose() {
      for (const timer of pending.values()) timers.clearTimeout(timer);
      pending.clear();
    },
  };
}
