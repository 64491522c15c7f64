// A Turbo Account is chosen for the trading account it belongs to, and for no other. Choosing one
// reads the trading account's margin accounts from the exchange; if the trading account changes
// while that read is out (another owner selected, the exchange restarted and forgot it), its answer
// is of the account before. Applied, it would select the previous trading account's Turbo Account
// under the new one (Turbo-book orders would be signed as it) and put that account's children in the
// new one's list. The same for the account lookup itself: the one asked when the first owner was
// selected, answered after the second was, would give the second owner the first one's trading
// account (saved in accounts.json) until the second's own lookup answered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller, startOnboarded, until, value, type Harness, ACCEPTING_DIALOG } from '../../support/terminal-harness';

describe('choosing a Turbo Account while the trading account changes', () => {
  let harness: Harness;
  let child: string;

  beforeAll(async () => {
    ({ harness } = await startOnboarded({ confirmer: ACCEPTING_DIALOG }));
    child = value(await harness.terminal.handlers.registerMarginAccount({}, caller)).marginAccountId;
  }, 120_000);

  afterAll(async () => {
    await harness?.stop();
  });

  it("does not select the previous trading account's Turbo Account under the next one", async () => {
    const h = harness.terminal.handlers;
    const first = value(await h.getAccountState({}, caller)).activeOwner!.address;
    // A second owner, and back, so the margin service holds no list of Turbo Accounts: choosing
    // one reads it from the exchange.
    const second = value(await h.createOwnerKey({ style: 'ledger' }, caller)).address;
    value(await h.selectOwner({ address: second }, caller));
    // The exchange answers the account reads 1.5 s late; back on the first owner, the trader
    // chooses the Turbo Account and, while its read is out, selects the second owner (no trading account).
    await harness.control('/control/faults/delay', { count: 100, method: 'GET', path_prefix: '/v1/accounts', delay_ms: 1_500 });
    value(await h.selectOwner({ address: first }, caller));
    const choosing = h.selectMarginAccount({ marginAccountId: child }, caller);
    await new Promise((resolve) => setTimeout(resolve, 300));
    value(await h.selectOwner({ address: second }, caller));
    expect(value(await h.getAccountState({}, caller)).tradeAccount).toBeNull();
    const chosen = await choosing;
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // every late answer is in
    await harness.control('/control/faults/clear', {});
    // The first owner's account lookup, answered late, did not give the second owner its account.
    expect(value(await h.getAccountState({}, caller)).tradeAccount).toBeNull();
    expect(chosen.ok).toBe(false);
    const turbo = value(await h.getTurboMarkets({}, caller));
    expect(turbo.tradingAs).toBeNull();
    const overview = value(await h.getMarginOverview({}, caller));
    expect(overview.selectedMarginAccountId).toBeNull();
    expect(overview.accounts.map((account) => account.marginAccountId)).toEqual([]);
    // Back on the first owner, the choice can be made.
    value(await h.selectOwner({ address: first }, caller));
    await until(async () => (await h.selectMarginAccount({ marginAccountId: child }, caller)).ok, 20_000, 'the Turbo Account chosen under its own trading account');
  }, 120_000);
});
