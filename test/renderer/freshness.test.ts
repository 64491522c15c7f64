// The freshness primitive every live panel uses (renderer/src/lib/freshness.tsx): main's word on a
// source, aged on the window's own clock once a second, combined with what only the panel knows.
import { createRoot, createSignal } from 'solid-js';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../shared/clock';
import type { FreshnessView, SourceFreshness } from '../../shared/ipc/views';
import { createFreshness, type LocalFreshness } from '../../renderer/src/lib/freshness';

const market = `0x${'ab'.repeat(32)}`;
const live = (ageMs: number): SourceFreshness => ({ state: 'live', ageMs, detail: null });

function view(book: SourceFreshness, link: SourceFreshness = book): FreshnessView {
  return { networkId: 'sandbox', generation: 1, staleAfterMs: 8_000, link, orders: link, balances: link, markets: [{ marketId: market, turbo: false, book, trades: book }] };
}

function setup(initial: FreshnessView | null) {
  const clock = new ManualClock(100_000);
  const [current, setCurrent] = createSignal<FreshnessView | null>(initial);
  const [receivedAt, setReceivedAt] = createSignal(clock.now());
  const [local, setLocal] = createSignal<LocalFreshness | null>(null);
  let dispose = () => undefined as void;
  const mark = createRoot((done) => {
    dispose = done;
    return createFreshness({ view: current, receivedAt, clock }, (shown) => [shown.markets.find((entry) => entry.marketId === market)?.book], local);
  });
  const publish = (next: FreshnessView) => {
    setCurrent(next);
    setReceivedAt(clock.now());
  };
  return { clock, mark, publish, setLocal, dispose };
}

describe('freshness primitive', () => {
  it('ages main’s live word once a second and turns stale past the cadence when no newer word comes', () => {
    const { clock, mark, dispose } = setup(view(live(1_000)));
    expect(mark.state()).toBe('live');
    expect(mark.label()).toBe('live');
    clock.advance(5_000);
    expect(mark.state()).toBe('live');
    expect(mark.ageMs()).toBe(6_000);
    clock.advance(3_000);
    expect(mark.state()).toBe('stale');
    expect(mark.label()).toBe('stale 9 s');
    clock.advance(3_000);
    expect(mark.label()).toBe('stale 12 s');
    dispose();
    expect(clock.pendingTimers()).toBe(0);
  });

  it('restarts the age from main’s newest evidence, and shows main’s stale, resyncing and disconnected as they are', () => {
    const { clock, mark, publish, dispose } = setup(view(live(0)));
    clock.advance(9_000);
    expect(mark.state()).toBe('stale');
    publish(view(live(200)));
    expect(mark.state()).toBe('live');
    expect(mark.ageMs()).toBe(200);
    publish(view({ state: 'resyncing', ageMs: 100, detail: 'waiting for a fresh book snapshot' }));
    expect(mark.state()).toBe('resyncing');
    expect(mark.detail()).toBe('waiting for a fresh book snapshot');
    publish(view({ state: 'disconnected', ageMs: null, detail: 'switching to Mainnet' }));
    expect([mark.state(), mark.label(), mark.ageMs()]).toEqual(['disconnected', 'disconnected', null]);
    dispose();
  });

  it('takes the worst of main’s sources and the panel’s own state; a source not in the view yet is resyncing; no view is disconnected', () => {
    const { mark, setLocal, publish, dispose } = setup(null);
    expect(mark.state()).toBe('disconnected');
    publish({ ...view(live(0)), markets: [] });
    expect(mark.state()).toBe('resyncing');
    expect(mark.detail()).toBe('subscribing');
    publish(view(live(0)));
    expect(mark.state()).toBe('live');
    setLocal({ state: 'resyncing', detail: 'the book arrived crossed' });
    expect(mark.state()).toBe('resyncing');
    expect(mark.detail()).toBe('the book arrived crossed');
    publish(view({ state: 'stale', ageMs: 10_000, detail: 'nothing for 10 s' }));
    expect(mark.state()).toBe('stale');
    dispose();
  });
});
