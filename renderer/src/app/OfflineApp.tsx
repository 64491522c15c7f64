// The window of the app started in offline mode (the air-gapped signer): no market data, no
// trading, only the offline signer, so nothing on screen suggests this machine is online.
import { createSignal, onCleanup, onMount, type Component } from 'solid-js';
import type { TerminalApi } from '../../../shared/ipc/contract';
import { OfflineSigner } from '../features/custody';
import { BridgeContext } from '../stores/bridge-context';

export const OfflineApp: Component<{ api: TerminalApi; version: string }> = (props) => {
  const [now, setNow] = createSignal(Date.now());
  onMount(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    onCleanup(() => clearInterval(timer));
  });
  return (
    <div class="app" data-testid="offline-app">
      <header class="topbar">
        <div class="brand">Ledger Terminal</div>
        <span class="chip" data-testid="offline-mode">
          Offline signer · <b>no network</b>
        </span>
        <div class="spacer" />
        <span class="muted">{props.version}</span>
      </header>
      <div style={{ flex: 1, overflow: 'auto', padding: '12px 16px' }}>
        <BridgeContext.Provider value={props.api}>
          <OfflineSigner now={now} />
        </BridgeContext.Provider>
      </div>
    </div>
  );
};
