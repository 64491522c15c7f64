// The ladder's Turbo depth overlay: while it is on, main reads the Turbo book's executable and
// demand depth for this ladder's market and row step and pushes rows already grouped by the
// ladder's rule (main/services/market-data/turbo-depth-overlay.ts). Here they are only indexed by
// row price, once per push (every few seconds), so a row looks its figures up and nothing is
// computed per frame.
import { createEffect, createMemo, createSignal, on, onCleanup, type Accessor } from 'solid-js';
import type { TerminalApi } from '../../../../shared/ipc/contract';
import type { TurboDepthRow, TurboDepthView } from '../../../../shared/ipc/views/margin-insights';
import type { LocalFreshness } from '../../lib/freshness';
import { windowClock } from '../../lib/freshness';

/** Reads missed before the ladder calls the overlay stale on its own. */
const MISSED_READS = 3;

export interface TurboDepthOverlaySource {
  readonly view: Accessor<TurboDepthView | null>;
  /** The row at a ladder row's price (its key), or undefined when the Turbo book has none there. */
  at(priceKey: string): TurboDepthRow | undefined;
  /** null while live; else why the figures are not current. */
  readonly freshness: (nowMs: number) => LocalFreshness | null;
}

export function createTurboDepthOverlay(api: TerminalApi, watch: Accessor<{ readonly marketId: string; readonly step: bigint } | null>): TurboDepthOverlaySource {
  const [view, setView] = createSignal<TurboDepthView | null>(null);
  const [receivedAt, setReceivedAt] = createSignal(windowClock.now());
  const [problem, setProblem] = createSignal<string | null>(null);
  const current = () => watch();
  const accept = (next: TurboDepthView) => {
    const wanted = current();
    // A view of a market or step asked before this one is not this ladder's.
    if (wanted === null || next.marketId !== wanted.marketId.toLowerCase() || next.step !== wanted.step) return;
    setView(next);
    setReceivedAt(windowClock.now());
  };
  const stop = api.onTurboDepth(accept);
  let watching = false;
  createEffect(
    on(
      () => {
        const wanted = watch();
        return wanted === null ? null : `${wanted.marketId}|${wanted.step}`;
      },
      (key) => {
        setView(null);
        const wanted = watch();
        if (key === null || wanted === null) {
          if (watching) void api.unwatchTurboDepth({});
          watching = false;
          return;
        }
        watching = true;
        void api.watchTurboDepth({ marketId: wanted.marketId, step: wanted.step }).then((result) => {
          setProblem(result.ok ? null : result.message);
          if (result.ok) accept(result.value);
        });
      },
    ),
  );
  onCleanup(() => {
    stop();
    if (watching) void api.unwatchTurboDepth({});
  });
  const byPrice = createMemo(() => new Map((view()?.rows ?? []).map((row) => [row.price.toString(), row])));
  return {
    view,
    at: (priceKey) => byPrice().get(priceKey),
    freshness: (nowMs) => {
      const shown = view();
      if (problem() !== null) return { state: 'resyncing', detail: problem()! };
      if (shown === null) return { state: 'resyncing', detail: 'asking main for the Turbo depth' };
      if (shown.state === 'resyncing') return { state: 'resyncing', detail: shown.problem ?? 'first read of the Turbo depth' };
      if (shown.state === 'stale') return { state: 'stale', detail: shown.problem ?? 'the last read failed' };
      if (nowMs - receivedAt() > MISSED_READS * shown.intervalMs) return { state: 'stale', detail: `no read for ${Math.floor((nowMs - receivedAt()) / 1000)} s` };
      return null;
    },
  };
}
