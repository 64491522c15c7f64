// One source of the positions per window. Were the ladder's foot, the chart's position line and the
// Positions panel to poll main each on its own cadence, at one moment the same position could show
// three different unrealized P&L figures (each valued at the mark of its own last read). So they
// read one signal: refreshed on every fill (a fill event, a fill in the
// orders snapshot, an order's filled quantity that moved, an order that left the open list), on a
// cadence while any panel uses it, and by any caller that needs a read begun now (a flatten, a
// reduce-only cap); every read's answer, from whichever caller, is what every panel shows, unless
// a read begun later has answered already. An order placed or amended with nothing filled moves no
// position and does not read: each read costs main a read of every book's order history, and a
// trader placing several orders a second would make main read them several times a second (dozens
// of history pages a second, most of main's garbage).
import { createSignal, type Accessor } from 'solid-js';
import type { TerminalApi } from '../../../shared/ipc/contract';
import type { OrdersSnapshot, PositionsView } from '../../../shared/ipc/views';
import type { Result } from '../../../shared/result';

export const POSITIONS_REFRESH_MS = 3_000;

export interface PositionsSource {
  /** The latest answer (null before the first). */
  readonly view: Accessor<PositionsView | null>;
  /** The latest read's failure, `CODE: message`, or null once a read succeeds. */
  readonly error: Accessor<string | null>;
  /** When the shown answer was read (the window's clock), or null. */
  readonly readAt: Accessor<number | null>;
  /**
   * A fill (or an order's filled quantity) was seen that no answer shown yet includes: the positions
   * shown are behind the account until a read begun after it answers. Panels mark their position
   * figures stale meanwhile.
   */
  readonly behind: Accessor<boolean>;
  /** A read begun now; its answer is shown everywhere unless a later read answered first. */
  refresh(): Promise<Result<PositionsView>>;
  /** A panel starts using the source (reads on a cadence and on order/fill changes while any does); call the result to stop. */
  use(): () => void;
  dispose(): void;
}

/**
 * What of an orders snapshot a position depends on: the newest fills, and each open order's filled
 * quantity. Two snapshots with the same key moved no position between them.
 */
export function fillsKey(snapshot: Pick<OrdersSnapshot, 'open' | 'fills'>): { readonly fills: string; readonly filled: ReadonlyMap<string, bigint> } {
  const newest = snapshot.fills[0];
  return {
    fills: newest === undefined ? '0' : `${snapshot.fills.length}:${newest.orderId}:${newest.time}:${newest.quantity}:${newest.price}`,
    filled: new Map(snapshot.open.map((order) => [`${order.account}:${order.orderId}`, order.filled])),
  };
}

/** Whether a position may have moved from one orders snapshot to the next. */
export function fillsMoved(before: ReturnType<typeof fillsKey> | null, after: ReturnType<typeof fillsKey>): boolean {
  if (before === null || before.fills !== after.fills) return true;
  for (const [order, filled] of before.filled) {
    // An order that left the open list may have filled to the end; one whose filled moved did fill.
    if (after.filled.get(order) !== filled) return true;
  }
  // A new order that arrived with something filled (it crossed at once).
  for (const [order, filled] of after.filled) if (!before.filled.has(order) && filled > 0n) return true;
  return false;
}

export function createPositionsSource(api: Pick<TerminalApi, 'getPositions' | 'onOrders' | 'onFill'>, now: () => number, refreshMs = POSITIONS_REFRESH_MS): PositionsSource {
  const [view, setView] = createSignal<PositionsView | null>(null);
  const [error, setError] = createSignal<string | null>(null);
  const [readAt, setReadAt] = createSignal<number | null>(null);
  const [behind, setBehind] = createSignal(false);
  let begun = 0;
  let shown = 0;
  // The first read that includes the latest fill seen is the one begun after it (serial above this).
  let fillSeenAfter = 0;
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
        if (serial > fillSeenAfter) setBehind(false);
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

  const filled = () => {
    fillSeenAfter = begun;
    setBehind(true);
  };

  const start = () => {
    const timer = setInterval(() => void background(), refreshMs);
    let seen: ReturnType<typeof fillsKey> | null = null;
    const onOrders = (snapshot: OrdersSnapshot) => {
      const key = fillsKey(snapshot);
      const moved = fillsMoved(seen, key);
      const first = seen === null;
      seen = key;
      if (moved) {
        if (!first) filled();
        void background();
      }
    };
    stops = [
      () => clearInterval(timer),
      api.onOrders(onOrders),
      api.onFill(() => {
        filled();
        void background();
      }),
    ];
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
    behind,
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
