// The link to the exchange: REST reachability with its round-trip latency, the market-data
// stream's state, and the embedded sandbox's restarts. Hover for main's explanation. `compact`
// (the main window's top bar, where the network selector already names the network) leaves the
// network name out and keeps main's explanation behind a warning mark.
import { Show, type Component } from 'solid-js';
import type { ConnectionStatus, LinkState } from '../../../../shared/ipc/views';

const labels: Record<LinkState, string> = {
  connecting: 'Connecting',
  up: 'Connected',
  down: 'Disconnected',
  resyncing: 'Resyncing',
  stale: 'Stale',
};

export const ConnectionIndicator: Component<{ status: ConnectionStatus | null; compact?: boolean }> = (props) => {
  const title = () => [props.status?.networkName, props.status?.detail].filter(Boolean).join(': ');
  return (
    <div class="connection" classList={{ compact: props.compact === true }} data-testid="connection" data-state={props.status?.rest ?? 'connecting'} title={title()}>
      <span class="dot" />
      <Show when={!props.compact}>
        <span class="network">{props.status?.networkName ?? '…'}</span>
      </Show>
      <span class="state">{labels[props.status?.rest ?? 'connecting']}</span>
      <Show when={props.status?.latencyMs != null}>
        <span class="latency mono" data-testid="latency">{props.status?.latencyMs} ms</span>
      </Show>
      <span class="stream-state" data-testid="stream-state" data-state={props.status?.stream ?? 'connecting'}>
        stream {labels[props.status?.stream ?? 'connecting'].toLowerCase()}
      </span>
      <Show when={props.status?.sandbox && props.status.sandbox.restarts > 0}>
        <span class="restarts">sandbox restarted {props.status?.sandbox?.restarts}×</span>
      </Show>
      <Show when={props.status?.detail}>
        <Show when={props.compact} fallback={<span class="warning" data-testid="connection-detail">{props.status?.detail}</span>}>
          <span class="warning connection-flag" data-testid="connection-detail" aria-label={props.status?.detail ?? ''}>
            ⚠
          </span>
        </Show>
      </Show>
    </div>
  );
};
