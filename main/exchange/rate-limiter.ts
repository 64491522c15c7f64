// Client-side pacing so the terminal never causes a 429 on its own (spec section 8).
//
// Algorithm: a sliding-window log per (rule, key), not a token bucket. A token bucket lets a full
// bucket plus the refill through in one window; the log counts the actual requests, so no window
// of the rule's length can ever hold more than `limit` of them.
//
// Each slot is held from the moment the request is granted until `windowMs + safetyMarginMs` after
// its response came back (or it timed out). The server sees the request at some instant between
// the send and the response, so measuring the window from the response makes the pacing safe
// whatever the network latency; the margin (default 50 ms) absorbs the coarser differences between
// the two clocks (timer granularity, the server timestamping on a different event). Work beyond
// the budget waits in a bounded queue per (rule, key), first come first served except that the
// trader's own requests (`ahead`) go before the algorithms' children waiting; beyond
// the bound it is refused with QUEUE_FULL, never dropped silently.
import { enqueueAhead } from '../../shared/ahead-queue';
import type { Clock, TimerHandle } from '../../shared/clock';
import { fail, ok, type Result } from '../../shared/result';
import type { RateRule } from './rate-rules';

export const QUEUE_FULL = 'QUEUE_FULL';
export const LIMITER_CLOSED = 'LIMITER_CLOSED';

export const DEFAULT_SAFETY_MARGIN_MS = 50;
export const DEFAULT_MAX_QUEUED = 64;
export const DEFAULT_MAX_LIMITERS = 256;

/** A granted slot. Release it when the request finished (response, failure or timeout). */
export interface Permit {
  release(): void;
}

export interface LimiterSnapshot {
  readonly rule: string;
  /** The owner id or `ip`. */
  readonly key: string;
  readonly limit: number;
  readonly windowMs: number;
  /** Slots held: requests in flight plus finished ones still inside their window. */
  readonly used: number;
  readonly inFlight: number;
  /** Requests that may start now without waiting. */
  readonly remaining: number;
  readonly queued: number;
  /** When the earliest held slot of a finished request frees up (clock ms), or null. */
  readonly nextFreeAt: number | null;
}

export interface RateLimiterOptions {
  readonly clock: Clock;
  /** Added to every window; see the header comment. */
  readonly safetyMarginMs?: number;
  /** Waiting requests allowed per (rule, key). */
  readonly maxQueued?: number;
  /** (rule, key) pairs tracked at once; idle ones are forgotten first. */
  readonly maxLimiters?: number;
}

interface Slot {
  /** When the response came back; null while in flight. */
  end: number | null;
}

interface Waiter {
  /** The trader's own request: served before the waiters without it (never before a granted one). */
  readonly ahead: boolean;
  readonly resolve: (result: Result<Permit>) => void;
}

interface Lane {
  readonly rule: RateRule;
  readonly key: string;
  slots: Slot[];
  readonly queue: Waiter[];
  timer: TimerHandle | null;
}

export type LimiterListener = (snapshot: LimiterSnapshot) => void;

export class RateLimiter {
  private readonly clock: Clock;
  private readonly marginMs: number;
  private readonly maxQueued: number;
  private readonly maxLimiters: number;
  private readonly lanes = new Map<string, Lane>();
  private readonly listeners = new Set<LimiterListener>();
  private closed = false;

  constructor(options: RateLimiterOptions) {
    this.clock = options.clock;
    this.marginMs = options.safetyMarginMs ?? DEFAULT_SAFETY_MARGIN_MS;
    this.maxQueued = options.maxQueued ?? DEFAULT_MAX_QUEUED;
    this.maxLimiters = options.maxLimiters ?? DEFAULT_MAX_LIMITERS;
  }

  /**
   * Wait for a slot of `rule` under `key`: first come, first served, those `ahead` (the trader's own
   * requests) before the others. Refused with QUEUE_FULL beyond the queue bound.
   */
  acquire(rule: RateRule, key: string, options: { readonly ahead?: boolean } = {}): Promise<Result<Permit>> {
    if (this.closed) return Promise.resolve(fail(LIMITER_CLOSED, `${rule.id}: the rate limiter is closed`));
    const lane = this.laneFor(rule, key);
    if (!lane.ok) return Promise.resolve(lane);
    const current = lane.value;
    this.prune(current);
    if (current.queue.length === 0 && this.used(current) < rule.limit) {
      const permit = this.grant(current);
      this.schedule(current);
      this.notify(current);
      return Promise.resolve(ok(permit));
    }
    if (current.queue.length >= this.maxQueued) {
      return Promise.resolve(
        fail(QUEUE_FULL, `${rule.id} (${key}): ${current.queue.length} requests already wait for the rate limit of ${rule.limit} per ${rule.windowMs} ms; refused instead of queued`, {
          rule: rule.id,
          key,
          queued: current.queue.length,
        }),
      );
    }
    return new Promise<Result<Permit>>((resolve) => {
      enqueueAhead(current.queue, { ahead: options.ahead === true, resolve });
      // A slot may have expired at this very instant (its timer not run yet): pump grants the
      // queue in order before anything is rescheduled, so a waiter can never be stranded.
      this.pump(current);
    });
  }

  /** The budget of every (rule, key) seen so far. */
  snapshot(): LimiterSnapshot[] {
    return [...this.lanes.values()].map((lane) => {
      this.prune(lane);
      return this.describe(lane);
    });
  }

  /** Called with a lane's snapshot whenever its budget or queue changes. Returns the unsubscribe. */
  onChange(listener: LimiterListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Refuse everything waiting and everything later (shutdown). */
  close(): void {
    this.closed = true;
    for (const lane of this.lanes.values()) {
      if (lane.timer !== null) this.clock.clearTimeout(lane.timer);
      lane.timer = null;
      for (const waiter of lane.queue.splice(0)) waiter.resolve(fail(LIMITER_CLOSED, `${lane.rule.id}: the rate limiter closed while the request waited`));
    }
  }

  private laneFor(rule: RateRule, key: string): Result<Lane> {
    const id = `${rule.id}\u0000${key}`;
    const found = this.lanes.get(id);
    if (found !== undefined) return ok(found);
    if (this.lanes.size >= this.maxLimiters && !this.evictIdle()) {
      return fail(QUEUE_FULL, `${rule.id} (${key}): ${this.maxLimiters} rate-limit budgets are busy; refused instead of queued`, { rule: rule.id, key });
    }
    const lane: Lane = { rule, key, slots: [], queue: [], timer: null };
    this.lanes.set(id, lane);
    return ok(lane);
  }

  private evictIdle(): boolean {
    for (const [id, lane] of this.lanes) {
      this.prune(lane);
      if (lane.slots.length === 0 && lane.queue.length === 0) {
        this.lanes.delete(id);
        return true;
      }
    }
    return false;
  }

  private window(lane: Lane): number {
    return lane.rule.windowMs + this.marginMs;
  }

  private prune(lane: Lane): void {
    const now = this.clock.now();
    const window = this.window(lane);
    lane.slots = lane.slots.filter((slot) => slot.end === null || slot.end + window > now);
  }

  private used(lane: Lane): number {
    return lane.slots.length;
  }

  private grant(lane: Lane): Permit {
    const slot: Slot = { end: null };
    lane.slots.push(slot);
    return {
      release: () => {
        if (slot.end !== null) return;
        slot.end = this.clock.now();
        this.pump(lane);
      },
    };
  }

  /** Grant waiting requests while slots are free, in queue order (see acquire). */
  private pump(lane: Lane): void {
    this.prune(lane);
    while (lane.queue.length > 0 && this.used(lane) < lane.rule.limit && !this.closed) {
      const waiter = lane.queue.shift() as Waiter;
      waiter.resolve(ok(this.grant(lane)));
    }
    this.schedule(lane);
    this.notify(lane);
  }

  private nextFreeAt(lane: Lane): number | null {
    let earliest: number | null = null;
    const window = this.window(lane);
    for (const slot of lane.slots) {
      if (slot.end === null) continue;
      const free = slot.end + window;
      if (earliest === null || free < earliest) earliest = free;
    }
    return earliest;
  }

  /** One timer per lane, at the next instant a finished slot frees (so waiters and the UI move on). */
  private schedule(lane: Lane): void {
    if (lane.timer !== null) this.clock.clearTimeout(lane.timer);
    lane.timer = null;
    const due = this.nextFreeAt(lane);
    if (due === null || this.closed) return;
    lane.timer = this.clock.setTimeout(
      () => {
        lane.timer = null;
        this.pump(lane);
      },
      Math.max(0, due - this.clock.now()),
    );
  }

  private describe(lane: Lane): LimiterSnapshot {
    const used = this.used(lane);
    return {
      rule: lane.rule.id,
      key: lane.key,
      limit: lane.rule.limit,
      windowMs: lane.rule.windowMs,
      used,
      inFlight: lane.slots.filter((slot) => slot.end === null).length,
      remaining: lane.queue.length > 0 ? 0 : Math.max(0, lane.rule.limit - used),
      queued: lane.queue.length,
      nextFreeAt: this.nextFreeAt(lane),
    };
  }

  private notify(lane: Lane): void {
    if (this.listeners.size === 0) return;
    const snapshot = this.describe(lane);
    for (const listener of this.listeners) listener(snapshot);
  }
}
