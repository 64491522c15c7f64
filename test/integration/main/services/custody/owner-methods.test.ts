// The owner endpoints reachable from the Account view (POST /v1/accounts/actions, /call, /calls,
// /upgrade) against the sandbox, which checks each signature against the owner and executes it by
// its own reading of the spec. Only methods main's table lists can be called; each is confirmed in
// the trusted surface naming the endpoint, the method and every parameter; declined, nothing is
// signed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfirmationRequest, TrustedConfirmer } from '../../../../../main/services/confirm/trusted-confirmer';
import { confirmationText } from '../../../../../main/services/confirm/confirmation-text';
import type { Market } from '../../../../../shared/market/market';
import { fail, ok } from '../../../../../shared/result';
import { caller, startOnboarded, until, value, type Harness } from '../../../../support/terminal-harness';

describe.sequential('owner methods signed with a hot owner key', () => {
  const asked: ConfirmationRequest[] = [];
  let answer: 'accept' | 'decline' = 'accept';
  const confirmer: TrustedConfirmer = {
    surface: 'dialog',
    confirm: (request) => {
      asked.push(request);
      return Promise.resolve(answer === 'accept' ? ok(undefined) : fail('CONFIRMATION_DECLINED', 'declined in the dialog'));
    },
  };
  let harness: Harness;
  let markets: Market[];
  let market: Market;
  let tradeAccountId: string;

  beforeAll(async () => {
    ({ harness, markets, market, tradeAccountId } = await startOnboarded({ confirmer }));
  }, 120_000);

  afterAll(async () => {
    await harness?.stop();
  });

  const h = () => harness.terminal.handlers;
  const nonce = async () => BigInt((await harness.ledgerAccount(tradeAccountId))?.nonce ?? '-1');
  const lastText = () => {
    const text = confirmationText(asked.at(-1)!);
    return [text.title, ...text.lines].join('\n');
  };

  it("lists main's methods, and refuses any other before asking", async () => {
    const methods = value(await h().getOwnerMethods({}, caller));
    expect(methods.map((method) => method.method).sort()).toEqual(['cancelOrder', 'settleBalance', 'settleBooks', 'upgrade', 'whitelist']);
    expect(new Set(methods.map((method) => method.endpoint))).toEqual(new Set(['POST /v1/accounts/actions', 'POST /v1/accounts/call', 'POST /v1/accounts/calls', 'POST /v1/accounts/upgrade']));
    expect(await h().callOwnerMethod({ method: 'transfer', parameters: {} }, caller)).toMatchObject({ ok: false, code: 'OWNER_METHOD_NOT_ALLOWED' });
    expect(await h().callOwnerMethod({ method: 'settleBalance', parameters: { marketId: market.market_id, to: tradeAccountId } }, caller)).toMatchObject({ ok: false, code: 'OWNER_METHOD_BAD_PARAMETER' });
    expect(await h().callOwnerMethod({ method: 'settleBalance', parameters: { marketId: 'not an id' } }, caller)).toMatchObject({ ok: false, code: 'OWNER_METHOD_BAD_PARAMETER' });
    expect(asked).toHaveLength(0);
  });

  it('declined in the trusted surface: nothing is signed', async () => {
    answer = 'decline';
    const before = await nonce();
    expect(await h().callOwnerMethod({ method: 'settleBalance', parameters: { marketId: market.market_id } }, caller)).toMatchObject({ ok: false, code: 'CONFIRMATION_DECLINED' });
    expect(await nonce()).toBe(before);
    answer = 'accept';
  });

  it('actions: SettleBalance, confirmed naming the endpoint, the method and the market', async () => {
    const before = await nonce();
    const done = value(await h().callOwnerMethod({ method: 'settleBalance', parameters: { marketId: market.market_id } }, caller));
    expect(done).toMatchObject({ status: 'accepted', endpoint: 'POST /v1/accounts/actions' });
    expect(done.txId).toBeTruthy();
    expect(await nonce()).toBe(before + 1n);
    expect(lastText()).toContain('Endpoint: POST /v1/accounts/actions');
    expect(lastText()).toContain('Method: settleBalance');
    expect(lastText()).toContain(`marketId: ${market.market_id}`);
  });

  it('call: cancel_order cancels a resting order of the trading account with the owner key', async () => {
    const placed = value(await h().placeOrder(await harness.restingBuy(market, 5n), caller));
    const orderId = placed.orders[0]!.orderId;
    value(await h().callOwnerMethod({ method: 'cancelOrder', parameters: { marketId: market.market_id, orderId } }, caller));
    expect(lastText()).toContain(`orderId: ${orderId}`);
    expect(lastText()).toContain(`contract: ${market.contract_id}`);
    await until(async () => (await harness.ledgerOrders(market.market_id)).find((order) => order.order_id === orderId)?.cancel === true, 10_000, 'the order cancelled on the exchange');
  });

  it('calls: settle_balance on two books in one request', async () => {
    const second = markets.find((candidate) => candidate.market_id !== market.market_id);
    if (second === undefined) return;
    const done = value(await h().callOwnerMethod({ method: 'settleBooks', parameters: { marketId: market.market_id, secondMarketId: second.market_id } }, caller));
    expect(done.endpoint).toBe('POST /v1/accounts/calls');
    expect(lastText()).toContain(`secondMarketId: ${second.market_id}`);
  });

  it('upgrade: another implementation than the one the exchange publishes is refused by the exchange; the published one moves the account', async () => {
    const wrong = `0x${'77'.repeat(32)}`;
    const refused = await h().callOwnerMethod({ method: 'upgrade', parameters: { implementation: wrong } }, caller);
    expect(refused.ok).toBe(false);
    expect(lastText()).toContain(`implementation: ${wrong}`);
    // The sandbox names the implementation its oracle publishes in its refusal.
    const published = /publishes (0x[0-9a-f]{64})/.exec(refused.ok ? '' : refused.message)?.[1];
    expect(published).toBeDefined();
    value(await h().callOwnerMethod({ method: 'upgrade', parameters: { implementation: published! } }, caller));
    expect((await harness.ledgerAccount(tradeAccountId))?.implementation).toBe(published);
    // Orders still go through the session afterwards.
    value(await h().placeOrder(await harness.restingBuy(market, 6n), caller));
  });
});
