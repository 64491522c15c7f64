import { describe, expect, it } from 'vitest';
import { parseWith } from '../../../../shared/schema';
import { accountLookupSchema, actionsResultSchema, createAccountResponseSchema, windowResponseSchema } from '../../../../shared/api/account-schemas';
import { activeOrdersResponseSchema, balanceResponseSchema, depthResponseSchema, marketsResponseSchema, ordersResponseSchema, tradesResponseSchema } from '../../../../shared/api/market-schemas';
import { closeCleanupsResponseSchema, marginStateSchema, tiersResponseSchema, turboEventsResponseSchema } from '../../../../shared/api/margin-schemas';
import { ids } from '../../../support/shared/protocol/fixtures';

const asset = (id: string) => ({ symbol: 'X', asset: id, decimals: 9, max_precision: 3 });
const marketRow = { contract_id: ids.book, market_id: ids.market, maker_fee: '100', taker_fee: '250', min_order: '1000000000', dust: '1000', price_window: 20, base: asset(ids.baseAsset), quote: asset(ids.quoteAsset) };
const order = { order_id: ids.order, owner: { ContractId: ids.tradeAccount }, side: 'Buy', order_type: { Limit: ['5', '6'] }, market_id: ids.market, quantity: '10', quantity_fill: '0', price: '5', price_fill: '0', timestamp: '1', close: false, partially_filled: false, cancel: false, history: [{ type: 'created', status: 'ok', tx_id: '0xab' }], fills: [] };

describe('REST responses', () => {
  it('markets: chain_id hex (zero valid), money to bigint, Turbo rows', () => {
    const body = { books_registry_id: ids.registry, accounts_registry_id: ids.registry, trade_account_oracle_id: ids.registry, chain_id: '0x0', base_asset_id: ids.baseAsset, markets: [marketRow, { ...marketRow, turbo: true, canonical_contract_id: ids.book, connected: true, paused: false, trigger_max_slippage: '50' }] };
    const parsed = parseWith(marketsResponseSchema, body);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.value.chain_id).toBe(0n);
    expect(parsed.value.markets[0]).toEqual({ ...marketRow, maker_fee: 100n, taker_fee: 250n, min_order: 1_000_000_000n, dust: 1_000n });
    expect(parsed.value.markets[1]).toMatchObject({ turbo: true, canonical_contract_id: ids.book, connected: true, paused: false, trigger_max_slippage: 50n });
  });

  it('refuses a non-digit money string, naming the field', () => {
    const body = { books_registry_id: ids.registry, accounts_registry_id: ids.registry, trade_account_oracle_id: ids.registry, chain_id: '0x1', base_asset_id: ids.baseAsset, markets: [{ ...marketRow, min_order: '1e9' }] };
    const parsed = parseWith(marketsResponseSchema, body, 'markets');
    expect(!parsed.ok && parsed.message).toBe('markets.markets[0].min_order: expected a u64 decimal string: the value is in exponent notation, got "1e9"');
  });

  it('refuses a market symbol with a control, bidi or zero-width character, or longer than a symbol', () => {
    for (const symbol of ['ETH\r\u001b[2K', 'US\u202eDC', 'U\u200bSDC', 'ETH\u0085', '', 'X'.repeat(33)]) {
      const body = { books_registry_id: ids.registry, accounts_registry_id: ids.registry, trade_account_oracle_id: ids.registry, chain_id: '0x1', base_asset_id: ids.baseAsset, markets: [{ ...marketRow, base: { ...asset(ids.baseAsset), symbol } }] };
      const parsed = parseWith(marketsResponseSchema, body, 'markets');
      expect(parsed.ok, JSON.stringify(symbol)).toBe(false);
      expect(!parsed.ok && parsed.message).toMatch(/^markets\.markets\[0\]\.base\.symbol: /);
    }
  });

  it('refuses a balance beyond u64, naming the field', () => {
    const parsed = parseWith(balanceResponseSchema, { order_books: {}, total_locked: '0', total_unlocked: `1${'0'.repeat(40)}`, trading_account_balance: '0' }, 'balance');
    expect(!parsed.ok && parsed.message).toMatch(/^balance\.total_unlocked: expected /);
  });

  it('refuses a trade id with a control, bidi or zero-width character', () => {
    const trade = { trade_id: 't1', side: 'Buy', price: '10', quantity: '2', total: '20', timestamp: '1' };
    expect(parseWith(tradesResponseSchema, { trades: [trade] }).ok).toBe(true);
    for (const trade_id of ['t1\u200b', 't1\r\u001b[2K', '\u202et1', '']) {
      expect(parseWith(tradesResponseSchema, { trades: [{ ...trade, trade_id }] }).ok, JSON.stringify(trade_id)).toBe(false);
    }
  });

  it('depth: levels as objects or pairs, under view or orders', () => {
    const objects = parseWith(depthResponseSchema, { market_id: ids.market, view: { buys: [{ price: '10', quantity: '2' }], sells: [] } });
    const pairs = parseWith(depthResponseSchema, { market_id: ids.market, orders: { buys: [['10', '2']], sells: [['11', '3']] } });
    expect(objects.ok && objects.value.buys).toEqual([{ price: 10n, quantity: 2n }]);
    expect(pairs.ok && [pairs.value.buys, pairs.value.sells]).toEqual([[{ price: 10n, quantity: 2n }], [{ price: 11n, quantity: 3n }]]);
    expect(parseWith(depthResponseSchema, { market_id: ids.market }).ok).toBe(false);
  });

  it('GET /v1/accounts: found, 200 with nulls, and code 4002', () => {
    const found = parseWith(accountLookupSchema, { trade_account_id: ids.tradeAccount, trade_account: { last_modification: 5, nonce: '7', owner: { Address: ids.referer }, sync_state: { x: 1 } }, session: null });
    expect(found).toMatchObject({ ok: true, value: { kind: 'found', trade_account: { nonce: 7n } } });
    const synced = parseWith(accountLookupSchema, { trade_account_id: ids.tradeAccount, trade_account: { nonce: '0', owner: { Address: ids.referer }, synced_with_network: true }, session: null });
    expect(synced.ok).toBe(true);
    expect(parseWith(accountLookupSchema, { trade_account_id: null, trade_account: null, session: null })).toEqual({ ok: true, value: { kind: 'none' } });
    expect(parseWith(accountLookupSchema, { code: 4002, message: 'Account not found' })).toEqual({ ok: true, value: { kind: 'none' } });
    expect(parseWith(accountLookupSchema, { code: 4000, message: 'bad' }).ok).toBe(false);
  });

  it('POST /v1/accounts returns the nonce as hex', () => {
    expect(parseWith(createAccountResponseSchema, { trade_account_id: ids.tradeAccount, nonce: '0x0' })).toMatchObject({ ok: true, value: { nonce: 0n } });
  });

  it('window: into the lane snapshot, fewer than 8 slots allowed', () => {
    expect(parseWith(windowResponseSchema, { nonce_session_id: 2, base: '4', slots: [{ word_position: '5', bitmap: '3' }] })).toEqual({
      ok: true,
      value: { lane: 2, base: 4n, slots: [{ word_position: 5n, bitmap: 3n }] },
    });
    expect(parseWith(windowResponseSchema, { nonce_session_id: 5, base: '0', slots: [] }).ok).toBe(false);
  });

  it('session actions results: success, pre-flight refusal, on-chain revert', () => {
    expect(parseWith(actionsResultSchema, { tx_id: '0x1', orders: [order] })).toMatchObject({ ok: true, value: { kind: 'success', orders: [{ order_type: { kind: 'Limit', price: 5n, timestamp: 6n } }] } });
    expect(parseWith(actionsResultSchema, { tx_id: '0x1' })).toEqual({ ok: true, value: { kind: 'success', tx_id: '0x1', orders: [] } });
    expect(parseWith(actionsResultSchema, { code: 7004, message: 'too many actions' })).toEqual({ ok: true, value: { kind: 'refused', code: 7004, message: 'too many actions' } });
    expect(parseWith(actionsResultSchema, { message: 'Revert', reason: 'TraderNotWhiteListed', receipts: [] })).toMatchObject({ ok: true, value: { kind: 'reverted', reason: 'TraderNotWhiteListed' } });
  });

  it('orders, trades with shared funding, active entries with nested triggers', () => {
    expect(parseWith(ordersResponseSchema, { identity: { ContractId: ids.tradeAccount }, market_id: ids.market, orders: [order] }).ok).toBe(true);
    const trades = parseWith(tradesResponseSchema, { market_id: ids.market, trades: [{ trade_id: '9', side: 'Sell', price: '5', quantity: '2', total: '10', timestamp: '1', turbo: true, shared: { funding_source: { order_id: ids.order } } }] });
    expect(trades.ok && trades.value.trades[0]!.shared?.funding_source.order_id).toBe(ids.order);
    const active = parseWith(activeOrdersResponseSchema, {
      entries: [
        { kind: 'order', order_id: ids.order, triggers: [{ order_id: ids.child, side: 'Sell', trigger_price: '4' }] },
        { kind: 'trigger', order_id: ids.child, market_id: ids.market, side: 'Sell', trigger_price: '4' },
      ],
    });
    expect(active.ok && active.value.entries[0]).toMatchObject({ kind: 'order', triggers: [{ trigger_price: 4n }] });
  });

  it('margin: tiers, state (with and without rollover), cleanups, events', () => {
    const tier = { tier_id: 't1', version: 2, line: '1000', max_credit_line_bps: '5000', threshold: '10', open_buffer: '20', maintenance: '5', profit_share_bps: 0, duration: '18446744073709551615', prolong_seconds: '0', books: [ids.book], turbo: { forfeit_collateral: true, max_loss_bps: ['100', '100', '100', '100'], rollover_profit_bps: '0', max_rollovers: 0, term_seconds: '604800' } };
    expect(parseWith(tiersResponseSchema, [tier]).ok).toBe(true);
    expect(parseWith(tiersResponseSchema, { tiers: [tier] }).ok).toBe(true);
    const state = {
      session: { cohort: 'Turbo', collateral: '0', fees: '0', quote_drawn: '5', expires_at: '18446744073709551615' },
      tier,
      balances: { [ids.quoteAsset]: { on_account: '1', received: '0', locked: '0', settled: '0', debt: '0' } },
      prices: { [ids.baseAsset]: { bid: '4000000000000000000', ask: '4100000000000000000', decimals: 9, timestamp: '1', stale: false } },
      collateral_decimals: 9,
    };
    const parsed = parseWith(marginStateSchema, state);
    expect(parsed.ok && parsed.value.session?.quote_drawn).toBe(5n);
    expect(parseWith(marginStateSchema, { ...state, rollover: { anchor: '1', withdrawn: '0', outside: '0', rollovers_used: 0, max_rollovers: 1, profit_required: '5', eligible_now: false } }).ok).toBe(true);
    expect(parseWith(closeCleanupsResponseSchema, [])).toEqual({ ok: true, value: [] });
    const events = parseWith(turboEventsResponseSchema, [{ type: 'HouseOrderCompleted', order_id: ids.order, timestamp: '3' }, { type: 'SidecarChanged', previous: null, current: ids.book }]);
    expect(events.ok && events.value.length).toBe(2);
  });
});
