// A Turbo Account's amend carries the leg bound to its order, and the kill switch takes a Turbo
// Account's orders and trigger legs too: a resting order of the
// Turbo Account on the Turbo book with a leg bound to it, and a stop of its own (signed as the
// Turbo Account by its submitter: the terminal's forms sign legs as the trading account only, but
// another client of the same keys may have placed them). Afterwards the exchange lists nothing for
// the Turbo Account on the Turbo book.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { B256 } from '../../../shared/encoding/b256';
import type { Market } from '../../../shared/market/market';
import type { SessionAction } from '../../../shared/protocol/actions';
import type { Result } from '../../../shared/result';
import { ACCEPTING_DIALOG, caller, startOnboarded, openTurboSession, turboSetup, value, type Harness } from '../../support/terminal-harness';

/** The Turbo Account's own submitter (a protected member of the margin service). */
type ChildSubmit = (request: { groups: { market_id: string; market: Market; turbo: true; actions: SessionAction[] }[]; description: string; settleFirst: boolean }) => Promise<Result<unknown>>;

describe('the kill switch takes Turbo Accounts\u2019 legs, against the sandbox', () => {
  let harness: Harness;
  let market: Market;
  let child: B256;

  const active = async (): Promise<{ kind: string }[]> =>
    ((await (await fetch(`${harness.base()}/v1/orders/active?market_id=${market.market_id}&contract=${child}&turbo=true`)).json()) as { entries: { kind: string }[] }).entries;

  beforeAll(async () => {
    const onboarded = await startOnboarded({ confirmer: ACCEPTING_DIALOG });
    harness = onboarded.harness;
    const setup = await turboSetup(harness, onboarded.markets);
    market = setup.market;
    child = setup.child as B256;
  }, 120_000);

  afterAll(async () => {
    await harness?.stop();
  });

  it('amends the Turbo Account\u2019s order with the leg bound to it carried, then cancels the order, its leg and a stop of its own', async () => {
    const h = harness.terminal.handlers;
    value(await h.selectMarginAccount({ marginAccountId: child }, caller));
    await openTurboSession(harness, child);
    const resting = await harness.restingBuy(market);
    const placed = value(await h.placeOrder({ ...resting, quantity: resting.quantity * 4n, turbo: true, orderType: { kind: 'Limit' } }, caller));
    const orderId = placed.orders[0]!.orderId as B256;
    expect(placed.orders[0]?.account).toBe(child);

    const runtime = harness.terminal.runtime()!;
    const markets = (runtime as unknown as { marketsIndex: { turboMarkets(): Market[] } }).marketsIndex;
    const turboRow = markets.turboMarkets().find((row) => row.market_id === market.market_id)!;
    const tick = harness.priceTick(market);
    const { bid, ask } = await harness.insidePrices(market);
    const below = ((bid * 90n) / 100n / tick) * tick;
    const above = ((ask * 110n) / 100n / tick) * tick;
    const submit: ChildSubmit = (request) => (runtime.margin as unknown as { signer(account: B256): { submit: ChildSubmit } }).signer(child).submit(request);
    const bound: SessionAction = {
      kind: 'CreateTriggerOrder',
      args: { order_type: { kind: 'MarketBounded', max_price: below, min_price: below - 10n * tick }, quantity: { kind: 'ParentOrder', parent_order_id: orderId }, trigger_price: below, side: 'Sell' },
      parent: { order_id: orderId, expected_quantity: resting.quantity * 4n },
    };
    // A stop of its own: a buy above the market, its quote drawn from the pool and locked from the Turbo Account.
    const stop: SessionAction = {
      kind: 'CreateTriggerOrder',
      args: { order_type: { kind: 'MarketBounded', max_price: above + 10n * tick, min_price: above }, quantity: { kind: 'Quantity', quantity: harness.sizeFor(turboRow, above) * 2n }, trigger_price: above, side: 'Buy' },
    };
    const sent = await submit({ groups: [{ market_id: market.market_id, market: turboRow, turbo: true, actions: [{ kind: 'SettleBalance', to: { ContractId: child } }, { kind: 'Draw', amount: (above + 10n * tick) * harness.sizeFor(turboRow, above) * 2n / 10n ** BigInt(market.base.decimals) + 1n }, bound, stop] }], description: 'legs of the Turbo Account', settleFirst: false });
    expect(sent.ok ? 'ok' : JSON.stringify(sent)).toBe('ok');
    expect((await active()).length).toBe(2);

    // An amend of the Turbo Account's order carries the leg bound to it, in the same batch.
    const amended = value(await h.amendOrder({ marketId: market.market_id, turbo: true, orderId, price: resting.price - tick }, caller));
    const newId = amended.orders[0]!.orderId;
    expect(amended.carriedLegs).toMatchObject([{ role: 'stop-loss', side: 'Sell', triggerPrice: below }]);
    const carried = (await active()).find((entry) => entry.kind === 'order' && (entry as unknown as { order_id: string }).order_id === newId) as unknown as { triggers: { trigger_price: string; quantity: unknown }[] } | undefined;
    expect(carried?.triggers.map((leg) => [leg.trigger_price, leg.quantity])).toEqual([[below.toString(), { ParentOrder: { parent_order_id: newId } }]]);

    const report = value(await h.cancelAllOrders({}, caller));
    expect(await active()).toEqual([]);
    expect(report.cancelled).toContain(newId);
    expect(report.triggersRequested).toBe(2);
    expect(report.triggersCancelled).toHaveLength(2);
    expect(report.triggersFailed).toEqual([]);
  }, 120_000);
});
