// The kill switch: cancel every open order in every market, now, and report what was cancelled.
// No confirmation on purpose: it only ever reduces risk, and in an emergency a dialog costs time.
import { createSignal, For, Show, type Component } from 'solid-js';
import type { CancelReport } from '../../../../shared/ipc/views';
import { useTerminal } from '../../stores/terminal-context';
import { shortId } from '../../format/units';

export const KillSwitch: Component = () => {
  const terminal = useTerminal();
  const [report, setReport] = createSignal<CancelReport | null>(null);
  const [problem, setProblem] = createSignal<string | null>(null);
  const [running, setRunning] = createSignal(false);
  const kill = async () => {
    setRunning(true);
    const result = await terminal.trading.cancelAll(null);
    setRunning(false);
    if (result.ok) {
      setReport(result.value);
      setProblem(null);
    } else {
      setReport(null);
      setProblem(`${result.message} (${result.code})`);
    }
  };
  return (
    <>
      <button type="button" class="kill-switch" data-testid="kill-switch" disabled={running()} title="Cancel every open order in every market" onClick={() => void kill()}>
        {running() ? 'CANCELLING…' : 'KILL'}
      </button>
      <Show when={report() || problem()}>
        <div class="modal-backdrop" data-testid="kill-report">
          <div class="modal">
            <h3>Kill switch</h3>
            <Show when={problem()}>
              <p class="error">The cancel-all request failed: {problem()}</p>
            </Show>
            <Show when={report()}>
              {(current) => (
                <>
                  <p>
                    Cancelled <b data-testid="kill-cancelled">{current().cancelled.length}</b> of {current().requested} open order{current().requested === 1 ? '' : 's'} in {current().batches} signed batch
                    {current().batches === 1 ? '' : 'es'}.
                  </p>
                  <Show when={current().failed.length > 0}>
                    <p class="error">{current().failed.length} could not be cancelled:</p>
                    <ul>
                      <For each={current().failed}>
                        {(failure) => (
                          <li>
                            <span class="mono">{shortId(failure.orderId)}</span>: {failure.reason}
                          </li>
                        )}
                      </For>
                    </ul>
                  </Show>
                  <Show when={current().cancelled.length > 0}>
                    <details>
                      <summary>Cancelled orders</summary>
                      <For each={current().cancelled}>{(orderId) => <div class="mono">{orderId}</div>}</For>
                    </details>
                  </Show>
                </>
              )}
            </Show>
            <div class="actions">
              <button type="button" class="primary" data-testid="kill-report-close" onClick={() => { setReport(null); setProblem(null); }}>
                Close
              </button>
            </div>
          </div>
        </div>
      </Show>
    </>
  );
};
