// The margin reads that have no stream and no other reader: the pool's statistics, the tier
// versions published (GET /v1/margin/tiers/history), the activity of each Turbo Account a window
// shows, and the Turbo books' events (GET /v1/events). Read on a fixed cadence only while at least
// one window shows them, like the markets overview, and pushed to those windows after every pass.
// Each part keeps its last good answer when a read fails, marked stale with the reason; a network
// switch empties them all. The spec gives these reads no rate of their own: four reads (and one
// per account shown) every INSIGHTS_INTERVAL_MS stay far inside the aggregated reads' budget.
import type { MarginActivityEntry, MarginStatistics, Tier, TurboEventsPage } from '../../../shared/api/margin-schemas';
import type { Clock } from '../../../shared/clock';
import type { B256 } from '../../../shared/encoding/b256';
import type { ActivityRow, InsightPart, MarginInsightsView, TurboEventRow } from '../../../shared/ipc/views/margin-insights';
import type { Result } from '../../../shared/result';
import { markedStale, WatchedPoll } from '../watched-poll';
import type { WindowHub } from '../window-hub';
import { activityRows, statisticsView, tierHistory, type TierHistory } from './insight-rows';
import { TurboEventTail } from './turbo-event-tail';

export const INSIGHTS_INTERVAL_MS = 5_000;
/** Rows of activity and of events a window is sent, newest first. */
export const INSIGHT_ROWS = 50;

/** What the insights read from the active network (its REST client). */
export interface InsightsReader {
  readonly networkId: string;
  statistics(): Promise<Result<MarginStatistics>>;
  tierHistory(): Promise<Result<readonly Tier[]>>;
  activity(marginAccountId: B256): Promise<Result<readonly MarginActivityEntry[]>>;
  events(selectors: Readonly<Record<string, string>>): Promise<Result<TurboEventsPage>>;
}

function emptyPart<T>(value: T): InsightPart<T> {
  return { state: 'resyncing', readAt: null, problem: null, value };
}

export class MarginInsights {
  /** Window id -> the Turbo Account whose activity it shows (null: none). */
  private readonly poll: WatchedPoll<B256 | null>;
  private statistics = emptyPart<MarginInsightsView['statistics']['value']>(null);
  private tiers = emptyPart<TierHistory>({ rows: [], collateralAssetId: null });
  private events = emptyPart<readonly TurboEventRow[]>([]);
  private readonly activity = new Map<B256, InsightPart<readonly ActivityRow[]>>();
  private readonly eventTail = new TurboEventTail(INSIGHT_ROWS);

  constructor(
    private readonly windows: WindowHub,
    private readonly clock: Clock,
    private readonly reader: () => InsightsReader | null,
    private readonly intervalMs = INSIGHTS_INTERVAL_MS,
  ) {
    this.poll = new WatchedPoll({ windows, clock, intervalMs, pass: (current) => this.read(current), passOnWatch: 'every', unwatched: () => this.forget() });
  }

  /** A window shows the insights (and this account's activity): the latest view now, a fresh read soon. */
  watch(windowId: string, marginAccountId: B256 | null): MarginInsightsView {
    if (marginAccountId !== null && !this.activity.has(marginAccountId)) this.activity.set(marginAccountId, emptyPart([]));
    this.poll.watch(windowId, marginAccountId);
    return this.viewFor(marginAccountId);
  }

  unwatch(windowId: string): void {
    this.poll.unwatch(windowId);
  }

  /** The active network changed: what was read belongs to the previous one. */
  networkChanged(): void {
    this.poll.networkChanged();
    this.statistics = emptyPart(null);
    this.tiers = emptyPart({ rows: [], collateralAssetId: null });
    this.events = emptyPart([]);
    this.eventTail.reset();
    for (const account of this.activity.keys()) this.activity.set(account, emptyPart([]));
    this.publish();
  }

  /** One pass now (tests, and after a write that changes what the reads return). */
  refresh(): Promise<void> {
    return this.poll.refresh();
  }

  close(): void {
    this.poll.close();
  }

  viewFor(marginAccountId: B256 | null): MarginInsightsView {
    const { rows, collateralAssetId } = this.tiers.value;
    return {
      networkId: this.reader()?.networkId ?? '',
      marginAccountId,
      intervalMs: this.intervalMs,
      collateralAssetId,
      statistics: this.statistics,
      tierHistory: { ...this.tiers, value: rows },
      activity: marginAccountId === null ? { state: 'live', readAt: null, problem: null, value: [] } : (this.activity.get(marginAccountId) ?? emptyPart([])),
      events: this.events,
    };
  }

  /** The activity of an account no window shows any more is not read again. */
  private forget(): void {
    const shown = new Set(this.poll.watchers.values());
    for (const account of [...this.activity.keys()]) if (!shown.has(account)) this.activity.delete(account);
  }

  private async read(current: () => boolean): Promise<void> {
    const reader = this.reader();
    if (reader === null) {
      this.statistics = markedStale(this.statistics, 'the network is not connected');
      this.tiers = markedStale(this.tiers, 'the network is not connected');
      this.events = markedStale(this.events, 'the network is not connected');
      for (const [account, part] of this.activity) this.activity.set(account, markedStale(part, 'the network is not connected'));
      this.publish();
      return;
    }
    const accounts = [...this.activity.keys()];
    const [statistics, tiers, events, ...activity] = await Promise.all([
      reader.statistics(),
      reader.tierHistory(),
      this.eventTail.read((selectors) => reader.events(selectors)),
      ...accounts.map((account) => reader.activity(account)),
    ]);
    if (!current()) return;
    const now = this.clock.now();
    this.statistics = statistics.ok ? fresh(now, statisticsView(statistics.value)) : markedStale(this.statistics, `${statistics.code}: ${statistics.message}`);
    const history = tiers.ok ? tierHistory(tiers.value) : tiers;
    this.tiers = history.ok ? fresh(now, history.value) : markedStale(this.tiers, `${history.code}: ${history.message}`);
    this.events = events.ok ? fresh(now, events.value) : markedStale(this.events, `${events.code}: ${events.message}`);
    const collateral = this.tiers.value.collateralAssetId;
    accounts.forEach((account, index) => {
      // Dropped while the read was out (no window shows it any more).
      const previous = this.activity.get(account);
      if (previous === undefined) return;
      const answer = activity[index]!;
      const rows = answer.ok ? activityRows(answer.value, collateral, INSIGHT_ROWS) : answer;
      this.activity.set(account, rows.ok ? fresh(now, rows.value) : markedStale(previous, `${rows.code}: ${rows.message}`));
    });
    this.publish();
  }

  private publish(): void {
    for (const [windowId, account] of this.poll.watchers) this.windows.sendTo(windowId, 'marginInsights', this.viewFor(account));
  }
}

function fresh<T>(now: number, value: T): InsightPart<T> {
  return { state: 'live', readAt: now, problem: null, value };
}
