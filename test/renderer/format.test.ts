import { describe, expect, it } from 'vitest';
import { editablePrice, formatPrice, formatQuantity } from '../../renderer/src/format/market-format';
import { formatRemaining } from '../../renderer/src/format/time';
import { formatPpm, formatUnits } from '../../renderer/src/format/units';
import { ethUsdc } from './fixtures';

describe('formatting at the display edge', () => {
  it('shows every raw unit, grouped, never rounded', () => {
    expect(formatUnits(1_234_500n, 3)).toBe('1,234.5');
    expect(formatUnits(123_456_789_012_345_678_901n, 9)).toBe('123,456,789,012.345678901');
    expect(formatUnits(-1_500n, 3, 2)).toBe('-1.50');
    expect(formatPpm(250n)).toBe('0.025%');
  });
  it('prices keep the market max precision so a column lines up', () => {
    expect(formatPrice(ethUsdc, 3_000_000_000n)).toBe('3,000.00');
    expect(formatPrice(ethUsdc, 3_000_250_000n)).toBe('3,000.25');
    expect(editablePrice(ethUsdc, 3_000_250_000n)).toBe('3000.25');
    expect(formatQuantity(ethUsdc, 500_000_000n)).toBe('0.5');
  });
  it('counts down a session in words', () => {
    expect(formatRemaining(30 * 86_400_000)).toBe('30d 0h');
    expect(formatRemaining(3_600_000 + 60_000 * 5)).toBe('1h 05m');
    expect(formatRemaining(61_000)).toBe('1m 01s');
    expect(formatRemaining(0)).toBe('expired');
  });
});
