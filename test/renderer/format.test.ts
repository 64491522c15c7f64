import { describe, expect, it } from 'vitest';
import { editablePrice, formatPrice, formatQuantity } from '../../renderer/src/format/market-format';
import { formatRemaining } from '../../renderer/src/format/time';
import { formatPpm, formatUnits } from '../../renderer/src/format/units';
import { ethUsdc } from '../support/renderer/fixtures';

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

describe('market labels', async () => {
  const { marketLabel, labelText, marketMatches } = await import('../../renderer/src/features/markets/market-label');
  const { ethUsdcOther, ethUsdt } = await import('../support/renderer/fixtures');
  const all = [ethUsdc, ethUsdt, ethUsdcOther];
  it('a unique pair is its symbols', () => {
    expect(marketLabel(ethUsdt, all)).toEqual({ pair: 'ETH/USDT', qualifier: null });
  });
  it('two ETH/USDC markets on different quote assets stay distinct by a short readable suffix (ids stay in details)', () => {
    const first = labelText(marketLabel(ethUsdc, all));
    const second = labelText(marketLabel(ethUsdcOther, all));
    expect(first).toBe('ETH/USDC #1');
    expect(second).toBe('ETH/USDC #2');
  });
  it('finds a market by symbol or by a pasted asset id', () => {
    expect(marketMatches(ethUsdcOther, '0xcfcf')).toBe(true);
    expect(marketMatches(ethUsdc, '0xcfcf')).toBe(false);
    expect(marketMatches(ethUsdt, 'usdt')).toBe(true);
  });
});

describe('bars at the chart edge', async () => {
  const { mergeBars, barsToColumns, toDrawingNumber, barOpenTime } = await import('../../renderer/src/features/chart/bars-model');
  const bar = (time: number, close: bigint) => ({ time, open: close, high: close, low: close, close, volume: 1n });
  it('merges an update by bar time, in order', () => {
    const merged = mergeBars([bar(60_000, 1n), bar(120_000, 2n)], [bar(120_000, 3n), bar(180_000, 4n)]);
    expect(merged.map((item) => [item.time, item.close])).toEqual([[60_000, 1n], [120_000, 3n], [180_000, 4n]]);
  });
  it('converts exact amounts to drawing numbers only at the edge', () => {
    expect(toDrawingNumber(3_000_250_000n, 6)).toBe(3000.25);
    expect(barsToColumns([bar(60_000, 1_500_000n)], 6, 9)[4]).toEqual([1.5]);
  });
  it('finds the bar a fill belongs to', () => {
    expect(barOpenTime(125_000, '1m')).toBe(120_000);
    expect(barOpenTime(Date.UTC(2026, 10, 21, 5), '1M')).toBe(Date.UTC(2026, 10, 1));
  });
});

describe('onboarding order', async () => {
  const { waitingFor, explain } = await import('../../renderer/src/features/onboarding/steps');
  const step = (id: 'owner' | 'account' | 'funds', state: 'todo' | 'done' | 'not-needed' | 'failed') => ({ id, title: id, state, detail: null });
  it('a step waits for the first unfinished step before it', () => {
    const steps = [step('owner', 'done'), step('account', 'failed'), step('funds', 'todo')];
    expect(waitingFor(steps, 1)).toBeNull();
    expect(waitingFor(steps, 2)?.id).toBe('account');
    expect(waitingFor([step('owner', 'not-needed'), step('account', 'todo')], 1)).toBeNull();
  });
  it('explains the faucet cooldown in words', () => {
    expect(explain('FAUCET_COOLDOWN', 'Wait 42 s.')).toContain('once a minute');
    expect(explain('FAUCET_COOLDOWN', 'The faucet allows one request a minute: retry in 57 s')).toBe('The faucet allows one request a minute: retry in 57 s');
  });
});
