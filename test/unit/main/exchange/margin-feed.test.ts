import { describe, expect, it } from 'vitest';
import type { MarginState } from '../../../../shared/api/margin-schemas';
import { ManualClock } from '../../../../shared/clock';
import { b256 } from '../../../../shared/encoding/b256';
import { fail, ok, type Result } from '../../../../shared/result';
import { MarginFeed } from '../../../../main/exchange/margin-feed';
import { foldMarginEvent } from '../../../../main/exchange/margin-event';
import { ExchangeStream } from '../../../../main/exchange/stream-client';
import { FakeServer } from '../../../support/main/exchange/fake-socket';

const account = b256(`0x${'d0'.repeat(32)}`);
const usdc = `0x${'9c'.repeat(32)}`;

const wireState = (drawn: string, debt = '0', sequence?: number) => ({
  session: { cohort: 'Turbo', collateral: '0', fees: '5', quote_drawn: drawn, expires_at: '18446744073709551615' },
  balances: { [usdc]: { on_account: '1000', received: '0', locked: '0', settled: '0', debt } },
  prices: { [usdc]: { bid: '1000000000000000000', ask: '1000000000000000000', decimals: 9 } },
  collateral_decimals: 9,
  ...(sequence === undefined ? {} : { sequence }),
});

class FakeRest {
  calls = 0;
  pending: ((result: Result<MarginState>) => void)[] = [];
  getMarginState(): Promise<Result<MarginState>> {
    this.calls++;
    return new Promise((resolve) => this.pending.push(resolve));
  }
  answer(result: Result<MarginState>): void {
    this.pending.shift()?.(result);
  }
}

const parsedState = (drawn: bigint): MarginState => {
  const folded = foldMarginEvent({ balances: {}, prices: {}, collateral_decimals: 9 } as MarginState, { state: wireState(drawn.toString()) });
  if (!folded.ok) throw new Error(folded.message);
  return folded.value.state;
};

const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

function setup() {
  const clock = new ManualClock(0);
  const server = new FakeServer();
  const stream = new ExchangeStream({ url: 'ws://fake/v1/ws', clock, socketFactory: server.factory });
  const rest = new FakeRest();
  const feed = new MarginFeed({ stream, rest, clock, account });
  expect(feed.start().ok).toBe(true);
  stream.connect();
  server.last.open();
  return { clock, server, stream, rest, feed };
}

const drawn = (feed: MarginFeed) => {
  const snapshot = feed.snapshot();
  if (!snapshot.ok) throw new Error(snapshot.message);
  return snapshot.value.session?.quote_drawn;
};

describe('margin feed', () => {
  it('is stale until the snapshot, then replaces totals with each event and never adds', () => {
    const { server, feed } = setup();
    expect(server.last.requests()).toEqual([{ action: 'subscribe_margin', margin_account_id: account }]);
    expect(feed.snapshot()).toMatchObject({ ok: false, code: 'MARGIN_STALE' });
    server.last.push({ action: 'subscribe_margin', state: wireState('100') });
    expect(drawn(feed)).toBe(100n);
    server.last.push({ action: 'subscribe_margin_update', event: { drawn_total: '150' } });
    expect(drawn(feed)).toBe(150n);
    server.last.push({ action: 'subscribe_margin_update', event: { drawn_total: '120' } });
    expect(drawn(feed)).toBe(120n);
    server.last.push({ action: 'subscribe_margin_update', event: { asset_id: usdc, debt_total: '7' } });
    server.last.push({ action: 'subscribe_margin_update', event: { asset_id: usdc, debt_total: '3' } });
    const snapshot = feed.snapshot();
    expect(snapshot.ok && snapshot.value.balances[usdc]?.debt).toBe(3n);
    server.last.push({ action: 'subscribe_margin_update', event: { session_closed: true } });
    const closed = feed.snapshot();
    expect(closed.ok && closed.value.session).toBeNull();
  });

  it('on a sequence gap turns stale and is usable again only after GET /v1/margin/state', async () => {
    const { server, feed, rest } = setup();
    server.last.push({ action: 'subscribe_margin', state: wireState('100', '0', 4) });
    server.last.push({ action: 'subscribe_margin_update', event: { sequence: 5, drawn_total: '110' } });
    expect(drawn(feed)).toBe(110n);
    server.last.push({ action: 'subscribe_margin_update', event: { sequence: 7, drawn_total: '130' } });
    expect(feed.snapshot()).toMatchObject({ ok: false, code: 'MARGIN_STALE', message: expect.stringContaining('sequence gap: expected 6, got 7') as string });
    expect(rest.calls).toBe(1);
    rest.answer(ok(parsedState(130n)));
    await flush();
    expect(drawn(feed)).toBe(130n);
  });

  it('a margin frame that cannot be read turns the state stale and refetches it; a frame of another stream does not', async () => {
    const { server, feed, rest } = setup();
    server.last.push({ action: 'subscribe_margin', state: wireState('100') });
    // Not margin: the state is untouched.
    server.last.push({ action: 'subscribe_trades', market_id: 42 });
    expect(feed.state()).toBe('live');
    expect(rest.calls).toBe(0);
    // A margin update the stream cannot read (no event at all): it may have moved the state.
    server.last.push({ action: 'subscribe_margin_update', evnet: { drawn_total: '150' } });
    expect(feed.state()).toBe('stale');
    expect(feed.staleReason()).toMatch(/^a margin frame could not be read: /);
    expect(feed.snapshot()).toMatchObject({ ok: false, code: 'MARGIN_STALE' });
    expect(rest.calls).toBe(1);
    rest.answer(ok(parsedState(150n)));
    await flush();
    expect(drawn(feed)).toBe(150n);
    // A frame that is not even JSON could have been anything, a margin update included.
    server.last.push('{"action":"subscribe_margin_update","event":{"drawn_total":"1');
    expect(feed.state()).toBe('stale');
    expect(rest.calls).toBe(2);
  });

  it('on an event it cannot fold turns stale and refetches', async () => {
    const { server, feed, rest } = setup();
    server.last.push({ action: 'subscribe_margin', state: wireState('100') });
    server.last.push({ action: 'subscribe_margin_update', event: { kind: 'SomethingNew', amount: '5' } });
    expect(feed.state()).toBe('stale');
    expect(feed.staleReason()).toContain('no member this client can fold');
    rest.answer(ok(parsedState(90n)));
    await flush();
    expect(drawn(feed)).toBe(90n);
  });

  it('refetches after a reconnect', async () => {
    const { clock, server, feed, rest } = setup();
    server.last.push({ action: 'subscribe_margin', state: wireState('100') });
    server.last.serverClose(1006);
    expect(feed.state()).toBe('stale');
    expect(rest.calls).toBe(0);
    clock.advance(2_000);
    server.last.open();
    expect(rest.calls).toBe(1);
    rest.answer(ok(parsedState(100n)));
    await flush();
    expect(feed.state()).toBe('live');
  });

  it('fetches again when the stream moved during the refetch, and retries a failed fetch later', async () => {
    const { clock, server, feed, rest } = setup();
    server.last.push({ action: 'subscribe_margin', state: wireState('100') });
    server.last.push({ action: 'subscribe_margin_update', event: { nothing: true } });
    server.last.push({ action: 'subscribe_margin_update', event: { drawn_total: '140' } });
    rest.answer(ok(parsedState(120n)));
    await flush();
    expect(feed.state()).toBe('stale');
    expect(rest.calls).toBe(2);
    rest.answer(fail('TIMEOUT', 'GET /v1/margin/state: no answer'));
    await flush();
    expect(feed.staleReason()).toContain('refetch failed');
    clock.advance(2_000);
    expect(rest.calls).toBe(3);
    rest.answer(ok(parsedState(140n)));
    await flush();
    expect(drawn(feed)).toBe(140n);
  });
});
