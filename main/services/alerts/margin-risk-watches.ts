// Main's own follow of the Turbo Accounts margin alerts name. A risk frame is computed only for an
// account someone follows (a window's risk panel, or this): while a margin alert is on, main
// follows its account on the active network's margin service with no window open. The follow
// outlives networks like the alert service: tried again every few seconds until the margin service
// takes it (no trading account loaded yet, no network, the exchange not answering), and again
// when it ends by itself (the trading account changed, the network was switched or stopped).
import type { Clock, TimerHandle } from '../../../shared/clock';
import type { Result } from '../../../shared/result';
import type { MarginFrame } from './alert-rules';
import type { MarginWatch } from './alert-service';

export interface MarginFollowHandlers {
  /** Each risk frame of the account, live or stale. */
  readonly onFrame: (frame: MarginFrame) => void;
  /** The follow ended without being closed (the trading account changed, the service stopped). */
  readonly onEnd: () => void;
}

export interface MarginRiskWatchesDeps {
  readonly clock: Clock;
  /** Follow an account on the active network's margin service; null when no network runs. */
  readonly follow: (marginAccountId: string, handlers: MarginFollowHandlers) => Promise<Result<{ close(): void }>> | null;
  readonly log: (line: string) => void;
}

/** How long a follow that could not start waits before it is tried again. */
export const FOLLOW_RETRY_MS = 5_000;

interface Entry {
  readonly listeners: Set<() => void>;
  frame: MarginFrame | null;
  follow: { close(): void } | null;
  /** A follow is being started; its generation tells a late answer from a current one. */
  starting: number | null;
  /** The reason it could not start last time (logged once per reason). */
  problem: string | null;
}

export class MarginRiskWatches {
  private readonly entries = new Map<string, Entry>();
  private retryTimer: TimerHandle | null = null;
  private generation = 0;
  private stopped = false;

  constructor(private readonly deps: MarginRiskWatchesDeps) {}

  watch(marginAccountId: string, onChange: () => void): MarginWatch {
    let entry = this.entries.get(marginAccountId);
    if (entry === undefined) {
      entry = { listeners: new Set(), frame: null, follow: null, starting: null, problem: null };
      this.entries.set(marginAccountId, entry);
      this.connect(marginAccountId, entry);
    }
    const listener = () => onChange();
    entry.listeners.add(listener);
    const held = entry;
    return {
      frame: () => held.frame,
      close: () => {
        held.listeners.delete(listener);
        if (held.listeners.size > 0 || this.entries.get(marginAccountId) !== held) return;
        this.entries.delete(marginAccountId);
        held.follow?.close();
        held.follow = null;
        held.starting = null;
      },
    };
  }

  /** The active network changed: every account is followed afresh on the new one. */
  reconnect(): void {
    for (const [account, entry] of this.entries) {
      entry.follow?.close();
      entry.follow = null;
      entry.starting = null;
      this.forget(entry);
      this.connect(account, entry);
    }
  }

  stop(): void {
    this.stopped = true;
    for (const entry of this.entries.values()) entry.follow?.close();
    this.entries.clear();
    if (this.retryTimer !== null) this.deps.clock.clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private connect(account: string, entry: Entry): void {
    if (this.stopped || entry.follow !== null || entry.starting !== null) return;
    const generation = ++this.generation;
    const current = () => this.entries.get(account) === entry && entry.starting === generation;
    const started = this.deps.follow(account, {
      onFrame: (frame) => {
        // Frames of this follow only (one may come before the answer that it started).
        if (this.entries.get(account) !== entry || (entry.follow === null && entry.starting !== generation)) return;
        entry.frame = frame;
        for (const listener of entry.listeners) listener();
      },
      onEnd: () => {
        if (this.entries.get(account) !== entry) return;
        entry.follow = null;
        this.forget(entry);
        this.scheduleRetry();
      },
    });
    if (started === null) {
      this.scheduleRetry();
      return;
    }
    entry.starting = generation;
    void started.then((result) => {
      if (!current()) {
        if (result.ok) result.value.close();
        return;
      }
      entry.starting = null;
      if (result.ok) {
        entry.follow = result.value;
        entry.problem = null;
        return;
      }
      if (entry.problem !== result.message) this.deps.log(`margin alerts: Turbo Account ${account} is not followed yet (${result.message}); trying again every ${FOLLOW_RETRY_MS / 1000} s`);
      entry.problem = result.message;
      this.scheduleRetry();
    });
  }

  /** No figures while not followed: a margin alert reads nothing rather than an old frame. */
  private forget(entry: Entry): void {
    if (entry.frame === null) return;
    entry.frame = null;
    for (const listener of entry.listeners) listener();
  }

  private scheduleRetry(): void {
    if (this.stopped || this.retryTimer !== null) return;
    this.retryTimer = this.deps.clock.setTimeout(() => {
      this.retryTimer = null;
      for (const [account, entry] of this.entries) this.connect(account, entry);
    }, FOLLOW_RETRY_MS);
  }
}
