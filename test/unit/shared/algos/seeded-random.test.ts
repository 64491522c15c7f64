import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../shared/algos/seeded-random';

describe('seeded random', () => {
  it('repeats its sequence for a seed, differs between seeds, and stays in [0, 1)', () => {
    const draw = (seed: number) => {
      const random = seededRandom(seed);
      return Array.from({ length: 1_000 }, () => random());
    };
    const first = draw(42);
    expect(draw(42)).toEqual(first);
    expect(draw(43)).not.toEqual(first);
    for (const value of [...first, ...draw(-1), ...draw(0)]) expect(value >= 0 && value < 1).toBe(true);
    // Spread over the interval, not stuck in a corner.
    expect(first.filter((value) => value < 0.5).length).toBeGreaterThan(400);
    expect(first.filter((value) => value < 0.5).length).toBeLessThan(600);
  });
});
