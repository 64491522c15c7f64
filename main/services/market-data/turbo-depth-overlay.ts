// The ladder's Turbo depth overlay: the executable and demand depth views of one market's Turbo
// book (GET /v1/depth?turbo=true&view=…), read while a window's ladder has the overlay on and
// pushed to it as rows grouped by its ladder's step (turbo-depth-rows.ts). Two reads per market
// and step every TURBO_DEPTH_INTERVAL_MS; the spec gives depth no rate of its own and the ladder
// trades from its stream, never from these rows. A failed read keeps the previous rows, marked stale.
import type { Clock } from '../../../shared/clock';
import type { TurboDepthView } from '../../../shared/ipc/views/margin-insights';
import type { Result } from '../../../shared/result';
import { markedStale, WatchedPoll } from '../watched-poll';
import type { WindowHub } from '../window-hub';
import { turboDepthRows, type TurboDepthSides } from './turbo-depth-rows';

export const TURBO_DEPTH_INTERVAL_MS = 2_000;

export interface TurboDepthReader {
  readonly networkId: string;
  depth(marketId: string, view: 'executable' | 'demand', step: bigint): Promise<Result<TurboDepthSides>>;
}

interface Watch {
  readonly marketId: string;
  readonly step: bigint;
}

const keyOf = (watch: Watch) => `${watch.marketId}|${watch.step}`;

export class TurboDepthOverlay {
  private readonly poll: WatchedPoll<Watch>;
  private readonly views = new Map<string, TurboDepthView>();

  constructor(
    private readonly windows: WindowHub,
    private readonly clock: Clock,
    private readonly reader: () => TurboDepthReader | null,
    private readonly intervalMs = TURBO_DEPTH_INTERVAL_MS,
  ) {
    this.poll = new WatchedPoll({ windows, clock, intervalMs, pass: (current) => this.read(current), passOnWatch: 'every', unwatched: () => this.forget() });
  }

  /** A window's ladder shows the overlay for this market and step (one per window: a new watch replaces the last). */
  watch(windowId: string, marketId: string, step: bigint): TurboDepthView {
    const watch = { marketId: marketId.toLowerCase(), step };
    this.poll.watch(windowId, watch);
    const key = keyOf(watch);
    if (!this.views.has(key)) this.views.set(key, this.empty(watch));
    this.forget();
    return this.views.get(key)!;
  }

  unwatch(windowId: string): void {
    this.poll.unwatch(windowId);
  }

  networkChanged(): void {
    this.poll.networkChanged();
    for (const [key, view] of this.views) this.views.set(key, this.empty(view));
    this.publish();
  }

  /** One pass now (tests). */
  refresh(): Promise<void> {
    return this.poll.refresh();
  }

  close(): void {
    this.poll.close();
  }

  private forget(): void {
    const wanted = new Set([...this.poll.watchers.values()].map(keyOf));
    for (const key of [...this.views.keys()]) if (!wanted.has(key)) this.views.delete(key);
  }

  private empty(watch: Watch): TurboDepthView {
    return { networkId: this.reader()?.networkId ?? '', marketId: watch.marketId, step: watch.step, intervalMs: this.intervalMs, state: 'resyncing', readAt: null, problem: null, rows: [] };
  }

  private async read(current: () => boolean): Promise<void> {
    const reader = this.reader();
    const watches = [...this.views.values()];
    const answers = await Promise.all(
      watches.map(async (watch) => {
        if (reader === null) return null;
        const [executable, demand] = await Promise.all([reader.depth(watch.marketId, 'executable', watch.step), reader.depth(watch.marketId, 'demand', watch.step)]);
        return { executable, demand };
      }),
    );
    if (!current()) return;
    watches.forEach((watch, index) => {
      const key = keyOf(watch);
      const previous = this.views.get(key);
      if (previous === undefined) return;
      const answer = answers[index];
      const problem = answer === null || answer === undefined ? 'the network is not connected' : !answer.executable.ok ? `executable: ${answer.executable.message}` : !answer.demand.ok ? `demand: ${answer.demand.message}` : null;
      if (problem !== null || !answer?.executable.ok || !answer.demand.ok) {
        this.views.set(key, markedStale(previous, problem));
        return;
      }
      this.views.set(key, { ...previous, networkId: reader?.networkId ?? '', state: 'live', readAt: this.clock.now(), problem: null, rows: turboDepthRows(answer.executable.value, answer.demand.value, watch.step) });
    });
    this.publish();
  }

  private publish(): void {
    for (const [windowId, watch] of this.poll.watchers) {
      const view = this.views.get(keyOf(watch));
      if (view !== undefined) this.windows.sendTo(windowId, 'turboDepth', view);
    }
  }
}
