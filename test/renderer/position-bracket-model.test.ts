// The Positions row's TP/SL fields: prices, or offsets from the entry in ticks or percent, on the
// step and toward the entry; each refusal names the field and the value typed.
import { describe, expect, it } from 'vitest';
import type { B256 } from '../../shared/encoding/b256';
import type { Market } from '../../shared/market/market';
import { autoBracketRequest, bracketPrice, bracketRequest } from '../../renderer/src/features/positions/position-bracket-model';

const USDC = 1_000_000n;
const market: Market = {
  contract_id: `0x${'c1'.repeat(32)}` as B256,
  market_id: `0x${'a1'.repeat(32)}` as B256,
  base: { symbol: 'ETH', asset: `0x${'ba'.repeat(32)}` as B256, decimals: 9, max_precision: 4 },
  quote: { symbol: 'USDC', asset: `0x${'9c'.repeat(32)}` as B256, decimals: 6, max_precision: 2 },
  maker_fee: 100n,
  taker_fee: 250n,
  min_order: USDC,
  dust: 1_000_000n,
  price_window: 20,
};
const entry = 3_000n * USDC;

describe('position TP/SL fields', () => {
  it('reads prices as typed', () => {
    expect(bracketRequest(market, { takeProfit: '3100', stopLoss: '2900.5', unit: 'price' }, entry, true)).toEqual({ ok: true, value: { takeProfit: 3_100n * USDC, stopLoss: 2_900_500_000n } });
  });

  it('reads offsets in ticks and percent from the entry, by the side of the position', () => {
    expect(bracketRequest(market, { takeProfit: '100', stopLoss: '50', unit: 'ticks' }, entry, true)).toEqual({ ok: true, value: { takeProfit: 3_001n * USDC, stopLoss: 2_999_500_000n } });
    expect(bracketRequest(market, { takeProfit: '1', stopLoss: '0.5', unit: 'percent' }, entry, false)).toEqual({ ok: true, value: { takeProfit: 2_970n * USDC, stopLoss: 3_015n * USDC } });
  });

  it('rounds a percent offset onto the step toward the entry', () => {
    const odd = 3_000_010_000n;
    const price = bracketPrice(market, '0.33', 'percent', odd, true, 'Take-profit');
    const value = price.ok ? price.value : null;
    expect(value !== null && value % 10_000n).toBe(0n);
    expect(value !== null && value <= odd + (odd * 33n) / 10_000n).toBe(true);
  });

  it('names the field and the value it refuses', () => {
    const offStep = bracketRequest(market, { takeProfit: '3100.005', stopLoss: '', unit: 'price' }, entry, true);
    expect(!offStep.ok && offStep.message).toContain('Take-profit: "3100.005"');
    const ticks = bracketRequest(market, { takeProfit: '', stopLoss: 'ten', unit: 'ticks' }, entry, true);
    expect(!ticks.ok && ticks.message).toContain('Stop-loss: "ten"');
    const percent = bracketRequest(market, { takeProfit: '150', stopLoss: '', unit: 'percent' }, entry, true);
    expect(!percent.ok && percent.message).toContain('"150" %');
    const none = bracketRequest(market, { takeProfit: '', stopLoss: '', unit: 'price' }, entry, true);
    expect(!none.ok && none.code).toBe('NOTHING_TO_MANAGE');
    const noEntry = bracketRequest(market, { takeProfit: '10', stopLoss: '', unit: 'ticks' }, null, true);
    expect(!noEntry.ok && noEntry.code).toBe('ENTRY_UNKNOWN');
  });
});

describe('automatic bracket fields', () => {
  it('reads ticks and percent (as basis points)', () => {
    expect(autoBracketRequest({ takeProfit: '20', stopLoss: '10', unit: 'ticks' })).toEqual({ ok: true, value: { unit: 'ticks', takeProfit: 20n, stopLoss: 10n } });
    expect(autoBracketRequest({ takeProfit: '1.5', stopLoss: '', unit: 'percent' })).toEqual({ ok: true, value: { unit: 'percent', takeProfit: 150n, stopLoss: null } });
  });

  it('names the field and the value it refuses', () => {
    const ticks = autoBracketRequest({ takeProfit: '', stopLoss: '2.5', unit: 'ticks' });
    expect(!ticks.ok && ticks.message).toBe('Stop-loss offset: "2.5" is not a whole number of ticks from 1 to 1,000,000');
    const percent = autoBracketRequest({ takeProfit: '0', stopLoss: '', unit: 'percent' });
    expect(!percent.ok && percent.message).toContain('Take-profit offset: "0" %');
  });
});
