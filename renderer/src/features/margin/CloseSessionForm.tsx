// Close a session cleanly: main first cancels the account's open orders, settles its books, returns
// drawn quote and repays in-kind debt it can cover (unless "prepare" is off), fetches the
// close-cleanups list right before and passes it exactly. When something remains (drawn quote the
// account cannot return, debt it cannot repay) nothing is closed, each remaining step says why, and
// the actions that unblock it (main's remedies: return quote, repay, and on a legacy session repay
// from posted collateral) are offered here, confirmed together with the close that follows them.
// Every outcome reaches the notification centre.
import { createSignal, For, Show, type Component } from 'solid-js';
import type { CloseMarginReport, CloseRemedy, MarginActionReceipt } from '../../../../shared/ipc/views/margin';
import type { Failure, Result } from '../../../../shared/result';
import type { TerminalApi } from '../../../../shared/ipc/contract';
import { FailureLine } from './parts';
import { useBridge } from '../../stores/bridge-context';
import { useTerminal } from '../../stores/terminal-context';
import { confirmMarginAction } from './margin-confirm';
import { notifyMarginOutcome } from './margin-notices';

const REMEDY_LABELS: Readonly<Record<CloseRemedy['kind'], string>> = {
  returnQuote: 'Return quote',
  repay: 'Repay in kind',
  repayFromCollateral: 'Repay drawn quote from collateral',
  repayBaseFromCollateral: 'Buy debt out from collateral',
};

/** Send one remedy as the margin action it names. */
function sendRemedy(bridge: TerminalApi, marginAccountId: string, remedy: CloseRemedy): Promise<Result<MarginActionReceipt>> {
  switch (remedy.kind) {
    case 'returnQuote':
      return bridge.marginReturnQuote({ marginAccountId, amount: remedy.amount });
    case 'repay':
      return bridge.marginRepay({ marginAccountId, assetId: remedy.asset.assetId, amount: remedy.amount });
    case 'repayFromCollateral':
      return bridge.marginRepayFromCollateral({ marginAccountId, amount: remedy.amount });
    case 'repayBaseFromCollateral':
      return bridge.marginRepayBaseFromCollateral({ marginAccountId, assetId: remedy.asset.assetId, amount: remedy.amount });
  }
}

/** The close's outcome as one notice: closed, or what remains. */
function closeOutcome(result: Result<CloseMarginReport>): Result<MarginActionReceipt> {
  if (!result.ok || result.value.closed) return result;
  const remaining = result.value.steps.filter((step) => step.state === 'remaining' && step.step !== 'fetch-cleanups' && step.step !== 'close').map((step) => step.detail);
  return { ok: false, code: 'MARGIN_CLOSE_BLOCKED', message: `The session is not closed: ${remaining.join('; ')}.` };
}

export const CloseSessionForm: Component<{ marginAccountId: string; onDone?: () => void }> = (props) => {
  const bridge = useBridge();
  const terminal = useTerminal();
  const [prepare, setPrepare] = createSignal(true);
  const [confirming, setConfirming] = createSignal(false);
  const [busy, setBusy] = createSignal(false);
  const [failure, setFailure] = createSignal<Failure | null>(null);
  const [report, setReport] = createSignal<CloseMarginReport | null>(null);

  const close = async (withPrepare: boolean) => {
    setFailure(null);
    setReport(null);
    const closed = await bridge.closeMarginSession({ marginAccountId: props.marginAccountId, prepare: withPrepare });
    notifyMarginOutcome(terminal.store, 'Close the session', closeOutcome(closed));
    if (!closed.ok) {
      setFailure(closed);
      return;
    }
    setReport(closed.value);
    props.onDone?.();
  };

  const start = async () => {
    if (busy()) return;
    setBusy(true);
    await close(prepare());
    setBusy(false);
    setConfirming(false);
  };

  /** Send the remedies main named, in order, then close again; stops at the first refusal. */
  const unblock = async (remedies: readonly CloseRemedy[]) => {
    if (busy() || remedies.length === 0) return;
    const lines = [...remedies.map((remedy) => `${remedy.text}.`), 'Then close the session (orders cancelled, books settled, the cleanup list fetched right before).'];
    if (!(await confirmMarginAction(terminal, 'Unblock and close the session', lines, props.marginAccountId))) return;
    setBusy(true);
    for (const remedy of remedies) {
      const sent = await sendRemedy(bridge, props.marginAccountId, remedy);
      notifyMarginOutcome(terminal.store, REMEDY_LABELS[remedy.kind], sent);
      if (!sent.ok) {
        setFailure(sent);
        setBusy(false);
        props.onDone?.();
        return;
      }
    }
    await close(true);
    setBusy(false);
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
          <button type="button" data-testid="margin-close-confirm" disabled={busy()} onClick={() => void start()}>
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
              <Show when={!done().closed && done().remedies.length > 0}>
                <div class="margin-remedies" data-testid="margin-close-remedies">
                  <p>What unblocks the close:</p>
                  <ol>
                    <For each={done().remedies}>{(remedy) => <li data-testid="margin-close-remedy" data-kind={remedy.kind} data-amount={remedy.amount.toString()}>{remedy.text}</li>}</For>
                  </ol>
                  <button type="button" data-testid="margin-close-unblock" disabled={busy()} onClick={() => void unblock(done().remedies)}>
                    {done().remedies.map((remedy) => REMEDY_LABELS[remedy.kind]).join(', then ')}, then close
                  </button>
                </div>
              </Show>
              <Show when={!done().closed && done().remedies.length === 0}>
                <p class="warning" data-testid="margin-close-no-remedy">
                  No action of this terminal covers what remains: the steps above say what does.
                </p>
              </Show>
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
