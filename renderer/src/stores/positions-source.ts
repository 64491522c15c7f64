// One source of the positions per window. The ladder's foot, the chart's position line and the
// Positions panel used to poll main each on its own cadence (3, 5 and 15 s), so at one moment the
// same position could show three different unrealized P&L figures (each valued at the mark of its
// own last read). Now they read one signal: refreshed on every order or fill change, on a cadence
// while any panel uses it, and by any caller that needs a read begun now (a flatten, a
// reduce-only cap); every read's answer, from whichever caller, is what every panel shows, unless
// a read begun later has answered already.
import { createSignal, type Accessor } from 'solid-js';
import type { TerminalApi } from '../../../shared/ipc/contract';
import type { PositionsView } from '../../../shared/ipc/views';
import type { Result } from '../../../shared/result';

export const POSITIONS_REFRESH_MS = 3_000;

export interface PositionsSource {
  /** The latest answer (null before the first). */
  readonly view: Accessor<PositionsView | null>;
  /** The latest read's failure, `CODE: message`, or null once a read succeeds. */
  readonly error: Accessor<string | null>;
  /** When the shown answer was read (the window's clock), or null. */
  readonly readAt: Accessor<number | null>;
  /** A read begun now; its answer is shown everywhere unless a later read answered first. */
  refresh(): Promise<Result<PositionsView>>;
  /** A panel starts using the source (reads on a cadence and on order/fill changes while any does); call the result to stop. */
  use(): () => void;
  dispose(): void;
}

export function createPositionsSource(api: Pick<TerminalApi, 'getPositions' | 'onOrders' | 'onFill'>, now: () => number, refreshMs = POSITIONS_REFRESH_MS): PositionsSource {
  const [view, setView] = createSignal<PositionsView | null>(null);
  const [error, setError] = createSignal<string | null>(null);
  const [readAt, setReadAt] = createSignal<number | null>(null);
  let begun = 0;
  let shown = 0;
  let users = 0;
  let stops: (() => void)[] = [];
  // One read in flight from the cadence and the events at a time; another asked meanwhile runs
  // once after it (a burst of fills reads twice, not once per fill).
  let inFlight = false;
  let again = false;

  const refresh = async (): Promise<Result<PositionsView>> => {
    const serial = ++begun;
    const started = now();
    const read = await api.getPositions({});
    if (serial > shown) {
      shown = serial;
      if (read.ok) {
        setView(read.value);
        setError(null);
        setReadAt(started);
      } else setError(`${read.code}: ${read.message}`);
    }
    return read;
  };

  const background = async () => {
    if (inFlight) {
      again = true;
      return;
    }
    inFlight = true;
    try {
      await refresh();
    } finally {
      inFlight = false;
    }
    if (again) {
      again = false;
      void background();
    }
  };

  const start = () => {
    const timer = setInterval(() => void background(), refreshMs);
    stops = [() => clearInterval(timer), api.onOrders(() => void background()), api.onFill(() => void background())];
    void background();
  };
  const stop = () => {
    for (const each of stops) each();
    stops = [];
  };

  return {
    view,
    error,
    readAt,
    refresh,
    use: () => {
      if (users++ === 0) start();
      let done = false;
      return () => {
        if (done) return;
        done = true;
        if (--users === 0) stop();
      };
    },
    dispose: () => {
      users = 0;
      stop();
    },
  };
}
