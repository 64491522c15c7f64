import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseWith } from '../../shared/schema';

describe('parseWith', () => {
  const order = z.object({ price: z.string().regex(/^\d+$/, 'expected a decimal string'), side: z.enum(['Buy', 'Sell']) });

  it('returns the parsed value', () => {
    expect(parseWith(order, { price: '10', side: 'Buy' })).toEqual({ ok: true, value: { price: '10', side: 'Buy' } });
  });

  it('names the field and the value', () => {
    const result = parseWith(order, { price: '1.5', side: 'Buy' }, 'order');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.code).toBe('INVALID_INPUT');
      expect(result.message).toBe('order.price: expected a decimal string, got "1.5"');
    }
  });
});
