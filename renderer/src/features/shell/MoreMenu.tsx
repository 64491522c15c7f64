// The top bar's menu of things used now and then (fill sound, settings), so the bar keeps to one
// line at 1280 px with the kill switch, the connection and the session always in sight.
import { createSignal, Show, type Component } from 'solid-js';
import { closeOnPressOutside } from '../../lib/click-outside';
import { useTerminal } from '../../stores/terminal-context';
import { useBridge } from '../../stores/bridge-context';

export const MoreMenu: Component<{ settingsOpen: boolean; onSettings: () => void }> = (props) => {
  const terminal = useTerminal();
  const bridge = useBridge();
  const [open, setOpen] = createSignal(false);
  let root: HTMLDivElement | undefined;
  closeOnPressOutside(() => root, () => setOpen(false));
  const sound = () => terminal.store.state.settings?.sound === true;
  return (
    <div class="more-menu" ref={(element) => (root = element)}>
      <button type="button" data-testid="more-menu" classList={{ on: open() || props.settingsOpen }} aria-haspopup="menu" aria-expanded={open()} title="Sound, settings" onClick={() => setOpen(!open())}>
        ⋯
      </button>
      <Show when={open()}>
        <div class="more-menu-body" role="menu" data-testid="more-menu-body">
          <button
            type="button"
            role="menuitemcheckbox"
            aria-checked={sound()}
            data-testid="sound-toggle"
            disabled={!terminal.store.state.settings}
            title={sound() ? 'Fill sound on: click to mute' : 'Fill sound off: click to unmute'}
            onClick={() => void bridge.updateSettings({ sound: !sound() }).then((result) => result.ok && terminal.store.setSettings(result.value))}
          >
            Fill sound: {sound() ? 'on' : 'off'}
          </button>
          <button
            type="button"
            role="menuitem"
            data-testid="open-settings"
            onClick={() => {
              setOpen(false);
              props.onSettings();
            }}
          >
            Settings…
          </button>
        </div>
      </Show>
    </div>
  );
};
