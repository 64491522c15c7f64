// The rate-limit budget left, per limiter; the chip shows the tightest one (its name only where
// the top bar has room: every limiter is in the tooltip).
import { createMemo, For, Show, type Component } from 'solid-js';
import { useTerminal } from '../../stores/terminal-context';

function windowText(windowMs: number): string {
  return windowMs >= 60_000 ? `${windowMs / 60_000} min` : `${windowMs / 1000} s`;
}

export const RateLimits: Component = () => {
  const terminal = useTerminal();
  const tightest = createMemo(() => {
    let best: (typeof terminal.store.state.rateLimits)[number] | null = null;
    for (const limit of terminal.store.state.rateLimits) {
      if (!best || limit.remaining * best.capacity < best.remaining * limit.capacity) best = limit;
    }
    return best;
  });
  const title = () =>
    terminal.store.state.rateLimits.map((limit) => `${limit.limiter}: ${limit.remaining} of ${limit.capacity} per ${windowText(limit.windowMs)}${limit.queued > 0 ? `, ${limit.queued} queued` : ''}`).join('\n') ||
    (terminal.store.state.problems.rateLimits ?? 'No rate-limit budget reported yet');
  return (
    <span class="chip" data-testid="rate-limits" title={title()}>
      Budget
      <Show when={tightest()} fallback={<b>—</b>}>
        {(limit) => (
          <>
            <span class="rate-meter" aria-hidden="true">
              <For each={Array.from({ length: Math.min(limit().capacity, 10) }, (_, index) => index)}>
                {(index) => <i classList={{ used: index >= Math.round((limit().remaining / Math.max(1, limit().capacity)) * Math.min(limit().capacity, 10)) }} style={{ height: `${6 + (index % 2) * 2}px` }} />}
              </For>
            </span>
            <b data-testid="rate-limit-remaining">
              {limit().remaining}/{limit().capacity}
            </b>
            <span class="rate-limiter">{limit().limiter}</span>
            <Show when={limit().queued > 0}>
              <span class="warning">{limit().queued} queued</span>
            </Show>
          </>
        )}
      </Show>
    </span>
  );
};
