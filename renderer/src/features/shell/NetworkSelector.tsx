// Network choice (sandbox, devnet, testnet, mainnet) and the addresses of the remote ones.
// A network without addresses is configured first; switching to mainnet asks once, since real
// funds are at stake there.
import { createSignal, For, Show, type Component } from 'solid-js';
import type { NetworkView } from '../../../../shared/ipc/views';
import { useTerminal } from '../../stores/terminal-context';
import { useBridge } from '../../stores/bridge-context';
import type { Confirm } from '../trading/trading-actions';

export const NetworkSelector: Component<{ confirm: Confirm }> = (props) => {
  const terminal = useTerminal();
  const bridge = useBridge();
  const networks = () => terminal.store.state.networks;
  const active = () => networks().find((network) => network.active) ?? null;
  const [editing, setEditing] = createSignal<NetworkView | null>(null);
  const [problem, setProblem] = createSignal<string | null>(null);
  const [restUrl, setRestUrl] = createSignal('');
  const [wsUrl, setWsUrl] = createSignal('');
  const [faucetUrl, setFaucetUrl] = createSignal('');

  const openEditor = (network: NetworkView) => {
    setRestUrl(network.restUrl ?? '');
    setWsUrl(network.wsUrl ?? '');
    setFaucetUrl(network.faucetUrl ?? '');
    setProblem(null);
    setEditing(network);
  };

  /** Mainnet's addresses are pinned in the app, not configured; a build without them cannot trade there. */
  const pinnedWithout = (network: NetworkView) => network.kind === 'mainnet' && !network.configured;

  const select = async (networkId: string) => {
    const network = networks().find((item) => item.id === networkId);
    if (!network || network.active) return;
    if (!network.configured && network.kind !== 'sandbox') {
      openEditor(network);
      return;
    }
    if (network.production && !(await props.confirm('Switch to mainnet', ['Orders on mainnet trade real funds.', 'Open panels resubscribe to mainnet data.']))) return;
    const result = await bridge.selectNetwork({ networkId });
    if (!result.ok) terminal.store.notify('error', `Cannot switch to ${network.name}: ${result.message}`);
    else {
      terminal.store.reload('networks');
      terminal.store.reload('markets');
      terminal.store.reload('account');
    }
  };

  const saveConfiguration = async () => {
    const network = editing();
    if (!network || network.kind === 'sandbox') return;
    const result = await bridge.configureNetwork({
      networkId: network.kind,
      restUrl: restUrl().trim(),
      wsUrl: wsUrl().trim() === '' ? null : wsUrl().trim(),
      faucetUrl: faucetUrl().trim() === '' ? null : faucetUrl().trim(),
    });
    if (!result.ok) {
      setProblem(result.message);
      return;
    }
    setEditing(null);
    terminal.store.reload('networks');
  };

  return (
    <span class="group" data-testid="network-selector">
      <Show when={networks().length > 0} fallback={<span class="chip" title={terminal.store.state.problems.networks ?? ''}>{terminal.store.state.connection?.networkName ?? 'Network'}</span>}>
        <select
          data-testid="network-select"
          value={active()?.id ?? ''}
          onChange={(event) => {
            // The header names the network the data comes from: until a switch has happened, the
            // choice goes back to the active network (not configured yet, confirmation declined,
            // switch refused). The switch itself moves it when the networks reload.
            const chosen = event.currentTarget.value;
            event.currentTarget.value = active()?.id ?? '';
            void select(chosen);
          }}
        >
          <For each={networks()}>
            {(network) => (
              <option value={network.id}>
                {network.name}
                {network.configured || network.kind === 'sandbox' ? '' : pinnedWithout(network) ? ' (not in this build)' : ' (not configured)'}
              </option>
            )}
          </For>
        </select>
        <button type="button" data-testid="network-configure" title="Addresses of devnet, testnet and mainnet" onClick={() => openEditor(networks().find((network) => network.kind !== 'sandbox' && network.id !== active()?.id) ?? networks()[0]!)}>
          ⚙
        </button>
      </Show>
      <Show when={editing()}>
        {(network) => (
          <div class="modal-backdrop" data-testid="network-editor">
            <div class="modal">
              <h3>Network addresses</h3>
              <div class="form" style={{ padding: 0 }}>
                <label class="field">
                  <span>Network</span>
                  <select value={network().id} onChange={(event) => openEditor(networks().find((item) => item.id === event.currentTarget.value)!)}>
                    <For each={networks().filter((item) => item.kind !== 'sandbox')}>{(item) => <option value={item.id}>{item.name}</option>}</For>
                  </select>
                </label>
                <Show when={pinnedWithout(network())}>
                  <p data-testid="network-pinned" class="hint">
                    Mainnet's addresses and chain id are pinned in the app, not typed in, so that no one can point this terminal at a look-alike exchange. This build has none: the exchange has not published them. Trade on the sandbox, devnet or testnet.
                  </p>
                </Show>
                <Show when={!pinnedWithout(network())}>
                <label class="field">
                  <span>REST base URL (https://…)</span>
                  <input data-testid="network-rest-url" value={restUrl()} onInput={(event) => setRestUrl(event.currentTarget.value)} />
                </label>
                <label class="field">
                  <span>WebSocket URL (wss://…; empty: derived from the REST host)</span>
                  <input data-testid="network-ws-url" value={wsUrl()} onInput={(event) => setWsUrl(event.currentTarget.value)} />
                </label>
                <Show when={network().kind !== 'mainnet'}>
                  <label class="field">
                    <span>Faucet URL (optional)</span>
                    <input data-testid="network-faucet-url" value={faucetUrl()} onInput={(event) => setFaucetUrl(event.currentTarget.value)} />
                  </label>
                </Show>
                </Show>
                <Show when={problem()}>
                  <div class="error">{problem()}</div>
                </Show>
              </div>
              <div class="actions">
                <button type="button" onClick={() => setEditing(null)}>
                  Cancel
                </button>
                <Show when={!pinnedWithout(network())}>
                  <button type="button" class="primary" data-testid="network-save" disabled={restUrl().trim() === ''} onClick={() => void saveConfiguration()}>
                    Save
                  </button>
                </Show>
              </div>
            </div>
          </div>
        )}
      </Show>
    </span>
  );
};
