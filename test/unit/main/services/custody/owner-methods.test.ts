// Main's table of owner methods: only a listed method is built, each parameter parsed by its own
// schema, an unknown or extra parameter refused, and what the confirmation shows is main's parsed
// value (escaped by the trusted tag), never the page's text.
import { describe, expect, it } from 'vitest';
import { buildOwnerMethod, ownerMethodViews } from '../../../../../main/services/custody/owner-methods';
import { b256 } from '../../../../../shared/encoding/b256';
import { fail, ok } from '../../../../../shared/result';
import { ethUsdc } from '../../../../support/shared/market/fixtures';

const tradeAccountId = b256(`0x${'22'.repeat(32)}`);
const facts = {
  tradeAccountId,
  market: (marketId: string) => (marketId === ethUsdc.market_id ? ok(ethUsdc) : fail('NO_MARKET', 'no such market')),
  marketName: () => 'ETH/USDC',
};

describe('owner methods', () => {
  it('lists each method with its endpoint and parameters', () => {
    expect(ownerMethodViews().map((view) => [view.method, view.endpoint, view.parameters.map((parameter) => parameter.name)])).toEqual([
      ['settleBalance', 'POST /v1/accounts/actions', ['marketId']],
      ['whitelist', 'POST /v1/accounts/actions', ['marketId']],
      ['cancelOrder', 'POST /v1/accounts/call', ['marketId', 'orderId']],
      ['settleBooks', 'POST /v1/accounts/calls', ['marketId', 'secondMarketId']],
      ['upgrade', 'POST /v1/accounts/upgrade', ['implementation']],
    ]);
  });

  it.each(['transfer', 'constructor', 'toString', '__proto__', 'hasOwnProperty'])('refuses %s: not in the table', (method) => {
    expect(buildOwnerMethod(method, {}, facts)).toMatchObject({ ok: false, code: 'OWNER_METHOD_NOT_ALLOWED' });
  });

  it('refuses an extra parameter, a missing one, a malformed id and an unknown market', () => {
    expect(buildOwnerMethod('settleBalance', { marketId: ethUsdc.market_id, to: tradeAccountId }, facts)).toMatchObject({ ok: false, code: 'OWNER_METHOD_BAD_PARAMETER', details: { field: 'to' } });
    expect(buildOwnerMethod('cancelOrder', { marketId: ethUsdc.market_id }, facts)).toMatchObject({ ok: false, code: 'OWNER_METHOD_BAD_PARAMETER', details: { field: 'orderId' } });
    expect(buildOwnerMethod('upgrade', { implementation: '0x12\u202e34' }, facts)).toMatchObject({ ok: false, code: 'OWNER_METHOD_BAD_PARAMETER' });
    expect(buildOwnerMethod('whitelist', { marketId: `0x${'99'.repeat(32)}` }, facts)).toMatchObject({ ok: false, code: 'OWNER_METHOD_BAD_PARAMETER', details: { field: 'marketId' } });
  });

  it('builds the call from main parsed values: an id in capitals is shown and signed lowercase', () => {
    const orderId = `0x${'AB'.repeat(32)}`;
    const built = buildOwnerMethod('cancelOrder', { marketId: ethUsdc.market_id, orderId }, facts);
    expect(built.ok).toBe(true);
    if (!built.ok) return;
    expect(built.value.call).toMatchObject({ endpoint: 'call', call: { contract_id: ethUsdc.contract_id, selector: 'cancel_order' } });
    expect(built.value.parameters).toEqual({ marketId: ethUsdc.market_id, orderId: orderId.toLowerCase() });
    expect(built.value.lines.map((line) => line.text).join('\n')).toContain(`orderId: ${orderId.toLowerCase()}`);
  });
});
