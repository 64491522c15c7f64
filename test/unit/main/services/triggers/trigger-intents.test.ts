// Trigger intents to legs (pure): slippage to bounds on the step, explicit sizes floored and
// lowered for every leg price, OCO pairs ordered by lock, moves, roles and the wire-to-view fold.
import { describe, expect, it } from 'vitest';
import { buildLeg, explicitQuantity, fromParent, legKind, movedLeg, orderPairByLock } from '../../../../../main/services/triggers/trigger-intents';
import { knownTrigger, triggerRole } from '../../../../../main/services/triggers/trigger-views';
import type { B256 } from '../../../../../shared/encoding/b256';
import type { Market } from '../../../../../shared/market/market';
import type { TriggerLeg } from '../../../../../shared/protocol/trigger';

const USDC = 1_000_000n;
const ETH = 1_000_000_000n;
// ETH/USDC of the sandbox: base 9/4, quote 6/2 (price step 0.01 USDC).
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
// ETH/USDT-like: a price step of 0.001 and a quantity step of 0.0001 can be fractional.
const usdt: Market = { ...market, quote: { ...market.quote, symbol: 'USDT', max_precision: 3 } };
const parentId = `0x${'0d'.repeat(32)}` as B256;

describe('legs from intents', () => {
  it('a slippage becomes bounds around the trigger, moved inward onto the price step, and says so', () => {
    const kind = legKind(market, { triggerPrice: 3_000n * USDC + 330_000n, execution: { kind: 'slippage', bps: 100 } }, 'stopLoss');
    // 3000.33 × 1.01 = 3030.3333 → 3030.33; × 0.99 = 2970.3267 → 2970.33.
    expect(kind).toMatchObject({ ok: true, value: { kind: { kind: 'MarketBounded', max_price: 3_030_330_000n, min_price: 2_970_330_000n } } });
    expect(kind.ok && kind.value.adjustments[0]).toContain('2970.33 USDC and 3030.33 USDC');
    expect(legKind(market, { triggerPrice: 100n * USDC, execution: { kind: 'slippage', bps: 10_000 } }, 'leg')).toMatchObject({ ok: false, code: 'SLIPPAGE_TOO_WIDE' });
  });

  it('market and limit executions are kept as given (an off-step limit is left for the pre-flight to refuse)', () => {
    expect(legKind(market, { triggerPrice: 3_000n * USDC, execution: { kind: 'market' } }, 'x')).toMatchObject({ ok: true, value: { kind: { kind: 'Market' }, adjustments: [] } });
    const built = buildLeg(market, 'Sell', { triggerPrice: 3_100n * USDC, execution: { kind: 'limit', price: 3_099n * USDC + 1n } }, fromParent(parentId), 'takeProfit');
    expect(built).toMatchObject({ ok: true, value: { leg: { side: 'Sell', trigger_price: 3_100n * USDC, order_type: { kind: 'Spot', price: 3_099n * USDC + 1n }, quantity: { kind: 'ParentOrder', parent_order_id: parentId } } } });
  });

  it('an explicit size is floored to the step and lowered to a whole quote value at every leg price', () => {
    expect(explicitQuantity(market, 123_456_789n, [{ order_type: { kind: 'Market' }, trigger_price: 3_000n * USDC }])).toMatchObject({ quantity: 123_400_000n });
    // At 2999.999 USDT, 0.0001 ETH is not whole; 0.001 ETH is (2.999999 USDT).
    const legs = [{ order_type: { kind: 'Spot' as const, price: 2_999_999_000n }, trigger_price: 3_000_000_000n }];
    const lowered = explicitQuantity(usdt, 1_500_000n, legs);
    expect(lowered.quantity).toBe(1_000_000n);
    expect(lowered.adjustments.join(' ')).toContain('whole number of USDT units');
  });

  it('an OCO pair puts the leg that locks more first', () => {
    const small: TriggerLeg = { order_type: { kind: 'Spot', price: 2_900n * USDC }, quantity: { kind: 'Quantity', quantity: ETH }, trigger_price: 2_910n * USDC, side: 'Buy' };
    const big: TriggerLeg = { order_type: { kind: 'MarketBounded', max_price: 3_130n * USDC, min_price: 3_070n * USDC }, quantity: { kind: 'Quantity', quantity: ETH }, trigger_price: 3_100n * USDC, side: 'Buy' };
    expect(orderPairByLock(market, small, big)).toEqual([big, small]);
    expect(orderPairByLock(market, big, small)).toEqual([big, small]);
  });

  it('a move keeps a limit’s and bounds’ distances to the trigger', () => {
    const limit: TriggerLeg = { order_type: { kind: 'Spot', price: 3_090n * USDC }, quantity: fromParent(parentId), trigger_price: 3_100n * USDC, side: 'Sell' };
    expect(movedLeg(market, limit, 3_200n * USDC, undefined)).toMatchObject({ ok: true, value: { trigger_price: 3_200n * USDC, order_type: { kind: 'Spot', price: 3_190n * USDC } } });
    expect(movedLeg(market, limit, 3_200n * USDC, 3_150n * USDC)).toMatchObject({ ok: true, value: { order_type: { kind: 'Spot', price: 3_150n * USDC } } });
    const bounded: TriggerLeg = { ...limit, order_type: { kind: 'MarketBounded', max_price: 3_131n * USDC, min_price: 3_069n * USDC } };
    expect(movedLeg(market, bounded, 3_000n * USDC, undefined)).toMatchObject({ ok: true, value: { order_type: { kind: 'MarketBounded', max_price: 3_031n * USDC, min_price: 2_969n * USDC } } });
    expect(movedLeg(market, bounded, 3_000n * USDC, 1n)).toMatchObject({ ok: false, code: 'INVALID_MOVE' });
    expect(movedLeg(market, limit, 5n * USDC, undefined)).toMatchObject({ ok: false, code: 'INVALID_MOVE' });
  });
});

describe('legs from the exchange', () => {
  it('a sell above the market takes profit and below stops a loss; a buy the other way round', () => {
    expect([triggerRole('Sell', 'rise'), triggerRole('Sell', 'fall'), triggerRole('Buy', 'fall'), triggerRole('Buy', 'rise')]).toEqual(['take-profit', 'stop-loss', 'take-profit', 'stop-loss']);
  });

  it('folds the wire object into a view, keeping what a later message leaves out', () => {
    const first = knownTrigger(
      {
        order_id: `0x${'e1'.repeat(32)}` as B256,
        market_id: market.market_id,
        side: 'Sell',
        trigger_price: 3_100n * USDC,
        order_type: { kind: 'MarketBounded', max_price: 3_131n * USDC, min_price: 3_069n * USDC },
        quantity: { kind: 'ParentOrder', parent_order_id: parentId },
        state: 'pending',
        armed: false,
        direction: 'rise',
        parent_order_id: parentId,
        expected_quantity: ETH / 2n,
        oco_order_id: `0x${'e2'.repeat(32)}` as B256,
        locked: 0n,
        fired_order_id: null,
        reason: null,
        timestamp: 1_700_000_000_000_000_000n,
      },
      market.market_id,
      false,
    );
    expect(first.view).toMatchObject({ kind: 'bounded', maxPrice: 3_131n * USDC, minPrice: 3_069n * USDC, quantity: null, parentOrderId: parentId, role: 'take-profit', armed: false, time: 1_700_000_000_000 });
    expect(first.expectedQuantity).toBe(ETH / 2n);
    // The wire notes' minimal entry: the rest is kept from before.
    const later = knownTrigger({ order_id: first.view.triggerId as B256, side: 'Sell', trigger_price: 3_100n * USDC, state: 'fired', fired_order_id: `0x${'f1'.repeat(32)}` as B256 }, market.market_id, false, first);
    expect(later.view).toMatchObject({ state: 'fired', firedOrderId: `0x${'f1'.repeat(32)}`, kind: 'bounded', role: 'take-profit', ocoId: `0x${'e2'.repeat(32)}` });
    expect(later.leg).toEqual(first.leg);
  });
});
