// Known-answer vectors of the four trigger actions (wire notes, "Trigger orders"): each expected
// call data is written out in hex and also rebuilt by hand with Buffer, so the encoder, the literal
// and the independent construction must all agree. Forwarded amounts and lock prices are asserted
// per leg kind (market, bounded market, limit) and sizing (explicit, from a parent).
import { describe, expect, it } from 'vitest';
import { sessionActionSchema } from '../../../../shared/api/action-schemas';
import { actionToCall, triggerForwarded } from '../../../../shared/protocol/action-calls';
import { sessionActionToJson } from '../../../../shared/protocol/action-json';
import type { SessionAction } from '../../../../shared/protocol/actions';
import { encodeCall } from '../../../../shared/protocol/call';
import { triggerLockPrice, triggerOrderPrice, triggerOrderType, type TriggerLeg } from '../../../../shared/protocol/trigger';
import { bytes32, hex, u64 } from '../../../support/shared/crypto/independent';
import { callBytes, ids, market, targets } from '../../../support/shared/protocol/fixtures';

const E = 1_000_000_000n; // 1 ETH, 1 USDC (the fixture market has 9 decimals on both)
const q = 250_000_000n; // 0.25 ETH
const parentId = ids.order;

// ---- legs, with their call-data bytes by hand: TriggerQuantity ‖ TriggerKind ‖ u64 trigger ----
const explicitBytes = (quantity: bigint) => Buffer.concat([u64(0), u64(quantity)]);
const parentBytes = (id: string) => Buffer.concat([u64(1), bytes32(id)]);
const marketKind = () => u64(0);
const boundedKind = (max: bigint, min: bigint) => Buffer.concat([u64(1), u64(max), u64(min)]);
const spotKind = (price: bigint) => Buffer.concat([u64(2), u64(price)]);

const marketBuy: TriggerLeg = { order_type: { kind: 'Market' }, quantity: { kind: 'Quantity', quantity: q }, trigger_price: 2100n * E, side: 'Buy' };
const marketBuyBytes = Buffer.concat([explicitBytes(q), marketKind(), u64(2100n * E)]);
const marketBuyHex = '0000000000000000' + '000000000ee6b280' + '0000000000000000' + '000001e8f1c10800';

const boundedBuy: TriggerLeg = { order_type: { kind: 'MarketBounded', max_price: 2110n * E, min_price: 2090n * E }, quantity: { kind: 'Quantity', quantity: q }, trigger_price: 2100n * E, side: 'Buy' };
const boundedBuyBytes = Buffer.concat([explicitBytes(q), boundedKind(2110n * E, 2090n * E), u64(2100n * E)]);
const boundedBuyHex = '0000000000000000' + '000000000ee6b280' + '0000000000000001' + '000001eb45ccec00' + '000001e69db52400' + '000001e8f1c10800';

const limitSell: TriggerLeg = { order_type: { kind: 'Spot', price: 1895n * E }, quantity: { kind: 'Quantity', quantity: q }, trigger_price: 1900n * E, side: 'Sell' };
const limitSellBytes = Buffer.concat([explicitBytes(q), spotKind(1895n * E), u64(1900n * E)]);
const limitSellHex = '0000000000000000' + '000000000ee6b280' + '0000000000000002' + '000001b936cd4600' + '000001ba60d33800';

const stopFromParent = (id: string): TriggerLeg => ({
  order_type: { kind: 'MarketBounded', max_price: 1910n * E, min_price: 1890n * E },
  quantity: { kind: 'ParentOrder', parent_order_id: id as typeof ids.zero },
  trigger_price: 1900n * E,
  side: 'Sell',
});
const stopFromParentBytes = (id: string) => Buffer.concat([parentBytes(id), boundedKind(1910n * E, 1890n * E), u64(1900n * E)]);
const stopFromParentHex = (idHex: string) => '0000000000000001' + idHex + '0000000000000001' + '000001bcb4df1c00' + '000001b80cc75400' + '000001ba60d33800';

const takeProfitFromParent = (id: string): TriggerLeg => ({ order_type: { kind: 'Spot', price: 2200n * E }, quantity: { kind: 'ParentOrder', parent_order_id: id as typeof ids.zero }, trigger_price: 2190n * E, side: 'Sell' });
const takeProfitFromParentBytes = (id: string) => Buffer.concat([parentBytes(id), spotKind(2200n * E), u64(2190n * E)]);
const takeProfitFromParentHex = (idHex: string) => '0000000000000001' + idHex + '0000000000000002' + '000002003a37f000' + '000001fde62c0c00';

const zeroHex = '00'.repeat(32);
const parentHex = '0d'.repeat(32);
const none = '0000000000000000';
const some = '0000000000000001';
const orderArgsHex = '000001d1a94a2000' + '000000000ee6b280' + '0000000000000001'; // 2000 USDC, 0.25 ETH, Spot
const orderArgsBytes = Buffer.concat([u64(2000n * E), u64(q), u64(1)]);

interface Vector {
  readonly name: string;
  readonly action: SessionAction;
  readonly selector: string;
  readonly dataHex: string;
  readonly dataBytes: Buffer;
  readonly forwarded: bigint;
  readonly asset: string;
}

const vectors: Vector[] = [
  {
    name: 'single market leg, buy, explicit: locks quantity × trigger price of quote',
    action: { kind: 'CreateTriggerOrder', args: marketBuy },
    selector: 'create_trigger_order',
    dataHex: marketBuyHex + none,
    dataBytes: Buffer.concat([marketBuyBytes, u64(0)]),
    forwarded: 525n * E,
    asset: ids.quoteAsset,
  },
  {
    name: 'single bounded leg, buy, explicit: locks quantity × max price of quote',
    action: { kind: 'CreateTriggerOrder', args: boundedBuy },
    selector: 'create_trigger_order',
    dataHex: boundedBuyHex + none,
    dataBytes: Buffer.concat([boundedBuyBytes, u64(0)]),
    forwarded: 5275n * (E / 10n),
    asset: ids.quoteAsset,
  },
  {
    name: 'single limit leg, sell, explicit: locks its quantity of base',
    action: { kind: 'CreateTriggerOrder', args: limitSell },
    selector: 'create_trigger_order',
    dataHex: limitSellHex + none,
    dataBytes: Buffer.concat([limitSellBytes, u64(0)]),
    forwarded: q,
    asset: ids.baseAsset,
  },
  {
    name: 'single bounded leg sized from a resting parent: Some(expected_quantity), forwards 0 of base',
    action: { kind: 'CreateTriggerOrder', args: stopFromParent(parentId), parent: { order_id: parentId, expected_quantity: q } },
    selector: 'create_trigger_order',
    dataHex: stopFromParentHex(parentHex) + some + '000000000ee6b280',
    dataBytes: Buffer.concat([stopFromParentBytes(parentId), u64(1), u64(q)]),
    forwarded: 0n,
    asset: ids.baseAsset,
  },
  {
    name: 'attached, one leg: OrderArgs ‖ leg ‖ None, forwards what CreateOrder forwards',
    action: { kind: 'CreateOrderWithTriggers', side: 'Buy', price: 2000n * E, quantity: q, order_type: { kind: 'Spot' }, trigger_1: stopFromParent(ids.zero) },
    selector: 'create_order_with_triggers',
    dataHex: orderArgsHex + stopFromParentHex(zeroHex) + none,
    dataBytes: Buffer.concat([orderArgsBytes, stopFromParentBytes(ids.zero), u64(0)]),
    forwarded: 500n * E,
    asset: ids.quoteAsset,
  },
  {
    name: 'attached, two legs (take-profit limit, stop-loss bounded): OrderArgs ‖ leg ‖ Some(leg)',
    action: {
      kind: 'CreateOrderWithTriggers',
      side: 'Buy',
      price: 2000n * E,
      quantity: q,
      order_type: { kind: 'Spot' },
      trigger_1: takeProfitFromParent(ids.zero),
      trigger_2: stopFromParent(ids.zero),
    },
    selector: 'create_order_with_triggers',
    dataHex: orderArgsHex + takeProfitFromParentHex(zeroHex) + some + stopFromParentHex(zeroHex),
    dataBytes: Buffer.concat([orderArgsBytes, takeProfitFromParentBytes(ids.zero), u64(1), stopFromParentBytes(ids.zero)]),
    forwarded: 500n * E,
    asset: ids.quoteAsset,
  },
  {
    name: 'OCO, sell, explicit (limit then market): leg ‖ leg ‖ None, the first leg locks for both',
    action: {
      kind: 'CreateTriggerOrders',
      first: { ...takeProfitFromParent(ids.zero), quantity: { kind: 'Quantity', quantity: q } },
      second: { order_type: { kind: 'Market' }, quantity: { kind: 'Quantity', quantity: q }, trigger_price: 1900n * E, side: 'Sell' },
    },
    selector: 'create_trigger_orders',
    dataHex: '0000000000000000000000000ee6b280' + '0000000000000002' + '000002003a37f000' + '000001fde62c0c00' + '0000000000000000000000000ee6b280' + '0000000000000000' + '000001ba60d33800' + none,
    dataBytes: Buffer.concat([explicitBytes(q), spotKind(2200n * E), u64(2190n * E), explicitBytes(q), marketKind(), u64(1900n * E), u64(0)]),
    forwarded: q,
    asset: ids.baseAsset,
  },
  {
    name: 'OCO, buy, explicit (bounded then limit): forwards the bounded leg’s lock, the larger',
    action: {
      kind: 'CreateTriggerOrders',
      first: boundedBuy,
      second: { order_type: { kind: 'Spot', price: 1800n * E }, quantity: { kind: 'Quantity', quantity: q }, trigger_price: 1810n * E, side: 'Buy' },
    },
    selector: 'create_trigger_orders',
    dataHex: boundedBuyHex + '0000000000000000000000000ee6b280' + '0000000000000002' + '000001a3185c5000' + '000001a56c683400' + none,
    dataBytes: Buffer.concat([boundedBuyBytes, explicitBytes(q), spotKind(1800n * E), u64(1810n * E), u64(0)]),
    forwarded: 5275n * (E / 10n),
    asset: ids.quoteAsset,
  },
  {
    name: 'OCO sized from a resting parent: Some(expected_quantity), forwards 0',
    action: { kind: 'CreateTriggerOrders', first: takeProfitFromParent(parentId), second: stopFromParent(parentId), parent: { order_id: parentId, expected_quantity: q } },
    selector: 'create_trigger_orders',
    dataHex: takeProfitFromParentHex(parentHex) + stopFromParentHex(parentHex) + some + '000000000ee6b280',
    dataBytes: Buffer.concat([takeProfitFromParentBytes(parentId), stopFromParentBytes(parentId), u64(1), u64(q)]),
    forwarded: 0n,
    asset: ids.baseAsset,
  },
  {
    name: 'CancelTriggerOrder: cancel_order(order_id), nothing forwarded',
    action: { kind: 'CancelTriggerOrder', order_id: parentId },
    selector: 'cancel_order',
    dataHex: parentHex,
    dataBytes: bytes32(parentId),
    forwarded: 0n,
    asset: ids.zero,
  },
];

describe('trigger action vectors', () => {
  it.each(vectors)('$name', (vector) => {
    expect(hex(vector.dataBytes)).toBe(vector.dataHex);
    const call = actionToCall(vector.action, market, targets);
    expect(call.ok).toBe(true);
    if (!call.ok) return;
    expect(call.value.selector).toBe(vector.selector);
    expect(hex(call.value.call_data ?? new Uint8Array())).toBe(vector.dataHex);
    expect(call.value.forwarded_amount).toBe(vector.forwarded);
    expect(call.value.forwarded_asset_id).toBe(vector.asset);
    expect(hex(encodeCall(call.value))).toBe(hex(callBytes(ids.book, vector.selector, vector.forwarded, vector.asset as typeof ids.zero, vector.dataBytes)));
  });

  it.each(vectors)('$name: the JSON parses back to the same action and the same bytes', (vector) => {
    const json = JSON.parse(JSON.stringify(sessionActionToJson(vector.action))) as unknown;
    const parsed = sessionActionSchema.safeParse(json);
    expect(parsed.success).toBe(true);
    if (!parsed.success) return;
    expect(parsed.data).toEqual(vector.action);
    const again = actionToCall(parsed.data, market, targets);
    expect(again.ok && hex(again.value.call_data ?? new Uint8Array())).toBe(vector.dataHex);
  });

  it('known answer: the full call of a single market leg', () => {
    const call = actionToCall(vectors[0]!.action, market, targets);
    expect(call.ok && hex(encodeCall(call.value))).toBe(
      'c1'.repeat(32) +
        '0000000000000014' +
        Buffer.from('create_trigger_order').toString('hex') +
        '0000007a3c704200' +
        '9c'.repeat(32) +
        'ffffffffffffffff' +
        '0000000000000001' +
        '0000000000000028' +
        marketBuyHex +
        none,
    );
  });

  it('JSON of a leg: the order of the wire notes, money as strings, parent members', () => {
    expect(sessionActionToJson(vectors[3]!.action)).toEqual({
      CreateTriggerOrder: {
        args: {
          order_type: { MarketBounded: { max_price: '1910000000000', min_price: '1890000000000' } },
          quantity: { ParentOrder: { parent_order_id: parentId } },
          trigger_price: '1900000000000',
          side: 'Sell',
        },
        parent: { order_id: parentId, expected_quantity: '250000000' },
      },
    });
    expect(sessionActionToJson(vectors[0]!.action)).toEqual({
      CreateTriggerOrder: { args: { order_type: 'Market', quantity: { Quantity: { quantity: '250000000' } }, trigger_price: '2100000000000', side: 'Buy' } },
    });
    expect(sessionActionToJson(vectors[2]!.action)).toMatchObject({ CreateTriggerOrder: { args: { order_type: { Spot: { price: '1895000000000' } } } } });
    expect(sessionActionToJson(vectors[9]!.action)).toEqual({ CancelTriggerOrder: { order_id: parentId } });
  });
});

describe('lock prices and the order a leg becomes', () => {
  it('lock price: limit its price, bounded its max, market its trigger', () => {
    expect(triggerLockPrice(limitSell)).toBe(1895n * E);
    expect(triggerLockPrice(boundedBuy)).toBe(2110n * E);
    expect(triggerLockPrice(marketBuy)).toBe(2100n * E);
  });

  it('forwarded: a buy locks quantity × lock price / 10^bd of quote, a sell its quantity of base, a parent-sized leg 0 of its side’s asset', () => {
    expect(triggerForwarded(market, marketBuy)).toEqual({ amount: 525n * E, asset: ids.quoteAsset });
    expect(triggerForwarded(market, boundedBuy)).toEqual({ amount: 5275n * (E / 10n), asset: ids.quoteAsset });
    expect(triggerForwarded(market, limitSell)).toEqual({ amount: q, asset: ids.baseAsset });
    expect(triggerForwarded(market, stopFromParent(parentId))).toEqual({ amount: 0n, asset: ids.baseAsset });
    expect(triggerForwarded(market, { ...marketBuy, quantity: { kind: 'ParentOrder', parent_order_id: parentId } })).toEqual({ amount: 0n, asset: ids.quoteAsset });
  });

  it('a fired leg is Market / BoundedMarket / Spot at its worst price (a buy its lock, a sell its min, limit or trigger)', () => {
    expect([triggerOrderType(marketBuy), triggerOrderPrice(marketBuy)]).toEqual([{ kind: 'Market' }, 2100n * E]);
    expect([triggerOrderType(boundedBuy), triggerOrderPrice(boundedBuy)]).toEqual([{ kind: 'BoundedMarket', max_price: 2110n * E, min_price: 2090n * E }, 2110n * E]);
    expect([triggerOrderType(stopFromParent(parentId)), triggerOrderPrice(stopFromParent(parentId))]).toEqual([{ kind: 'BoundedMarket', max_price: 1910n * E, min_price: 1890n * E }, 1890n * E]);
    expect([triggerOrderType(limitSell), triggerOrderPrice(limitSell)]).toEqual([{ kind: 'Spot' }, 1895n * E]);
    expect(triggerOrderPrice({ ...marketBuy, side: 'Sell' })).toBe(2100n * E);
  });
});
