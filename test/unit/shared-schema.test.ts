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

describe('what a refusal repeats of the input', () => {
  const symbol = z.object({ symbol: z.string().regex(/^[A-Z]+$/, 'expected capitals') });

  it('shows control, bidi and zero-width characters as escapes, never raw', () => {
    for (const hostile of ['\r\u001b[2K', '\u202e', '\u200b', '\u0085', '\u2028', '\u2066']) {
      const result = parseWith(symbol, { symbol: `ETH${hostile}` }, 'market');
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.message).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u);
    }
  });

  it('escapes them in a record key named in the path too', () => {
    const result = parseWith(z.record(z.string(), z.number()), { 'a\u202eb': 'x' }, 'books');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u);
  });
});
