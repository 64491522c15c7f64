import { describe, expect, it } from 'vitest';
import { ledgerAddress } from '../../../../shared/crypto/address';
import { publicKeyOf } from '../../../../shared/crypto/keys';
import { signDigest, verifySignature } from '../../../../shared/crypto/signature';
import { b256 } from '../../../../shared/encoding/b256';
import type { SessionAction } from '../../../../shared/protocol/actions';
import { parallelNonce, sequentialNonce } from '../../../../shared/protocol/nonce-choice';
import { prepareSessionActions, sessionActionsBody, type SessionActionsRequest } from '../../../../shared/protocol/session-actions';
import { hex, nodeSha256 } from '../../../support/shared/crypto/independent';
import { ids, market } from '../../../support/shared/protocol/fixtures';
import * as vectors from '../../../support/shared/protocol/messages.vectors';

const buy: SessionAction = { kind: 'CreateOrder', side: 'Buy', price: 2_000_000_000_000n, quantity: 500_000_000n, order_type: { kind: 'Spot' } };
const cancel: SessionAction = { kind: 'CancelOrder', order_id: ids.order };

const request = (overrides: Partial<SessionActionsRequest> = {}): SessionActionsRequest => ({
  trade_account_id: ids.tradeAccount,
  session_id: { Address: b256(vectors.sessionAddress) },
  nonce: sequentialNonce(7n),
  groups: [{ market_id: ids.market, market, actions: [buy] }],
  targets: { accounts_registry_id: ids.registry, margin_pool_id: ids.pool, margin_collateral_asset_id: ids.quoteAsset },
  ...overrides,
});

describe('session actions', () => {
  it('known answer: sequential message (SettleBalance prepended) and its digest', () => {
    const prepared = prepareSessionActions(request());
    expect(prepared.ok).toBe(true);
    if (!prepared.ok) return;
    expect(hex(prepared.value.message)).toBe(hex(vectors.sessionActionsSequential));
    expect(hex(prepared.value.message).slice(0, 32)).toBe('00000000000000070000000000000002');
    expect(hex(prepared.value.digest)).toBe('7de251338c98eb16da65df095091ba403ffc6869f08a143b9320f1523883577f');
    expect(hex(prepared.value.digest)).toBe(hex(nodeSha256(vectors.sessionActionsSequential)));
  });

  it('known answer: parallel message starts with the u256 packed nonce', () => {
    const prepared = prepareSessionActions(request({ nonce: parallelNonce(vectors.parallelNonceValue) }));
    expect(prepared.ok && hex(prepared.value.message)).toBe(hex(vectors.sessionActionsParallel));
    // lane 1 (byte 10) ‖ expiry 0x6553f178 (bytes 11-14) ‖ word 4 (byte 30) ‖ bit 5 (byte 31), then u64 2.
    expect(prepared.ok && hex(prepared.value.message).slice(0, 80)).toBe('00000000000000000000016553f1780000000000000000000000000000000405' + '0000000000000002');
  });

  it('builds the body the wire notes show, signed by the session key', () => {
    const prepared = prepareSessionActions(request({ collect_orders: true }));
    if (!prepared.ok) throw new Error(prepared.message);
    const signature = signDigest(prepared.value.digest, vectors.sessionKey);
    expect(verifySignature(signature, prepared.value.digest, ledgerAddress(publicKeyOf(vectors.sessionKey)), 'ledger').ok).toBe(true);
    expect(JSON.parse(JSON.stringify(sessionActionsBody(prepared.value, signature)))).toEqual({
      actions: [
        {
          market_id: ids.market,
          actions: [{ SettleBalance: { to: { ContractId: ids.tradeAccount } } }, { CreateOrder: { side: 'Buy', price: '2000000000000', quantity: '500000000', order_type: 'Spot' } }],
        },
      ],
      signature: { Secp256k1: `0x${hex(signature)}` },
      nonce: '7',
      trade_account_id: ids.tradeAccount,
      session_id: { Address: vectors.sessionAddress },
      collect_orders: true,
    });
  });

  it('a parallel nonce uses parallel_nonce and the typed signature tag', () => {
    const prepared = prepareSessionActions(request({ nonce: parallelNonce(vectors.parallelNonceValue), groups: [{ market_id: ids.market, market, turbo: true, actions: [cancel] }] }));
    if (!prepared.ok) throw new Error(prepared.message);
    const body = sessionActionsBody(prepared.value, new Uint8Array(64));
    expect(body).toMatchObject({ parallel_nonce: vectors.parallelNonceValue.toString(), signature: { TypedSecp256k1: `0x${'00'.repeat(64)}` } });
    expect('nonce' in body).toBe(false);
    expect(body.actions[0]).toEqual({ market_id: ids.market, turbo: true, actions: [{ CancelOrder: { order_id: ids.order } }] });
  });

  it('does not prepend SettleBalance when asked not to, or when the group has no order', () => {
    const noSettle = prepareSessionActions(request({ settle_before_orders: false }));
    expect(noSettle.ok && noSettle.value.calls.length).toBe(1);
    const cancelOnly = prepareSessionActions(request({ groups: [{ market_id: ids.market, market, actions: [cancel] }] }));
    expect(cancelOnly.ok && cancelOnly.value.calls.length).toBe(1);
  });

  it('counts the prepended SettleBalance toward the 5-action cap', () => {
    expect(prepareSessionActions(request({ groups: [{ market_id: ids.market, market, actions: [buy, buy, buy, buy] }] })).ok).toBe(true);
    expect(prepareSessionActions(request({ groups: [{ market_id: ids.market, market, actions: [buy, buy, buy, buy, buy] }] }))).toMatchObject({ ok: false, code: 'TOO_MANY_ACTIONS' });
  });

  it('refuses more than 5 groups, empty batches and groups, and too many variable outputs', () => {
    const group = { market_id: ids.market, market, actions: [cancel] };
    expect(prepareSessionActions(request({ groups: [group, group, group, group, group, group] }))).toMatchObject({ ok: false, code: 'TOO_MANY_MARKETS' });
    expect(prepareSessionActions(request({ groups: [] }))).toMatchObject({ ok: false, code: 'NO_ACTIONS' });
    expect(prepareSessionActions(request({ groups: [group, { ...group, actions: [] }] }))).toMatchObject({ ok: false, code: 'EMPTY_GROUP' });
    expect(prepareSessionActions(request({ variable_outputs: 11 }))).toMatchObject({ ok: false, code: 'TOO_MANY_VARIABLE_OUTPUTS' });
    expect(prepareSessionActions(request({ variable_outputs: 10 })).ok).toBe(true);
  });

  it('margin actions in a group target the pool, and the group keeps its position in the batch', () => {
    const prepared = prepareSessionActions(request({ groups: [{ market_id: ids.market, market, actions: [{ kind: 'ReturnQuote', amount: 5n }, { kind: 'Borrow', asset_id: ids.baseAsset, amount: 3n }] }] }));
    if (!prepared.ok) throw new Error(prepared.message);
    expect(prepared.value.calls.map((call) => [call.contract_id, call.selector])).toEqual([
      [ids.pool, 'return_quote'],
      [ids.pool, 'borrow'],
    ]);
    expect(sessionActionsBody(prepared.value, new Uint8Array(64)).actions[0]!.actions).toEqual([{ ReturnQuote: { amount: '5' } }, { Borrow: { asset_id: ids.baseAsset, amount: '3' } }]);
  });

  it('names the failing action when a target is missing', () => {
    const result = prepareSessionActions(request({ targets: {}, groups: [{ market_id: ids.market, market, actions: [{ kind: 'Draw', amount: 1n }] }] }));
    expect(result).toMatchObject({ ok: false, code: 'MISSING_TARGET' });
    if (!result.ok) expect(result.message.startsWith('actions[0].actions[0]: ')).toBe(true);
  });
});
