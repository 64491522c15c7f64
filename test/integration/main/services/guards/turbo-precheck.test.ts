// The ticket's pre-check of a Turbo order (checkTurboOrder) runs main's order guards on the order
// as it would be signed: a ticket cannot show "allowed" for an order main then refuses at send.
// A cap below the order's size makes the pre-check refuse with the guard's own code and text,
// exactly as the send does, and nothing reaches the exchange.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Market } from '../../../../../shared/market/market';
import { ACCEPTING_DIALOG, caller, startOnboarded, turboSetup, value, type Harness } from '../../../../support/terminal-harness';

describe('the Turbo ticket’s pre-check', () => {
  let harness: Harness;
  let market: Market;
  let tradeAccountId: string;

  beforeAll(async () => {
    const onboarded = await startOnboarded({ confirmer: ACCEPTING_DIALOG });
    ({ harness, tradeAccountId } = onboarded);
    ({ market } = await turboSetup(harness, onboarded.markets));
  }, 120_000);

  afterAll(async () => {
    await harness?.stop();
  });

  it('refuses with the guard that the send would refuse with, naming the figure and the limit', async () => {
    const h = harness.terminal.handlers;
    const { ask } = await harness.insidePrices(market);
    const size = harness.sizeFor(market, ask) * 2n;
    const input = { marketId: market.market_id, side: 'Buy' as const, orderKind: 'Spot' as const, price: ask, quantity: size };
    expect(value(await h.checkTurboOrder(input, caller))).toMatchObject({ allowed: true, refusal: null });
    value(await h.updateSettings({ maxOrderQuantity: { [market.market_id]: size - 1n } }, caller));
    const checked = value(await h.checkTurboOrder(input, caller));
    const sent = await h.placeOrder({ marketId: market.market_id, turbo: true, side: 'Buy', orderType: { kind: 'Spot' }, price: ask, quantity: size }, caller);
    expect(sent.ok ? 'placed' : sent.code).toBe('MAX_ORDER_SIZE');
    expect(checked.allowed).toBe(false);
    expect(checked.refusal?.code).toBe('MAX_ORDER_SIZE');
    if (!sent.ok) expect(checked.refusal?.message).toBe(sent.message);
    const own = (await harness.ledgerOrders(market.market_id)).filter((order) => order.owner?.ContractId === tradeAccountId);
    expect(own).toEqual([]);
    // Back under the cap: allowed again, and the meter of orders per minute was not counted by a pre-check.
    value(await h.updateSettings({ maxOrderQuantity: {}, maxOrdersPerMinute: 1 }, caller));
    for (let index = 0; index < 3; index++) expect(value(await h.checkTurboOrder(input, caller)).allowed).toBe(true);
  }, 120_000);
});
