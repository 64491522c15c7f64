// One book subscription of a panel: subscribe on mount and when the market, book or precision
// changes, tell main how many levels the panel shows (updateBookView), unsubscribe on cleanup.
// Frames arrive up to 100 times a second; the panel sees at most the latest one per animation frame.
import { createEffect, createMemo, createSignal, on, onCleanup, untrack, type Accessor } from 'solid-js';
import type { TerminalApi } from '../../../../shared/ipc/contract';
import type { BookFrame, FlowWindow } from '../../../../shared/ipc/views';
import type { FrameScheduler } from '../../lib/frame-scheduler';
import { retryWhileNotReady, type RetryHandle } from '../../lib/retry';

export interface BookFeedOptions {
  readonly marketId: string;
  readonly turbo: boolean;
  readonly precision: bigint;
  readonly levels: number;
  /** How far back the order flow counts (the ladder's choice); session when not given. */
  readonly flowWindow?: FlowWindow;
}

export interface BookFeed {
  readonly frame: Accessor<BookFrame | null>;
  /** Why there is no book (the subscription was refused), or null. */
  readonly problem: Accessor<string | null>;
}

let feedSerial = 0;

export function createBookFeed(api: TerminalApi, frames: FrameScheduler, options: Accessor<BookFeedOptions | null>): BookFeed {
  const [frame, setFrame] = createSignal<BookFrame | null>(null, { equals: false });
  const [problem, setProblem] = createSignal<string | null>(null);
  const key = `book-${++feedSerial}`;
  let subscriptionId: string | null = null;
  let latest: BookFrame | null = null;
  let retry: RetryHandle | null = null;
  let generation = 0;
  // Frames that arrive before subscribeBook's reply names their subscription.
  const early = new Map<string, BookFrame>();

  const show = (next: BookFrame) => {
    latest = next;
    frames.schedule(key, () => setFrame(latest));
  };

  const stopListening = api.onBook((next) => {
    if (next.subscriptionId === subscriptionId) show(next);
    else if (subscriptionId === null && retry !== null) {
      early.set(next.subscriptionId, next);
      if (early.size > 8) early.delete(early.keys().next().value as string);
    }
  });

  const release = () => {
    retry?.stop();
    retry = null;
    frames.cancel(key);
    if (subscriptionId !== null) void api.unsubscribe({ subscriptionId });
    subscriptionId = null;
    early.clear();
  };

  // Memos, so a change of anything else in the options (levels) never resubscribes.
  const identityOf = createMemo(() => {
    const current = options();
    return current ? `${current.marketId}|${current.turbo}|${current.precision}` : null;
  });
  const levelsOf = createMemo(() => options()?.levels);
  const flowWindowOf = createMemo(() => options()?.flowWindow);

  createEffect(
    on(
      identityOf,
      (identity) => {
        release();
        setFrame(null);
        setProblem(null);
        const current = untrack(options);
        if (identity === null || current === null) return;
        const mine = ++generation;
        retry = retryWhileNotReady(
          () => api.subscribeBook({ marketId: current.marketId, turbo: current.turbo, precision: current.precision, levels: current.levels, ...(current.flowWindow === undefined ? {} : { flowWindow: current.flowWindow }) }),
          (result) => {
            if (mine !== generation) {
              if (result.ok) void api.unsubscribe({ subscriptionId: result.value.subscriptionId });
              return;
            }
            if (!result.ok) {
              setProblem(result.message);
              return;
            }
            setProblem(null);
            subscriptionId = result.value.subscriptionId;
            const first = early.get(subscriptionId);
            early.clear();
            if (first) show(first);
          },
        );
      },
    ),
  );

  createEffect(
    on(
      [levelsOf, flowWindowOf],
      ([levels, flowWindow]) => {
        if (subscriptionId !== null && levels !== undefined) void api.updateBookView({ subscriptionId, levels, ...(flowWindow === undefined ? {} : { flowWindow }) });
      },
      { defer: true },
    ),
  );

  onCleanup(() => {
    generation++;
    release();
    stopListening();
  });

  return { frame, problem };
}
