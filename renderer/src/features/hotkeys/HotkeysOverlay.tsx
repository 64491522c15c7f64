// The "?" overlay: every hotkey of the window and what it does, as the keymap in settings has it.
// Opened by its hotkey (Shift+? by default) or the header's "?" button; Esc or the same key closes it.
import { For, Show, type Component } from 'solid-js';
import { HOTKEY_ACTIONS } from '../../../../shared/ipc/views/settings';
import { useTerminal } from '../../stores/terminal-context';
import { hotkeysOverlayOpen, setHotkeysOverlayOpen } from './hotkey-controller';
import { HOTKEY_LABELS } from './hotkeys';

export const HotkeysOverlay: Component = () => {
  const terminal = useTerminal();
  const keymap = () => terminal.store.state.settings?.hotkeys ?? null;
  return (
    <Show when={hotkeysOverlayOpen()}>
      <div class="modal-backdrop" data-testid="hotkeys-overlay" onClick={(event) => event.target === event.currentTarget && setHotkeysOverlayOpen(false)}>
        <div class="modal hotkeys-overlay" role="dialog" aria-modal="true" aria-label="Hotkeys">
          <h3>Hotkeys</h3>
          <Show when={keymap()} fallback={<p>{terminal.store.state.problems.settings ?? 'Loading the settings…'}</p>}>
            {(current) => (
              <table class="hotkeys-table">
                <tbody>
                  <For each={HOTKEY_ACTIONS}>
                    {(action) => (
                      <tr data-testid={`hotkeys-overlay-${action}`} data-key={current()[action]}>
                        <td>
                          <Show when={current()[action] !== ''} fallback={<span class="muted">no key</span>}>
                            <kbd>{current()[action]}</kbd>
                          </Show>
                        </td>
                        <td>{HOTKEY_LABELS[action]}</td>
                      </tr>
                    )}
                  </For>
                </tbody>
              </table>
            )}
          </Show>
          <p class="help">
            Buy/sell at best and ladder clicks trade only while the ladder is armed for that market and book, with the size in the ladder's Size field (shown in its armed banner), never the ticket's quantity. Hotkeys never fire while you type in a field or a dialog is open. Change them in Settings → Hotkeys.
          </p>
          <div class="actions">
            <button type="button" class="primary" data-testid="hotkeys-overlay-close" onClick={() => setHotkeysOverlayOpen(false)}>
              Close (Esc)
            </button>
          </div>
        </div>
      </div>
    </Show>
  );
};
