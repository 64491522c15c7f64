import { describe, expect, it } from 'vitest';
import { parseWith } from '../../../../shared/schema';
import { clientRequestSchema, identitiesRequest, serverMessageSchema, subscribeDepthRequest, subscribeMarginRequest, unsubscribeOrdersRequest } from '../../../../shared/api/websocket-schemas';
import { ids } from '../../../support/shared/protocol/fixtures';

describe('WebSocket messages', () => {
  it('the client builders produce requests the server schema accepts', () => {
    const requests = [
      subscribeDepthRequest(ids.market, 100n, { turbo: true, view: 'executable' }),
      identitiesRequest('subscribe_nonce_v2', [{ ContractId: ids.tradeAccount }]),
      identitiesRequest('subscribe_orders', [{ ContractId: ids.tradeAccount }], true),
      unsubscribeOrdersRequest(true),
      subscribeMarginRequest(ids.child),
    ];
    for (const request of requests) expect(parseWith(clientRequestSchema, JSON.parse(JSON.stringify(request))).ok).toBe(true);
    expect(subscribeDepthRequest(ids.market, 100n)).toEqual({ action: 'subscribe_depth', market_id: ids.market, precision: '100' });
  });

  it('refuses more than 10 identities and a precision that is not a power of ten', () => {
    const identities = Array.from({ length: 11 }, () => ({ ContractId: ids.tradeAccount }));
    expect(parseWith(clientRequestSchema, { action: 'subscribe_balances', identities }).ok).toBe(false);
    expect(parseWith(clientRequestSchema, { action: 'subscribe_depth', market_id: ids.market, precision: '2' }).ok).toBe(false);
  });

  it('depth snapshot and update', () => {
    const snapshot = parseWith(serverMessageSchema, { action: 'subscribe_depth', market_id: ids.market, view: { buys: [['10', '1']], sells: [{ price: '11', quantity: '2' }] }, onchain_timestamp: null, seen_timestamp: '1700000000000000000' });
    expect(snapshot.ok && snapshot.value).toMatchObject({ action: 'subscribe_depth', levels: { buys: [{ price: 10n, quantity: 1n }], sells: [{ price: 11n, quantity: 2n }] } });
    const update = parseWith(serverMessageSchema, { action: 'subscribe_depth_update', market_id: ids.market, changes: { buys: [{ price: '10', quantity: '0' }], sells: [] }, onchain_timestamp: '1700000000', seen_timestamp: '1' });
    expect(update.ok && update.value).toMatchObject({ changes: { buys: [{ price: 10n, quantity: 0n }] } });
  });

  it('nonce v2: sequential or a parallel window snapshot', () => {
    expect(parseWith(serverMessageSchema, { action: 'subscribe_nonce_v2', update: { sequential: { contract_id: ids.tradeAccount, nonce: '4' } } }).ok).toBe(true);
    const parallel = parseWith(serverMessageSchema, { action: 'subscribe_nonce_v2', update: { parallel: { contract_id: ids.tradeAccount, nonce_session_id: 1, base: '0', slots: [{ word_position: '0', bitmap: '1' }] } } });
    expect(parallel.ok && parallel.value).toMatchObject({ update: { parallel: { base: 0n } } });
  });

  it('stream errors and the Turbo resync error', () => {
    expect(parseWith(serverMessageSchema, { error: 'Client is inactive' })).toEqual({ ok: true, value: { action: 'stream_error', error: 'Client is inactive' } });
    expect(parseWith(serverMessageSchema, { action: 'error', turbo: true, resync_required: true, message: 'restart' })).toMatchObject({ ok: true, value: { resync_required: true } });
  });

  it('refuses a balance beyond u64 (no ledger amount reaches it) and a negative one', () => {
    const balance = { identity: { ContractId: ids.tradeAccount }, asset_id: ids.quoteAsset, total_locked: '1', total_unlocked: '2', trading_account_balance: '1', order_books: { [ids.market]: { locked: '1', unlocked: '1' } } };
    for (const absurd of [`1${'0'.repeat(40)}`, '18446744073709551616', '-5']) {
      for (const field of ['total_locked', 'total_unlocked', 'trading_account_balance'] as const) {
        expect(parseWith(serverMessageSchema, { action: 'subscribe_balances', balance: [{ ...balance, [field]: absurd }] }).ok, `${field} ${absurd}`).toBe(false);
      }
      expect(parseWith(serverMessageSchema, { action: 'subscribe_balances', balance: [{ ...balance, order_books: { [ids.market]: { locked: absurd, unlocked: '1' } } }] }).ok).toBe(false);
    }
    expect(parseWith(serverMessageSchema, { action: 'subscribe_balances', balance: [{ ...balance, total_unlocked: '18446744073709551615' }] }).ok).toBe(true);
  });

  it('balances, orders, margin', () => {
    const balance = { identity: { ContractId: ids.tradeAccount }, asset_id: ids.quoteAsset, total_locked: '1', total_unlocked: '2', trading_account_balance: '1', order_books: { [ids.market]: { locked: '1', unlocked: '1' } } };
    expect(parseWith(serverMessageSchema, { action: 'subscribe_balances', balance: [balance] }).ok).toBe(true);
    expect(parseWith(serverMessageSchema, { action: 'subscribe_margin_update', event: { kind: 'anything' }, onchain_timestamp: '1', seen_timestamp: '2' }).ok).toBe(true);
  });
});
