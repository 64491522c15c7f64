import { Show, type Component } from 'solid-js';
import type { ConnectionStatus } from '../../../../shared/ipc/views';

const labels: Record<ConnectionStatus['rest'], string> = {
  connecting: 'Connecting',
  up: 'Connected',
  down: 'Disconnected',
  resyncing: 'Resyncing',
};

export const ConnectionIndicator: Component<{ status: ConnectionStatus | null }> = (props) => (
  <div class="connection" data-testid="connection" data-state={props.status?.rest ?? 'connecting'} title={props.status?.detail ?? ''}>
    <span class="dot" />
    <span class="network">{props.status?.networkName ?? '…'}</span>
    <span class="state">{labels[props.status?.rest ?? 'connecting']}</span>
    <Show when={props.status?.latencyMs != null}>
      <span class="latency" data-testid="latency">{props.status?.latencyMs} ms</span>
    </Show>
    <Show when={props.status?.sandbox && props.status.sandbox.restarts > 0}>
      <span class="restarts">sandbox restarted {props.status?.sandbox?.restarts}×</span>
    </Show>
  </div>
);
