// The Open orders tab says what the panel lists: its orders and, when there are any, the pending
// legs listed under them, the same words as the "Cancel all … (0 + 1 leg)" button.
import { describe, expect, it } from 'vitest';
import { ordersAndLegsText } from '../../renderer/src/features/orders/orders-count';

describe('the open orders count', () => {
  it('names the legs listed under the orders', () => {
    expect(ordersAndLegsText(0, 0)).toBe('0');
    expect(ordersAndLegsText(0, 1)).toBe('0 + 1 leg');
    expect(ordersAndLegsText(3, 2)).toBe('3 + 2 legs');
  });
});
