import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../shared/clock';
import { b256 } from '../../../../shared/encoding/b256';
import type { Identity } from '../../../../shared/encoding/identity';
import { ExchangeStream, type StreamEvent } from '../../../../main/exchange/stream-client';
import { reconnectDelayMs } from '../../../../main/exchange/reconnect';
import { FakeServer } from '../../../support/main/exchange/fake-socket';

const market = b256(`0x${'a1'.repeat(32)}`);
const otherMarket = b256(`0x${'a2'.repeat(32)}`);
const account = b256(`0x${'77'.repeat(32)}`);

function identities(count: number): Identity[] {
  return Array.from({ length: count }, (_, index) => ({ ContractId: b256(`0x${index.toString(16).padStart(64, '0')}`) }));
}

function setup() {
  const clock = new ManualClock(1_000_000);
  const server = new FakeServer();
  const stream = new ExchangeStream({ url: 'ws://127.0.0.1:1/v1/ws', clock, socketFactory: server.factory });
  const events: StreamEvent[] = [];
  stream.onEvent((event) => events.push(event));
  return { clock, server, stream, events };
}

const depthSnapshot = (marketId = market) => ({ action: 'subscribe_depth', market_id: marketId, view: { buys: [{ price: '100', quantity: '1' }], sells: [{ price: '101', quantity: '1' }] }, seen_timestamp: '1' });

describe('stream client: connection', () => {
  it('sends a text PING every 5 s, measures the PONG round trip, and never idles into the 60-second rule', () => {
    const { clock, server, stream } = setup();
    stream.connect();
    server.last.open();
    clock.advance(4_999);
    expect(server.last.pings()).toBe(0);
    clock.advance(1);
    expect(server.last.pings()).toBe(1);
    clock.advance(35);
    server.last.push('PONG');
    expect(stream.status().pingRoundTripMs).toBe(35);
    for (let i = 0; i < 9; i++) {
      clock.advance(5_000);
      server.last.push('PONG');
    }
    expect(server.last.pings()).toBe(10);
    expect(server.connections).toHaveLength(1);
    expect(stream.status().state).toBe('up');
  });

  it('drops a connection that stays silent (no PONG) and reconnects', () => {
    const { clock, server, stream, events } = setup();
    stream.connect();
    server.last.open();
    clock.advance(50_000);
    expect(server.connections[0]?.terminated).toBe(true);
    expect(stream.status()).toMatchObject({ state: 'down', retry: 1 });
    expect(events.some((event) => event.type === 'disconnected')).toBe(true);
    clock.advance(2_000);
    expect(server.connections).toHaveLength(2);
  });

  it('retries on the spec schedule 2.0, 3.5, 5.0, 6.5, 8.0, 9.5, 10, 10, 10, 10 s, then gives up until a manual reconnect', () => {
    const { clock, server, stream } = setup();
    stream.connect();
    const gaps: number[] = [];
    let attemptAt = clock.now();
    server.last.refuse();
    for (let retry = 1; retry <= 10; retry++) {
      const before = server.connections.length;
      const due = stream.status().nextRetryAt as number;
      clock.advance(due - clock.now() - 1);
      expect(server.connections).toHaveLength(before);
      clock.advance(1);
      expect(server.connections).toHaveLength(before + 1);
      gaps.push(clock.now() - attemptAt);
      attemptAt = clock.now();
      server.last.refuse();
    }
    expect(gaps).toEqual([2000, 3500, 5000, 6500, 8000, 9500, 10000, 10000, 10000, 10000]);
    expect(gaps).toEqual(Array.from({ length: 10 }, (_, index) => reconnectDelayMs(index + 1)));
    expect(stream.status()).toMatchObject({ state: 'down', gaveUp: true, retry: 10, nextRetryAt: null });
    expect(stream.status().lastError).toContain('gave up after 10 retries');
    expect(stream.status().lastError).toContain('ECONNREFUSED');
    clock.advance(600_000);
    expect(server.connections).toHaveLength(11);
    stream.connect(); // no effect once given up
    expect(server.connections).toHaveLength(11);
    stream.reconnect();
    expect(server.connections).toHaveLength(12);
    server.last.open();
    expect(stream.status()).toMatchObject({ state: 'up', gaveUp: false, retry: 0 });
  });

  it('resets the retry count once a connection opens', () => {
    const { clock, server, stream } = setup();
    stream.connect();
    server.last.refuse();
    clock.advance(2_000);
    server.last.refuse();
    clock.advance(3_500);
    server.last.open();
    server.last.serverClose(1006);
    expect(stream.status()).toMatchObject({ retry: 1, nextRetryAt: clock.now() + 2_000 });
  });

  it('close() stops reconnecting and closes the socket', () => {
    const { clock, server, stream } = setup();
    stream.connect();
    server.last.open();
    stream.close();
    expect(server.last.closedByClient).toEqual({ code: 1000, reason: 'client closing' });
    clock.advance(120_000);
    expect(server.connections).toHaveLength(1);
    expect(stream.status().state).toBe('closed');
  });
});

describe('stream client: subscriptions', () => {
  it('resubscribes everything after a reconnect, and is resyncing until each topic has its first message', () => {
    const { clock, server, stream, events } = setup();
    stream.connect();
    expect(stream.subscribeDepth(market, 100n).ok).toBe(true);
    expect(stream.subscribeTrades(market, { turbo: true }).ok).toBe(true);
    expect(stream.subscribeOrders(identities(3)).ok).toBe(true);
    expect(stream.subscribeBalances(identities(2)).ok).toBe(true);
    expect(stream.subscribeMargin(account).ok).toBe(true);
    expect(server.last.requests()).toEqual([]); // nothing is queued while the socket is down
    server.last.open();
    const first = server.last.requests();
    expect(first.map((request) => request.action)).toEqual(['subscribe_depth', 'subscribe_trades', 'subscribe_margin', 'subscribe_orders', 'subscribe_balances']);
    expect(first[0]).toEqual({ action: 'subscribe_depth', market_id: market, precision: '100' });
    expect(first[1]).toEqual({ action: 'subscribe_trades', market_id: market, turbo: true });
    expect(stream.status()).toMatchObject({ state: 'resyncing', awaiting: 5 });
    server.last.push(depthSnapshot());
    expect(stream.status().awaiting).toBe(4);
    server.last.serverClose(1006, 'gone');
    expect(events.filter((event) => event.type === 'disconnected')).toHaveLength(1);
    clock.advance(2_000);
    server.last.open();
    expect(server.last.requests()).toEqual(first);
    expect(stream.status()).toMatchObject({ state: 'resyncing', awaiting: 5 });
    expect(events.filter((event) => event.type === 'connected')).toEqual([
      { type: 'connected', reconnect: false },
      { type: 'connected', reconnect: true },
    ]);
    server.last.push(depthSnapshot());
    server.last.push({ action: 'subscribe_trades', market_id: market, trades: [], turbo: true });
    server.last.push({ action: 'subscribe_orders', orders: [] });
    server.last.push({ action: 'subscribe_balances', balance: [] });
    server.last.push({ action: 'subscribe_margin', state: { balances: {}, prices: {}, collateral_decimals: 9 } });
    expect(stream.status()).toMatchObject({ state: 'up', awaiting: 0 });
  });

  it('splits identities into requests of at most 10', () => {
    const { server, stream } = setup();
    stream.connect();
    server.last.open();
    stream.subscribeBalances(identities(23));
    const sizes = server.last.requests().map((request) => (request.identities as unknown[]).length);
    expect(sizes).toEqual([10, 10, 3]);
  });

  it('an identity topic whose message could not be read waits for a fresh first message, asked once', () => {
    const { server, stream } = setup();
    stream.connect();
    server.last.open();
    stream.subscribeBalances([{ ContractId: account }]);
    server.last.push({ action: 'subscribe_balances', balance: [] });
    expect(stream.identityTopicState('balances')).toBe('live');
    server.last.sent.length = 0;
    stream.resubscribeIdentities('balances');
    expect(stream.identityTopicState('balances')).toBe('awaiting');
    expect(server.last.requests()).toEqual([{ action: 'subscribe_balances', identities: [{ ContractId: account }] }]);
    // Another unreadable frame while it waits: no second request (a lying exchange gets no loop).
    stream.resubscribeIdentities('balances');
    expect(server.last.requests()).toHaveLength(1);
    server.last.push({ action: 'subscribe_balances', balance: [] });
    expect(stream.identityTopicState('balances')).toBe('live');
  });

  it('a topic resubscribed for an unreadable frame stays awaiting past the first-message timeout until a readable message, asked again at that pace', () => {
    const { clock, server, stream } = setup();
    stream.connect();
    server.last.open();
    stream.subscribeBalances([{ ContractId: account }]);
    server.last.push({ action: 'subscribe_balances', balance: [] });
    stream.resubscribeIdentities('balances');
    server.last.sent.length = 0;
    for (let second = 0; second < 20; second++) {
      clock.advance(1_000);
      server.last.push('PONG');
    }
    expect(stream.identityTopicState('balances')).toBe('awaiting');
    expect(server.last.requests()).toEqual([{ action: 'subscribe_balances', identities: [{ ContractId: account }] }]);
    server.last.push({ action: 'subscribe_balances', balance: [] });
    expect(stream.identityTopicState('balances')).toBe('live');
  });

  it('refuses subscribe_nonce and subscribe_nonce_v2 together on one connection', () => {
    const { server, stream } = setup();
    stream.connect();
    server.last.open();
    const nonce = stream.subscribeNonce(identities(1));
    expect(nonce.ok).toBe(true);
    expect(stream.subscribeNonceV2(identities(1))).toMatchObject({ ok: false, code: 'NONCE_STREAM_CONFLICT' });
    if (nonce.ok) nonce.value.close();
    expect(server.last.requests().at(-1)).toMatchObject({ action: 'unsubscribe_nonce' });
    expect(stream.subscribeNonceV2(identities(1)).ok).toBe(true);
    expect(stream.subscribeNonce(identities(1))).toMatchObject({ ok: false, code: 'NONCE_STREAM_CONFLICT' });
  });

  it('unsubscribes orders with the same Turbo flag and keeps the remaining identities', () => {
    const { server, stream } = setup();
    stream.connect();
    server.last.open();
    const [a, b] = identities(2) as [Identity, Identity];
    const first = stream.subscribeOrders([a], { turbo: true });
    stream.subscribeOrders([b], { turbo: true });
    stream.subscribeOrders([a]);
    server.last.sent.length = 0;
    if (first.ok) first.value.close();
    expect(server.last.requests()).toEqual([
      { action: 'unsubscribe_orders', turbo: true },
      { action: 'subscribe_orders', identities: [b], turbo: true },
    ]);
  });

  it('counts references: the upstream unsubscribe goes out with the last one', () => {
    const { server, stream } = setup();
    stream.connect();
    server.last.open();
    const one = stream.subscribeDepth(market, 100n);
    const two = stream.subscribeDepth(market, 100n);
    expect(server.last.requests()).toHaveLength(1);
    if (one.ok) one.value.close();
    expect(server.last.requests()).toHaveLength(1);
    if (two.ok) two.value.close();
    expect(server.last.requests().at(-1)).toEqual({ action: 'unsubscribe_depth', market_id: market, precision: '100' });
  });

  it('refuses what the stream could not tell apart, and invalid parameters, as data', () => {
    const { stream } = setup();
    expect(stream.subscribeDepth(market, 100n).ok).toBe(true);
    expect(stream.subscribeDepth(market, 1000n)).toMatchObject({ ok: false, code: 'SUBSCRIPTION_CONFLICT' });
    expect(stream.subscribeDepth(otherMarket, 1000n).ok).toBe(true);
    expect(stream.subscribeDepth(market, 100n, { turbo: true, view: 'executable' }).ok).toBe(true);
    expect(stream.subscribeDepth(otherMarket, 3n)).toMatchObject({ ok: false, code: 'INVALID_SUBSCRIPTION' });
    expect(stream.subscribeDepth(otherMarket, 100n, { view: 'demand' })).toMatchObject({ ok: false, code: 'INVALID_SUBSCRIPTION' });
    expect(stream.subscribeDepthView(otherMarket, 100n, '2s' as '1s')).toMatchObject({ ok: false, code: 'INVALID_SUBSCRIPTION' });
    expect(stream.subscribeMargin(account).ok).toBe(true);
    expect(stream.subscribeMargin(otherMarket)).toMatchObject({ ok: false, code: 'SUBSCRIPTION_CONFLICT' });
  });

  it('sends depth_view with its frequency and Turbo view', () => {
    const { server, stream } = setup();
    stream.connect();
    server.last.open();
    stream.subscribeDepthView(market, 1000n, '500ms', { turbo: true, view: 'demand' });
    expect(server.last.requests()).toEqual([{ action: 'subscribe_depth_view', market_id: market, precision: '1000', frequency: '500ms', turbo: true, view: 'demand' }]);
  });
});

describe('stream client: inbound frames', () => {
  it('surfaces stream errors, invalid frames and Turbo resync_required as data, and resubscribes Turbo trades', () => {
    const { server, stream, events } = setup();
    stream.connect();
    server.last.open();
    stream.subscribeTrades(market, { turbo: true });
    stream.subscribeTrades(otherMarket);
    server.last.sent.length = 0;
    server.last.push({ error: 'Invalid subscription frequency: 2s' });
    server.last.push('not json');
    server.last.push({ action: 'subscribe_depth', market_id: 'nope', view: { buys: [], sells: [] } });
    server.last.pushBinary();
    server.last.push({ action: 'error', turbo: true, resync_required: true, message: 'trade stream restarted' });
    expect(events.filter((event) => event.type !== 'connected')).toEqual([
      { type: 'stream_error', error: 'Invalid subscription frequency: 2s' },
      { type: 'invalid_frame', code: 'BAD_RESPONSE', message: 'stream: a frame that is not JSON: not json' },
      expect.objectContaining({ type: 'invalid_frame', code: 'BAD_RESPONSE', message: expect.stringContaining('stream.market_id') as string }),
      expect.objectContaining({ type: 'invalid_frame', message: expect.stringContaining('binary') as string }),
      { type: 'resync_required', message: 'trade stream restarted', turbo: true },
    ]);
    expect(server.last.requests()).toEqual([{ action: 'subscribe_trades', market_id: market, turbo: true }]);
    expect(stream.status().state).toBe('resyncing');
  });

  it('answers a server PING with PONG and parses data messages into bigint values', () => {
    const { server, stream, events } = setup();
    stream.connect();
    server.last.open();
    server.last.push('PING');
    expect(server.last.sent).toContain('PONG');
    server.last.push({ action: 'subscribe_nonce', contract_id: account, nonce: '18446744073709551615' });
    const message = events.find((event) => event.type === 'message');
    expect(message).toMatchObject({ type: 'message', message: { action: 'subscribe_nonce', nonce: 18446744073709551615n } });
  });
});
