import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { emptyWindow, isConsumed, markConsumed, mergeWindows, windowFromSnapshot, type LaneWindow } from '../../../../shared/nonce/lane-window';
import { checkProperty } from '../../../support/property';

const canonical = (window: LaneWindow): [string, [string, string][]] => [window.base.toString(), [...window.words].map(([w, b]): [string, string] => [w.toString(), b.toString(16)]).sort()];

/** Snapshots a real service could send at some point of one history: base a multiple of 4, bits in [base, base+8). */
const snapshot = fc
  .record({
    baseStep: fc.integer({ min: 0, max: 6 }),
    slots: fc.array(fc.record({ offset: fc.integer({ min: 0, max: 9 }), bitmap: fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }) }), { maxLength: 8 }),
  })
  .map(({ baseStep, slots }) =>
    windowFromSnapshot({
      lane: 0,
      base: BigInt(baseStep * 4),
      slots: slots.map((slot) => ({ word_position: BigInt(baseStep * 4 + slot.offset), bitmap: slot.bitmap })),
    }),
  );

describe('lane window', () => {
  it('ignores slots outside [base, base+8) and accepts fewer than 8 slots', () => {
    const window = windowFromSnapshot({ lane: 2, base: 8n, slots: [{ word_position: 3n, bitmap: 1n }, { word_position: 16n, bitmap: 1n }, { word_position: 9n, bitmap: 0b101n }] });
    expect(canonical(window)).toEqual(['8', [['9', '5']]]);
    expect(isConsumed(window, 9n, 0)).toBe(true);
    expect(isConsumed(window, 9n, 1)).toBe(false);
    expect(isConsumed(window, 7n, 100)).toBe(true); // below the window: unusable
  });

  it('slides by 4 once a position in the upper half is consumed', () => {
    let window = emptyWindow(0);
    window = markConsumed(window, 3n, 127);
    expect(window.base).toBe(0n);
    window = markConsumed(window, 4n, 0);
    expect(window.base).toBe(4n);
    expect(canonical(window)).toEqual(['4', [['4', '1']]]);
  });

  it('repeats the slide while it holds', () => {
    const window = windowFromSnapshot({ lane: 0, base: 0n, slots: [{ word_position: 7n, bitmap: 1n }] });
    // 7 >= 0+4 → base 4; 7 >= 4+4? no. Stays at 4.
    expect(window.base).toBe(4n);
    const merged = mergeWindows(window, windowFromSnapshot({ lane: 0, base: 4n, slots: [{ word_position: 11n, bitmap: 2n }] }));
    expect(merged.base).toBe(8n);
  });

  it('merging in any order gives the same result', () => {
    checkProperty(
      fc.property(fc.array(snapshot, { minLength: 1, maxLength: 5 }), (snapshots) => {
        const forward = snapshots.reduce(mergeWindows);
        const backward = [...snapshots].reverse().reduce(mergeWindows);
        expect(canonical(forward)).toEqual(canonical(backward));
        const [first, ...rest] = snapshots;
        const nested = rest.length === 0 ? first! : mergeWindows(first!, rest.reduce(mergeWindows));
        expect(canonical(nested)).toEqual(canonical(forward));
        expect(canonical(mergeWindows(forward, forward))).toEqual(canonical(forward));
      }),
    );
  });

  it('base never decreases and a consumed position stays unusable', () => {
    checkProperty(
      fc.property(snapshot, snapshot, (left, right) => {
        const merged = mergeWindows(left, right);
        expect(merged.base >= left.base && merged.base >= right.base).toBe(true);
        for (const view of [left, right]) {
          for (const [word, bitmap] of view.words) {
            for (let bit = 0; bit < 128; bit += 7) if ((bitmap >> BigInt(bit)) & 1n) expect(isConsumed(merged, word, bit)).toBe(true);
          }
        }
      }),
    );
  });
});
