// The window's one follower of main's markets overview: the overview panel and the market bar both
// read it, and main is asked to follow (and to stop) once per window, however many read it.
import { createRoot, createSignal, getOwner, onCleanup, type Accessor } from 'solid-js';
import type { TerminalApi } from '../../../../shared/ipc/contract';
import type { MarketOverviewRow, MarketOverviewView } from '../../../../shared/ipc/views';
import { windowClock } from '../../lib/freshness';
import { retryWhileNotReady, type RetryHandle } from '../../lib/retry';

export interface OverviewSource {
  readonly view: Accessor<MarketOverviewView | null>;
  /** When (window clock) the latest view arrived. */
  readonly receivedAt: Accessor<number>;
  /** Why main could not be asked (the request's failure), else null. */
  readonly problem: Accessor<string | null>;
  row(marketId: string): MarketOverviewRow | null;
  /** The market's Turbo book's row; null where it has none or main has not read it. */
  turboRow(marketId: string): MarketOverviewRow | null;
}

interface Shared {
  readonly source: OverviewSource;
  users: number;
  release(): void;
}

const shared = new WeakMap<TerminalApi, Shared>();

function start(api: TerminalApi): Shared {
  return createRoot((dispose) => {
    const [view, setView] = createSignal<MarketOverviewView | null>(null);
    const [receivedAt, setReceivedAt] = createSignal(windowClock.now());
    const [problem, setProblem] = createSignal<string | null>(null);
    const accept = (next: MarketOverviewView) => {
      setView(next);
      setReceivedAt(windowClock.now());
    };
    const stop = api.onMarketOverview(accept);
    const retry: RetryHandle = retryWhileNotReady(
      () => api.watchMarketOverview({}),
      (result) => {
        setProblem(result.ok ? null : result.message);
        if (result.ok) accept(result.value);
      },
    );
    const source: OverviewSource = {
      view,
      receivedAt,
      problem,
      row: (marketId) => view()?.rows.find((row) => row.marketId === marketId) ?? null,
      turboRow: (marketId) => view()?.turboRows?.find((row) => row.marketId === marketId) ?? null,
    };
    return {
      source,
      users: 0,
      release() {
        stop();
        retry.stop();
        void api.unwatchMarketOverview({});
        dispose();
      },
    };
  });
}

/** Follow the overview for as long as the calling component lives. */
export function followOverview(api: TerminalApi): OverviewSource {
  let entry = shared.get(api);
  if (!entry) {
    entry = start(api);
    shared.set(api, entry);
  }
  entry.users++;
  const held = entry;
  if (getOwner()) {
    onCleanup(() => {
      held.users--;
      if (held.users === 0) {
        shared.delete(api);
        held.release();
      }
    });
  }
  return held.source;
}
