// Time left on the trading session, and whether main is renewing it.
import { Show, type Component } from 'solid-js';
import { useTerminal } from '../../stores/terminal-context';
import { formatDateTime, formatRemaining } from '../../format/time';

function sessionTitle(expiry: bigint, renewsAt: bigint | null): string {
  const ends = `Session expires ${formatDateTime(Number(expiry) * 1000)}`;
  return renewsAt === null ? `${ends}; the terminal does not renew it (create a new one in Account setup).` : `${ends}; the terminal renews it from ${formatDateTime(Number(renewsAt) * 1000)}, for the length chosen (at most the configured length).`;
}

export const SessionCountdown: Component<{ now: () => number }> = (props) => {
  const terminal = useTerminal();
  const session = () => terminal.store.state.account?.session ?? null;
  return (
    <Show when={session()} fallback={<span class="chip" data-testid="session-expiry" data-state="none">No session</span>}>
      {(current) => (
        <span class="chip session-chip" data-testid="session-expiry" data-state={current().state} title={sessionTitle(current().expiry, current().renewsAt)}>
          Session <b class="mono">{formatRemaining(Number(current().expiry) * 1000 - props.now())}</b>
          <Show when={current().state !== 'active'}>
            <span>{current().state}</span>
          </Show>
        </span>
      )}
    </Show>
  );
};
