import { describe, expect, it } from 'vitest';
import { parseWith } from '../../../../shared/schema';
import { b256 } from '../../../../shared/encoding/b256';
import { bytesToPrefixedHex, hexToBytes } from '../../../../shared/encoding/hex';
import { sessionActionsRequestSchema, sessionRequestSchema, withdrawRequestSchema, ownerCallsRequestSchema } from '../../../../shared/api/request-schemas';
import { SESSION_ACTION_KINDS, type SessionAction } from '../../../../shared/protocol/actions';
import { parallelNonce, sequentialNonce } from '../../../../shared/protocol/nonce-choice';
import { prepareSessionActions, sessionActionsBody, sessionActionsMessage, groupsToCalls } from '../../../../shared/protocol/session-actions';
import { sessionBody, sessionMessage } from '../../../../shared/protocol/session';
import { ownerCallsBody, ownerCallsMessage, withdrawBody, withdrawMessage } from '../../../../shared/protocol/owner-messages';
import { makeCall } from '../../../../shared/protocol/call';
import { ids, market, targets } from '../../../support/shared/protocol/fixtures';

const quantity = 500_000_000n;
const price = 2_000_000_000_000n;
const leg = { order_type: { kind: 'Spot' as const, price }, quantity: { kind: 'Quantity' as const, quantity }, trigger_price: price, side: 'Sell' as const };

/** One value of every session action kind. */
const everyAction: SessionAction[] = [
  { kind: 'CreateOrder', side: 'Buy', price, quantity, order_type: { kind: 'Limit', price, timestamp: 9n } },
  { kind: 'CancelOrder', order_id: ids.order },
  { kind: 'SettleBalance', to: { ContractId: ids.tradeAccount } },
  { kind: 'RegisterReferer', to: { Address: ids.referer } },
  { kind: 'CreateOrderWithTriggers', side: 'Buy', price, quantity, order_type: { kind: 'BoundedMarket', max_price: price, min_price: 1n }, trigger_1: { ...leg, quantity: { kind: 'ParentOrder', parent_order_id: ids.zero } } },
  { kind: 'CreateTriggerOrder', args: leg, parent: { order_id: ids.order, expected_quantity: quantity } },
  { kind: 'CreateTriggerOrders', first: leg, second: { ...leg, order_type: { kind: 'MarketBounded', max_price: price, min_price: 1n } } },
  { kind: 'CancelTriggerOrder', order_id: ids.order },
  { kind: 'CreateSharedOrder', side: 'Sell', price, quantity, order_type: { kind: 'Spot' } },
  { kind: 'ExecuteTurboOrders', source_order_id: ids.order, max_base_quantity: quantity, max_fills: 2n },
  { kind: 'RegisterMarginAccount', margin_account_id: ids.child, index: 1n },
  { kind: 'StartMarginSession', margin_account_id: ids.child, tier_id: 3n, amount: 10n, period: 'Week' },
  { kind: 'CloseMarginSession', margin_account_id: ids.child, cleanups: [{ order_book_id: ids.book, order_ids: [ids.order] }] },
  { kind: 'WithdrawFromMarginAccount', margin_account_id: ids.child, asset_id: ids.quoteAsset, amount: 1n },
  { kind: 'Draw', amount: 1n },
  { kind: 'ReturnQuote', amount: 1n },
  { kind: 'Borrow', asset_id: ids.baseAsset, amount: 1n },
  { kind: 'Repay', asset_id: ids.baseAsset, amount: 1n },
  { kind: 'RepayFromCollateral', amount: 1n },
  { kind: 'RepayBaseFromCollateral', asset_id: ids.baseAsset, amount: 1n },
  { kind: 'AddCollateral', amount: 1n },
  { kind: 'WithdrawFromMargin', asset_id: ids.quoteAsset, amount: 1n },
  { kind: 'ProlongSession', period: 'Day', times: 2n },
  { kind: 'SetAutoProlong', period: null },
];

describe('request bodies', () => {
  it('covers every action kind', () => {
    expect(new Set(everyAction.map((action) => action.kind))).toEqual(new Set(SESSION_ACTION_KINDS));
  });

  it.each(everyAction.map((action) => [action.kind, action] as const))('%s: the body parses back to the same action and the same signed bytes', (_kind, action) => {
    const prepared = prepareSessionActions({
      trade_account_id: ids.tradeAccount,
      session_id: { Address: ids.referer },
      nonce: parallelNonce(12345n),
      groups: [{ market_id: ids.market, market, actions: [action] }],
      targets,
      settle_before_orders: false,
    });
    if (!prepared.ok) throw new Error(prepared.message);
    const wire = JSON.parse(JSON.stringify(sessionActionsBody(prepared.value, new Uint8Array(64).fill(7)))) as unknown;
    const parsed = parseWith(sessionActionsRequestSchema, wire, 'body');
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.value.actions[0]!.actions[0]).toEqual(action);
    expect(parsed.value.nonce_choice).toEqual({ kind: 'parallel', value: 12345n });
    expect(parsed.value.signature).toEqual({ variant: 'TypedSecp256k1', hex: `0x${'07'.repeat(64)}` });
    // The receiver rebuilds the message from the parsed body: byte-identical.
    const calls = groupsToCalls(parsed.value.actions.map((group) => ({ ...group, market })), targets);
    if (!calls.ok) throw new Error(calls.message);
    expect(Buffer.from(sessionActionsMessage(parsed.value.nonce_choice, calls.value)).equals(Buffer.from(prepared.value.message))).toBe(true);
  });

  it('names the field and the value of a bad action', () => {
    const body = { actions: [{ market_id: ids.market, actions: [{ CreateOrder: { side: 'Buy', price: '1.5', quantity: '1', order_type: 'Spot' } }] }], signature: { Secp256k1: `0x${'00'.repeat(64)}` }, trade_account_id: ids.tradeAccount, nonce: '1' };
    const parsed = parseWith(sessionActionsRequestSchema, body, 'body');
    expect(parsed).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    if (!parsed.ok) expect(parsed.message).toBe('body.actions[0].actions[0].CreateOrder.price: expected a u64 decimal string: the value has a decimal point (raw units are whole numbers), got "1.5"');
  });

  it('refuses an unknown action, two keys, and both or neither nonce', () => {
    const base = { signature: { Secp256k1: `0x${'00'.repeat(64)}` }, trade_account_id: ids.tradeAccount };
    const group = (action: unknown) => ({ actions: [{ market_id: ids.market, actions: [action] }] });
    expect(parseWith(sessionActionsRequestSchema, { ...base, ...group({ Teleport: {} }), nonce: '1' }).ok).toBe(false);
    expect(parseWith(sessionActionsRequestSchema, { ...base, ...group({ Draw: { amount: '1' }, Borrow: {} }), nonce: '1' }).ok).toBe(false);
    expect(parseWith(sessionActionsRequestSchema, { ...base, ...group({ Draw: { amount: '1' } }), nonce: '1', parallel_nonce: '2' }).ok).toBe(false);
    expect(parseWith(sessionActionsRequestSchema, { ...base, ...group({ Draw: { amount: '1' } }) }).ok).toBe(false);
  });

  it('CreateSharedOrder defaults to PostOnly', () => {
    const body = { signature: { Secp256k1: `0x${'00'.repeat(64)}` }, trade_account_id: ids.tradeAccount, nonce: '1', actions: [{ market_id: ids.market, actions: [{ CreateSharedOrder: { side: 'Buy', price: '1', quantity: '1' } }] }] };
    const parsed = parseWith(sessionActionsRequestSchema, body);
    expect(parsed.ok && parsed.value.actions[0]!.actions[0]).toEqual({ kind: 'CreateSharedOrder', side: 'Buy', price: 1n, quantity: 1n, order_type: { kind: 'PostOnly' } });
  });

  it('PUT /v1/session body parses back to the signed grant', () => {
    const grant = { nonce: 4n, chain_id: 0n, session_address: ids.referer, expiry: 1_800_000_000n, contract_ids: [ids.book] };
    const parsed = parseWith(sessionRequestSchema, JSON.parse(JSON.stringify(sessionBody(ids.tradeAccount, grant, new Uint8Array(64)))));
    if (!parsed.ok) throw new Error(parsed.message);
    const rebuilt = sessionMessage({ nonce: parsed.value.nonce, chain_id: 0n, session_address: b256((parsed.value.session_id as { Address: string }).Address), expiry: parsed.value.expiry, contract_ids: parsed.value.contract_ids });
    expect(Buffer.from(rebuilt).equals(Buffer.from(sessionMessage(grant)))).toBe(true);
  });

  it('withdraw and owner calls bodies parse back to the signed bytes', () => {
    const envelope = { nonce: sequentialNonce(3n), chain_id: 0n };
    const withdraw = { to: { ContractId: ids.child }, amount: 5n, asset_id: ids.quoteAsset };
    const parsedWithdraw = parseWith(withdrawRequestSchema, JSON.parse(JSON.stringify(withdrawBody(ids.tradeAccount, envelope, withdraw, new Uint8Array(64)))));
    if (!parsedWithdraw.ok) throw new Error(parsedWithdraw.message);
    const { to, amount, asset_id: assetId } = parsedWithdraw.value;
    expect(withdrawMessage({ nonce: parsedWithdraw.value.nonce_choice, chain_id: 0n }, { to, amount, asset_id: assetId })).toEqual(withdrawMessage(envelope, withdraw));

    const call = makeCall(ids.book, 'settle_balance', new Uint8Array([1, 2, 3]));
    const parsedCalls = parseWith(ownerCallsRequestSchema, JSON.parse(JSON.stringify(ownerCallsBody(ids.tradeAccount, envelope, [call], new Uint8Array(64)))));
    if (!parsedCalls.ok) throw new Error(parsedCalls.message);
    const rebuilt = parsedCalls.value.calls.map((item) => {
      const data = item.call_data === null ? null : hexToBytes(item.call_data, 'call_data');
      return { contract_id: item.contract_id, selector: item.method, forwarded_amount: item.amount, forwarded_asset_id: item.asset_id, gas: item.gas, call_data: data === null ? null : data.ok ? data.value : null };
    });
    expect(bytesToPrefixedHex(ownerCallsMessage(envelope, rebuilt))).toBe(bytesToPrefixedHex(ownerCallsMessage(envelope, [call])));
  });
});
