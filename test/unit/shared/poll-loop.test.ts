import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../shared/clock';
import { PollLoop } from '../../../shared/poll-loop';

function gate(): { promise: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** Let the pass and its rescheduling run (they chain a few promises). */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

describe('PollLoop', () => {
  it('passes every interval once started, and never after stop', async () => {
    const clock = new ManualClock(0);
    let passes = 0;
    const loop = new PollLoop(clock, 1_000, () => {
      passes += 1;
      return Promise.resolve();
    });
    loop.start();
    clock.advance(999);
    expect(passes).toBe(0);
    clock.advance(1);
    await settle();
    expect(passes).toBe(1);
    clock.advance(1_000);
    await settle();
    expect(passes).toBe(2);
    loop.stop();
    clock.advance(10_000);
    expect(passes).toBe(2);
    expect(clock.pendingTimers()).toBe(0);
    await loop.poll();
    expect(passes).toBe(2);
  });

  it('joins a pass under way instead of running a second beside it, then passes once more', async () => {
    const clock = new ManualClock(0);
    const hold = gate();
    let passes = 0;
    const loop = new PollLoop(clock, 1_000, async () => {
      passes += 1;
      await hold.promise;
    });
    const first = loop.poll();
    const second = loop.poll();
    const third = loop.poll();
    expect(second).toBe(first);
    expect(third).toBe(first);
    expect(passes).toBe(1);
    hold.open();
    await first;
    // The calls during the pass asked for one more, not one each.
    expect(passes).toBe(2);
    await loop.poll();
    expect(passes).toBe(3);
  });

  it('schedule(0) brings the next pass forward and replaces the pending timer', async () => {
    const clock = new ManualClock(0);
    let passes = 0;
    const loop = new PollLoop(clock, 5_000, () => {
      passes += 1;
      return Promise.resolve();
    });
    loop.start();
    loop.schedule(0);
    expect(clock.pendingTimers()).toBe(1);
    clock.advance(0);
    await settle();
    expect(passes).toBe(1);
  });
});
