// The risk guards' state in the top bar: the day's P&L against each daily loss limit and the orders
// of the last minute against the orders-per-minute limit, coloured as the limit nears
// (guard-state-model.ts). Read once, then kept by main's `guardState` pushes; hidden when no
// such limit is set.
import { createSignal, For, onCleanup, Show, type Component } from 'solid-js';
import type { GuardStateView } from '../../../../shared/ipc/views';
import { useBridge } from '../../stores/bridge-context';
import { useTerminal } from '../../stores/terminal-context';
import { guardFigures } from './guard-state-model';

export const GuardState: Component = () => {
  const api = useBridge();
  const terminal = useTerminal();
  const [view, setView] = createSignal<GuardStateView | null>(null);
  let pushed = false;
  onCleanup(
    api.onGuardState((next) => {
      pushed = true;
      setView(next);
    }),
  );
  void api.getGuardState({}).then((first) => {
    if (first.ok && !pushed) setView(first.value);
  });
  const figures = () => guardFigures(view(), terminal.store.state.markets?.markets ?? []);
  return (
    <Show when={figures().length > 0}>
      <span class="guard-state" data-testid="guard-state">
        <For each={figures()}>
          {(figure) => (
            <span class="chip guard-figure" data-testid={`guard-${figure.key.startsWith('day-pnl') ? 'day-pnl' : figure.key}`} data-tone={figure.tone} title={figure.title}>
              <b>{figure.text}</b>
            </span>
          )}
        </For>
      </span>
    </Show>
  );
};
