// Reads with no stream that main makes only while some window watches them (the markets overview,
// the margin insights, the ladder's Turbo depth overlay): which window watches what, one PollLoop
// that runs while at least one window does, a window closing counted as its unwatch, and a network
// generation so that an answer read before a network switch is dropped instead of being shown as
// the new network's. What is read, kept and pushed stays the service's own.
import type { Clock } from '../../shared/clock';
import { PollLoop } from '../../shared/poll-loop';
import type { WindowHub } from './window-hub';

export interface WatchedPollOptions {
  readonly windows: Pick<WindowHub, 'onWindowClosed'>;
  readonly clock: Clock;
  readonly intervalMs: number;
  /**
   * One pass of reads. `current()` turns false once the network changes: a pass checks it after
   * its reads have answered and keeps nothing when it is false.
   */
  readonly pass: (current: () => boolean) => Promise<void>;
  /**
   * `every`: each watch asks for a pass now (it may name something not read yet); `first`: only the
   * watch that starts the polling does (every window is shown the same thing).
   */
  readonly passOnWatch: 'every' | 'first';
  /** After a window stops watching (unwatched or closed): the service drops what no window shows. */
  readonly unwatched?: () => void;
}

export class WatchedPoll<Watch> {
  private readonly watching = new Map<string, Watch>();
  private loop: PollLoop | null = null;
  /** Increases with every network change: a pass of an earlier network keeps nothing. */
  private generation = 0;
  private readonly stopListening: () => void;

  constructor(private readonly options: WatchedPollOptions) {
    this.stopListening = options.windows.onWindowClosed((windowId) => this.unwatch(windowId));
  }

  /** Window id -> what it watches, in the order the windows first watched. */
  get watchers(): ReadonlyMap<string, Watch> {
    return this.watching;
  }

  /** A window watches (a new watch of the same window replaces its last): polling runs, a pass soon. */
  watch(windowId: string, watch: Watch): void {
    this.watching.set(windowId, watch);
    if (this.loop === null) {
      const { clock, intervalMs, pass } = this.options;
      this.loop = new PollLoop(clock, intervalMs, () => {
        const started = this.generation;
        return pass(() => started === this.generation);
      });
      this.loop.start();
      this.loop.schedule(0);
    } else if (this.options.passOnWatch === 'every') {
      this.loop.schedule(0);
    }
  }

  unwatch(windowId: string): void {
    this.watching.delete(windowId);
    this.options.unwatched?.();
    if (this.watching.size === 0) {
      this.loop?.stop();
      this.loop = null;
    }
  }

  /** The active network changed: passes under way keep nothing, and a pass of the new one runs soon. */
  networkChanged(): void {
    this.generation++;
    this.loop?.schedule(0);
  }

  /** One pass now, joining one under way (nothing while no window watches). */
  refresh(): Promise<void> {
    return this.loop?.poll() ?? Promise.resolve();
  }

  close(): void {
    this.stopListening();
    this.loop?.stop();
    this.loop = null;
    this.watching.clear();
  }
}

/** What a read's view says of its freshness. */
export interface ReadFreshness {
  readonly state: 'live' | 'stale' | 'resyncing';
  /** When it was last read successfully; null before the first answer on this network. */
  readonly readAt: number | null;
  readonly problem: string | null;
}

/** A read failed: the previous answer kept, marked stale (still resyncing when there never was one). */
export function markedStale<View extends ReadFreshness>(view: View, problem: string | null): View {
  return { ...view, state: view.readAt === null ? 'resyncing' : 'stale', problem };
}
