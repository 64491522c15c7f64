// Freshness of a panel's data: every live panel says, in place, whether what it shows is
// the exchange's current state. Main publishes per-source freshness (shared/ipc/views/freshness.ts);
// a panel picks the sources it depends on, adds what only it knows (a book frame that says
// resyncing, a chart still loading), and this primitive ages the result once a second from the
// window's own clock: a source main last called live turns stale here when no newer word comes,
// even if main itself went quiet. Panels put `state()` on their root as `data-freshness`, dim their
// values when it is not live (the `fresh-dim` class, styles.css), and show <FreshnessBadge>.
import { createMemo, createSignal, onCleanup, Show, type Accessor, type Component } from 'solid-js';
import type { Clock, TimerHandle } from '../../../shared/clock';
import { worstFreshness, type Freshness, type FreshnessView, type SourceFreshness } from '../../../shared/ipc/views';

/** The window's clock (tests pass a ManualClock). */
export const windowClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => window.setTimeout(callback, ms) as unknown as TimerHandle,
  clearTimeout: (handle) => window.clearTimeout(handle as unknown as number),
};

export interface FreshnessInput {
  /** The latest view from main, and when (window clock) it arrived. */
  readonly view: Accessor<FreshnessView | null>;
  readonly receivedAt: Accessor<number>;
  readonly clock: Clock;
}

/** What only the panel knows: null when it has nothing to add. */
export interface LocalFreshness {
  readonly state: Freshness;
  readonly detail: string | null;
}

export interface FreshnessMark {
  readonly state: Accessor<Freshness>;
  readonly live: Accessor<boolean>;
  /** Age of the newest evidence that the data is current, now; null when there is none. */
  readonly ageMs: Accessor<number | null>;
  /** `live`, `stale 12 s`, `resyncing`, `disconnected`. */
  readonly label: Accessor<string>;
  readonly detail: Accessor<string | null>;
}

const TICK_MS = 1000;

export function freshnessLabel(state: Freshness, ageMs: number | null): string {
  if (state === 'stale') return ageMs === null ? 'stale' : `stale ${Math.floor(ageMs / 1000)} s`;
  return state;
}

/**
 * `sources` picks the panel's sources from main's view (a missing one counts as resyncing: it is
 * being subscribed); the result is the worst of them and of `local`.
 */
export function createFreshness(input: FreshnessInput, sources: (view: FreshnessView) => readonly (SourceFreshness | null | undefined)[], local?: Accessor<LocalFreshness | null>): FreshnessMark {
  const [now, setNow] = createSignal(input.clock.now());
  let timer: TimerHandle | null = null;
  const tick = () => {
    setNow(input.clock.now());
    timer = input.clock.setTimeout(tick, TICK_MS);
  };
  timer = input.clock.setTimeout(tick, TICK_MS);
  onCleanup(() => {
    if (timer !== null) input.clock.clearTimeout(timer);
  });

  const picked = createMemo(() => {
    const view = input.view();
    if (view === null) return { view, list: [] as SourceFreshness[], missing: true };
    const list: SourceFreshness[] = [];
    let missing = false;
    for (const source of sources(view)) {
      if (source) list.push(source);
      else missing = true;
    }
    return { view, list, missing };
  });

  const computed = createMemo(() => {
    const { view, list, missing } = picked();
    const elapsed = Math.max(0, now() - input.receivedAt());
    if (view === null) return { state: 'disconnected' as Freshness, ageMs: null, detail: 'connecting to main' };
    const aged = list.map((source) => {
      const ageMs = source.ageMs === null ? null : source.ageMs + elapsed;
      // Main's last word was live, but no newer one came within the cadence: stale here.
      if (source.state === 'live' && ageMs !== null && ageMs > view.staleAfterMs) return { state: 'stale' as Freshness, ageMs, detail: 'no update within the expected cadence' };
      return { state: source.state, ageMs, detail: source.detail };
    });
    const own = local?.() ?? null;
    const states = [...aged.map((source) => source.state), ...(missing ? (['resyncing'] as Freshness[]) : []), ...(own ? [own.state] : [])];
    const state = worstFreshness(states);
    const ages = aged.map((source) => source.ageMs).filter((age): age is number => age !== null);
    const ageMs = ages.length === 0 ? null : Math.max(...ages);
    const detail =
      state === 'live'
        ? null
        : (aged.find((source) => source.state === state)?.detail ?? (own?.state === state ? own.detail : null) ?? (missing ? 'subscribing' : null));
    return { state, ageMs, detail };
  });

  // Each figure its own memo: a reader is told only when its figure changed, not on every push of
  // main's view or every second's tick (the age moves; a live panel's state and label do not).
  const state = createMemo(() => computed().state);
  const live = createMemo(() => state() === 'live');
  const ageMs = createMemo(() => computed().ageMs);
  const label = createMemo(() => freshnessLabel(state(), state() === 'stale' ? ageMs() : null));
  const detail = createMemo(() => computed().detail);
  return { state, live, ageMs, label, detail };
}

/** A market's book or trade stream in main's view (undefined: not subscribed yet). */
export function marketSource(view: FreshnessView, marketId: string, turbo: boolean, kind: 'book' | 'trades'): SourceFreshness | undefined {
  return view.markets.find((entry) => entry.marketId === marketId && entry.turbo === turbo)?.[kind];
}

/** The mark shown in place when the data is not live ("stale 12 s", "resyncing", "disconnected"). */
export const FreshnessBadge: Component<{ mark: FreshnessMark; testId?: string }> = (props) => (
  <Show when={!props.mark.live()}>
    <span class="freshness-badge" data-testid={props.testId ?? 'freshness-badge'} data-state={props.mark.state()} title={props.mark.detail() ?? ''} role="status">
      {props.mark.label()}
    </span>
  </Show>
);
