// The algorithm ticket's parsing: texts in, the exact AlgoSpec (raw units with the market's
// decimals, the bridge schema's ranges) or the first wrong field named with the value typed.
import { describe, expect, it } from 'vitest';
import type { AlgoParameterName } from '../../../shared/algos/algo-kinds';
import { algoInputs } from '../../../shared/ipc/areas/algos';
import type { AlgoKind } from '../../../shared/ipc/views/algos';
import { algoSpec, specKey } from '../../../renderer/src/features/algos/algo-form';
import { ladderChase } from '../../../renderer/src/features/algos/ladder-chase';
import { ethUsdc } from '../../support/renderer/fixtures';

const form = (kind: AlgoKind, texts: Partial<Record<AlgoParameterName, string>> = {}, quantityText = '1.5') => algoSpec(ethUsdc, false, { kind, side: 'Buy', quantityText, texts });

describe('algorithm ticket', () => {
  it('builds a TWAP from its starting texts, with the limit and a market slice when asked', () => {
    const plain = form('twap');
    expect(plain).toEqual({
      ok: true,
      spec: {
        marketId: ethUsdc.market_id,
        turbo: false,
        side: 'Buy',
        quantity: 1_500_000_000n,
        limitPrice: null,
        params: { kind: 'twap', durationMs: 600_000, intervalMs: 30_000, sizeJitterBps: 0n, timeJitterBps: 0n, slice: { kind: 'touch' } },
      },
    });
    const full = form('twap', { duration: '2.5', interval: '7.5', sizeJitter: '12.5', timeJitter: '10', slice: 'market', slippage: '25', limitPrice: '3010.5' });
    expect(full.ok && full.spec).toMatchObject({ limitPrice: 3_010_500_000n, params: { durationMs: 150_000, intervalMs: 7_500, sizeJitterBps: 1_250n, timeJitterBps: 1_000n, slice: { kind: 'market', slippageBps: 25n } } });
  });

  it('every spec it builds passes the bridge schema main checks', () => {
    const specs = [
      form('twap', { slice: 'market' }),
      form('scale', { from: '3000', to: '2990', count: '7', distribution: 'increasing', curve: 'geometric', ratio: '1.25' }),
      form('scale', { from: '3000', to: '2990', distribution: 'decreasing' }),
      form('iceberg', { price: '3000', visible: '0.25' }),
      form('chase', { offset: '2', maxAmends: '30', limitPrice: '3005' }),
    ];
    for (const built of specs) {
      expect(built.ok).toBe(true);
      if (built.ok) expect(algoInputs.startAlgo.safeParse(built.spec).success).toBe(true);
    }
  });

  it('builds a scale with its shape (the ratio only for a geometric curve) and post-only', () => {
    const flat = form('scale', { from: '3000', to: '2990', postOnly: 'false', curve: 'geometric', ratio: 'junk' });
    expect(flat.ok && flat.spec.params).toEqual({ kind: 'scale', from: 3_000_000_000n, to: 2_990_000_000n, count: 5, shape: { distribution: 'flat' }, postOnly: false });
    const geometric = form('scale', { from: '3000', to: '2990', distribution: 'increasing', curve: 'geometric', ratio: '1.2' });
    expect(geometric.ok && geometric.spec.params).toMatchObject({ shape: { distribution: 'increasing', curve: 'geometric', ratioBps: 12_000n }, postOnly: true });
  });

  it('names the field and the value it refuses', () => {
    const cases: [AlgoKind, Partial<Record<AlgoParameterName, string>>, string, string, RegExp][] = [
      ['twap', { duration: '0.1' }, 'duration', 'OUT_OF_RANGE', /Duration: 0\.1 min is outside 10 s to 24 h/],
      ['twap', { interval: 'abc' }, 'interval', 'INVALID_AMOUNT', /Interval: "abc" is not a plain decimal/],
      ['twap', { interval: '900' }, 'interval', 'INTERVAL_ABOVE_DURATION', /Interval: 900 s is longer than the duration/],
      ['twap', { sizeJitter: '60' }, 'sizeJitter', 'OUT_OF_RANGE', /Size randomisation: 60 % is outside 0 % to 50 %/],
      ['twap', { slice: 'market', slippage: '0' }, 'slippage', 'OUT_OF_RANGE', /Slippage: 0 is outside 1 to 1,000 bps/],
      ['twap', { limitPrice: '3000.0000001' }, 'limitPrice', 'TOO_MANY_DECIMALS', /Price limit: "3000.0000001" has 7 decimal places/],
      ['scale', { from: '', to: '2990' }, 'from', 'MISSING', /From price is empty/],
      ['scale', { from: '3000', to: '3000' }, 'to', 'SAME_PRICE', /To price: 3000 is the from price too/],
      ['scale', { from: '3000', to: '2990', count: '1' }, 'count', 'OUT_OF_RANGE', /Orders: 1 is outside 2 to 100/],
      ['scale', { from: '3000', to: '2990', count: '2.5' }, 'count', 'INVALID_NUMBER', /Orders: "2.5" is not a whole number/],
      ['scale', { from: '3000', to: '2990', distribution: 'increasing', curve: 'geometric', ratio: '1' }, 'ratio', 'OUT_OF_RANGE', /Ratio: ×1 is outside above ×1 and at most ×3/],
      ['iceberg', { price: '3000', visible: '2' }, 'visible', 'VISIBLE_ABOVE_TOTAL', /Visible size: 2 ETH is more than the total 1.5 ETH/],
      ['iceberg', { price: '0', visible: '0.1' }, 'price', 'ZERO_PRICE', /Price: "0" must be above zero/],
      ['chase', { maxAmends: '500' }, 'maxAmends', 'OUT_OF_RANGE', /Amends per minute: 500 is outside 1 to 120/],
      ['chase', { offset: '-1' }, 'offset', 'INVALID_NUMBER', /Offset: "-1" is not a whole number/],
    ];
    for (const [kind, texts, field, code, message] of cases) {
      const result = form(kind, texts);
      expect(result.ok, `${kind} ${JSON.stringify(texts)}`).toBe(false);
      if (result.ok) continue;
      expect({ field: result.field, code: result.code }).toEqual({ field, code });
      expect(result.message).toMatch(message);
    }
    const quantity = form('chase', {}, '0.0000000001');
    expect(!quantity.ok && quantity).toMatchObject({ field: 'quantity', code: 'TOO_MANY_DECIMALS' });
    expect(form('chase', {}, '')).toMatchObject({ ok: false, field: 'quantity', code: 'MISSING' });
  });

  it('refuses a price off the tick, naming the step', () => {
    const tickMarket = { ...ethUsdc, quote: { ...ethUsdc.quote, max_precision: 2 } };
    const result = algoSpec(tickMarket, false, { kind: 'iceberg', side: 'Sell', quantityText: '1', texts: { price: '3000.001', visible: '0.5' } });
    expect(result).toMatchObject({ ok: false, field: 'price', code: 'PRICE_NOT_ON_TICK' });
    expect(!result.ok && result.message).toMatch(/not on the price step 0\.01 USDC/);
  });

  it('keys a spec so a preview belongs to exactly the spec it was asked for', () => {
    const key = (offset: string) => {
      const built = form('chase', { offset });
      return built.ok ? specKey(built.spec) : null;
    };
    expect(key('1')).not.toBeNull();
    expect(key('1')).toBe(key('1'));
    expect(key('1')).not.toBe(key('2'));
  });

  it('the ladder chases with its own size, the row price as the limit, at the touch', () => {
    const chase = ladderChase(ethUsdc, true, 'Sell', 3_001_000_000n, '0.25');
    expect(chase).toEqual({
      ok: true,
      spec: { marketId: ethUsdc.market_id, turbo: true, side: 'Sell', quantity: 250_000_000n, limitPrice: 3_001_000_000n, params: { kind: 'chase', offsetTicks: 0n, maxAmendsPerMinute: 10 } },
    });
    expect(ladderChase(ethUsdc, false, 'Buy', 3_001_000_000n, '')).toMatchObject({ ok: false, field: 'quantity', code: 'MISSING' });
  });
});
