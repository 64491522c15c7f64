// Browser host: windows main prepared (by a layout, or the last session) that no tab shows yet. A
// browser opens a tab only on a click, so each gets its button here; "keep here" docks it instead.
import { For, Show, type Component } from 'solid-js';
import { pendingWindows } from './desk-model';
import { useDesk } from './desk-context';
import { panelTitle } from './panel-registry';

export const PendingWindows: Component = () => {
  const desk = useDesk();
  const pending = () => pendingWindows(desk.state());
  return (
    <Show when={pending().length > 0}>
      <div class="pending-windows" data-testid="pending-windows">
        <span class="muted">Windows of the layout to open:</span>
        <For each={pending()}>
          {(window) => (
            <span class="chip" data-testid="pending-window" data-panel={window.panel ?? ''}>
              <b>{panelTitle(window.panel ?? '')}</b>
              <button type="button" data-testid="pending-open" onClick={() => desk.openPending(window)}>
                Open
              </button>
              <button type="button" class="link" data-testid="pending-dock" onClick={() => void desk.dock(window.windowKey)}>
                keep here
              </button>
            </span>
          )}
        </For>
      </div>
    </Show>
  );
};
