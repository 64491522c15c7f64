// The trailing arithmetic (pure): a trigger at the distance from the reference, on the price step
// and never farther than the distance; a move only in the profitable direction (never loosened);
// the three distance kinds; break-even after N ticks of profit.
import { describe, expect, it } from 'vitest';
import { breakEvenTrigger, nextTrigger, trailingTrigger } from '../../../../../main/services/protect/trailing-stop';

// Prices of a 6-decimal quote with a 0.01 step: a tick is 10_000 raw.
const TICK = 10_000n;
const USDC = 1_000_000n;

describe('trailingTrigger', () => {
  it('puts a sell stop (protecting a long) the distance below the reference, by ticks', () => {
    expect(trailingTrigger({ side: 'Sell', reference: 3_000n * USDC, distance: { kind: 'ticks', ticks: 50n }, tick: TICK })).toBe(2_999_500_000n);
  });

  it('puts a buy stop (protecting a short) the distance above the reference, by price', () => {
    expect(trailingTrigger({ side: 'Buy', reference: 3_000n * USDC, distance: { kind: 'price', amount: 12n * USDC }, tick: TICK })).toBe(3_012n * USDC);
  });

  it('takes a percentage in basis points and rounds toward the reference (never farther than the distance)', () => {
    // 0.33 % of 3,000.05 = 9.900165: the sell stop at 2,990.149835 rounds up to 2,990.15, the buy stop at 3,009.950165 down to 3,009.95.
    const reference = 3_000_050_000n;
    expect(trailingTrigger({ side: 'Sell', reference, distance: { kind: 'percent', basisPoints: 33n }, tick: TICK })).toBe(2_990_150_000n);
    expect(trailingTrigger({ side: 'Buy', reference, distance: { kind: 'percent', basisPoints: 33n }, tick: TICK })).toBe(3_009_950_000n);
  });

  it('keeps at least one tick between the trigger and the reference (a distance that rounds to nothing)', () => {
    expect(trailingTrigger({ side: 'Sell', reference: 3_000n * USDC, distance: { kind: 'price', amount: 1n }, tick: TICK })).toBe(3_000n * USDC - TICK);
    expect(trailingTrigger({ side: 'Buy', reference: 3_000n * USDC, distance: { kind: 'percent', basisPoints: 0n }, tick: TICK })).toBe(3_000n * USDC + TICK);
  });

  it('gives no trigger below one tick (a sell stop on a price of a few ticks)', () => {
    expect(trailingTrigger({ side: 'Sell', reference: 2n * TICK, distance: { kind: 'ticks', ticks: 5n }, tick: TICK })).toBeNull();
  });
});

describe('nextTrigger', () => {
  it('moves a sell stop only up and a buy stop only down', () => {
    expect(nextTrigger('Sell', 2_990n * USDC, 2_995n * USDC)).toBe(2_995n * USDC);
    expect(nextTrigger('Sell', 2_990n * USDC, 2_985n * USDC)).toBeNull();
    expect(nextTrigger('Buy', 3_010n * USDC, 3_005n * USDC)).toBe(3_005n * USDC);
    expect(nextTrigger('Buy', 3_010n * USDC, 3_015n * USDC)).toBeNull();
  });

  it('does not move for the same trigger or for no candidate', () => {
    expect(nextTrigger('Sell', 2_990n * USDC, 2_990n * USDC)).toBeNull();
    expect(nextTrigger('Buy', 3_010n * USDC, null)).toBeNull();
  });

  it('never loosens over a walk of the price up and down', () => {
    let trigger = 2_900n * USDC;
    const seen: bigint[] = [];
    for (const price of [3_000n, 3_010n, 2_950n, 3_020n, 2_800n, 3_005n]) {
      const candidate = trailingTrigger({ side: 'Sell', reference: price * USDC, distance: { kind: 'ticks', ticks: 1_000n }, tick: TICK });
      trigger = nextTrigger('Sell', trigger, candidate) ?? trigger;
      seen.push(trigger / USDC);
    }
    expect(seen).toEqual([2_990n, 3_000n, 3_000n, 3_010n, 3_010n, 3_010n]);
  });
});

describe('breakEvenTrigger', () => {
  it('moves a long\'s stop to the entry once the reference is N ticks above it, not before', () => {
    const entry = 3_000n * USDC;
    expect(breakEvenTrigger({ side: 'Sell', entry, reference: entry + 9n * TICK, afterTicks: 10n, tick: TICK })).toBeNull();
    expect(breakEvenTrigger({ side: 'Sell', entry, reference: entry + 10n * TICK, afterTicks: 10n, tick: TICK })).toBe(entry);
  });

  it('moves a short\'s stop to the entry once the reference is N ticks below it', () => {
    const entry = 3_000n * USDC;
    expect(breakEvenTrigger({ side: 'Buy', entry, reference: entry - 9n * TICK, afterTicks: 10n, tick: TICK })).toBeNull();
    expect(breakEvenTrigger({ side: 'Buy', entry, reference: entry - 10n * TICK, afterTicks: 10n, tick: TICK })).toBe(entry);
  });

  it('rounds an entry off the step to the side that loses nothing', () => {
    // An average entry of 3,000.005: a long's stop at 3,000.01, a short's at 3,000.00.
    const entry = 3_000_005_000n;
    expect(breakEvenTrigger({ side: 'Sell', entry, reference: entry + 20n * TICK, afterTicks: 1n, tick: TICK })).toBe(3_000_010_000n);
    expect(breakEvenTrigger({ side: 'Buy', entry, reference: entry - 20n * TICK, afterTicks: 1n, tick: TICK })).toBe(3_000_000_000n);
  });

  it('gives no break-even trigger that is not strictly on the safe side of the reference', () => {
    // A profit of zero ticks asked for: the reference is at the entry, a stop there would fire at once.
    expect(breakEvenTrigger({ side: 'Sell', entry: 3_000n * USDC, reference: 3_000n * USDC, afterTicks: 0n, tick: TICK })).toBeNull();
  });
});
