// A chase order's price follows the touch on its side, on the tick and never beyond the limit; its
// amends are held to a maximum in any 60-second span, across a restart too.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AmendWindow, chasePrice } from '../../../../shared/algos/chase-plan';
import { priceTick } from '../../../../shared/market/tick';
import { checkProperty } from '../../../support/property';
import { ethUsdc } from '../../../support/shared/market/fixtures';

const tick = priceTick(ethUsdc); // 0.01 USDC
const touch = 3_000_000_000_000n; // 3,000 USDC

describe('chase price', () => {
  it('joins the touch, or rests offsetTicks behind it: a buy below the bid, a sell above the ask', () => {
    expect(chasePrice(ethUsdc, { side: 'Buy', touch, offsetTicks: 0n, limitPrice: null })).toEqual({ kind: 'price', price: touch });
    expect(chasePrice(ethUsdc, { side: 'Buy', touch, offsetTicks: 3n, limitPrice: null })).toEqual({ kind: 'price', price: touch - 3n * tick });
    expect(chasePrice(ethUsdc, { side: 'Sell', touch, offsetTicks: 2n, limitPrice: null })).toEqual({ kind: 'price', price: touch + 2n * tick });
  });

  it('rounds a touch off the tick in the trader\'s favour: a buy down, a sell up', () => {
    expect(chasePrice(ethUsdc, { side: 'Buy', touch: touch + 5n, offsetTicks: 0n, limitPrice: null })).toEqual({ kind: 'price', price: touch });
    expect(chasePrice(ethUsdc, { side: 'Sell', touch: touch + 5n, offsetTicks: 0n, limitPrice: null })).toEqual({ kind: 'price', price: touch + tick });
  });

  it('is beyond the limit when the touch has run past it, and names the limit on the tick', () => {
    expect(chasePrice(ethUsdc, { side: 'Buy', touch, offsetTicks: 0n, limitPrice: touch - tick + 3n })).toEqual({ kind: 'beyond-limit', price: touch - tick });
    expect(chasePrice(ethUsdc, { side: 'Buy', touch, offsetTicks: 1n, limitPrice: touch - tick })).toEqual({ kind: 'price', price: touch - tick });
    expect(chasePrice(ethUsdc, { side: 'Sell', touch, offsetTicks: 0n, limitPrice: touch + 3n })).toEqual({ kind: 'beyond-limit', price: touch + tick });
  });

  it('a buy never rests below one tick', () => {
    expect(chasePrice(ethUsdc, { side: 'Buy', touch: tick, offsetTicks: 5n, limitPrice: null })).toEqual({ kind: 'price', price: tick });
  });

  it('property: a price is on the tick, never beyond the limit, never through the touch', () => {
    checkProperty(
      fc.property(
        fc.constantFrom<'Buy' | 'Sell'>('Buy', 'Sell'),
        fc.bigInt({ min: 1n, max: 10n ** 13n }),
        fc.bigInt({ min: 0n, max: 50n }),
        fc.option(fc.bigInt({ min: 1n, max: 10n ** 13n }), { nil: null }),
        (side, rawTouch, offsetTicks, limitPrice) => {
          const result = chasePrice(ethUsdc, { side, touch: rawTouch, offsetTicks, limitPrice });
          expect(result.price % tick).toBe(0n);
          if (result.kind === 'beyond-limit') {
            expect(limitPrice).not.toBeNull();
            return;
          }
          if (side === 'Buy') {
            if (limitPrice !== null) expect(result.price).toBeLessThanOrEqual(limitPrice);
            expect(result.price <= rawTouch || result.price === tick).toBe(true);
          } else {
            if (limitPrice !== null) expect(result.price).toBeGreaterThanOrEqual(limitPrice);
            expect(result.price).toBeGreaterThanOrEqual(rawTouch);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('amend window', () => {
  it('allows the maximum in a minute, then says when the next one is allowed', () => {
    const amends = new AmendWindow(2);
    expect(amends.nextAt(0)).toBe(0);
    amends.record(1_000);
    amends.record(5_000);
    expect(amends.allowed(30_000)).toBe(false);
    expect(amends.nextAt(30_000)).toBe(61_000);
    expect(amends.allowed(60_999)).toBe(false);
    expect(amends.allowed(61_000)).toBe(true);
  });

  it('a maximum of zero never allows one', () => {
    const amends = new AmendWindow(0);
    expect(amends.allowed(0)).toBe(false);
    expect(amends.nextAt(0)).toBeNull();
  });

  it('keeps its minute across a restart (toJSON, from)', () => {
    const amends = new AmendWindow(3);
    for (const time of [10_000, 20_000, 30_000]) amends.record(time);
    const restored = AmendWindow.from(3, JSON.parse(JSON.stringify(amends)) as number[]);
    expect(restored.allowed(40_000)).toBe(false);
    expect(restored.nextAt(40_000)).toBe(70_000);
  });

  it('property: recording only what it allows, no 60-second span holds more than the maximum; nextAt is the first allowed time', () => {
    checkProperty(
      fc.property(fc.integer({ min: 0, max: 8 }), fc.array(fc.integer({ min: 0, max: 30_000 }), { maxLength: 120 }), fc.integer({ min: 0, max: 119 }), (maxPerMinute, gaps, restartAt) => {
        let amends = new AmendWindow(maxPerMinute);
        let now = 0;
        const recorded: number[] = [];
        gaps.forEach((gap, index) => {
          now += gap;
          // A restart in the middle keeps the window.
          if (index === restartAt) amends = AmendWindow.from(maxPerMinute, amends.toJSON());
          const next = amends.nextAt(now);
          if (amends.allowed(now)) {
            expect(next).toBe(now);
            amends.record(now);
            recorded.push(now);
          } else if (next !== null) {
            expect(next).toBeGreaterThan(now);
            expect(amends.allowed(next)).toBe(true);
            expect(amends.allowed(next - 1)).toBe(false);
          }
        });
        for (const start of recorded) expect(recorded.filter((time) => time >= start && time < start + 60_000).length).toBeLessThanOrEqual(maxPerMinute);
      }),
      { numRuns: 300 },
    );
  });
});
