import { describe, expect, it } from 'vitest';
import { packCancels, prepareOrder } from '../../../../../main/services/trading/order-intents';
import { b256 } from '../../../../../shared/encoding/b256';
import type { Market } from '../../../../../shared/market/market';

const id = (byte: string) => b256(`0x${byte.repeat(32)}`);
const market = (byte: string): Market => ({
  contract_id: id(byte),
  market_id: id(byte === 'aa' ? 'ab' : byte === 'cc' ? 'cd' : 'ef'),
  base: { symbol: 'ETH', asset: id('01'), decimals: 9, max_precision: 3 },
  quote: { symbol: 'USDC', asset: id('02'), decimals: 6, max_precision: 2 },
  maker_fee: 100n,
  taker_fee: 250n,
  min_order: 10_000_000n, // 10 USDC
  dust: 1_000_000n, // 0.001 ETH
  price_window: 0,
});
const eth = market('aa');
const price = 3_000_120_000n; // 3,000.12 USDC (6 decimals), on the 0.01 tick

describe('order intents', () => {
  it('floors the quantity to the step and says so', () => {
    const prepared = prepareOrder(eth, { side: 'Buy', orderType: { kind: 'Spot' }, price: 3_000_000_000n, quantity: 1_234_567_891n }, { nowSeconds: 100n });
    expect(prepared.ok && prepared.value.quantity).toBe(1_234_000_000n);
    expect(prepared.ok && prepared.value.adjustments[0]).toMatch(/floored from 1\.234567891 to 1\.234 ETH/);
    expect(prepared.ok && prepared.value.description).toBe('Buy 1.234 ETH at 3000 USDC (Spot) on ETH/USDC');
  });

  it('lowers the quantity to a whole quote value, the nearest valid one', () => {
    // 3000.11 USDC x 3.333 ETH = 9999.36663 USDC: not a whole number of micro-USDC units.
    const odd = 3_000_110_000n;
    const prepared = prepareOrder(eth, { side: 'Sell', orderType: { kind: 'Spot' }, price: odd, quantity: 3_333_000_000n }, { nowSeconds: 100n });
    expect(prepared.ok).toBe(true);
    if (!prepared.ok) return;
    expect((odd * prepared.value.quantity) % 1_000_000_000n).toBe(0n);
    expect(prepared.value.quantity).toBeLessThanOrEqual(3_333_000_000n);
  });

  it('refuses an off-tick price instead of moving it', () => {
    expect(prepareOrder(eth, { side: 'Sell', orderType: { kind: 'Spot' }, price: 3_000_123_000n, quantity: 1_000_000_000n }, { nowSeconds: 1n })).toMatchObject({ ok: false, code: 'PRICE_PRECISION' });
  });

  it('stamps the limit timestamp and keeps the bounds of a bounded market order', () => {
    const limit = prepareOrder(eth, { side: 'Buy', orderType: { kind: 'Limit' }, price, quantity: 1_000_000_000n }, { nowSeconds: 1_700_000_000n });
    expect(limit.ok && limit.value.group.actions[0]).toMatchObject({ order_type: { kind: 'Limit', price, timestamp: 1_700_000_000n } });
    const bounded = prepareOrder(eth, { side: 'Buy', orderType: { kind: 'BoundedMarket', maxPrice: 3_100_000_000n, minPrice: 2_900_000_000n }, price, quantity: 1_000_000_000n }, { nowSeconds: 1n });
    expect(bounded.ok && bounded.value.group.actions[0]).toMatchObject({ order_type: { kind: 'BoundedMarket', max_price: 3_100_000_000n, min_price: 2_900_000_000n } });
    expect(prepareOrder(eth, { side: 'Buy', orderType: { kind: 'Market' }, price, quantity: 1_000_000_000n }, { nowSeconds: 1n, marginAccount: true })).toMatchObject({ ok: false, code: 'UNBOUNDED_MARKET_ORDER' });
  });

  it('refuses an order below the market minimum with the amounts in words', () => {
    expect(prepareOrder(eth, { side: "Buy", orderType: { kind: "Spot" }, price, quantity: 2_000_000n }, { nowSeconds: 1n })).toMatchObject({ ok: false, code: 'MIN_ORDER' });
  });

  it('packs cancellations into as few batches as the 5-action and 5-market caps allow', () => {
    const markets = ['aa', 'cc', 'ee'].map(market);
    const targets = Array.from({ length: 12 }, (_, index) => ({ market: markets[index % 2]!, turbo: false, orderId: id((index + 16).toString(16)) }));
    const batches = packCancels(targets);
    expect(batches).toHaveLength(3);
    expect(batches.map((batch) => batch.orderIds.length)).toEqual([5, 5, 2]);
    for (const batch of batches) expect(batch.groups.reduce((sum, group) => sum + group.actions.length, 0)).toBeLessThanOrEqual(5);
    expect(new Set(batches.flatMap((batch) => batch.orderIds)).size).toBe(12);
  });
});
