// The legs of one book as lines for a ladder or a chart, with drag-to-move: `createTriggerOverlay`
// follows the account's legs (getTriggers, then the `triggers` stream) and keeps a drag in
// progress; the host turns pointer positions into prices (a ladder row's price, a chart's
// posToVal) and calls `dragTo`, then `drop`, which sends one moveTrigger request (cancel and
// replace in one signed batch in main). While dragging, the dragged line is shown at its new price.
import { createMemo, createSignal, type Accessor } from 'solid-js';
import type { TerminalApi } from '../../../../shared/ipc/contract';
import type { PlacedTriggers, TriggersSnapshot } from '../../../../shared/ipc/views';
import type { Market } from '../../../../shared/market/market';
import type { Failure, Result } from '../../../../shared/result';
import { createPositionBrackets, createProtectiveStops, createTriggerSnapshot } from './trigger-data';
import { moveInput, snapToStep, triggerLines, type TriggerLine } from './trigger-model';

export interface TriggerDrag {
  readonly triggerId: string;
  readonly from: bigint;
  readonly to: bigint;
}

export interface TriggerOverlay {
  readonly snapshot: Accessor<TriggersSnapshot>;
  /** Pending legs of the book, a dragged one at its new price. */
  readonly lines: Accessor<readonly TriggerLine[]>;
  readonly dragging: Accessor<TriggerDrag | null>;
  /** The last failed move (code and message), until the next drag. */
  readonly failure: Accessor<Failure | null>;
  readonly busy: Accessor<boolean>;
  startDrag(triggerId: string): void;
  /** Move the dragged line to `price` (snapped onto the price step). */
  dragTo(price: bigint): void;
  /** Send the move; null when nothing was dragged or the line did not move. */
  drop(): Promise<Result<PlacedTriggers> | null>;
  cancelDrag(): void;
}

/** Reactive (with cleanup): call inside a component or a root. */
export function createTriggerOverlay(api: TerminalApi, book: { market: Accessor<Market>; turbo: Accessor<boolean> }): TriggerOverlay {
  const snapshot = createTriggerSnapshot(api);
  const [dragging, setDragging] = createSignal<TriggerDrag | null>(null);
  const [failure, setFailure] = createSignal<Failure | null>(null);
  const [busy, setBusy] = createSignal(false);

  const protective = createProtectiveStops(api);
  const brackets = createPositionBrackets(api);
  const lines = createMemo(() => {
    // A stop main trails is drawn where it is on the exchange now, named as trailing; a leg of a
    // position TP/SL main keeps sized to the position is named as the position's.
    const byLeg = new Map(protective().map((stop) => [stop.triggerId, stop]));
    const positionLegs = new Set(brackets().flatMap((bracket) => bracket.legIds));
    const drawn = triggerLines(snapshot(), book.market(), book.turbo()).map((line) => {
      const stop = byLeg.get(line.triggerId);
      if (stop === undefined) return positionLegs.has(line.triggerId) ? { ...line, managed: 'position' as const, label: `Position ${line.label}` } : line;
      const managed = stop.distance === null ? ('break-even' as const) : ('trailing' as const);
      return { ...line, managed, label: `${line.label} · ${managed}` };
    });
    const drag = dragging();
    if (drag === null) return drawn;
    return drawn.map((line) => (line.triggerId === drag.triggerId ? { ...line, price: drag.to } : line));
  });

  return {
    snapshot,
    lines,
    dragging,
    failure,
    busy,
    startDrag(triggerId) {
      const line = triggerLines(snapshot(), book.market(), book.turbo()).find((candidate) => candidate.triggerId === triggerId);
      if (line === undefined || busy()) return;
      setFailure(null);
      setDragging({ triggerId, from: line.price, to: line.price });
    },
    dragTo(price) {
      const drag = dragging();
      if (drag === null) return;
      setDragging({ ...drag, to: snapToStep(book.market(), price) });
    },
    async drop() {
      const drag = dragging();
      setDragging(null);
      if (drag === null || drag.to === drag.from) return null;
      setBusy(true);
      const moved = await api.moveTrigger(moveInput(book.market(), book.turbo(), drag, drag.to));
      setBusy(false);
      if (!moved.ok) setFailure(moved);
      return moved;
    },
    cancelDrag() {
      setDragging(null);
    },
  };
}
