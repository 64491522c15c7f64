// The legs list's trail distance: ticks, percent of the reference or a price distance, as main
// takes them; a refusal names the field and the value typed.
import { describe, expect, it } from 'vitest';
import type { B256 } from '../../shared/encoding/b256';
import type { Market } from '../../shared/market/market';
import { parseTrailDistance } from '../../renderer/src/features/triggers/trail-distance';

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

describe('trail distance', () => {
  it('reads ticks, percent and a price distance', () => {
    expect(parseTrailDistance(market, '50', 'ticks')).toEqual({ ok: true, value: { kind: 'ticks', ticks: 50n } });
    expect(parseTrailDistance(market, '1.25', 'percent')).toEqual({ ok: true, value: { kind: 'percent', basisPoints: 125n } });
    expect(parseTrailDistance(market, '12.5', 'price')).toEqual({ ok: true, value: { kind: 'price', amount: 12_500_000n } });
    expect(parseTrailDistance(market, ' ', 'percent')).toEqual({ ok: true, value: null });
  });

  it('names the field and the value it refuses', () => {
    const ticks = parseTrailDistance(market, '0', 'ticks');
    expect(!ticks.ok && ticks.message).toBe('Trail distance: "0" is not a whole number of ticks from 1 to 9,999,999');
    const percent = parseTrailDistance(market, '60', 'percent');
    expect(!percent.ok && percent.message).toBe('Trail distance: "60" % is not between 0.01 and 50');
    const fine = parseTrailDistance(market, '1.234', 'percent');
    expect(!fine.ok && fine.message).toContain('Trail distance: "1.234"');
    const price = parseTrailDistance(market, '0.005', 'price');
    expect(!price.ok && price.message).toBe('Trail distance: "0.005" USDC is not on the price step of 0.01 USDC');
    const zero = parseTrailDistance(market, '0', 'price');
    expect(!zero.ok && zero.message).toBe('Trail distance: "0" USDC must be above zero');
    expect(!zero.ok && zero.details?.field).toBe('Trail distance');
  });
});
