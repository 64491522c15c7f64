// The margin state of one Turbo Account, kept from the margin stream (margin-api 6): the first
// `subscribe_margin` message is the snapshot, then `subscribe_margin_update` events are folded in
// order (totals replace, never add; margin-event.ts). On a reconnect, a sequence gap or a failed
// fold the state turns stale: `snapshot()` refuses it, and GET /v1/margin/state is fetched through
// the REST client before it is usable again (margin-api 6.4: "fetch the state before signing").
//
// Races: an update that arrives while the refetch is in flight may be newer or older than the
// fetched state, so the fetched state is applied only when no margin message arrived meanwhile;
// otherwise it is fetched again (bounded, then retried after a delay). A stream snapshot arriving
// at any time is complete and makes the state live at once.
import type { MarginState } from '../../shared/api/margin-schemas';
import type { Clock, TimerHandle } from '../../shared/clock';
import type { B256 } from '../../shared/encoding/b256';
import { fail, ok, type Result } from '../../shared/result';
import { foldMarginEvent, type FoldedEvent, type FoldOptions } from './margin-event';
import type { ExchangeStream, StreamSubscription } from './stream-client';
import type { ConnectionEvent, MessageOf } from './stream-routes';

export const MARGIN_STALE = 'MARGIN_STALE';
export const DEFAULT_REFETCH_RETRY_MS = 2_000;
export const DEFAULT_MAX_REFETCH_ROUNDS = 5;

export type MarginFeedState = 'live' | 'stale';

export interface MarginStateSource {
  getMarginState(account: B256): Promise<Result<MarginState>>;
}

export interface MarginFeedOptions {
  readonly stream: ExchangeStream;
  readonly rest: MarginStateSource;
  readonly clock: Clock;
  readonly account: B256;
  /** Called after every change of state or of the held snapshot. */
  readonly onChange?: (feed: MarginFeed) => void;
  readonly refetchRetryMs?: number;
  readonly maxRefetchRounds?: number;
  /** Tier versions the caller knows, so a session that starts on one folds without a refetch. */
  readonly tierOf?: FoldOptions['tierOf'];
  /** Every event folded in order (after the state took it): activities such as a liquidation. */
  readonly onFolded?: (event: FoldedEvent) => void;
}

export class MarginFeed {
  private current: MarginState | null = null;
  private live = false;
  private reason: string | null = 'waiting for the first margin snapshot';
  private lastSequence: bigint | null = null;
  /** Counts margin messages, so a refetch can tell whether the stream moved while it was out. */
  private epoch = 0;
  private refetching = false;
  private retryTimer: TimerHandle | null = null;
  private closed = false;
  private subscription: StreamSubscription | null = null;
  private readonly stopListening: () => void;
  private refetches = 0;
  private readonly waiters = new Set<(live: boolean) => void>();

  constructor(private readonly options: MarginFeedOptions) {
    this.stopListening = options.stream.consume({
      messages: { subscribe_margin: (message) => this.snapshotArrived(message), subscribe_margin_update: (message) => this.updateArrived(message) },
      // A frame that could not be read may have been a margin update this state now lacks.
      lost: (frame) => {
        if (!this.closed) this.markStale(`a margin frame could not be read: ${frame.message}`, true);
      },
      connection: (event) => this.connectionChanged(event),
    });
  }

  /** Subscribe to the account's margin stream. */
  start(): Result<void> {
    const subscribed = this.options.stream.subscribeMargin(this.options.account);
    if (!subscribed.ok) return subscribed;
    this.subscription = subscribed.value;
    return ok(undefined);
  }

  state(): MarginFeedState {
    return this.live ? 'live' : 'stale';
  }

  /** The state to compute with and sign against; refused while stale. */
  snapshot(): Result<MarginState> {
    if (this.live && this.current !== null) return ok(this.current);
    return fail(MARGIN_STALE, `margin state of ${this.options.account} is stale (${this.reason ?? 'not loaded'}); it is being fetched again`);
  }

  /** Why the state is (or last was) stale. */
  staleReason(): string | null {
    return this.reason;
  }

  /** The stream sequence the held state includes (null when the service sends none). */
  sequence(): bigint | null {
    return this.lastSequence;
  }

  /** Resolves once the state is live, or with false after `timeoutMs` (clock ms). */
  whenLive(timeoutMs: number): Promise<boolean> {
    if (this.live) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter = (live: boolean) => {
        this.waiters.delete(waiter);
        this.options.clock.clearTimeout(timer);
        resolve(live);
      };
      const timer = this.options.clock.setTimeout(() => waiter(false), timeoutMs);
      this.waiters.add(waiter);
    });
  }

  /** GET /v1/margin/state calls made so far. */
  refetchCount(): number {
    return this.refetches;
  }

  close(): void {
    this.closed = true;
    for (const waiter of [...this.waiters]) waiter(false);
    this.stopListening();
    this.subscription?.close();
    if (this.retryTimer !== null) this.options.clock.clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private connectionChanged(event: ConnectionEvent): void {
    if (this.closed) return;
    if (event.type === 'disconnected') return this.markStale(`disconnected: ${event.reason}`, false);
    if (event.type === 'connected' && event.reconnect) return this.markStale('reconnected', true);
  }

  private snapshotArrived(message: MessageOf<'subscribe_margin'>): void {
    if (this.closed) return;
    this.epoch++;
    this.current = message.state;
    this.lastSequence = sequenceOf(message.state);
    this.live = true;
    this.reason = null;
    this.changed();
  }

  private updateArrived(message: MessageOf<'subscribe_margin_update'>): void {
    if (this.closed) return;
    this.epoch++;
    if (!this.live || this.current === null) return; // a refetch is out; it restarts on this epoch
    // An event the held state already includes (it was read after the event committed): skip it.
    const announced = sequenceOfEvent(message.event);
    if (announced !== null && this.lastSequence !== null && announced <= this.lastSequence) return;
    const folded = foldMarginEvent(this.current, message.event, this.options.tierOf === undefined ? {} : { tierOf: this.options.tierOf });
    if (!folded.ok) return this.markStale(folded.message, true);
    const sequence = folded.value.sequence;
    if (sequence !== null && this.lastSequence !== null && sequence !== this.lastSequence + 1n) {
      return this.markStale(`sequence gap: expected ${this.lastSequence + 1n}, got ${sequence}`, true);
    }
    if (sequence !== null) this.lastSequence = sequence;
    this.current = folded.value.state;
    this.options.onFolded?.(folded.value);
    this.changed();
  }

  /**
   * While live, read GET /v1/margin/state and take it when the stream did not move meanwhile (and
   * it is not older than what is held). Used after the account's own requests and after order
   * changes, which the margin stream may report after their answer, or not at all for a fill
   * that moved no margin member. A stale feed is already refetching: this waits for nothing.
   */
  async refresh(): Promise<Result<void>> {
    const rounds = this.options.maxRefetchRounds ?? DEFAULT_MAX_REFETCH_ROUNDS;
    for (let round = 0; round < rounds; round++) {
      if (this.closed || !this.live) return fail(MARGIN_STALE, `margin state of ${this.options.account} is stale (${this.reason ?? 'closed'}); it is being fetched again`);
      const started = this.epoch;
      this.refetches++;
      const fetched = await this.options.rest.getMarginState(this.options.account);
      if (!fetched.ok) return fetched;
      if (this.closed || !this.live) continue;
      if (this.epoch !== started) continue;
      const sequence = sequenceOf(fetched.value);
      if (sequence !== null && this.lastSequence !== null && sequence < this.lastSequence) continue;
      this.current = fetched.value;
      if (sequence !== null) this.lastSequence = sequence;
      this.changed();
      return ok(undefined);
    }
    return fail(MARGIN_STALE, `margin state of ${this.options.account}: the stream kept moving during every read`);
  }

  private markStale(reason: string, refetch: boolean): void {
    const wasLive = this.live;
    this.live = false;
    this.reason = reason;
    if (wasLive) this.changed();
    if (refetch) void this.refetch(0);
  }

  private async refetch(round: number): Promise<void> {
    if (this.refetching || this.closed) return;
    this.refetching = true;
    const started = this.epoch;
    this.refetches++;
    const fetched = await this.options.rest.getMarginState(this.options.account);
    this.refetching = false;
    if (this.closed || this.live) return; // a stream snapshot arrived meanwhile: it is complete
    if (!fetched.ok) {
      this.reason = `refetch failed: ${fetched.message}`;
      return this.retryLater();
    }
    if (this.epoch !== started) {
      // The stream moved while we fetched: the fetched state may be older than what was folded away.
      if (round + 1 < (this.options.maxRefetchRounds ?? DEFAULT_MAX_REFETCH_ROUNDS)) return this.refetch(round + 1);
      this.reason = 'the margin stream kept moving during every refetch';
      return this.retryLater();
    }
    this.current = fetched.value;
    this.lastSequence = sequenceOf(fetched.value);
    this.live = true;
    this.reason = null;
    this.changed();
  }

  private retryLater(): void {
    if (this.retryTimer !== null || this.closed) return;
    this.retryTimer = this.options.clock.setTimeout(() => {
      this.retryTimer = null;
      if (!this.live) void this.refetch(0);
    }, this.options.refetchRetryMs ?? DEFAULT_REFETCH_RETRY_MS);
  }

  private changed(): void {
    if (this.live) for (const waiter of [...this.waiters]) waiter(true);
    this.options.onChange?.(this);
  }
}

/** The `sequence` of an event, read before the fold (which parses it fully). */
function sequenceOfEvent(event: unknown): bigint | null {
  if (event === null || typeof event !== 'object') return null;
  return sequenceOf(event as MarginState);
}

/** A `sequence` member on the state, if the service sends one (not shown in the spec). */
function sequenceOf(state: MarginState): bigint | null {
  const value = (state as Record<string, unknown>).sequence;
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'string' && /^\d{1,30}$/.test(value)) return BigInt(value);
  return null;
}
