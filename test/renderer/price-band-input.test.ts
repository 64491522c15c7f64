// The Settings panel's price band field: percent text to the bands main takes, and back.
import { describe, expect, it } from 'vitest';
import { bandFieldText, bandsWithText, DEFAULT_BAND_TEXT } from '../../renderer/src/features/settings/price-band-input';

describe('the price band field', () => {
  it('turns percent text into basis points for the market, keeping the other markets', () => {
    expect(bandsWithText({ b: 700 }, 'a', '2.5')).toEqual({ ok: true, value: { a: 250, b: 700 } });
    expect(bandsWithText({}, 'a', '30 %')).toEqual({ ok: true, value: { a: 3000 } });
    expect(bandsWithText({ a: 100 }, 'a', '0')).toEqual({ ok: true, value: { a: 0 } });
    expect(bandsWithText({ a: 100, b: 700 }, 'a', ' ')).toEqual({ ok: true, value: { b: 700 } });
  });

  it('refuses text that is no percentage, more than two decimals, or beyond the widest band', () => {
    for (const text of ['abc', '-5', '1.234', '1001']) expect(bandsWithText({}, 'a', text).ok, text).toBe(false);
  });

  it('shows a market’s own band in percent, and nothing while it keeps the default', () => {
    expect(bandFieldText({ a: 250 }, 'a')).toBe('2.5');
    expect(bandFieldText({ a: 0 }, 'a')).toBe('0');
    expect(bandFieldText({}, 'a')).toBe('');
    expect(DEFAULT_BAND_TEXT).toBe('30 %');
  });
});
