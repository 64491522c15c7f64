// The maker's regimes: the normal step is the walk the maker always had, a trend moves the mid its
// way at every step whatever the draw, and thin quotes fewer, smaller levels.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REALISTIC_SHAPE } from '../../../../sandbox/house/depth-profile';
import { REGIMES, regimeShape, stepPpm } from '../../../../sandbox/house/regimes';
import { checkProperty } from '../../../support/property';

describe('maker regimes', () => {
  it('property: the normal step is the original ±0.1 % walk; a trend moves its way at every step; quiet stays within ±0.02 %', () => {
    checkProperty(
      fc.property(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (draw) => {
        expect(stepPpm(REGIMES.normal, draw)).toBe(BigInt(Math.round((draw - 0.5) * 2000)));
        expect(stepPpm(REGIMES['trending-up'], draw)).toBeGreaterThan(0n);
        expect(stepPpm(REGIMES['trending-down'], draw)).toBeLessThan(0n);
        const quiet = stepPpm(REGIMES.quiet, draw);
        expect(quiet >= -200n && quiet <= 200n).toBe(true);
      }),
    );
  });

  it('quotes the full profile except when thin: six levels a tenth of the size', () => {
    expect(regimeShape(REALISTIC_SHAPE, REGIMES.fast)).toBe(REALISTIC_SHAPE);
    expect(regimeShape(REALISTIC_SHAPE, REGIMES.thin)).toEqual({ ...REALISTIC_SHAPE, levels: 6, insideValue: 150n });
    expect(REGIMES.fast.quoteIntervalMs).toBeLessThan(REGIMES.normal.quoteIntervalMs);
  });
});
