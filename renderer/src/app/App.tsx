// A window of the app. Every window is the same page: main says (getDesk) whether this one is the
// main window or a panel in a window of its own, and the window builds its stores over the bridge
// either way, so a detached panel has the same context as in the main window, over the same feed.
import { createEffect, createSignal, Match, onCleanup, onMount, Switch, type Component } from 'solid-js';
import type { TerminalApi } from '../../../shared/ipc/contract';
import { ConfirmDialog, createConfirm } from '../components/ConfirmDialog';
import { CodeDialog, createCodePrompt } from '../components/CodeDialog';
import { withHostConfirmation } from '../bridge/host-confirmation';
import { shouldClose } from '../features/desk/desk-model';
import { DeskContext } from '../features/desk/desk-context';
import { createDeskStore } from '../features/desk/desk-store';
import { PanelWindow, WindowGone } from '../features/desk/PanelWindow';
import { HotkeysOverlay } from '../features/hotkeys/HotkeysOverlay';
import { JournalDamageNotice } from '../features/journal/JournalDamageNotice';
import { Toasts } from '../features/shell/Toasts';
import { createTerminal } from './create-terminal';
import { MainWindow } from './MainWindow';
import { BridgeContext } from '../stores/bridge-context';
import { TerminalContext } from '../stores/terminal-context';
import './panels';

export const App: Component<{ api: TerminalApi; now?: () => number }> = (props) => {
  const dialog = createConfirm();
  // Browser host: requests main confirms with a code on the host's terminal ask the trader for it.
  const codes = createCodePrompt();
  const api = withHostConfirmation(props.api, codes.ask);
  const terminal = createTerminal(api, dialog.confirm);
  const desk = createDeskStore(api);
  onCleanup(() => {
    terminal.store.dispose();
    terminal.frames.dispose();
    terminal.turboBooks.dispose();
    terminal.positions.dispose();
    desk.dispose();
  });

  const clock = props.now ?? (() => Date.now());
  const [now, setNow] = createSignal(clock());
  onMount(() => {
    const timer = setInterval(() => setNow(clock()), 1000);
    onCleanup(() => clearInterval(timer));
  });

  // A hidden window needs no frames: main stops pushing market data to it until it shows again,
  // and then it asks for the desk again (what it missed while hidden, a linked market included).
  onMount(() => {
    const onVisibility = () => {
      void api.setWindowVisible({ visible: !document.hidden });
      if (!document.hidden) desk.refresh();
    };
    document.addEventListener('visibilitychange', onVisibility);
    onCleanup(() => document.removeEventListener('visibilitychange', onVisibility));
  });

  // A panel window's page closes itself once main no longer lists it (docked from either side). A
  // browser may refuse to close a tab it did not open by script: then it says so.
  const [gone, setGone] = createSignal(false);
  let seenSelf = false;
  createEffect(() => {
    const key = desk.self()?.windowKey ?? null;
    if (!desk.self()?.panel || key === null) return;
    const state = desk.state();
    if (state?.windows.some((window) => window.windowKey === key)) seenSelf = true;
    if (shouldClose(state, key, seenSelf)) {
      setGone(true);
      window.close();
    }
  });

  const openedForWindow = new URLSearchParams(location.search).has('window');

  return (
    <BridgeContext.Provider value={api}>
    <TerminalContext.Provider value={terminal}>
      <DeskContext.Provider value={desk}>
        <Switch fallback={<div class="app" data-testid="desk-loading" />}>
          <Match when={gone() || (desk.self() && desk.self()!.windowKey === null && openedForWindow)}>
            <WindowGone />
          </Match>
          <Match when={desk.self()?.panel}>
            {(kind) => (
              <>
                <PanelWindow kind={kind()} />
                <Toasts withBell />
              </>
            )}
          </Match>
          <Match when={desk.self() || desk.problem()}>
            <MainWindow now={now} confirm={dialog.confirm} />
          </Match>
        </Switch>
        <ConfirmDialog question={dialog.question()} settle={dialog.settle} />
        <JournalDamageNotice />
        <HotkeysOverlay />
        <CodeDialog pending={codes.pending()} settle={codes.settle} />
      </DeskContext.Provider>
    </TerminalContext.Provider>
    </BridgeContext.Provider>
  );
};
