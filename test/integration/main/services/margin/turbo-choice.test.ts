// The Turbo Account the trader chose to trade Turbo books as survives a network switch and back,
// and a page reload (main keeps it): a switch that left no Turbo Account selected would have the
// next Turbo order signed by the trading account without the trader asking, and the Turbo
// Account's position drop out of Positions.
// While the choice is being restored no Turbo order is signed by anyone; an exchange that no
// longer knows the account says so, and the choice is forgotten.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Market } from '../../../../../shared/market/market';
import type { Notice } from '../../../../../shared/ipc/views';
import { caller, startOnboarded, until, value, type Harness, ACCEPTING_DIALOG, openTurboSession, turboSetup } from '../../../../support/terminal-harness';

describe("the trader's choice of Turbo Account", () => {
  let harness: Harness;
  let market: Market;
  let child: string;

  beforeAll(async () => {
    const onboarded = await startOnboarded({ confirmer: ACCEPTING_DIALOG });
    harness = onboarded.harness;
    ({ market, child } = await turboSetup(harness, onboarded.markets));
    value(await harness.terminal.handlers.configureNetwork({ networkId: 'devnet', restUrl: 'http://127.0.0.1:9', wsUrl: 'ws://127.0.0.1:9/v1/ws', faucetUrl: null }, caller));
  }, 120_000);

  afterAll(async () => {
    await harness?.stop();
  });

  const tradingAs = async () => value(await harness.terminal.handlers.getTurboMarkets({}, caller)).tradingAs;

  it('comes back after Sandbox → another network → Sandbox, and nothing is signed by the trading account meanwhile', async () => {
    const h = harness.terminal.handlers;
    value(await h.selectMarginAccount({ marginAccountId: child }, caller));
    expect(await tradingAs()).toBe(child);

    value(await h.selectNetwork({ networkId: 'devnet' }, caller));
    value(await h.selectNetwork({ networkId: 'sandbox' }, caller));
    // Until the choice is back, a Turbo order is refused unsigned (or, once back, goes out as the
    // Turbo Account): never as the trading account.
    const early = await h.placeOrder({ marketId: market.market_id, turbo: true, side: 'Buy', orderType: { kind: 'Limit' }, price: 1_000_000n, quantity: 1_000_000n }, caller);
    // (A refusal for any other reason, a price outside the window say, signs nothing either.)
    if (early.ok) expect(early.value.orders.every((order) => order.account === child)).toBe(true);
    await until(async () => (await tradingAs()) === child, 30_000, 'the Turbo Account chosen again');
  }, 120_000);

  it("an exchange restart takes the Turbo Account's resting orders out of Open orders with the account", async () => {
    const h = harness.terminal.handlers;
    expect(await tradingAs()).toBe(child);
    await openTurboSession(harness, child);
    const order = await harness.restingBuy(market);
    const placed = value(await h.placeOrder({ ...order, quantity: order.quantity * 4n, turbo: true, orderType: { kind: 'Limit' } }, caller));
    expect(placed.orders[0]?.account).toBe(child);
    const open = async () => value(await h.getOrders({}, caller)).open;
    await until(async () => (await open()).some((view) => view.account === child), 20_000, "the Turbo Account's order in Open orders");
    // Another network and back: a History (or Fills) list begun at once still lists the Turbo
    // Account's order (main reads its Turbo Accounts again before the first page).
    value(await h.selectNetwork({ networkId: 'devnet' }, caller));
    value(await h.selectNetwork({ networkId: 'sandbox' }, caller));
    const history = value(await h.getOrderHistory({ marketId: market.market_id, turbo: true, cursor: null }, caller));
    expect(history.items.filter((view) => view.orderId === placed.orders[0]?.orderId)).toEqual([expect.objectContaining({ account: child, turbo: true })]);
    await until(async () => (await tradingAs()) === child, 30_000, 'the Turbo Account chosen again');
    const mark = harness.pushes.length;
    // The sandbox restarts empty: the trading account and its Turbo Account are gone.
    await harness.control('/control/reset', {});
    await until(async () => value(await h.getAccountState({}, caller)).tradeAccount === null, 30_000, 'the app to notice the empty exchange');
    // What main holds, and the last list pushed to the windows: nothing of the forgotten accounts.
    await until(async () => (await open()).length === 0, 10_000, 'Open orders empty in main');
    const pushed = harness.pushes.slice(mark).filter((push) => push.stream === 'orders').at(-1)?.payload as { open: unknown[] } | undefined;
    expect(pushed?.open).toEqual([]);
  }, 150_000);

  it('is forgotten, with a notice, when the exchange no longer knows the account', async () => {
    const h = harness.terminal.handlers;
    const mark = harness.pushes.length;
    // The sandbox restarts empty (the same trading account is set up again; the Turbo Account is gone).
    await harness.control('/control/reset', {});
    value(await h.selectNetwork({ networkId: 'devnet' }, caller));
    value(await h.selectNetwork({ networkId: 'sandbox' }, caller));
    await harness.onboard().catch(() => undefined);
    const notice = await until(
      () => harness.pushes.slice(mark).find((push) => push.stream === 'notice' && /is not a margin account of this trading account/.test((push.payload as Notice).text)),
      60_000,
      'the notice that the Turbo Account is gone',
    );
    expect((notice.payload as Notice).level).toBe('warning');
    expect(await tradingAs()).toBeNull();
  }, 150_000);
});
