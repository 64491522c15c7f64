import { describe, expect, it } from 'vitest';
import { planAmendLegs } from '../../../../../main/services/trading/amend-legs';
import type { ActiveTrigger } from '../../../../../shared/api/market-schemas';
import { b256, ZERO_B256 } from '../../../../../shared/encoding/b256';
import { ethUsdcSixDecimals } from '../../../../support/shared/market/fixtures';
import { ok } from '../../../../../shared/result';

const id = (byte: string) => b256(`0x${byte.repeat(32)}`);
const eth = ethUsdcSixDecimals;
const USDC = 1_000_000n;
const parent = id('0d');
const takeProfit: ActiveTrigger = { order_id: id('b1'), side: 'Sell', trigger_price: 3_100n * USDC, order_type: { kind: 'Spot', price: 3_100n * USDC }, quantity: { kind: 'ParentOrder', parent_order_id: parent }, direction: 'rise', oco_order_id: id('b2') };
const stopLoss: ActiveTrigger = { order_id: id('b2'), side: 'Sell', trigger_price: 2_900n * USDC, order_type: { kind: 'Market' }, quantity: { kind: 'ParentOrder', parent_order_id: parent }, direction: 'fall', oco_order_id: id('b1') };
const create = { kind: 'CreateOrder' as const, side: 'Buy' as const, price: 2_990n * USDC, quantity: 1_000_000_000n, order_type: { kind: 'Spot' as const } };
const order = { side: 'Buy' as const, price: 3_000n * USDC, filled: 0n };
const pass = () => ok(undefined);

describe('amend legs', () => {
  it('attaches the same legs, sized from the new order, take-profit first', () => {
    const plan = planAmendLegs(eth, order, create, [stopLoss, takeProfit], pass);
    expect(plan.ok).toBe(true);
    if (!plan.ok) return;
    expect(plan.value.create).toMatchObject({
      kind: 'CreateOrderWithTriggers',
      price: create.price,
      trigger_1: { trigger_price: 3_100n * USDC, order_type: { kind: 'Spot', price: 3_100n * USDC }, quantity: { kind: 'ParentOrder', parent_order_id: ZERO_B256 } },
      trigger_2: { trigger_price: 2_900n * USDC, order_type: { kind: 'Market' } },
    });
    expect(plan.value.protect).toBeNull();
    expect(plan.value.carried.map((leg) => leg.role)).toEqual(['take-profit', 'stop-loss']);
  });

  it('a partly filled order: a pair of the same legs sized to what filled, ordered by lock', () => {
    const plan = planAmendLegs(eth, { ...order, filled: 250_000_000n }, create, [takeProfit, stopLoss], pass);
    expect(plan.ok && plan.value.protect).toMatchObject({ kind: 'CreateTriggerOrders', first: { quantity: { kind: 'Quantity', quantity: 250_000_000n } }, second: { quantity: { kind: 'Quantity', quantity: 250_000_000n } } });
    expect(plan.ok && plan.value.protectedFilled).toBe(250_000_000n);
  });

  it('refuses before signing, naming the legs and the rule', () => {
    const third = { ...stopLoss, order_id: id('b3'), oco_order_id: null };
    expect(planAmendLegs(eth, order, create, [takeProfit, stopLoss, third], pass)).toMatchObject({ ok: false, code: 'AMEND_LEGS_NOT_CARRIED', message: expect.stringMatching(/take-profit 3100 USDC and stop-loss 2900 USDC and stop-loss 2900 USDC cannot be carried.*at most two attached legs/) as string });
    expect(planAmendLegs(eth, order, create, [{ ...takeProfit, oco_order_id: null }, { ...stopLoss, oco_order_id: null }], pass)).toMatchObject({ ok: false, message: expect.stringMatching(/not a pair/) as string });
    expect(planAmendLegs(eth, order, create, [{ ...stopLoss, quantity: { kind: 'Quantity', quantity: 1_000_000_000n } }], pass)).toMatchObject({ ok: false, message: expect.stringMatching(/QuantityMustBeParentOrder/) as string });
    // The filled part below the market's dust: a leg sized to it would be refused.
    const dusty = planAmendLegs(eth, { ...order, filled: 200_000n }, create, [stopLoss], (action) => (action.kind === 'CreateTriggerOrder' ? { ok: false, code: 'DUST', message: 'below dust' } : ok(undefined)));
    expect(dusty).toMatchObject({ ok: false, code: 'AMEND_LEGS_NOT_CARRIED' });
  });
});
