// The alert menu the ladder's rows and the chart open on a right click (the context menu gesture,
// never the click that trades): an alert at that price, set in main. Nothing here trades.
import { For, Show, type JSX } from 'solid-js';
import type { Market } from '../../../../shared/market/market';
import { closeOnPressOutside } from '../../lib/click-outside';
import { useBridge } from '../../stores/bridge-context';
import { useTerminal } from '../../stores/terminal-context';
import { alertChoices, type CurrentPrices } from './alert-menu-model';

export interface AlertMenuAt {
  readonly x: number;
  readonly y: number;
  readonly price: bigint;
}

/** `children`: other actions of the same gesture at that price, listed above the alerts (the ladder's chase). */
export function AlertMenu(props: { market: Market; turbo: boolean; at: AlertMenuAt; current: CurrentPrices; onClose: () => void; children?: JSX.Element }): JSX.Element {
  const bridge = useBridge();
  const terminal = useTerminal();
  let root: HTMLDivElement | undefined;
  closeOnPressOutside(() => root, props.onClose);
  const choices = () => alertChoices(props.market, props.turbo, props.at.price, props.current);
  const choose = async (input: Parameters<typeof bridge.createAlert>[0]) => {
    props.onClose();
    const created = await bridge.createAlert(input);
    if (created.ok) terminal.store.showNotice(`alert-set-${created.value.id}`, 'info', `Alert set: ${created.value.description}`);
    else terminal.store.showNotice(`alert-refused-${Date.now()}`, 'error', `The alert was not set: ${created.message}`);
  };
  return (
    <div
      class="alert-menu"
      role="menu"
      data-testid="alert-menu"
      ref={(element) => (root = element)}
      style={{ position: 'fixed', left: `${props.at.x}px`, top: `${props.at.y}px`, 'z-index': 50 }}
      onContextMenu={(event) => event.preventDefault()}
    >
      {props.children}
      <Show when={choices().length > 0} fallback={<div class="muted">No live price to compare this level with yet</div>}>
        <For each={choices()}>
          {(choice) => (
            <button type="button" role="menuitem" data-testid={`alert-menu-${choice.source}`} onClick={() => void choose(choice.input)}>
              {choice.label}
            </button>
          )}
        </For>
      </Show>
    </div>
  );
}
