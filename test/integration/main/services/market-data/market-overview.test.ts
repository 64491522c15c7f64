// The markets overview against the real sandbox: main reads the ticker and the summary for a window
// that follows it, pushes a live view with a row per listed market, and the row follows a trade the
// sandbox makes (its last price is the price the house traded to, as the sandbox's own ticker says).
import { afterAll, describe, expect, it } from 'vitest';
import type { MarketOverviewView } from '../../../../../shared/ipc/views';
import { caller, startHarness, until, value, type Harness } from '../../../../support/terminal-harness';

describe('markets overview read by main', () => {
  let harness: Harness | null = null;

  afterAll(async () => {
    await harness?.stop().catch(() => undefined);
  });

  it('pushes every market with its ticker figures and follows a trade', async () => {
    harness = await startHarness();
    // A held book: nothing but the test trades, so the last price stays where the test put it.
    await harness.control('/control/maker', { pinned: true });
    const h = harness.terminal.handlers;
    const markets = value(await h.listMarkets({}, caller)).markets;
    value(await h.watchMarketOverview({}, caller));
    const views = () => harness!.pushes.filter((push) => push.stream === 'marketOverview').map((push) => push.payload as MarketOverviewView);
    const live = await until(() => views().find((view) => view.state === 'live' && view.rows.length === markets.length), 20_000, 'a live overview');
    expect(live.rows.map((row) => row.marketId).sort()).toEqual(markets.map((market) => market.market_id).sort());

    const market = markets[0]!;
    const tick = harness.priceTick(market);
    const { ask } = await harness.insidePrices(market);
    const price = ask + 7n * tick;
    await harness.control('/control/markets/price', { market_id: market.market_id, price: price.toString() });
    const moved = await until(
      () => views().at(-1)?.rows.find((row) => row.marketId === market.market_id && row.last === price),
      20_000,
      `the traded price ${price} in the overview`,
    );
    // The referee: the sandbox's own ticker for the market.
    const ticker = (await (await fetch(`${harness.base()}/v1/markets/ticker?market_id=${market.market_id}`)).json()) as { last: string; high: string; base_volume: string }[];
    expect(moved.last?.toString()).toBe(ticker[0]!.last);
    expect(moved.high! >= price).toBe(true);
    expect(moved.volume! > 0n).toBe(true);

    value(await h.unwatchMarketOverview({}, caller));
    const count = views().length;
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(views().length).toBe(count);
  }, 90_000);
});
