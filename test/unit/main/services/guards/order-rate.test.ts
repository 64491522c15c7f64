// The orders-per-minute guard with a clock given here: orders count, legs do not, the window slides.
import { describe, expect, it } from 'vitest';
import { OrderRate } from '../../../../../main/services/guards/order-rate';
import type { OrderIntent } from '../../../../../main/services/guards/order-intent';

const order: OrderIntent = { marketId: '0x01' as OrderIntent['marketId'], turbo: false, account: '0xa', side: 'Buy', kind: 'Limit', price: 1n, quantity: 1n, reduceOnly: false };
const leg: OrderIntent = { ...order, kind: 'trigger' };

describe('the maximum orders per minute', () => {
  it('counts the orders of each request that passed, refuses the one that would pass the limit, and frees the slots a minute later', () => {
    let now = 1_000_000;
    const rate = new OrderRate(() => now);
    expect(rate.check([order, leg, leg], 2).ok).toBe(true);
    rate.record([order, leg, leg]);
    now += 10_000;
    expect(rate.check([order], 2).ok).toBe(true);
    rate.record([order]);
    const refused = rate.check([order], 2);
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.code).toBe('GUARD_ORDER_RATE');
    expect(refused.message).toContain('2 orders in the last minute and 1 more would pass your maximum of 2 orders per minute');
    expect(refused.details).toMatchObject({ value: '3', maximum: '2' });
    expect(rate.check([leg], 2).ok).toBe(true);
    now += 50_001;
    expect(rate.check([order], 2).ok).toBe(true);
    expect(rate.check([order], 0).ok).toBe(true);
  });
});
