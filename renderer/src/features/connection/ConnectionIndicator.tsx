// The link to the exchange, as data shows it: its main label and `data-freshness` come from frames
// actually arriving on the WebSocket (heartbeats included; lib/freshness.tsx), never from a socket
// merely being open: "Live", "Stale 12 s", "Resyncing", "Disconnected". Beside it REST reachability
// with its round-trip latency, the market-data stream's state, and the embedded sandbox's restarts. Hover for main's explanation. `compact`
// (the main window's top bar, where the network selector already names the network) leaves the
// network name out and keeps main's explanation behind a warning mark.
import { Show, useContext, type Component } from 'solid-js';
import { TerminalContext } from '../../stores/terminal-context';
import { createFreshness, freshnessLabel, windowClock } from '../../lib/freshness';
import type { ConnectionStatus, LinkState } from '../../../../shared/ipc/views';

const labels: Record<LinkState, string> = {
  connecting: 'Connecting',
  up: 'Connected',
  down: 'Disconnected',
  resyncing: 'Resyncing',
  stale: 'Stale',
};

export const ConnectionIndicator: Component<{ status: ConnectionStatus | null; compact?: boolean }> = (props) => {
  const terminal = useContext(TerminalContext);
  const freshness = createFreshness(terminal?.freshness ?? { view: () => null, receivedAt: () => 0, clock: windowClock }, (view) => [view.link]);
  const label = () => {
    const state = freshness.state();
    if (state === 'disconnected') return props.status?.stream === 'connecting' ? 'Connecting' : 'Disconnected';
    const text = freshnessLabel(state, freshness.ageMs());
    return text.charAt(0).toUpperCase() + text.slice(1);
  };
  const title = () => [props.status?.networkName, freshness.detail(), props.status?.detail].filter(Boolean).join(': ');
  return (
    <div class="connection" classList={{ compact: props.compact === true }} data-testid="connection" data-state={props.status?.rest ?? 'connecting'} data-freshness={freshness.state()} title={title()}>
      <span class="dot" />
      <Show when={!props.compact}>
        <span class="network">{props.status?.networkName ?? '…'}</span>
      </Show>
      <span class="state" data-testid="connection-state">{label()}</span>
      <Show when={props.status?.latencyMs != null}>
        <span class="latency mono" data-testid="latency">{props.status?.latencyMs} ms</span>
      </Show>
      <span class="stream-state" data-testid="stream-state" data-state={props.status?.stream ?? 'connecting'}>
        {props.status?.rest === 'down' ? 'REST down' : `stream ${labels[props.status?.stream ?? 'connecting'].toLowerCase()}`}
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
