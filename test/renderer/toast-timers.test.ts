// Toasts close by themselves, errors last and longest (the notification centre keeps them), and a
// toast closed by hand drops its timer.
import { describe, expect, it } from 'vitest';
import { TOAST_LIFETIME_MS, toastTimers } from '../../renderer/src/features/notices/toast-timers';

function fakeClock() {
  let now = 0;
  let next = 0;
  const due = new Map<number, { at: number; run: () => void }>();
  return {
    setTimeout: (run: () => void, ms: number) => {
      due.set(++next, { at: now + ms, run });
      return next;
    },
    clearTimeout: (timer: unknown) => void due.delete(timer as number),
    advance(ms: number) {
      now += ms;
      for (const [id, timer] of [...due]) {
        if (timer.at > now) continue;
        due.delete(id);
        timer.run();
      }
    },
    pending: () => due.size,
  };
}

describe('toast timers', () => {
  it('closes an info after 6 s, a warning after 15 s and an error after 30 s, errors outliving infos', () => {
    const clock = fakeClock();
    const closed: string[] = [];
    const timers = toastTimers({ ...clock, close: (id) => closed.push(id) });
    timers.sync([
      { id: 'info', level: 'info', closed: false },
      { id: 'warning', level: 'warning', closed: false },
      { id: 'error', level: 'error', closed: false },
    ]);
    expect(TOAST_LIFETIME_MS.error).toBeGreaterThan(TOAST_LIFETIME_MS.warning);
    expect(TOAST_LIFETIME_MS.warning).toBeGreaterThan(TOAST_LIFETIME_MS.info);
    clock.advance(6_000);
    expect(closed).toEqual(['info']);
    clock.advance(9_000);
    expect(closed).toEqual(['info', 'warning']);
    clock.advance(14_999);
    expect(closed).toEqual(['info', 'warning']);
    clock.advance(1);
    expect(closed).toEqual(['info', 'warning', 'error']);
  });

  it('starts one timer per toast however often it is synced, and drops the timer of a toast closed by hand', () => {
    const clock = fakeClock();
    const closed: string[] = [];
    const timers = toastTimers({ ...clock, close: (id) => closed.push(id) });
    const open = { id: 'error', level: 'error' as const, closed: false };
    timers.sync([open]);
    clock.advance(20_000);
    timers.sync([open]);
    expect(clock.pending()).toBe(1);
    timers.sync([{ ...open, closed: true }]);
    expect(clock.pending()).toBe(0);
    clock.advance(60_000);
    expect(closed).toEqual([]);
  });
});
