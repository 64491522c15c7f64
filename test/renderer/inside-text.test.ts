// The market bar's inside on a market whose price tick is finer than the stream's grouping: on
// FUEL/USDC the stream's prices, grouped by 10 raw units, must not be presented as exact (a bar
// saying "0.019970 / 0.020000" as the best bid and ask while the exchange's are 0.019973 /
// 0.019991).
import { describe, expect, it } from 'vitest';
import type { Market } from '../../shared/market/market';
import { insideText, streamGrouping } from '../../renderer/src/features/markets/inside-text';
import { ethUsdc } from '../support/renderer/fixtures';

const fuelUsdc: Market = {
  ...ethUsdc,
  market_id: `0x${'f0'.repeat(32)}` as Market['market_id'],
  base: { ...ethUsdc.base, symbol: 'FUEL', decimals: 9, max_precision: 0 },
  quote: { ...ethUsdc.quote, decimals: 6, max_precision: 6 },
};

describe('the inside market as the bar shows it', () => {
  it('says the prices are grouped, and which way, when the stream groups coarser than the tick', () => {
    const shown = insideText(fuelUsdc, 19_970n, 20_000n, 10n);
    expect(shown).toEqual({ bid: '≥ 0.019970', ask: '≤ 0.020000', grouping: 10n, groupingLabel: '0.00001' });
  });

  it('takes a frame asked at the tick of 1 as grouped by 10, the finest the stream has', () => {
    const shown = insideText(fuelUsdc, 19_970n, 20_000n, streamGrouping(1n));
    expect(shown.bid).toBe('≥ 0.019970');
    expect(shown.ask).toBe('≤ 0.020000');
    expect(streamGrouping(10_000n)).toBe(10_000n);
  });

  it('shows the exact prices when the stream is on the tick', () => {
    expect(insideText(ethUsdc, 2_999_990_000n, 3_000_010_000n, 10_000n)).toEqual({ bid: '2,999.99', ask: '3,000.01', grouping: null, groupingLabel: null });
    expect(insideText(ethUsdc, null, null, null)).toEqual({ bid: '—', ask: '—', grouping: null, groupingLabel: null });
  });
});
