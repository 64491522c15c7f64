// Pushed state the trigger components read through the TerminalApi they are given: the account's
// legs (getTriggers, then the `triggers` stream), its open orders (getOrders, then `orders`) and the
// stops main trails (getProtectiveStops, then `protectiveStops`), the position TP/SL pairs it keeps
// (getPositionBrackets, then `positionBrackets`).
// Reactive (with cleanup): call inside a component or a root. A pushed value always wins over the
// answer to a request sent before it.
import { createSignal, onCleanup, type Accessor } from 'solid-js';
import type { TerminalApi } from '../../../../shared/ipc/contract';
import type { OrderView, PositionBracketView, ProtectiveStopView, TriggersSnapshot } from '../../../../shared/ipc/views';

export function createTriggerSnapshot(api: TerminalApi): Accessor<TriggersSnapshot> {
  const [snapshot, setSnapshot] = createSignal<TriggersSnapshot>({ pending: [], recent: [] });
  let pushed = false;
  onCleanup(
    api.onTriggers((next) => {
      pushed = true;
      setSnapshot(next);
    }),
  );
  void api.getTriggers({}).then((first) => {
    if (first.ok && !pushed) setSnapshot(first.value);
  });
  return snapshot;
}

export function createOpenOrders(api: TerminalApi): Accessor<readonly OrderView[]> {
  const [open, setOpen] = createSignal<readonly OrderView[]>([]);
  let pushed = false;
  onCleanup(
    api.onOrders((next) => {
      pushed = true;
      setOpen(next.open);
    }),
  );
  void api.getOrders({}).then((first) => {
    if (first.ok && !pushed) setOpen(first.value.open);
  });
  return open;
}

/** The trailing and break-even stops main manages (getProtectiveStops, then `protectiveStops`). */
export function createProtectiveStops(api: TerminalApi): Accessor<readonly ProtectiveStopView[]> {
  const [stops, setStops] = createSignal<readonly ProtectiveStopView[]>([]);
  let pushed = false;
  onCleanup(
    api.onProtectiveStops((next) => {
      pushed = true;
      setStops(next);
    }),
  );
  void api.getProtectiveStops({}).then((first) => {
    if (first.ok && !pushed) setStops(first.value);
  });
  return stops;
}

/** The take-profit / stop-loss pairs main keeps sized to a position (getPositionBrackets, then `positionBrackets`). */
export function createPositionBrackets(api: TerminalApi): Accessor<readonly PositionBracketView[]> {
  const [brackets, setBrackets] = createSignal<readonly PositionBracketView[]>([]);
  let pushed = false;
  onCleanup(
    api.onPositionBrackets((next) => {
      pushed = true;
      setBrackets(next);
    }),
  );
  void api.getPositionBrackets({}).then((first) => {
    if (first.ok && !pushed) setBrackets(first.value);
  });
  return brackets;
}
