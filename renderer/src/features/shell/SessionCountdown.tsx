// Time left on the trading session, and whether main is renewing it.
import { Show, type Component } from 'solid-js';
import { useTerminal } from '../../stores/terminal-context';
import { formatDateTime, formatRemaining } from '../../format/time';

export const SessionCountdown: Component<{ now: () => number }> = (props) => {
  const terminal = useTerminal();
  const session = () => terminal.store.state.account?.session ?? null;
  return (
    <Show when={session()} fallback={<span class="chip" data-testid="session-expiry" data-state="none">No session</span>}>
      {(current) => (
        <span class="chip session-chip" data-testid="session-expiry" data-state={current().state} title={`Session expires ${formatDateTime(Number(current().expiry) * 1000)}; the terminal renews it ahead of expiry.`}>
          Session <b class="mono">{formatRemaining(Number(current().expiry) * 1000 - props.now())}</b>
          <Show when={current().state !== 'active'}>
            <span>{current().state}</span>
          </Show>
        </span>
      )}
    </Show>
  );
};
