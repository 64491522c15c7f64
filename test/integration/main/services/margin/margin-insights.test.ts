// The margin insights and the Turbo depth overlay read by main against the real sandbox: after a
// Turbo Account opened a session and traded on a Turbo book (a market buy funded by a draw, and a
// resting Turbo buy below the market), each read pushed to the window holds what the exchange
// holds: the statistics count the live Turbo session and its loan, the tier history lists every
// version the exchange publishes, the account's activity has the session start and the draw with
// its post-event total, the events have the trade's SharedExecution for the order main placed, and
// the overlay's demand column has the resting Turbo buy on its ladder row.
import { afterAll, describe, expect, it } from 'vitest';
import type { MarginInsightsView, TurboDepthView } from '../../../../../shared/ipc/views';
import { ACCEPTING_DIALOG, caller, startOnboarded, openTurboSession, turboSetup, until, value, type Harness } from '../../../../support/terminal-harness';

describe('margin insights read by main', () => {
  let harness: Harness | undefined;

  afterAll(async () => {
    await harness?.stop();
  });

  it('each read returns what the exchange holds after a Turbo trade', async () => {
    const onboarded = await startOnboarded({ confirmer: ACCEPTING_DIALOG });
    harness = onboarded.harness;
    const h = harness.terminal.handlers;
    // A held book: the trade is the test's, not the house maker's luck.
    await harness.control('/control/maker', { pinned: true });
    const { market, child } = await turboSetup(harness, onboarded.markets);
    value(await h.selectMarginAccount({ marginAccountId: child }, caller));
    const tier = await openTurboSession(harness, child);

    const { ask, bid } = await harness.insidePrices(market);
    // The Turbo book's minimum order value is above the canonical book's: five canonical units clear it.
    const unit = harness.sizeFor(market, ask) * 5n;
    const bought = value(await h.placeOrder({ marketId: market.market_id, turbo: true, side: 'Buy', orderType: { kind: 'Market' }, price: ask, quantity: unit }, caller));
    const taker = bought.orders[0]!;
    expect(taker.filled).toBeGreaterThan(0n);
    const tick = harness.priceTick(market);
    const restingPrice = ((bid * 95n) / 100n / tick) * tick;
    const resting = value(await h.placeOrder({ marketId: market.market_id, turbo: true, side: 'Buy', orderType: { kind: 'Limit' }, price: restingPrice, quantity: unit }, caller));
    expect(resting.orders[0]?.filled).toBe(0n);

    const mark = harness.pushes.length;
    const pushed = <T>(stream: string) => harness!.pushes.slice(mark).filter((push) => push.stream === stream).map((push) => push.payload as T);
    value(await h.watchMarginInsights({ marginAccountId: child }, caller));
    const step = tick * 10n;
    value(await h.watchTurboDepth({ marketId: market.market_id, step }, caller));

    const view = await until(
      () =>
        pushed<MarginInsightsView>('marginInsights').find(
          (candidate) =>
            candidate.statistics.state === 'live' &&
            candidate.activity.value.some((row) => row.kind === 'Draw') &&
            candidate.events.value.some((row) => row.type === 'SharedExecution' && row.orderId === taker.orderId),
        ),
      30_000,
      'insights holding the trade',
    );
    const exchange = async (path: string) => (await fetch(`${harness!.base()}${path}`)).json() as Promise<Record<string, unknown>>;

    // Statistics: the session is live; the loan is the draw the order was funded by.
    const statistics = await exchange('/v1/margin/statistics');
    expect(view.statistics.value).toMatchObject({ activeTurbo: statistics.active_turbo, activeSessions: statistics.active_sessions, poolPaused: false });
    expect(view.statistics.value!.activeSessions).toBeGreaterThanOrEqual(1);
    const lent = statistics.lent as Record<string, string>;
    expect(view.statistics.value!.lent).toEqual(Object.entries(lent).map(([assetId, amount]) => ({ assetId, amount: BigInt(amount) })));

    // Tier history: every version the exchange publishes, the session's tier among them.
    const history = (await exchange('/v1/margin/tiers/history')).tiers as { tier_id: string; version: number }[];
    expect(view.tierHistory.state).toBe('live');
    expect(view.tierHistory.value.map((row) => `${row.tierId}.${row.version}`)).toEqual(history.map((row) => `${row.tier_id}.${row.version}`));
    expect(view.tierHistory.value.some((row) => row.tierId === tier.tierId)).toBe(true);

    // Activity: the session start, then the draw with the drawn total the exchange holds after it.
    const activity = ((await exchange(`/v1/margin/activity?account=${child}`)).activity as { kind: string; details: Record<string, string> }[]).filter((entry) => entry.kind === 'Draw');
    const draw = view.activity.value.find((row) => row.kind === 'Draw')!;
    expect(draw.amounts.find((amount) => amount.key === 'drawn_total')?.amount).toBe(BigInt(activity[activity.length - 1]!.details.drawn_total!));
    expect(view.activity.value.map((row) => row.kind)).toContain('SessionStarted');

    // Events: the trade of the order main placed, at its fill price and size.
    const executions = view.events.value.filter((row) => row.type === 'SharedExecution' && row.orderId === taker.orderId);
    expect(executions.reduce((total, row) => total + (row.quantity ?? 0n), 0n)).toBe(taker.filled);
    expect(executions.every((row) => row.side === 'Buy' && row.marketId === market.market_id)).toBe(true);

    // The overlay: the resting Turbo buy is demand on its row; the executable column matches the exchange's view.
    const depth = await until(() => pushed<TurboDepthView>('turboDepth').find((candidate) => candidate.state === 'live' && candidate.rows.some((row) => row.demandBid > 0n)), 30_000, 'a live overlay');
    const restingRow = restingPrice - (restingPrice % step);
    expect(depth.rows.find((row) => row.price === restingRow)?.demandBid).toBeGreaterThanOrEqual(unit);
    const executable = (await exchange(`/v1/depth?market_id=${market.market_id}&turbo=true&view=executable&precision=${step}`)).view as { sells: { price: string; quantity: string }[] };
    const bestAsk = executable.sells[0]!;
    const askRow = depth.rows.find((row) => row.executableAsk > 0n && row.price >= BigInt(bestAsk.price) - step);
    expect(askRow).toBeDefined();

    value(await h.unwatchMarginInsights({}, caller));
    value(await h.unwatchTurboDepth({}, caller));
  }, 180_000);
});
