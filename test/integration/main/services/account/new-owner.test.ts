// A new owner key (created, imported or watched) becomes the active owner at once. It has no
// trading account yet, so nothing of the previous owner's trading account may stay on screen as if
// it were this one's: its open orders, fills and balances leave the lists pushed to the windows, and
// the next request cannot be signed for it. Adding an owner switches the active owner and tells the
// services, which would otherwise go on showing (and reading) the previous owner's account.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Market } from '../../../../../shared/market/market';
import type { BalanceView, OrdersSnapshot } from '../../../../../shared/ipc/views';
import { caller, startOnboarded, until, value, type Harness, ACCEPTING_DIALOG } from '../../../../support/terminal-harness';

describe('adding an owner key', () => {
  let harness: Harness;
  let market: Market;

  beforeAll(async () => {
    ({ harness, market } = await startOnboarded({ confirmer: ACCEPTING_DIALOG }));
  }, 120_000);

  afterAll(async () => {
    await harness?.stop();
  });

  it("takes the previous owner's orders and balances off the windows, and brings them back when that owner is selected again", async () => {
    const h = harness.terminal.handlers;
    const first = value(await h.getAccountState({}, caller)).activeOwner!.address;
    value(await h.placeOrder({ ...(await harness.restingBuy(market)), turbo: false, orderType: { kind: 'Limit' } }, caller));
    const lastOrders = () => (harness.pushes.filter((push) => push.stream === 'orders').at(-1)?.payload as OrdersSnapshot | undefined)?.open ?? [];
    const lastBalances = () => (harness.pushes.filter((push) => push.stream === 'balances').at(-1)?.payload as BalanceView[] | undefined) ?? [];
    await until(() => lastOrders().length === 1, 20_000, 'the resting order pushed to the windows');
    await until(() => lastBalances().some((balance) => balance.onAccount > 0n), 20_000, 'the balances pushed to the windows');

    const second = value(await h.createOwnerKey({ style: 'ledger' }, caller)).address;
    const state = value(await h.getAccountState({}, caller));
    expect(state.activeOwner?.address).toBe(second);
    expect(state.tradeAccount).toBeNull();
    // At once: the lists are the new owner's (none), in main and in what the windows were sent.
    expect(value(await h.getOrders({}, caller)).open).toEqual([]);
    expect(lastOrders()).toEqual([]);
    expect(lastBalances()).toEqual([]);

    value(await h.selectOwner({ address: first }, caller));
    await until(() => lastOrders().length === 1, 20_000, "the first owner's resting order back in the windows");
  }, 120_000);
});
