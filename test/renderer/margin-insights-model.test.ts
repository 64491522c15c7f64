// The margin insights' freshness per part and their texts: a part main could not read is stale in
// place with main's reason; one whose reads stopped arriving turns stale here; amounts are shown in
// their asset (raw units named as such when no market lists it).
import { describe, expect, it } from 'vitest';
import type { Market } from '../../shared/market/market';
import { activityAmountText, amountText, assetRef, insightFreshness } from '../../renderer/src/features/margin/insights-model';

const USDC = `0x${'c0'.repeat(32)}`;
const market = { base: { asset: `0x${'e7'.repeat(32)}`, symbol: 'ETH', decimals: 9, max_precision: 4 }, quote: { asset: USDC, symbol: 'USDC', decimals: 6, max_precision: 2 } } as unknown as Market;

describe('margin insights model', () => {
  it('freshness per part: resyncing before the first read, stale with the reason, stale after missed reads', () => {
    expect(insightFreshness(null, 5_000, 0, 'statistics')).toEqual({ state: 'resyncing', detail: 'asking main for the statistics' });
    expect(insightFreshness({ state: 'resyncing', readAt: null, problem: null, value: null }, 5_000, 0, 'tier history')).toEqual({ state: 'resyncing', detail: 'first read of the tier history' });
    expect(insightFreshness({ state: 'stale', readAt: 1, problem: 'TIMEOUT: no answer', value: null }, 5_000, 0, 'x')).toEqual({ state: 'stale', detail: 'TIMEOUT: no answer' });
    expect(insightFreshness({ state: 'live', readAt: 1, problem: null, value: null }, 5_000, 14_000, 'x')).toBeNull();
    expect(insightFreshness({ state: 'live', readAt: 1, problem: null, value: null }, 5_000, 16_000, 'x')).toEqual({ state: 'stale', detail: 'no read for 16 s' });
  });

  it('amounts in their asset, from bigint raw units', () => {
    const usdc = assetRef(USDC, [market]);
    expect(usdc).toEqual({ assetId: USDC, symbol: 'USDC', decimals: 6 });
    expect(amountText(2_500_000_000n, usdc)).toMatch(/^2,?500\.0+ USDC$/);
    expect(amountText(7n, null)).toBe('7 raw units');
    expect(activityAmountText({ key: 'drawn_total', assetId: USDC, amount: 1_000_000n }, [market])).toMatch(/^drawn total 1\.0+ USDC$/);
  });
});
