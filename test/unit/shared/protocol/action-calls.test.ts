import { describe, expect, it } from 'vitest';
import { actionToCall } from '../../../../shared/protocol/action-calls';
import type { SessionAction } from '../../../../shared/protocol/actions';
import { encodeCall } from '../../../../shared/protocol/call';
import type { TriggerLeg } from '../../../../shared/protocol/trigger';
import { bytes32, hex, u64 } from '../../../support/shared/crypto/independent';
import { callBytes, identity, ids, market, targets } from '../../../support/shared/protocol/fixtures';

const price = 2_000_000_000_000n; // 2000 USDC
const quantity = 500_000_000n; // 0.5 ETH
const orderArgs = (type: Buffer): Buffer => Buffer.concat([u64(price), u64(quantity), type]);

const stopLoss: TriggerLeg = {
  order_type: { kind: 'MarketBounded', max_price: 1_900_000_000_000n, min_price: 1_800_000_000_000n },
  quantity: { kind: 'ParentOrder', parent_order_id: ids.zero },
  trigger_price: 1_900_000_000_000n,
  side: 'Sell',
};
const takeProfit: TriggerLeg = { order_type: { kind: 'Spot', price: 2_200_000_000_000n }, quantity: { kind: 'Quantity', quantity }, trigger_price: 2_200_000_000_000n, side: 'Sell' };
const buyBack: TriggerLeg = { order_type: { kind: 'Market' }, quantity: { kind: 'Quantity', quantity }, trigger_price: 2_100_000_000_000n, side: 'Buy' };
const stopLossBytes = Buffer.concat([u64(1), bytes32(ids.zero), u64(1), u64(1_900_000_000_000n), u64(1_800_000_000_000n), u64(1_900_000_000_000n)]);
const takeProfitBytes = Buffer.concat([u64(0), u64(quantity), u64(2), u64(2_200_000_000_000n), u64(2_200_000_000_000n)]);
const buyBackBytes = Buffer.concat([u64(0), u64(quantity), u64(0), u64(2_100_000_000_000n)]);

// [action, expected call built by hand with Buffer, the same bytes as a literal hex prefix/suffix check]
const cases: [string, SessionAction, Buffer][] = [
  ['CreateOrder Buy Spot', { kind: 'CreateOrder', side: 'Buy', price, quantity, order_type: { kind: 'Spot' } }, callBytes(ids.book, 'create_order', 1_000_000_000_000n, ids.quoteAsset, orderArgs(u64(1)))],
  ['CreateOrder Sell Market', { kind: 'CreateOrder', side: 'Sell', price, quantity, order_type: { kind: 'Market' } }, callBytes(ids.book, 'create_order', quantity, ids.baseAsset, orderArgs(u64(4)))],
  ['CreateOrder FillOrKill', { kind: 'CreateOrder', side: 'Sell', price, quantity, order_type: { kind: 'FillOrKill' } }, callBytes(ids.book, 'create_order', quantity, ids.baseAsset, orderArgs(u64(2)))],
  ['CreateOrder PostOnly', { kind: 'CreateOrder', side: 'Sell', price, quantity, order_type: { kind: 'PostOnly' } }, callBytes(ids.book, 'create_order', quantity, ids.baseAsset, orderArgs(u64(3)))],
  [
    'CreateOrder Limit',
    { kind: 'CreateOrder', side: 'Buy', price, quantity, order_type: { kind: 'Limit', price, timestamp: 1_700_000_000n } },
    callBytes(ids.book, 'create_order', 1_000_000_000_000n, ids.quoteAsset, orderArgs(Buffer.concat([u64(0), u64(price), u64(1_700_000_000n)]))),
  ],
  [
    'CreateOrder BoundedMarket',
    { kind: 'CreateOrder', side: 'Buy', price, quantity, order_type: { kind: 'BoundedMarket', max_price: price, min_price: 1_000_000_000_000n } },
    callBytes(ids.book, 'create_order', 1_000_000_000_000n, ids.quoteAsset, orderArgs(Buffer.concat([u64(5), u64(price), u64(1_000_000_000_000n)]))),
  ],
  ['CancelOrder', { kind: 'CancelOrder', order_id: ids.order }, callBytes(ids.book, 'cancel_order', 0n, ids.zero, bytes32(ids.order))],
  ['SettleBalance', { kind: 'SettleBalance', to: { ContractId: ids.tradeAccount } }, callBytes(ids.book, 'settle_balance', 0n, ids.zero, identity('ContractId', ids.tradeAccount))],
  ['RegisterReferer', { kind: 'RegisterReferer', to: { Address: ids.referer } }, callBytes(ids.registry, 'register_referer', 0n, ids.zero, identity('Address', ids.referer))],
  [
    'CreateOrderWithTriggers (one leg)',
    { kind: 'CreateOrderWithTriggers', side: 'Buy', price, quantity, order_type: { kind: 'Spot' }, trigger_1: stopLoss },
    callBytes(ids.book, 'create_order_with_triggers', 1_000_000_000_000n, ids.quoteAsset, Buffer.concat([orderArgs(u64(1)), stopLossBytes, u64(0)])),
  ],
  [
    'CreateOrderWithTriggers (two legs)',
    { kind: 'CreateOrderWithTriggers', side: 'Buy', price, quantity, order_type: { kind: 'Spot' }, trigger_1: stopLoss, trigger_2: { ...stopLoss, order_type: { kind: 'Market' } } },
    callBytes(
      ids.book,
      'create_order_with_triggers',
      1_000_000_000_000n,
      ids.quoteAsset,
      Buffer.concat([orderArgs(u64(1)), stopLossBytes, u64(1), Buffer.concat([u64(1), bytes32(ids.zero), u64(0), u64(1_900_000_000_000n)])]),
    ),
  ],
  [
    'CreateTriggerOrder sell with parent',
    { kind: 'CreateTriggerOrder', args: takeProfit, parent: { order_id: ids.order, expected_quantity: quantity } },
    callBytes(ids.book, 'create_trigger_order', quantity, ids.baseAsset, Buffer.concat([takeProfitBytes, u64(1), u64(quantity)])),
  ],
  [
    'CreateTriggerOrder buy locks quantity × trigger price for a market leg',
    { kind: 'CreateTriggerOrder', args: buyBack },
    callBytes(ids.book, 'create_trigger_order', 1_050_000_000_000n, ids.quoteAsset, Buffer.concat([buyBackBytes, u64(0)])),
  ],
  [
    'CreateTriggerOrder sized from its parent forwards nothing',
    { kind: 'CreateTriggerOrder', args: { ...stopLoss, quantity: { kind: 'ParentOrder', parent_order_id: ids.order } }, parent: { order_id: ids.order, expected_quantity: quantity } },
    callBytes(
      ids.book,
      'create_trigger_order',
      0n,
      ids.baseAsset,
      Buffer.concat([u64(1), bytes32(ids.order), u64(1), u64(1_900_000_000_000n), u64(1_800_000_000_000n), u64(1_900_000_000_000n), u64(1), u64(quantity)]),
    ),
  ],
  [
    'CreateTriggerOrders (OCO)',
    { kind: 'CreateTriggerOrders', first: takeProfit, second: { ...takeProfit, order_type: { kind: 'Market' }, trigger_price: 1_900_000_000_000n } },
    callBytes(ids.book, 'create_trigger_orders', quantity, ids.baseAsset, Buffer.concat([takeProfitBytes, u64(0), u64(quantity), u64(0), u64(1_900_000_000_000n), u64(0)])),
  ],
  ['CancelTriggerOrder', { kind: 'CancelTriggerOrder', order_id: ids.order }, callBytes(ids.book, 'cancel_order', 0n, ids.zero, bytes32(ids.order))],
  [
    'CreateSharedOrder',
    { kind: 'CreateSharedOrder', side: 'Sell', price, quantity, order_type: { kind: 'PostOnly' } },
    callBytes(ids.book, 'create_shared_order', quantity, ids.baseAsset, orderArgs(u64(3))),
  ],
  [
    'ExecuteTurboOrders',
    { kind: 'ExecuteTurboOrders', source_order_id: ids.order, max_base_quantity: quantity, max_fills: 3n },
    callBytes(ids.book, 'execute_turbo_orders', 0n, ids.zero, Buffer.concat([bytes32(ids.order), u64(quantity), u64(3)])),
  ],
  [
    'RegisterMarginAccount',
    { kind: 'RegisterMarginAccount', margin_account_id: ids.child, index: 2n },
    callBytes(ids.registry, 'prop_register_contract', 0n, ids.zero, Buffer.concat([bytes32(ids.child), identity('ContractId', ids.tradeAccount), u64(2)])),
  ],
  [
    'StartMarginSession',
    { kind: 'StartMarginSession', margin_account_id: ids.child, tier_id: 4n, amount: 5_000_000_000n, period: 'Week' },
    callBytes(ids.child, 'start_session', 5_000_000_000n, ids.quoteAsset, Buffer.concat([u64(4), u64(5_000_000_000n), u64(2)])),
  ],
  [
    'CloseMarginSession',
    { kind: 'CloseMarginSession', margin_account_id: ids.child, cleanups: [{ order_book_id: ids.book, order_ids: [ids.order] }] },
    callBytes(ids.child, 'close_session', 0n, ids.zero, Buffer.concat([u64(1), bytes32(ids.book), u64(1), bytes32(ids.order)])),
  ],
  ['CloseMarginSession (no cleanups)', { kind: 'CloseMarginSession', margin_account_id: ids.child, cleanups: [] }, callBytes(ids.child, 'close_session', 0n, ids.zero, u64(0))],
  [
    'WithdrawFromMarginAccount',
    { kind: 'WithdrawFromMarginAccount', margin_account_id: ids.child, asset_id: ids.baseAsset, amount: 7n },
    callBytes(ids.child, 'withdraw', 0n, ids.zero, Buffer.concat([bytes32(ids.baseAsset), u64(7)])),
  ],
  ['Draw', { kind: 'Draw', amount: 9n }, callBytes(ids.pool, 'draw', 0n, ids.zero, u64(9))],
  ['ReturnQuote', { kind: 'ReturnQuote', amount: 9n }, callBytes(ids.pool, 'return_quote', 9n, ids.quoteAsset, null)],
  ['Borrow', { kind: 'Borrow', asset_id: ids.baseAsset, amount: 8n }, callBytes(ids.pool, 'borrow', 0n, ids.zero, Buffer.concat([bytes32(ids.baseAsset), u64(8)]))],
  ['Repay', { kind: 'Repay', asset_id: ids.baseAsset, amount: 8n }, callBytes(ids.pool, 'repay', 8n, ids.baseAsset, null)],
  ['RepayFromCollateral', { kind: 'RepayFromCollateral', amount: 6n }, callBytes(ids.pool, 'repay_from_collateral', 0n, ids.zero, u64(6))],
  [
    'RepayBaseFromCollateral',
    { kind: 'RepayBaseFromCollateral', asset_id: ids.baseAsset, amount: 6n },
    callBytes(ids.pool, 'repay_base_from_collateral', 0n, ids.zero, Buffer.concat([bytes32(ids.baseAsset), u64(6)])),
  ],
  ['AddCollateral', { kind: 'AddCollateral', amount: 5n }, callBytes(ids.pool, 'add_collateral', 5n, ids.quoteAsset, bytes32(ids.tradeAccount))],
  ['WithdrawFromMargin', { kind: 'WithdrawFromMargin', asset_id: ids.quoteAsset, amount: 4n }, callBytes(ids.pool, 'withdraw', 0n, ids.zero, Buffer.concat([bytes32(ids.quoteAsset), u64(4)]))],
  ['ProlongSession', { kind: 'ProlongSession', period: 'Month', times: 2n }, callBytes(ids.pool, 'prolong_session', 0n, ids.zero, Buffer.concat([u64(3), u64(2)]))],
  ['SetAutoProlong on', { kind: 'SetAutoProlong', period: 'SixHours' }, callBytes(ids.pool, 'set_auto_prolong', 0n, ids.zero, Buffer.concat([u64(1), u64(0)]))],
  ['SetAutoProlong off', { kind: 'SetAutoProlong', period: null }, callBytes(ids.pool, 'set_auto_prolong', 0n, ids.zero, u64(0))],
];

describe('action calls', () => {
  it.each(cases)('%s encodes as built by hand', (_name, action, expected) => {
    const call = actionToCall(action, market, targets);
    expect(call.ok).toBe(true);
    if (call.ok) expect(hex(encodeCall(call.value))).toBe(hex(expected));
  });

  it('known answer: a buy CreateOrder call in full', () => {
    const call = actionToCall(cases[0]![1], market, targets);
    expect(call.ok && hex(encodeCall(call.value))).toBe(
      `${'c1'.repeat(32)}000000000000000c6372656174655f6f72646572000000e8d4a51000${'9c'.repeat(32)}ffffffffffffffff00000000000000010000000000000018000001d1a94a2000000000001dcd65000000000000000001`,
    );
  });

  it('a margin action without a configured pool is refused as data', () => {
    expect(actionToCall({ kind: 'Draw', amount: 1n }, undefined, { trade_account_id: ids.tradeAccount })).toMatchObject({ ok: false, code: 'MISSING_TARGET' });
    expect(actionToCall({ kind: 'CancelOrder', order_id: ids.order }, undefined, targets)).toMatchObject({ ok: false, code: 'MISSING_TARGET' });
  });

  it('a forwarded amount beyond u64 is refused as data', () => {
    const huge = actionToCall({ kind: 'CreateOrder', side: 'Buy', price: (1n << 64n) - 1n, quantity: (1n << 64n) - 1n, order_type: { kind: 'Spot' } }, market, targets);
    expect(huge).toMatchObject({ ok: false, code: 'FORWARDED_AMOUNT_TOO_LARGE' });
  });
});
