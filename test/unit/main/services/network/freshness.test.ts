import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../../shared/clock';
import type { FreshnessView } from '../../../../../shared/ipc/views';
import { computeFreshness, FreshnessPublisher, type FreshnessInputs } from '../../../../../main/services/network/freshness';

const market = `0x${'ab'.repeat(32)}`;

function inputs(overrides: Partial<FreshnessInputs> = {}): FreshnessInputs {
  return {
    networkId: 'sandbox',
    generation: 1,
    link: { state: 'up', lastInboundAt: 10_000, lastError: null, gaveUp: false },
    switching: null,
    orders: 'live',
    ordersTurbo: 'live',
    balances: 'live',
    channels: [{ marketId: market, turbo: false, depth: 'live', tradesAwaiting: false }],
    staleAfterMs: 8_000,
    ...overrides,
  };
}

describe('freshness: derived from data arriving, not from an open socket', () => {
  it('is live while frames (heartbeats included) arrive within the cadence, with their age', () => {
    const view = computeFreshness(inputs(), 13_000);
    expect(view.link).toEqual({ state: 'live', ageMs: 3_000, detail: null });
    expect(view.markets[0]).toMatchObject({ book: { state: 'live', ageMs: 3_000 }, trades: { state: 'live' } });
    expect(view.orders.state).toBe('live');
    expect(view.balances.state).toBe('live');
  });

  it('turns every dependent source stale when the open socket goes silent past the cadence', () => {
    const view = computeFreshness(inputs(), 10_000 + 12_500);
    expect(view.link).toMatchObject({ state: 'stale', ageMs: 12_500 });
    expect(view.link.detail).toContain('12 s');
    for (const source of [view.orders, view.balances, view.markets[0]!.book, view.markets[0]!.trades]) expect(source.state).toBe('stale');
  });

  it('marks a book waiting for its snapshot, and awaiting account topics, resyncing', () => {
    const view = computeFreshness(inputs({ channels: [{ marketId: market, turbo: true, depth: 'resyncing', tradesAwaiting: true }], ordersTurbo: 'awaiting' }), 11_000);
    expect(view.markets[0]).toMatchObject({ turbo: true, book: { state: 'resyncing' }, trades: { state: 'resyncing' } });
    expect(view.orders.state).toBe('resyncing');
    expect(view.balances.state).toBe('live');
    // The header shows the connection, which is live.
    expect(view.link.state).toBe('live');
  });

  it('is disconnected without a runtime (a switch) or while the socket is down, whatever was received before', () => {
    const switching = computeFreshness(inputs({ link: null, switching: 'switching to Mainnet', networkId: 'mainnet', generation: 2 }), 11_000);
    expect(switching).toMatchObject({ networkId: 'mainnet', generation: 2, link: { state: 'disconnected', detail: 'switching to Mainnet' } });
    expect(switching.markets[0]!.book.state).toBe('disconnected');
    const down = computeFreshness(inputs({ link: { state: 'down', lastInboundAt: null, lastError: 'connect ECONNREFUSED', gaveUp: false } }), 11_000);
    expect(down.link).toMatchObject({ state: 'disconnected', detail: 'connect ECONNREFUSED' });
    expect(down.orders.state).toBe('disconnected');
  });

  it('publishes a state change at once and new evidence once a tick, nothing when nothing moved', () => {
    const clock = new ManualClock(10_000);
    let current = inputs();
    const published: FreshnessView[] = [];
    const publisher = new FreshnessPublisher({ clock, inputs: () => current, publish: (view) => published.push(view) });
    publisher.start();
    clock.advance(1_000);
    expect(published).toHaveLength(1);
    clock.advance(3_000);
    expect(published).toHaveLength(1);
    current = inputs({ link: { state: 'up', lastInboundAt: 14_000, lastError: null, gaveUp: false } });
    clock.advance(1_000);
    expect(published).toHaveLength(2);
    expect(published[1]!.link.ageMs).toBe(1_000);
    // Silent: the tick finds the stale state and publishes it.
    clock.advance(8_000);
    expect(published.at(-1)!.link.state).toBe('stale');
    current = inputs({ link: null, switching: 'switching' });
    publisher.check('state');
    expect(published.at(-1)!.link.state).toBe('disconnected');
    publisher.stop();
    expect(clock.pendingTimers()).toBe(0);
  });
});
