// The WebSocket client of one network (spec 6, margin 4.6 and 6): one connection, every
// subscription of both documents, text PING every 5 s (the server closes a connection after 60 s
// without a message from the client; the PONG is also the heartbeat that tells the terminal its data
// is current when the market is quiet), reconnect on the spec's schedule and resubscribe everything.
//
// Subscriptions are state, not messages: the registry holds what should be subscribed, and a
// (re)connect replays it. Requests are never queued while the socket is down, so nothing piles up.
// Every inbound frame is parsed with shared/api's server schema and handed synchronously to the
// consumers of its action (the routing table, stream-routes.ts); frames that do not parse are
// reported as data events, never thrown. After a (re)subscribe the topic waits for its first
// (snapshot) message; while any topic waits the state is `resyncing`, so consumers know the data
// they hold may be stale.
import { identityToJson, type Identity } from '../../shared/encoding/identity';
import type { B256 } from '../../shared/encoding/b256';
import type { Clock, TimerHandle } from '../../shared/clock';
import { MAX_IDENTITIES_PER_REQUEST } from '../../shared/api/limits';
import {
  DEPTH_PRECISIONS,
  DEPTH_VIEW_FREQUENCIES,
  identitiesRequest,
  serverMessageSchema,
  subscribeDepthRequest,
  subscribeDepthViewRequest,
  subscribeMarginRequest,
  subscribeTradesRequest,
  unsubscribeMarginRequest,
  unsubscribeMarketRequest,
  unsubscribeOrdersRequest,
} from '../../shared/api/websocket-schemas';
import { fail, ok, type Result } from '../../shared/result';
import { parseWith } from '../../shared/schema';
import { EXCHANGE_ERRORS } from './errors';
import type { TurboDepthView } from './queries';
import { reconnectDelayMs, SPEC_RECONNECT_POLICY, type ReconnectPolicy } from './reconnect';
import type { SocketConnection, SocketFactory } from './socket';
import { STREAM_ROUTES, StreamRouter, type Arrival, type IdentityTopicName, type MarketTopicKind, type StreamConsumer, type StreamEvent, type StreamListener, type StreamMessage } from './stream-routes';

export type { IdentityTopicName, StreamEvent, StreamListener, StreamMessage } from './stream-routes';

export const STREAM_ERRORS = {
  INVALID_SUBSCRIPTION: 'INVALID_SUBSCRIPTION',
  SUBSCRIPTION_CONFLICT: 'SUBSCRIPTION_CONFLICT',
  NONCE_STREAM_CONFLICT: 'NONCE_STREAM_CONFLICT',
  STREAM_CLOSED: 'STREAM_CLOSED',
  TOO_MANY_SUBSCRIPTIONS: 'TOO_MANY_SUBSCRIPTIONS',
} as const;

/** Bounds of the registry (it is replayed on every reconnect, so it must stay small). */
export const MAX_MARKET_TOPICS = 256;
export const MAX_IDENTITIES_PER_TOPIC = 500;

/**
 * A text PING this often keeps the server's 60-second inactivity rule from closing the socket, and
 * its PONG is the heartbeat: a healthy connection delivers some frame at least this often (plus a
 * round trip), so a longer silence means the data shown may no longer be current (STALE_AFTER_MS).
 */
export const DEFAULT_PING_INTERVAL_MS = 5_000;
/** Silence (no frame at all, heartbeats included) longer than this marks the stream's data stale. */
export const STALE_AFTER_MS = 8_000;
/** No frame at all (not even a PONG) for this long: the connection is dead; drop it and reconnect. */
export const DEFAULT_IDLE_TIMEOUT_MS = 50_000;
/** A topic that got no first message in this long stops counting as resyncing (and is reported). */
export const DEFAULT_FIRST_MESSAGE_TIMEOUT_MS = 15_000;

export type StreamState = 'idle' | 'connecting' | 'up' | 'resyncing' | 'down' | 'closed';

export interface StreamStatus {
  readonly state: StreamState;
  /** Failed attempts since the last successful open. */
  readonly retry: number;
  /** True after the last retry failed; only `reconnect()` tries again. */
  readonly gaveUp: boolean;
  readonly lastError: string | null;
  /** Round trip of the last answered PING, in ms. */
  readonly pingRoundTripMs: number | null;
  /** When the next automatic attempt starts (clock ms), or null. */
  readonly nextRetryAt: number | null;
  /** Topics waiting for their first message after a (re)subscribe. */
  readonly awaiting: number;
  /** Clock time of the last frame received on the open socket (heartbeats included); null while not open. */
  readonly lastInboundAt: number | null;
}

export interface StreamSubscription {
  readonly key: string;
  /** Drop this reference; the upstream unsubscribe is sent when the last one goes. */
  close(): void;
}

export interface StreamClientOptions {
  /** `{ws_url}/v1/ws`. */
  readonly url: string;
  readonly clock: Clock;
  readonly socketFactory: SocketFactory;
  readonly pingIntervalMs?: number;
  readonly idleTimeoutMs?: number;
  readonly firstMessageTimeoutMs?: number;
  readonly reconnect?: ReconnectPolicy;
}

type MarketTopic =
  | { readonly kind: 'depth'; readonly market_id: B256; readonly turbo: boolean; readonly precision: bigint; readonly view?: TurboDepthView }
  | { readonly kind: 'depth_view'; readonly market_id: B256; readonly turbo: boolean; readonly precision: bigint; readonly frequency: string; readonly view?: TurboDepthView }
  | { readonly kind: 'trades'; readonly market_id: B256; readonly turbo: boolean }
  | { readonly kind: 'margin'; readonly market_id: B256 };

interface Registered<T> {
  readonly topic: T;
  refs: number;
}

interface IdentityTopic {
  readonly identities: Map<string, Registered<Identity>>;
  awaitingSince: number | null;
  /**
   * A frame of the topic could not be read (resubscribeIdentities): it stays awaiting past the
   * first-message timeout (asked again at that pace) until a message of it can be read, so a stream
   * that keeps lying is never counted current again by the clock alone.
   */
  doubted: boolean;
}

function identityKey(identity: Identity): string {
  return 'Address' in identity ? `A:${identity.Address}` : `C:${identity.ContractId}`;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let index = 0; index < items.length; index += size) out.push(items.slice(index, index + size));
  return out;
}

function marketKey(topic: MarketTopic): string {
  // One subscription per market and book on this connection: depth messages carry the market and the
  // Turbo flag but neither the precision nor the view, so two of them could not be told apart.
  return topic.kind === 'margin' ? 'margin' : `${topic.kind}|${topic.market_id}|${topic.turbo ? 'turbo' : 'canonical'}`;
}

export class ExchangeStream {
  private readonly clock: Clock;
  private readonly pingIntervalMs: number;
  private readonly idleTimeoutMs: number;
  private readonly firstMessageTimeoutMs: number;
  private readonly policy: ReconnectPolicy;

  private socket: SocketConnection | null = null;
  private generation = 0;
  private open = false;
  private userClosed = false;
  private everConnected = false;
  private state: StreamState = 'idle';
  private retry = 0;
  private gaveUp = false;
  private lastError: string | null = null;
  private pingRoundTripMs: number | null = null;
  private pingSentAt: number | null = null;
  private lastInboundAt = 0;
  private retryTimer: TimerHandle | null = null;
  private retryAt: number | null = null;
  private pingTimer: TimerHandle | null = null;

  private readonly markets = new Map<string, Registered<MarketTopic> & { awaitingSince: number | null }>();
  private readonly identityTopics = new Map<IdentityTopicName, IdentityTopic>();
  private readonly router = new StreamRouter();
  private readonly statusListeners = new Set<(status: StreamStatus) => void>();

  constructor(private readonly options: StreamClientOptions) {
    this.clock = options.clock;
    this.pingIntervalMs = options.pingIntervalMs ?? DEFAULT_PING_INTERVAL_MS;
    this.idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    this.firstMessageTimeoutMs = options.firstMessageTimeoutMs ?? DEFAULT_FIRST_MESSAGE_TIMEOUT_MS;
    this.policy = options.reconnect ?? SPEC_RECONNECT_POLICY;
    for (const name of ['orders', 'orders_turbo', 'balances', 'nonce', 'nonce_v2'] as const) this.identityTopics.set(name, { identities: new Map(), awaitingSince: null, doubted: false });
  }

  // ---- observation ----------------------------------------------------------------------------

  status(): StreamStatus {
    return {
      state: this.state,
      retry: this.retry,
      gaveUp: this.gaveUp,
      lastError: this.lastError,
      pingRoundTripMs: this.pingRoundTripMs,
      nextRetryAt: this.retryAt,
      awaiting: this.awaitingCount(),
      lastInboundAt: this.open ? this.lastInboundAt : null,
    };
  }

  onStatus(listener: (status: StreamStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Every event, messages of every action included (diagnostics and tests). */
  onEvent(listener: StreamListener): () => void {
    return this.router.listen(listener);
  }

  /** Register a consumer of the routing table (stream-routes.ts): a handler per action it takes. */
  consume(consumer: StreamConsumer): () => void {
    return this.router.consume(consumer);
  }

  // ---- connection -----------------------------------------------------------------------------

  /** Start connecting (no effect while connected or connecting). */
  connect(): void {
    if (this.socket !== null || this.retryTimer !== null || this.gaveUp) return;
    this.userClosed = false;
    this.openSocket();
  }

  /** Manual reconnect: resets the retry count, also after the client gave up. */
  reconnect(): void {
    this.userClosed = false;
    this.cancelRetry();
    this.retry = 0;
    this.gaveUp = false;
    if (this.socket !== null) this.drop('manual reconnect', false);
    this.openSocket();
  }

  /** Close for good (shutdown); subscriptions are kept so a later `reconnect()` restores them. */
  close(): void {
    this.userClosed = true;
    this.cancelRetry();
    this.stopPing();
    const socket = this.socket;
    this.socket = null;
    this.open = false;
    this.generation++;
    socket?.close(1000, 'client closing');
    this.setState('closed');
  }

  private openSocket(): void {
    const generation = ++this.generation;
    this.setState('connecting');
    const current = () => generation === this.generation;
    this.socket = this.options.socketFactory(this.options.url, {
      onOpen: () => current() && this.handleOpen(),
      onMessage: (text) => current() && this.handleFrame(text),
      onClose: (code, reason) => current() && this.drop(`closed by the server (code ${code}${reason ? `: ${reason}` : ''})`, true),
      onError: (message) => {
        if (current()) this.lastError = message;
      },
    });
  }

  private handleOpen(): void {
    this.open = true;
    this.retry = 0;
    this.gaveUp = false;
    this.lastInboundAt = this.clock.now();
    this.pingSentAt = null;
    const reconnect = this.everConnected;
    this.everConnected = true;
    this.replaySubscriptions();
    this.schedulePing();
    this.refreshState();
    this.emit({ type: 'connected', reconnect });
  }

  /** The socket is gone (closed, failed to open, or found dead): schedule the next attempt. */
  private drop(reason: string, automatic: boolean): void {
    const socket = this.socket;
    this.socket = null;
    this.generation++;
    const wasOpen = this.open;
    this.open = false;
    this.stopPing();
    socket?.terminate();
    for (const entry of this.markets.values()) entry.awaitingSince = null;
    for (const topic of this.identityTopics.values()) topic.awaitingSince = null;
    // A socket that never opened says why in its error event; keep that next to the close reason.
    const cause = !wasOpen && this.lastError !== null && !reason.includes(this.lastError) ? `${reason}; ${this.lastError}` : reason;
    this.lastError = cause;
    if (wasOpen) this.emit({ type: 'disconnected', reason: cause });
    if (!automatic || this.userClosed) {
      this.setState(this.userClosed ? 'closed' : 'down');
      return;
    }
    this.retry++;
    if (this.retry > this.policy.maxRetries) {
      this.retry = this.policy.maxRetries;
      this.gaveUp = true;
      this.lastError = `gave up after ${this.policy.maxRetries} retries: ${cause}`;
      this.setState('down');
      return;
    }
    const delay = reconnectDelayMs(this.retry, this.policy);
    this.retryAt = this.clock.now() + delay;
    this.retryTimer = this.clock.setTimeout(() => {
      this.retryTimer = null;
      this.retryAt = null;
      this.openSocket();
    }, delay);
    this.setState('down');
  }

  private cancelRetry(): void {
    if (this.retryTimer !== null) this.clock.clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.retryAt = null;
  }

  // ---- ping and liveness ----------------------------------------------------------------------

  private schedulePing(): void {
    this.stopPing();
    this.pingTimer = this.clock.setTimeout(() => this.pingTick(), this.pingIntervalMs);
  }

  private stopPing(): void {
    if (this.pingTimer !== null) this.clock.clearTimeout(this.pingTimer);
    this.pingTimer = null;
  }

  private pingTick(): void {
    this.pingTimer = null;
    if (!this.open || this.socket === null) return;
    const now = this.clock.now();
    if (now - this.lastInboundAt >= this.idleTimeoutMs) {
      this.lastError = `no frame from the server for ${now - this.lastInboundAt} ms`;
      this.drop(this.lastError, true);
      return;
    }
    this.expireAwaiting(now);
    // The round trip is measured from the oldest unanswered PING.
    this.pingSentAt ??= now;
    this.socket.send('PING');
    this.schedulePing();
  }

  // ---- inbound --------------------------------------------------------------------------------

  private handleFrame(text: string | null): void {
    const now = this.clock.now();
    this.lastInboundAt = now;
    if (text === null) return this.emit({ type: 'invalid_frame', code: EXCHANGE_ERRORS.BAD_RESPONSE, message: 'stream: a binary frame (the protocol sends text only)' });
    if (text === 'PONG') {
      if (this.pingSentAt !== null) this.pingRoundTripMs = now - this.pingSentAt;
      this.pingSentAt = null;
      return this.notifyStatus();
    }
    if (text === 'PING') {
      this.socket?.send('PONG');
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(text) as unknown;
    } catch {
      return this.emit({ type: 'invalid_frame', code: EXCHANGE_ERRORS.BAD_RESPONSE, message: `stream: a frame that is not JSON: ${text.slice(0, 80)}` });
    }
    const parsed = parseWith(serverMessageSchema, json, 'stream', EXCHANGE_ERRORS.BAD_RESPONSE);
    if (!parsed.ok) {
      // The top-level union reports only "Invalid input" at the root; a frame with an `action` is
      // re-checked against the data-message branch alone, whose error names the field.
      const hasAction = typeof json === 'object' && json !== null && 'action' in json;
      const detailed = hasAction ? parseWith(serverMessageSchema.options[0], json, 'stream', EXCHANGE_ERRORS.BAD_RESPONSE) : parsed;
      const failure = detailed.ok ? parsed : detailed;
      const members = typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : {};
      return this.emit({
        type: 'invalid_frame',
        code: failure.code,
        message: failure.message,
        ...(typeof members.action === 'string' ? { action: members.action } : {}),
        ...(typeof members.market_id === 'string' ? { marketId: members.market_id } : {}),
      });
    }
    const message = parsed.value;
    if (message.action === 'stream_error') return this.emit({ type: 'stream_error', error: message.error });
    if (message.action === 'error') {
      if (message.resync_required === true) return this.handleResyncRequired(message.message, message.turbo === true);
      return this.emit({ type: 'stream_error', error: message.message });
    }
    this.markArrived(message);
    this.emit({ type: 'message', message });
  }

  /** The Turbo trade stream closed its subscriptions: subscribe them again. */
  private handleResyncRequired(text: string, turbo: boolean): void {
    for (const entry of this.markets.values()) {
      if (entry.topic.kind === 'trades' && entry.topic.turbo === turbo) {
        this.sendJson(subscribeTradesRequest(entry.topic.market_id, turbo ? true : undefined));
        entry.awaitingSince = this.clock.now();
      }
    }
    this.refreshState();
    this.emit({ type: 'resync_required', message: text, turbo });
  }

  private markArrived(message: StreamMessage): void {
    const arrival: Arrival | null = STREAM_ROUTES[message.action].arrival;
    if (arrival === null) return;
    const turbo = 'turbo' in message && message.turbo === true;
    if ('identities' in arrival) {
      const topic = this.identityTopics.get(turbo && arrival.turbo !== undefined ? arrival.turbo : arrival.identities);
      if (topic !== undefined) {
        topic.awaitingSince = null;
        topic.doubted = false;
      }
    } else this.clearMarkets(arrival.market, turbo, 'market_id' in message ? message.market_id : undefined);
    this.refreshState();
  }

  /** The market topics of a kind a first message answers (of one market when it names one). */
  private clearMarkets(kind: MarketTopicKind, turbo: boolean, marketId: B256 | undefined): void {
    for (const entry of this.markets.values()) {
      const topic = entry.topic;
      if (topic.kind !== kind || entry.awaitingSince === null) continue;
      if (topic.kind !== 'margin' && (topic.turbo !== turbo || (marketId !== undefined && topic.market_id !== marketId))) continue;
      entry.awaitingSince = null;
    }
  }

  private expireAwaiting(now: number): void {
    const late: string[] = [];
    for (const [key, entry] of this.markets) {
      if (entry.awaitingSince !== null && now - entry.awaitingSince >= this.firstMessageTimeoutMs) {
        entry.awaitingSince = null;
        late.push(key);
      }
    }
    for (const [name, topic] of this.identityTopics) {
      if (topic.awaitingSince !== null && now - topic.awaitingSince >= this.firstMessageTimeoutMs) {
        late.push(name);
        if (topic.doubted) this.sendIdentities(name, [...topic.identities.values()].map((entry) => entry.topic));
        else topic.awaitingSince = null;
      }
    }
    if (late.length > 0) {
      this.lastError = `no first message within ${this.firstMessageTimeoutMs} ms for ${late.join(', ')}`;
      this.refreshState();
    }
  }

  // ---- outbound -------------------------------------------------------------------------------

  private sendJson(request: object): void {
    if (this.open && this.socket !== null) this.socket.send(JSON.stringify(request));
  }

  private subscribeRequest(topic: MarketTopic): object {
    const options = { ...(topic.kind !== 'margin' && topic.turbo ? { turbo: true } : {}), ...('view' in topic && topic.view !== undefined ? { view: topic.view } : {}) };
    switch (topic.kind) {
      case 'depth':
        return subscribeDepthRequest(topic.market_id, topic.precision, options);
      case 'depth_view':
        return subscribeDepthViewRequest(topic.market_id, topic.precision, topic.frequency as (typeof DEPTH_VIEW_FREQUENCIES)[number], options);
      case 'trades':
        return subscribeTradesRequest(topic.market_id, topic.turbo ? true : undefined);
      case 'margin':
        return subscribeMarginRequest(topic.market_id);
    }
  }

  private unsubscribeRequest(topic: MarketTopic): object {
    const options = { ...(topic.kind !== 'margin' && topic.turbo ? { turbo: true } : {}), ...('view' in topic && topic.view !== undefined ? { view: topic.view } : {}) };
    switch (topic.kind) {
      // The spec's unsubscribes carry only market_id; the precision is sent as well because the
      // sandbox refuses an unsubscribe without it, and an extra member is harmless to the spec's form.
      case 'depth':
        return { ...unsubscribeMarketRequest('unsubscribe_depth', topic.market_id, options), precision: topic.precision.toString() };
      case 'depth_view':
        return { ...unsubscribeMarketRequest('unsubscribe_depth_view', topic.market_id, options), precision: topic.precision.toString() };
      case 'trades':
        return unsubscribeMarketRequest('unsubscribe_trades', topic.market_id, topic.turbo ? { turbo: true } : {});
      case 'margin':
        return unsubscribeMarginRequest();
    }
  }

  private sendIdentities(name: IdentityTopicName, identities: readonly Identity[]): void {
    if (identities.length === 0) return;
    const action = name === 'orders' || name === 'orders_turbo' ? 'subscribe_orders' : (`subscribe_${name}` as const);
    // At most 10 identities per request (spec 6); a larger set goes out as several requests.
    for (const part of chunks(identities, MAX_IDENTITIES_PER_REQUEST)) this.sendJson(identitiesRequest(action, part, name === 'orders_turbo' ? true : undefined));
    const topic = this.identityTopics.get(name);
    if (topic !== undefined && this.open) topic.awaitingSince = this.clock.now();
  }

  private replaySubscriptions(): void {
    const now = this.clock.now();
    for (const entry of this.markets.values()) {
      this.sendJson(this.subscribeRequest(entry.topic));
      entry.awaitingSince = now;
    }
    for (const [name, topic] of this.identityTopics) this.sendIdentities(name, [...topic.identities.values()].map((entry) => entry.topic));
  }

  // ---- market subscriptions -------------------------------------------------------------------

  private addMarket(topic: MarketTopic): Result<StreamSubscription> {
    if (this.userClosed) return fail(STREAM_ERRORS.STREAM_CLOSED, 'The stream is closed.');
    const key = marketKey(topic);
    const existing = this.markets.get(key);
    if (existing !== undefined) {
      if (JSON.stringify(existing.topic, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) !== JSON.stringify(topic, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))) {
        return fail(
          STREAM_ERRORS.SUBSCRIPTION_CONFLICT,
          `${key}: already subscribed with other parameters on this connection; stream messages could not tell the two apart. Close the existing subscription first.`,
          { key },
        );
      }
      existing.refs++;
      return ok(this.handle(key));
    }
    if (this.markets.size >= MAX_MARKET_TOPICS) {
      return fail(STREAM_ERRORS.TOO_MANY_SUBSCRIPTIONS, `${key}: ${MAX_MARKET_TOPICS} market subscriptions are open on this connection; close one first`, { key });
    }
    const entry = { topic, refs: 1, awaitingSince: this.open ? this.clock.now() : null };
    this.markets.set(key, entry);
    this.sendJson(this.subscribeRequest(topic));
    this.refreshState();
    return ok(this.handle(key));
  }

  private handle(key: string): StreamSubscription {
    let closed = false;
    return {
      key,
      close: () => {
        if (closed) return;
        closed = true;
        const entry = this.markets.get(key);
        if (entry === undefined) return;
        entry.refs--;
        if (entry.refs > 0) return;
        this.markets.delete(key);
        this.sendJson(this.unsubscribeRequest(entry.topic));
        this.refreshState();
      },
    };
  }

  subscribeDepth(marketId: B256, precision: bigint, options: { turbo?: boolean; view?: TurboDepthView } = {}): Result<StreamSubscription> {
    const checked = checkDepthOptions(precision, options);
    if (!checked.ok) return checked;
    return this.addMarket({ kind: 'depth', market_id: marketId, precision, turbo: options.turbo === true, ...(options.view === undefined ? {} : { view: options.view }) });
  }

  subscribeDepthView(marketId: B256, precision: bigint, frequency: (typeof DEPTH_VIEW_FREQUENCIES)[number], options: { turbo?: boolean; view?: TurboDepthView } = {}): Result<StreamSubscription> {
    const checked = checkDepthOptions(precision, options);
    if (!checked.ok) return checked;
    if (!(DEPTH_VIEW_FREQUENCIES as readonly string[]).includes(frequency)) {
      return fail(STREAM_ERRORS.INVALID_SUBSCRIPTION, `frequency: expected one of ${DEPTH_VIEW_FREQUENCIES.join(', ')}, got ${JSON.stringify(frequency)}`, { field: 'frequency' });
    }
    return this.addMarket({ kind: 'depth_view', market_id: marketId, precision, frequency, turbo: options.turbo === true, ...(options.view === undefined ? {} : { view: options.view }) });
  }

  subscribeTrades(marketId: B256, options: { turbo?: boolean } = {}): Result<StreamSubscription> {
    return this.addMarket({ kind: 'trades', market_id: marketId, turbo: options.turbo === true });
  }

  /** One Turbo Account per connection: `unsubscribe_margin` names none, and margin messages name none. */
  subscribeMargin(marginAccountId: B256): Result<StreamSubscription> {
    return this.addMarket({ kind: 'margin', market_id: marginAccountId });
  }

  /**
   * Send the topic's unsubscribe and subscribe again for a fresh first message (a book found
   * inconsistent). The topic counts as resyncing until that message arrives.
   */
  resubscribe(key: string): void {
    const entry = this.markets.get(key);
    if (entry === undefined || !this.open) return;
    this.sendJson(this.unsubscribeRequest(entry.topic));
    this.sendJson(this.subscribeRequest(entry.topic));
    entry.awaitingSince = this.clock.now();
    this.refreshState();
  }

  /**
   * A message of an identity topic could not be read (it may have changed what the topic shows): the
   * topic counts as awaiting and is subscribed again for a fresh first message. Not again while it
   * already waits, so an exchange that keeps sending unreadable frames gets one request, not a loop.
   */
  resubscribeIdentities(name: IdentityTopicName): void {
    const topic = this.identityTopics.get(name);
    if (topic === undefined || topic.identities.size === 0 || !this.open) return;
    topic.doubted = true;
    if (topic.awaitingSince !== null) return;
    this.sendIdentities(
      name,
      [...topic.identities.values()].map((entry) => entry.topic),
    );
    this.refreshState();
  }

  /** True while the topic waits for its first message after a (re)subscribe, or the socket is not up. */
  isAwaiting(key: string): boolean {
    const entry = this.markets.get(key);
    return !this.open || entry === undefined || entry.awaitingSince !== null;
  }

  /**
   * An identity topic: `absent` (nothing followed), `awaiting` (its first message after a
   * (re)subscribe has not come, or the socket is not up) or `live`.
   */
  identityTopicState(name: IdentityTopicName): 'absent' | 'awaiting' | 'live' {
    const topic = this.identityTopics.get(name);
    if (topic === undefined || topic.identities.size === 0) return 'absent';
    return !this.open || topic.awaitingSince !== null ? 'awaiting' : 'live';
  }

  // ---- identity subscriptions -----------------------------------------------------------------

  subscribeOrders(identities: readonly Identity[], options: { turbo?: boolean } = {}): Result<StreamSubscription> {
    return this.addIdentities(options.turbo === true ? 'orders_turbo' : 'orders', identities);
  }

  subscribeBalances(identities: readonly Identity[]): Result<StreamSubscription> {
    return this.addIdentities('balances', identities);
  }

  /** Exclusive with subscribe_nonce_v2 on one connection (spec 6). */
  subscribeNonce(identities: readonly Identity[]): Result<StreamSubscription> {
    return this.addIdentities('nonce', identities);
  }

  /** Exclusive with subscribe_nonce on one connection (spec 6). */
  subscribeNonceV2(identities: readonly Identity[]): Result<StreamSubscription> {
    return this.addIdentities('nonce_v2', identities);
  }

  private addIdentities(name: IdentityTopicName, identities: readonly Identity[]): Result<StreamSubscription> {
    if (this.userClosed) return fail(STREAM_ERRORS.STREAM_CLOSED, 'The stream is closed.');
    if (identities.length === 0) return fail(STREAM_ERRORS.INVALID_SUBSCRIPTION, `${name}: at least one identity is required, got none`, { field: 'identities' });
    const other = name === 'nonce' ? 'nonce_v2' : name === 'nonce_v2' ? 'nonce' : null;
    if (other !== null && (this.identityTopics.get(other)?.identities.size ?? 0) > 0) {
      return fail(STREAM_ERRORS.NONCE_STREAM_CONFLICT, `subscribe_${name}: this connection already follows subscribe_${other}; the two are exclusive on one connection (spec 6)`, { field: name });
    }
    const topic = this.identityTopics.get(name) as IdentityTopic;
    const added: Identity[] = [];
    const keys = [...new Set(identities.map(identityKey))];
    const fresh = keys.filter((key) => !topic.identities.has(key)).length;
    if (topic.identities.size + fresh > MAX_IDENTITIES_PER_TOPIC) {
      return fail(STREAM_ERRORS.TOO_MANY_SUBSCRIPTIONS, `subscribe_${name}: at most ${MAX_IDENTITIES_PER_TOPIC} identities per topic, ${topic.identities.size + fresh} asked`, { field: 'identities' });
    }
    const byKey = new Map(identities.map((identity) => [identityKey(identity), identity]));
    for (const key of keys) {
      const entry = topic.identities.get(key);
      if (entry !== undefined) entry.refs++;
      else {
        const identity = byKey.get(key) as Identity;
        topic.identities.set(key, { topic: identity, refs: 1 });
        added.push(identity);
      }
    }
    this.sendIdentities(name, added);
    this.refreshState();
    let closed = false;
    return ok({
      key: `${name}|${keys.join(',')}`,
      close: () => {
        if (closed) return;
        closed = true;
        this.removeIdentities(name, keys);
      },
    });
  }

  private removeIdentities(name: IdentityTopicName, keys: readonly string[]): void {
    const topic = this.identityTopics.get(name) as IdentityTopic;
    const removed: Identity[] = [];
    for (const key of keys) {
      const entry = topic.identities.get(key);
      if (entry === undefined) continue;
      entry.refs--;
      if (entry.refs > 0) continue;
      topic.identities.delete(key);
      removed.push(entry.topic);
    }
    if (removed.length === 0) return;
    if (name === 'orders' || name === 'orders_turbo') {
      // unsubscribe_orders names no identities: drop the whole topic (with the same Turbo flag) and
      // subscribe the identities that remain.
      this.sendJson(unsubscribeOrdersRequest(name === 'orders_turbo' ? true : undefined));
      topic.awaitingSince = null;
      this.sendIdentities(name, [...topic.identities.values()].map((entry) => entry.topic));
    } else {
      for (const part of chunks(removed, MAX_IDENTITIES_PER_REQUEST)) this.sendJson(identitiesRequest(`unsubscribe_${name}`, part));
      if (topic.identities.size === 0) topic.awaitingSince = null;
    }
    this.refreshState();
  }

  /** The identities followed on a topic (for diagnostics and the UI). */
  followed(name: IdentityTopicName): ReturnType<typeof identityToJson>[] {
    return [...(this.identityTopics.get(name)?.identities.values() ?? [])].map((entry) => identityToJson(entry.topic));
  }

  // ---- state ----------------------------------------------------------------------------------

  private awaitingCount(): number {
    let count = 0;
    for (const entry of this.markets.values()) if (entry.awaitingSince !== null) count++;
    for (const topic of this.identityTopics.values()) if (topic.awaitingSince !== null) count++;
    return count;
  }

  private refreshState(): void {
    if (!this.open) return this.notifyStatus();
    this.setState(this.awaitingCount() > 0 ? 'resyncing' : 'up');
  }

  private setState(state: StreamState): void {
    this.state = state;
    this.notifyStatus();
  }

  private notifyStatus(): void {
    if (this.statusListeners.size === 0) return;
    const status = this.status();
    for (const listener of this.statusListeners) listener(status);
  }

  private emit(event: StreamEvent): void {
    this.router.dispatch(event);
  }
}

function checkDepthOptions(precision: bigint, options: { turbo?: boolean; view?: TurboDepthView }): Result<void> {
  if (!(DEPTH_PRECISIONS as readonly string[]).includes(precision.toString())) {
    return fail(STREAM_ERRORS.INVALID_SUBSCRIPTION, `precision: expected one of ${DEPTH_PRECISIONS.join(', ')} (a power of ten, not an exponent), got ${precision}`, { field: 'precision' });
  }
  if (options.view !== undefined && options.turbo !== true) {
    return fail(STREAM_ERRORS.INVALID_SUBSCRIPTION, `view: a depth view (${options.view}) is only for a Turbo book (turbo: true)`, { field: 'view' });
  }
  return ok(undefined);
}

/** The registry key of a depth subscription, for consumers that resubscribe it. */
export function depthKey(marketId: B256, turbo: boolean): string {
  return marketKey({ kind: 'depth', market_id: marketId, turbo, precision: 10n });
}

/** The registry key of the margin subscription. */
export const MARGIN_KEY = 'margin';
