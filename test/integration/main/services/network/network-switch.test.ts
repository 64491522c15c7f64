// Switching Sandbox → an unreachable network → Sandbox, several times.
// The windows' market-data subscriptions must survive the switch (main re-establishes them on the
// new network; they must not die with the old runtime while the header says "connected"), and while
// on the unreachable network nothing of the sandbox's market may be shown as current: the book is
// not live, the tape and the chart are cleared, orders and balances are emptied, and the freshness
// of every source says disconnected.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BarsFrame, BookFrame, TradesFrame } from '../../../../../shared/ipc/views';
import type { Market } from '../../../../../shared/market/market';
import { caller, startHarness, until, value, type Harness, ACCEPTING_DIALOG } from '../../../../support/terminal-harness';

describe('network switch keeps the windows subscribed and never shows another network as live', () => {
  let harness: Harness;
  let market: Market;

  beforeAll(async () => {
    // The trader accepts the new network address in main's confirmation (a native dialog in
    // Electron): this test is about the switch, not the confirmation (owner-requests.test.ts is).
    harness = await startHarness({ confirmer: ACCEPTING_DIALOG });
    market = value(await harness.terminal.handlers.listMarkets({}, caller)).markets[0]!;
    // Devnet pointed at a port nothing listens on: unreachable. (Mainnet's addresses are pinned in
    // the app and cannot be pointed anywhere.)
    value(await harness.terminal.handlers.configureNetwork({ networkId: 'devnet', restUrl: 'http://127.0.0.1:9', wsUrl: 'ws://127.0.0.1:9/v1/ws', faucetUrl: null }, caller));
  }, 60_000);

  afterAll(async () => {
    await harness?.stop();
  });

  const since = (mark: number, stream: string) => harness.pushes.slice(mark).filter((push) => push.stream === stream).map((push) => push.payload);

  it('book, trades and bars come back after Sandbox → unreachable → Sandbox, three times', async () => {
    const h = harness.terminal.handlers;
    const book = value(await h.subscribeBook({ marketId: market.market_id, precision: 10n ** BigInt(market.quote.decimals - market.quote.max_precision), levels: 10 }, caller));
    const trades = value(await h.subscribeTrades({ marketId: market.market_id }, caller));
    const bars = value(await h.subscribeBars({ marketId: market.market_id, resolution: '1m', countBack: 50 }, caller));
    const liveBookAfter = (mark: number) =>
      until(() => (since(mark, 'book') as BookFrame[]).find((frame) => frame.subscriptionId === book.subscriptionId && frame.state === 'live' && frame.bids.length > 0), 30_000, 'a live book frame');
    const tradesAfter = (mark: number) => until(() => (since(mark, 'trades') as TradesFrame[]).find((frame) => frame.subscriptionId === trades.subscriptionId && frame.trades.length > 0), 30_000, 'a trades frame with trades');
    const barsAfter = (mark: number) => until(() => (since(mark, 'bars') as BarsFrame[]).find((frame) => frame.subscriptionId === bars.subscriptionId && frame.bars.length > 0), 30_000, 'a bars frame with bars');
    await liveBookAfter(0);

    for (let round = 1; round <= 3; round++) {
      const away = harness.pushes.length;
      value(await h.selectNetwork({ networkId: 'devnet' }, caller));
      // Item 2: the sandbox's book, tape, chart, orders and balances are not shown on the other network.
      const bookAway = (since(away, 'book') as BookFrame[]).filter((frame) => frame.subscriptionId === book.subscriptionId);
      expect(bookAway.length, `round ${round}: the ladder is told the book is gone`).toBeGreaterThan(0);
      expect(bookAway.at(-1)).toMatchObject({ state: 'resyncing', bids: [], asks: [] });
      expect((since(away, 'trades') as TradesFrame[]).filter((frame) => frame.subscriptionId === trades.subscriptionId).at(-1)).toMatchObject({ reset: true, trades: [] });
      expect((since(away, 'bars') as BarsFrame[]).filter((frame) => frame.subscriptionId === bars.subscriptionId).at(-1)).toMatchObject({ reset: true, bars: [] });
      // What every window holds of orders and balances (the latest push of each) is empty. The push
      // is skipped when the windows hold that already (the hub does not send an unchanged state).
      expect(since(0, 'orders').at(-1)).toMatchObject({ open: [], fills: [] });
      expect(since(0, 'balances').at(-1)).toEqual([]);
      const freshness = value(await h.getFreshness({}, caller));
      expect(freshness.networkId).toBe('devnet');
      expect(freshness.link.state).toBe('disconnected');
      expect(freshness.markets.find((entry) => entry.marketId === market.market_id)?.book.state).not.toBe('live');
      // Nothing live arrives for the old subscriptions while away.
      expect((since(away, 'book') as BookFrame[]).some((frame) => frame.state === 'live')).toBe(false);

      const back = harness.pushes.length;
      value(await h.selectNetwork({ networkId: 'sandbox' }, caller));
      // Item 1: the same subscriptions are served again, without the window asking.
      await liveBookAfter(back);
      await tradesAfter(back);
      await barsAfter(back);
      await until(async () => value(await h.getFreshness({}, caller)).link.state === 'live', 20_000, 'the link to be live again');
    }
  }, 240_000);
});
