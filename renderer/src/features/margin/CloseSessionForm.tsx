// Close a session cleanly: main first cancels the account's open orders, settles its books, returns
// drawn quote and repays in-kind debt it can cover (unless "prepare" is off), fetches the
// close-cleanups list right before and passes it exactly. When something remains (drawn quote the
// account cannot return, debt it cannot repay) nothing is closed and each remaining step says why.
import { createSignal, For, Show, type Component } from 'solid-js';
import type { CloseMarginReport } from '../../../../shared/ipc/views/margin';
import type { Failure } from '../../../../shared/result';
import { FailureLine } from './parts';
import { useBridge } from '../../stores/bridge-context';

export const CloseSessionForm: Component<{ marginAccountId: string; onDone?: () => void }> = (props) => {
  const bridge = useBridge();
  const [prepare, setPrepare] = createSignal(true);
  const [confirming, setConfirming] = createSignal(false);
  const [busy, setBusy] = createSignal(false);
  const [failure, setFailure] = createSignal<Failure | null>(null);
  const [report, setReport] = createSignal<CloseMarginReport | null>(null);

  const close = async () => {
    if (busy()) return;
    setBusy(true);
    setFailure(null);
    setReport(null);
    const closed = await bridge.closeMarginSession({ marginAccountId: props.marginAccountId, prepare: prepare() });
    setBusy(false);
    setConfirming(false);
    if (!closed.ok) {
      setFailure(closed);
      return;
    }
    setReport(closed.value);
    props.onDone?.();
  };

  return (
    <div class="margin-form" data-testid="margin-close">
      <label class="field-inline">
        <input type="checkbox" data-testid="margin-close-prepare" checked={prepare()} onChange={(event) => setPrepare(event.currentTarget.checked)} />
        Cancel orders, settle, return quote and repay debts first
      </label>
      <span />
      <div class="margin-actions">
        <Show
          when={confirming()}
          fallback={
            <button type="button" data-testid="margin-close-start" onClick={() => setConfirming(true)}>
              Close the session…
            </button>
          }
        >
          <span>Close the session of this account?</span>
          <button type="button" data-testid="margin-close-confirm" disabled={busy()} onClick={() => void close()}>
            Close
          </button>
          <button type="button" data-testid="margin-close-cancel" onClick={() => setConfirming(false)}>
            Keep it
          </button>
        </Show>
      </div>
      <div class="margin-actions">
        <FailureLine failure={failure()} testId="margin-close-error" />
      </div>
      <Show when={report()}>
        {(done) => (
          <div class="margin-actions" data-testid="margin-close-report" data-closed={done().closed ? 'true' : 'false'}>
            <div>
              <p>{done().description}</p>
              <table class="margin-table">
                <tbody>
                  <For each={done().steps}>
                    {(step) => (
                      <tr data-testid="margin-close-step" data-step={step.step} data-state={step.state}>
                        <td>{step.step.replace('-', ' ')}</td>
                        <td class={step.state === 'remaining' ? 'warning' : 'muted'}>{step.state}</td>
                        <td style={{ 'text-align': 'left' }}>{step.detail}</td>
                      </tr>
                    )}
                  </For>
                </tbody>
              </table>
              <Show when={done().cleanups.length > 0}>
                <p class="muted" data-testid="margin-close-cleanups">
                  Cleanups passed: {done().cleanups.map((cleanup) => `${cleanup.orderIds.length} order(s) on book ${cleanup.orderBookId}`).join('; ')}
                </p>
              </Show>
            </div>
          </div>
        )}
      </Show>
    </div>
  );
};
