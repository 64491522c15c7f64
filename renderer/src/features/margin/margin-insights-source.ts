// The window's follower of main's margin insights for the account the panel shows: main is asked to
// watch (again whenever the account changes: a window watches one account, the last asked) and to
// stop when the panel goes.
import { createEffect, createSignal, on, onCleanup, type Accessor } from 'solid-js';
import type { TerminalApi } from '../../../../shared/ipc/contract';
import type { MarginInsightsView } from '../../../../shared/ipc/views/margin-insights';
import { windowClock } from '../../lib/freshness';
import { retryWhileNotReady, type RetryHandle } from '../../lib/retry';

export interface MarginInsightsSource {
  readonly view: Accessor<MarginInsightsView | null>;
  /** When (window clock) the latest view arrived. */
  readonly receivedAt: Accessor<number>;
  /** Why main could not be asked, else null. */
  readonly problem: Accessor<string | null>;
}

export function createMarginInsightsSource(api: TerminalApi, account: Accessor<string | null>): MarginInsightsSource {
  const [view, setView] = createSignal<MarginInsightsView | null>(null);
  const [receivedAt, setReceivedAt] = createSignal(windowClock.now());
  const [problem, setProblem] = createSignal<string | null>(null);
  const accept = (next: MarginInsightsView) => {
    // A view of the account asked before this one is not this panel's.
    if (next.marginAccountId !== account()) return;
    setView(next);
    setReceivedAt(windowClock.now());
  };
  const stop = api.onMarginInsights(accept);
  let retry: RetryHandle | null = null;
  createEffect(
    on(account, (marginAccountId) => {
      retry?.stop();
      setView(null);
      retry = retryWhileNotReady(
        () => api.watchMarginInsights({ marginAccountId }),
        (result) => {
          setProblem(result.ok ? null : result.message);
          if (result.ok) accept(result.value);
        },
      );
    }),
  );
  onCleanup(() => {
    stop();
    retry?.stop();
    void api.unwatchMarginInsights({});
  });
  return { view, receivedAt, problem };
}
