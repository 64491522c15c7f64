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
import { PollLoop } from '../../../shared/poll-loop';
import type { Result } from '../../../shared/result';
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
  private readonly watchers = new Map<string, B256 | null>();
  private statistics = emptyPart<MarginInsightsView['statistics']['value']>(null);
  private tiers = emptyPart<TierHistory>({ rows: [], collateralAssetId: null });
  private events = emptyPart<readonly TurboEventRow[]>([]);
  private readonly activity = new Map<B256, InsightPart<readonly ActivityRow[]>>();
  private readonly eventTail = new TurboEventTail(INSIGHT_ROWS);
  private loop: PollLoop | null = null;
  /** Increases with every network change: a read of an earlier network is dropped. */
  private generation = 0;
  private readonly stopListening: () => void;

  constructor(
    private readonly windows: WindowHub,
    private readonly clock: Clock,
    private readonly reader: () => InsightsReader | null,
    private readonly intervalMs = INSIGHTS_INTERVAL_MS,
  ) {
    this.stopListening = windows.onWindowClosed((windowId) => this.unwatch(windowId));
  }

  /** A window shows the insights (and this account's activity): the latest view now, a fresh read soon. */
  watch(windowId: string, marginAccountId: B256 | null): MarginInsightsView {
    this.watchers.set(windowId, marginAccountId);
    if (marginAccountId !== null && !this.activity.has(marginAccountId)) this.activity.set(marginAccountId, emptyPart([]));
    if (this.loop === null) {
      this.loop = new PollLoop(this.clock, this.intervalMs, () => this.read());
      this.loop.start();
    }
    this.loop.schedule(0);
    return this.viewFor(marginAccountId);
  }

  unwatch(windowId: string): void {
    this.watchers.delete(windowId);
    const shown = new Set(this.watchers.values());
    for (const account of [...this.activity.keys()]) if (!shown.has(account)) this.activity.delete(account);
    if (this.watchers.size === 0) {
      this.loop?.stop();
      this.loop = null;
    }
  }

  /** The active network changed: what was read belongs to the previous one. */
  networkChanged(): void {
    this.generation++;
    this.statistics = emptyPart(null);
    this.tiers = emptyPart({ rows: [], collateralAssetId: null });
    this.events = emptyPart([]);
    this.eventTail.reset();
    for (const account of this.activity.keys()) this.activity.set(account, emptyPart([]));
    this.publish();
    this.loop?.schedule(0);
  }

  /** One pass now (tests, and after a write that changes what the reads return). */
  refresh(): Promise<void> {
    return this.loop?.poll() ?? Promise.resolve();
  }

  close(): void {
    this.stopListening();
    this.loop?.stop();
    this.loop = null;
    this.watchers.clear();
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

  private async read(): Promise<void> {
    const reader = this.reader();
    const generation = this.generation;
    if (reader === null) {
      this.statistics = failed(this.statistics, 'the network is not connected');
      this.tiers = failed(this.tiers, 'the network is not connected');
      this.events = failed(this.events, 'the network is not connected');
      for (const [account, part] of this.activity) this.activity.set(account, failed(part, 'the network is not connected'));
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
    if (generation !== this.generation) return;
    const now = this.clock.now();
    this.statistics = statistics.ok ? fresh(now, statisticsView(statistics.value)) : failed(this.statistics, `${statistics.code}: ${statistics.message}`);
    const history = tiers.ok ? tierHistory(tiers.value) : tiers;
    this.tiers = history.ok ? fresh(now, history.value) : failed(this.tiers, `${history.code}: ${history.message}`);
    this.events = events.ok ? fresh(now, events.value) : failed(this.events, `${events.code}: ${events.message}`);
    const collateral = this.tiers.value.collateralAssetId;
    accounts.forEach((account, index) => {
      // Dropped while the read was out (no window shows it any more).
      const previous = this.activity.get(account);
      if (previous === undefined) return;
      const answer = activity[index]!;
      const rows = answer.ok ? activityRows(answer.value, collateral, INSIGHT_ROWS) : answer;
      this.activity.set(account, rows.ok ? fresh(now, rows.value) : failed(previous, `${rows.code}: ${rows.message}`));
    });
    this.publish();
  }

  private publish(): void {
    for (const [windowId, account] of this.watchers) this.windows.sendTo(windowId, 'marginInsights', this.viewFor(account));
  }
}

function fresh<T>(now: number, value: T): InsightPart<T> {
  return { state: 'live', readAt: now, problem: null, value };
}

/** The previous answer kept, marked stale (or still resyncing when there never was one). */
function failed<T>(part: InsightPart<T>, problem: string): InsightPart<T> {
  return { ...part, state: part.readAt === null ? 'resyncing' : 'stale', problem };
}
