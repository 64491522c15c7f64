// Freshness from data actually arriving: the sandbox freezes its WebSocket without
// closing it (/control/ws/stall: nothing is sent, not even a PONG). The socket stays open, so a
// socket-state indicator would still say connected; main must call the link and every source
// stale within the heartbeat cadence, and live again once frames flow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionStatus, FreshnessView } from '../../../../../shared/ipc/views';
import { caller, startHarness, until, value, type Harness } from '../../../../support/terminal-harness';

describe('freshness follows frames arriving, not the socket', () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness();
  }, 60_000);

  afterAll(async () => {
    await harness?.stop();
  });

  it('a frozen stream turns the link, the header and the books stale, then live again', async () => {
    const h = harness.terminal.handlers;
    const market = value(await h.listMarkets({}, caller)).markets[0]!;
    value(await h.subscribeBook({ marketId: market.market_id, precision: 10n ** BigInt(market.quote.decimals - market.quote.max_precision), levels: 5 }, caller));
    const fresh = async () => value(await h.getFreshness({}, caller));
    await until(async () => {
      const view = await fresh();
      return view.link.state === 'live' && view.markets.find((entry) => entry.marketId === market.market_id)?.book.state === 'live';
    }, 30_000, 'a live book');

    const mark = harness.pushes.length;
    expect(await harness.control('/control/ws/stall', { ms: 14_000 })).toMatchObject({ stalled: 1 });
    const stale = await until(async () => {
      const view = await fresh();
      return view.link.state === 'stale' ? view : null;
    }, 14_000, 'the link to turn stale');
    expect(stale.link.ageMs).toBeGreaterThan(stale.staleAfterMs);
    expect(stale.markets.find((entry) => entry.marketId === market.market_id)?.book.state).toBe('stale');
    // The socket is still open: the header says stale, not connected.
    expect(harness.terminal.runtime()?.stream.status().state).toMatch(/up|resyncing/);
    expect(value(await h.getConnection({}, caller)).stream).toBe('stale');
    // Pushed to the windows (on main's next second), not only answered.
    await until(() => harness.pushes.slice(mark).some((push) => push.stream === 'freshness' && (push.payload as FreshnessView).link.state === 'stale'), 3_000, 'a stale freshness push');
    await until(() => harness.pushes.slice(mark).some((push) => push.stream === 'connection' && (push.payload as ConnectionStatus).stream === 'stale'), 3_000, 'a stale connection push');

    await until(async () => (await fresh()).link.state === 'live', 20_000, 'the link to be live again');
    expect(value(await h.getConnection({}, caller)).stream).toMatch(/up|resyncing/);
  }, 90_000);
});
