import { describe, expect, it } from 'vitest';
import { serverMessageSchema } from '../../../../shared/api/websocket-schemas';
import { ManualClock } from '../../../../shared/clock';
import { b256 } from '../../../../shared/encoding/b256';
import { ExchangeStream } from '../../../../main/exchange/stream-client';
import { STREAM_ROUTES, StreamRouter, type StreamAction, type StreamEvent, type StreamRoute } from '../../../../main/exchange/stream-routes';
import { FakeServer } from '../../../support/main/exchange/fake-socket';

const market = b256(`0x${'a1'.repeat(32)}`);

// The compiler's half of the check: a table that misses an action of the schema does not build.
const everyActionRouted: Record<StreamAction, StreamRoute> = STREAM_ROUTES;

/** The `action` values the stream schema's data branch accepts, read from the schema itself. */
function schemaActions(): string[] {
  const branch = serverMessageSchema.options[0] as unknown as { _zod: { propValues: { action: Set<string> } } };
  return [...branch._zod.propValues.action];
}

describe('stream routes: one row per action', () => {
  it('routes every action of the stream schema, and no other', () => {
    const actions = schemaActions();
    expect(actions.length).toBeGreaterThan(0);
    expect(Object.keys(everyActionRouted).sort()).toEqual([...actions].sort());
  });

  it('routes every server message the spec names', () => {
    // exchange-api 6: "| subscribe_depth | ... | same action with `market_id` and `view` (full state) |
    //   action `subscribe_depth_update` with `changes` {buys, sells}; ..." and the rows subscribe_depth_view,
    //   subscribe_trades, subscribe_orders, subscribe_balances, subscribe_nonce, subscribe_nonce_v2.
    // margin-api 6: "1. First message: action `subscribe_margin` with `state` (complete snapshot, ...)"
    //   "2. Later messages: action `subscribe_margin_update` with `event`, ..."
    //   "If the Turbo trade stream restarts it sends an object with `action` = `error`, `turbo` = true, ..."
    const named = ['subscribe_depth', 'subscribe_depth_update', 'subscribe_depth_view', 'subscribe_trades', 'subscribe_orders', 'subscribe_balances', 'subscribe_nonce', 'subscribe_nonce_v2', 'subscribe_margin', 'subscribe_margin_update', 'error'];
    for (const action of named) expect(Object.hasOwn(STREAM_ROUTES, action), action).toBe(true);
  });

  it('marks a first message arrived, never a delta or an event that follows one', () => {
    expect(STREAM_ROUTES.subscribe_depth.arrival).toEqual({ market: 'depth' });
    expect(STREAM_ROUTES.subscribe_depth_update.arrival).toBeNull();
    expect(STREAM_ROUTES.subscribe_margin.arrival).toEqual({ market: 'margin' });
    expect(STREAM_ROUTES.subscribe_margin_update.arrival).toBeNull();
    expect(STREAM_ROUTES.subscribe_orders.arrival).toEqual({ identities: 'orders', turbo: 'orders_turbo' });
    expect(STREAM_ROUTES.error).toEqual({ handledBy: 'client', arrival: null });
  });
});

describe('stream router: consumers register per action', () => {
  const depth = { action: 'subscribe_depth_update' as const, market_id: market, changes: { buys: [], sells: [] } };
  const message = (action: 'subscribe_depth_update' | 'subscribe_trades'): StreamEvent =>
    action === 'subscribe_trades' ? { type: 'message', message: { action, market_id: market, trades: [] } } : { type: 'message', message: depth };

  it('hands a message to the consumers of its action only, in the order everything registered', () => {
    const router = new StreamRouter();
    const seen: string[] = [];
    router.consume({ messages: { subscribe_depth_update: () => seen.push('book') } });
    router.listen((event) => seen.push(`listener:${event.type}`));
    router.consume({ messages: { subscribe_trades: () => seen.push('trades') }, connection: (event) => seen.push(`trades:${event.type}`) });
    const stop = router.consume({ messages: { subscribe_depth_update: () => seen.push('second book') } });
    router.dispatch(message('subscribe_depth_update'));
    router.dispatch(message('subscribe_trades'));
    router.dispatch({ type: 'connected', reconnect: true });
    stop();
    router.dispatch(message('subscribe_depth_update'));
    expect(seen).toEqual(['book', 'listener:message', 'second book', 'listener:message', 'trades', 'listener:connected', 'trades:connected', 'book', 'listener:message']);
    expect(router.consumersOf('subscribe_depth_update')).toBe(2);
    expect(router.consumersOf('subscribe_margin')).toBe(1);
  });

  it('routes an unreadable frame to the consumers whose action it names, or to all when it names none', () => {
    const router = new StreamRouter();
    const lost: string[] = [];
    router.consume({ messages: { subscribe_depth: () => undefined, subscribe_depth_update: () => undefined }, lost: () => lost.push('book'), unknownActionsMayBeMine: true });
    router.consume({ messages: { subscribe_margin: () => undefined, subscribe_margin_update: () => undefined }, lost: () => lost.push('margin') });
    const frame = (action?: string) => {
      lost.length = 0;
      router.dispatch({ type: 'invalid_frame', code: 'BAD_RESPONSE', message: 'x', ...(action === undefined ? {} : { action }) });
      return [...lost];
    };
    expect(frame()).toEqual(['book', 'margin']);
    expect(frame('subscribe_depth_update')).toEqual(['book']);
    expect(frame('subscribe_margin_update')).toEqual(['margin']);
    expect(frame('subscribe_trades')).toEqual([]);
    expect(frame('error')).toEqual([]);
    // An action the table does not know (a mangled one, or a name on Object's prototype).
    expect(frame('subscribe_depth_upd')).toEqual(['book']);
    expect(frame('toString')).toEqual(['book']);
    expect(frame('stream_error')).toEqual(['book']);
  });

  it('the stream client marks a subscription arrived by its route: a snapshot does, an update does not', () => {
    const clock = new ManualClock(0);
    const server = new FakeServer();
    const stream = new ExchangeStream({ url: 'ws://fake/v1/ws', clock, socketFactory: server.factory });
    const subscription = stream.subscribeDepth(market, 100n);
    expect(subscription.ok).toBe(true);
    stream.connect();
    server.last.open();
    const key = subscription.ok ? subscription.value.key : '';
    expect(stream.isAwaiting(key)).toBe(true);
    server.last.push({ ...depth });
    expect(stream.isAwaiting(key)).toBe(true);
    server.last.push({ action: 'subscribe_depth', market_id: market, view: { buys: [], sells: [] } });
    expect(stream.isAwaiting(key)).toBe(false);
    expect(stream.status().state).toBe('up');
  });
});
