// The newest Turbo book events (GET /v1/events), followed page by page. The spec shows neither the
// query nor the envelope; docs/protocol.md (Margin insights) reads the sandbox's documented ones:
// `after` (a sequence, exclusive), `count` (at most 500), oldest first, `{events, next_after, latest}`.
// `type` (a comma list). Only the events a trader reads are asked for (TRADER_EVENT_TYPES): the
// house's quote placements and completions come by the dozen with every re-quote and would push
// the executions out of the tail; the overlay's executable depth shows those quotes instead.
// The first read asks for one event to learn `latest` and starts LOOKBACK sequences before it, so
// the terminal never walks a long history it will not show. An answer without `latest` (a bare
// array) is taken as the whole tail each time.
import type { TurboEventsPage } from '../../../shared/api/margin-schemas';
import type { TurboEventRow } from '../../../shared/ipc/views/margin-insights';
import { ok, type Result } from '../../../shared/result';
import { eventRow } from './insight-rows';

export const EVENTS_PAGE = 500;
export const TRADER_EVENT_TYPES = ['SharedExecution', 'SharedTradePerformed', 'SidecarChanged'] as const;
/** Pages read per pass at most: a burst beyond them is skipped to the newest (the view keeps `keep`). */
const MAX_PAGES = 4;
/**
 * How many sequences (of every type) a read looks back at most: what MAX_PAGES pages hold even
 * when every event is one asked for, so one pass always reaches the newest.
 */
export const LOOKBACK = BigInt(MAX_PAGES * EVENTS_PAGE);
const TYPES = TRADER_EVENT_TYPES.join(',');

export type EventsFetch = (selectors: Readonly<Record<string, string>>) => Promise<Result<TurboEventsPage>>;

export class TurboEventTail {
  /** The last sequence read (exclusive start of the next page); null before the first answer with one. */
  private cursor: bigint | null = null;
  private rows: TurboEventRow[] = [];

  constructor(private readonly keep: number) {}

  reset(): void {
    this.cursor = null;
    this.rows = [];
  }

  /** Newest first, at most `keep`. */
  current(): readonly TurboEventRow[] {
    return this.rows;
  }

  async read(fetch: EventsFetch): Promise<Result<readonly TurboEventRow[]>> {
    if (this.cursor === null) {
      const probe = await fetch({ count: '1' });
      if (!probe.ok) return probe;
      if (probe.value.latest === null) {
        const whole = await fetch({ type: TYPES, count: String(EVENTS_PAGE) });
        if (!whole.ok) return whole;
        this.rows = whole.value.events.map(eventRow).reverse().slice(0, this.keep);
        return ok(this.rows);
      }
      const latest = probe.value.latest;
      this.cursor = latest > LOOKBACK ? latest - LOOKBACK : 0n;
    }
    for (let page = 0; page < MAX_PAGES; page++) {
      const answer = await fetch({ after: this.cursor.toString(), type: TYPES, count: String(EVENTS_PAGE) });
      if (!answer.ok) return answer;
      const { events, nextAfter, latest } = answer.value;
      const fresh = events.map(eventRow).filter((row) => row.sequence === null || row.sequence > this.cursor!);
      this.rows = [...fresh.reverse(), ...this.rows].slice(0, this.keep);
      const last = fresh[0]?.sequence ?? null;
      this.cursor = nextAfter ?? last ?? this.cursor;
      if (events.length < EVENTS_PAGE) break;
      // Still further behind than one pass reads: skip to the newest rather than fall further behind.
      if (page === MAX_PAGES - 1 && latest !== null && latest - this.cursor > LOOKBACK) this.cursor = latest - LOOKBACK;
    }
    return ok(this.rows);
  }
}
