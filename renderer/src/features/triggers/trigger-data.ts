// Pushed state the trigger components read through the TerminalApi they are given: the account's
// legs (getTriggers, then the `triggers` stream) and its open orders (getOrders, then `orders`).
// Reactive (with cleanup): call inside a component or a root. A pushed value always wins over the
// answer to a request sent before it.
import { createSignal, onCleanup, type Accessor } from 'solid-js';
import type { TerminalApi } from '../../../../shared/ipc/contract';
import type { OrderView, TriggersSnapshot } from '../../../../shared/ipc/views';

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
