// The house taker's rate above one take per 100 ms tick: `--maker-rate 20` (the soak's ten times
// the usual 2) takes 20 a second per market, not the 10 a tick's single chance allowed.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../../../sandbox/app';
import { HouseMaker } from '../../../../sandbox/house/maker';
import { DEFAULT_OPTIONS } from '../../../../sandbox/options';

describe('the house taker rate', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it.each([
    [20, 20],
    [35, 30],
  ])('--maker-rate %i takes at least %i a second per market', (makerRate, wholePerSecond) => {
    const takes = new Map<unknown, number>();
    vi.spyOn(HouseMaker.prototype as unknown as { take(book: unknown): void }, 'take').mockImplementation((book: unknown) => {
      takes.set(book, (takes.get(book) ?? 0) + 1);
    });
    const app = createApp({ ...DEFAULT_OPTIONS, seed: 3, makerRate, makerProfile: 'realistic', makerRegime: 'normal' }, () => 1_800_000_000_000);
    app.log = () => undefined;
    app.start();
    vi.advanceTimersByTime(10_000);
    app.stop();
    expect(takes.size).toBeGreaterThan(0);
    for (const count of takes.values()) {
      expect(count).toBeGreaterThanOrEqual(wholePerSecond * 10);
      expect(count).toBeLessThanOrEqual((wholePerSecond + 10) * 10);
    }
  });
});
