// The header's risk guards: the day's P&L against the daily loss limit in the quote asset's one
// display precision (the Positions panel's P&L figures), the orders of the last minute against the
// limit, and the tone as the limit nears.
import { createRoot } from 'solid-js';
import { describe, expect, it } from 'vitest';
import type { DayPnlView } from '../../shared/ipc/views';
import { dayPnlFigure, guardFigures, orderRateFigure } from '../../renderer/src/features/guards/guard-state-model';
import { pnlText } from '../../renderer/src/features/positions/positions-model';
import { createArming, followMainDisarm } from '../../renderer/src/stores/arming-store';
import { ethUsdc } from '../support/renderer/fixtures';

const USDC = 10n ** BigInt(ethUsdc.quote.decimals);
const row = (fields: Partial<DayPnlView>): DayPnlView => ({ quoteAsset: ethUsdc.quote.asset, turboAccount: null, pnl: -412n * USDC, limit: 500n * USDC, breached: false, problem: null, ...fields });

describe('the guards in the header', () => {
  it('shows the day’s P&L and the limit in the precision of the Positions P&L, with the asset’s name', () => {
    const figure = dayPnlFigure(row({}), [ethUsdc]);
    expect(figure.text).toBe('Day P&L -412.00 / -500.00 USDC');
    // One figure: the same digits as the Positions panel gives the same amount.
    expect(figure.text).toContain(pnlText(ethUsdc, -412n * USDC));
    expect(dayPnlFigure(row({ pnl: 1_234_567_890n }), [ethUsdc]).text).toBe(`Day P&L ${pnlText(ethUsdc, 1_234_567_890n)} / -500.00 USDC`);
  });

  it('keeps the P&L precision of the markets quoted in the asset, where another market trades it as its base to more digits', () => {
    const usdcBase = { ...ethUsdc, market_id: `0x${'b2'.repeat(32)}`, base: { ...ethUsdc.quote, max_precision: 6 }, quote: { ...ethUsdc.base, symbol: 'XYZ', asset: `0x${'e1'.repeat(32)}` } } as typeof ethUsdc;
    expect(dayPnlFigure(row({ pnl: -494_963n * (USDC / 1_000_000n) }), [ethUsdc, usdcBase]).text).toBe(`Day P&L ${pnlText(ethUsdc, -494_963n * (USDC / 1_000_000n))} / -500.00 USDC`);
  });

  it("names a Turbo Account's own figure, apart from the trading account's", () => {
    const turbo = dayPnlFigure(row({ turboAccount: `0x${'ab'.repeat(31)}cdef`, pnl: -20n * USDC }), [ethUsdc]);
    expect(turbo.text).toBe('Turbo 0xabab…cdef Day P&L -20.00 / -500.00 USDC');
    expect(turbo.key).not.toBe(dayPnlFigure(row({}), [ethUsdc]).key);
  });

  it('colours the figure as the loss nears the limit, and past it', () => {
    expect(dayPnlFigure(row({ pnl: -100n * USDC }), [ethUsdc]).tone).toBe('calm');
    expect(dayPnlFigure(row({ pnl: -375n * USDC }), [ethUsdc]).tone).toBe('near');
    expect(dayPnlFigure(row({ pnl: -500n * USDC, breached: true }), [ethUsdc]).tone).toBe('breached');
    const unread = dayPnlFigure(row({ pnl: null, problem: 'the fills could not be read' }), [ethUsdc]);
    expect(unread).toMatchObject({ text: 'Day P&L ? / -500.00 USDC', tone: 'unknown' });
    expect(unread.title).toContain('the fills could not be read');
  });

  it('shows the orders of the last minute against the limit', () => {
    expect(orderRateFigure({ count: 3, limit: 30 })).toMatchObject({ text: 'Orders/min 3 / 30', tone: 'calm' });
    expect(orderRateFigure({ count: 24, limit: 30 }).tone).toBe('near');
    expect(orderRateFigure({ count: 30, limit: 30 }).tone).toBe('breached');
  });

  it('shows nothing when no such limit is set', () => {
    expect(guardFigures(null, [ethUsdc])).toEqual([]);
    expect(guardFigures({ dayPnl: [], orderRate: null }, [ethUsdc])).toEqual([]);
    expect(guardFigures({ dayPnl: [row({})], orderRate: { count: 1, limit: 10 } }, [ethUsdc]).map((figure) => figure.key)).toEqual([`day-pnl-trading-${ethUsdc.quote.asset}`, 'order-rate']);
  });
});

describe('main’s word to disarm', () => {
  it('drops the window’s arming and keeps main’s reason to show on the ladder', () => {
    let push: ((event: { reason: string }) => void) | null = null;
    createRoot((dispose) => {
      const arming = createArming(() => 'net|owner|account', null);
      followMainDisarm((listener) => ((push = listener), () => undefined), arming);
      const scope = { marketId: ethUsdc.market_id, turbo: false };
      arming.arm(scope);
      push!({ reason: 'the daily loss limit was reached (day P&L -512.00 USDC, limit -500.00 USDC)' });
      expect(arming.armed(scope)).toBe(false);
      expect(arming.lastDisarm()).toBe('the daily loss limit was reached (day P&L -512.00 USDC, limit -500.00 USDC)');
      arming.dispose();
      dispose();
    });
  });
});
