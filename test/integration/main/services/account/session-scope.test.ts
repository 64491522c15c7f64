// The trading session is described one way in account setup and in the journal: markets, books
// (Canonical and Turbo) and the other contracts it names, counted from the contracts the signed
// grant carries (shared/market/session-scope.ts), against the real sandbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionScope, sessionScopeText } from '../../../../../shared/market/session-scope';
import { caller, startOnboarded, value, type Harness } from '../../../../support/terminal-harness';

describe('the session scope in the journal', () => {
  let harness: Harness;
  beforeAll(async () => {
    ({ harness } = await startOnboarded());
  }, 120_000);
  afterAll(() => harness?.stop());

  it('names the markets, the books of each kind and the other contracts the grant carries', async () => {
    const h = harness.terminal.handlers;
    const session = value(await h.getAccountState({}, caller)).session!;
    const markets = value(await h.listMarkets({}, caller));
    const text = sessionScopeText(sessionScope(session.contractIds, markets.markets, markets.turboMarkets ?? []));
    // The sandbox lists Turbo books: the count says books of both kinds, and the registry apart.
    expect(text).toMatch(/^\d+ markets?, \d+ books? \(\d+ Canonical, [1-9]\d* Turbo\) and 1 other contract$/);
    const journal = value(await h.getJournal({ limit: 500 }, caller));
    const created = journal.filter((entry) => entry.description?.startsWith('Create a trading session for'));
    expect(created.length).toBeGreaterThan(0);
    expect(created.map((entry) => entry.description)).toContainEqual(expect.stringContaining(`Create a trading session for ${text} until `));
  });
});
