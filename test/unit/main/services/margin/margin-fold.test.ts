// Folding the margin stream event the sandbox sends (docs/sandbox.md) into the held state:
// post-event totals replace and never add, the records of balances and prices are replaced whole,
// the rollover follows the session, a session that starts on an unknown tier version fails the
// fold (the state is then fetched again), and an ending activity becomes `last_session`.
import { describe, expect, it } from 'vitest';
import { foldMarginEvent } from '../../../../../main/exchange/margin-event';
import { lastSessionOf, poolPausedOf } from '../../../../../main/services/margin/margin-reads';
import { ETH, ETH_ID, USDC, USDC_ID, balanceWire, eventWire, parsedState, parsedTier, prepaidTierWire, sessionWire, stateWire } from '../../../../support/main/margin/fixtures';

function fold(state: ReturnType<typeof parsedState>, event: unknown, tierOf?: Parameters<typeof foldMarginEvent>[2]) {
  const folded = foldMarginEvent(state, event, tierOf);
  if (!folded.ok) throw new Error(folded.message);
  return folded.value;
}

describe('margin stream fold (the sandbox event shape)', () => {
  it('replaces totals with post-event values and never adds; balances and prices are replaced whole', () => {
    let state = parsedState(stateWire({ drawn: 100n * USDC, cash: 100n * USDC, eth: ETH }));
    const drawn = stateWire({ drawn: 150n * USDC, cash: 150n * USDC, eth: ETH });
    state = fold(state, eventWire(2, 'Draw', drawn)).state;
    expect(state.session?.quote_drawn).toBe(150n * USDC);
    const returned = stateWire({ drawn: 120n * USDC, cash: 120n * USDC, eth: ETH });
    const folded = fold(state, eventWire(3, 'ReturnQuote', returned));
    expect(folded.sequence).toBe(3n);
    expect(folded.kind).toBe('ReturnQuote');
    expect(folded.state.session?.quote_drawn).toBe(120n * USDC);
    expect(folded.state.balances[USDC_ID]?.on_account).toBe(120n * USDC);
    // An asset missing from the event's balances is gone after it: the record is the post-event one.
    const onlyCash = { ...returned, balances: { [USDC_ID]: balanceWire(120n * USDC) } };
    expect(Object.keys(fold(folded.state, eventWire(4, 'Update', onlyCash)).state.balances)).toEqual([USDC_ID]);
  });

  it('takes debt and received totals of the named asset', () => {
    const state = parsedState(stateWire({ drawn: 0n, eth: ETH }));
    const borrowed = fold(state, { sequence: '2', kind: 'Borrow', asset_id: ETH_ID, debt_total: String(ETH / 10n), received_total: '5' }).state;
    expect(borrowed.balances[ETH_ID]).toMatchObject({ debt: ETH / 10n, received: 5n, on_account: ETH });
    const repaid = fold(borrowed, { sequence: '3', kind: 'Repay', asset_id: ETH_ID, debt_total: '0' }).state;
    expect(repaid.balances[ETH_ID]?.debt).toBe(0n);
  });

  it('replaces the rollover, and drops it when the post-event session has none', () => {
    const wire = stateWire();
    const rollover = { anchor: String(2_000n * USDC), withdrawn: '0', outside: '0', rollovers_used: 0, max_rollovers: 3, profit_required: String(100n * USDC), eligible_now: false };
    const withRollover = parsedState({ ...wire, rollover });
    const rolled = fold(withRollover, eventWire(2, 'RolledOver', wire, { rollover: { ...rollover, rollovers_used: 1, anchor: String(2_100n * USDC) } })).state;
    expect(rolled.rollover).toMatchObject({ rollovers_used: 1, anchor: 2_100n * USDC });
    expect(fold(rolled, eventWire(3, 'Draw', wire)).state.rollover).toBeUndefined();
  });

  it('fails a session that starts on a tier version it does not hold, unless the caller knows the version', () => {
    const empty = parsedState(stateWire({ session: false }));
    const started = eventWire(2, 'SessionStarted', stateWire());
    const unknown = foldMarginEvent(empty, started);
    expect(unknown).toMatchObject({ ok: false, code: 'MARGIN_FOLD_FAILED' });
    expect(!unknown.ok && unknown.message).toContain('tier 2 v2 is not the held tier (none)');
    const tier = parsedTier(prepaidTierWire());
    const known = fold(empty, started, { tierOf: (tierId, version) => (tierId === '2' && version === 2n ? tier : undefined) });
    expect(known.state.tier?.tier_id).toBe('2');
    expect(known.state.session?.cohort).toBe('Turbo');
  });

  it('ends the session on a liquidation and keeps its settlement as last_session', () => {
    const state = parsedState(stateWire({ drawn: 1_818n * USDC, eth: (ETH * 6n) / 10n }));
    const settlement = { pnl: String(-420n * USDC), profit_share: '0', collateral_returned: '0', collateral_forfeited: '0', returned_to_parent: JSON.stringify({ [USDC_ID]: String(80n * USDC) }) };
    const event = { sequence: '9', kind: 'SessionLiquidated', activities: [{ kind: 'SessionLiquidated', ...settlement, session_closed: true }], session: null, session_closed: true, balances: stateWire().balances, prices: stateWire().prices, pool_paused: false };
    const ended = fold(state, event);
    expect(ended.state.session).toBeNull();
    expect(ended.activities[0]?.kind).toBe('SessionLiquidated');
    expect(lastSessionOf(ended.state)).toEqual({
      status: 'Liquidated',
      endedAt: null,
      pnl: -420n * USDC,
      profitShare: 0n,
      collateralReturned: 0n,
      collateralForfeited: 0n,
      returnedToParent: [{ assetId: USDC_ID, amount: 80n * USDC }],
    });
  });

  it('keeps the pool pause flag and refuses an event with nothing to fold', () => {
    const state = parsedState(stateWire());
    expect(poolPausedOf(state)).toBe(false);
    const paused = fold(state, { sequence: '2', kind: 'PoolPaused', activities: [{ kind: 'PoolPaused' }], pool_paused: true }).state;
    expect(poolPausedOf(paused)).toBe(true);
    const nothing = foldMarginEvent(state, { sequence: '3', kind: 'SomethingNew', activities: [{ kind: 'SomethingNew' }] });
    expect(nothing).toMatchObject({ ok: false, code: 'MARGIN_FOLD_FAILED' });
    const badTotal = foldMarginEvent(state, { drawn_total: '-5' });
    expect(!badTotal.ok && badTotal.message).toContain('drawn_total');
  });

  it('refuses totals for a session that is not there', () => {
    const state = parsedState(stateWire({ session: false }));
    const folded = foldMarginEvent(state, { sequence: '2', session: null, drawn_total: '5' });
    expect(!folded.ok && folded.message).toContain('drawn_total: 5 arrived but there is no session');
    expect(sessionWire(0n).cohort).toBe('Turbo');
  });
});
