// The kill switch: cancel every open order and every pending trigger leg (stops, OCO pairs,
// take-profits and stop-losses) in every market, on both books and of every account, now, and
// report what was cancelled and what was not. Main cancels every working algorithm first (nothing
// more is signed for it); the report counts them from main's list read after the sweep.
// No confirmation on purpose: it only ever reduces risk, and in an emergency a dialog costs time.
import { createSignal, For, Show, type Component } from 'solid-js';
import type { CancelReport } from '../../../../shared/ipc/views';
import { useTerminal } from '../../stores/terminal-context';
import { useBridge } from '../../stores/bridge-context';
import { createAlgoSource } from '../algos/algo-data';
import { algoActive } from '../algos/algo-figures';
import { shortId } from '../../format/units';
import { marketName } from '../markets/market-label';

export const KillSwitch: Component = () => {
  const terminal = useTerminal();
  const marketNameOf = (marketId: string) => {
    const markets = terminal.store.state.markets?.markets ?? [];
    const market = markets.find((candidate) => candidate.market_id === marketId);
    return market ? marketName(market, markets) : marketId;
  };
  const bridge = useBridge();
  const algos = createAlgoSource(bridge);
  const [report, setReport] = createSignal<CancelReport | null>(null);
  /** Algorithms the kill switch cancelled (null: main's list could not be read). */
  const [algosStopped, setAlgosStopped] = createSignal<number | null>(null);
  const [problem, setProblem] = createSignal<string | null>(null);
  const [running, setRunning] = createSignal(false);
  const kill = async () => {
    setRunning(true);
    // The window's list as it stands (no round trip before the cancel: in an emergency it costs time).
    const working = new Set(algos.algos().filter((algo) => algoActive(algo.state)).map((algo) => algo.id));
    const result = await terminal.trading.cancelAll(null);
    const after = working.size === 0 ? null : await bridge.getAlgos({});
    setAlgosStopped(after === null ? 0 : after.ok ? after.value.filter((algo) => working.has(algo.id) && algo.state === 'cancelled').length : null);
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
      <button type="button" class="kill-switch" data-testid="kill-switch" disabled={running()} title="Cancel every working algorithm, every open order and every pending trigger leg (stops, OCO, take-profit / stop-loss) in every market, on both books, of the trading account and every Turbo Account" onClick={() => void kill()}>
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
                    Cancelled <b data-testid="kill-cancelled">{current().cancelled.length}</b> of {current().requested} open order{current().requested === 1 ? '' : 's'} and{' '}
                    <b data-testid="kill-cancelled-triggers">{current().triggersCancelled.length}</b> of {current().triggersRequested} pending trigger leg{current().triggersRequested === 1 ? '' : 's'} in{' '}
                    {current().batches} signed batch{current().batches === 1 ? '' : 'es'}.
                  </p>
                  <Show when={(algosStopped() ?? 0) > 0}>
                    <p data-testid="kill-algos">
                      Cancelled <b>{algosStopped()}</b> working algorithm{algosStopped() === 1 ? '' : 's'} first: nothing more is signed for {algosStopped() === 1 ? 'it' : 'them'} (see Working algorithms).
                    </p>
                  </Show>
                  <Show when={current().failed.length + current().triggersFailed.length > 0}>
                    <p class="error">{current().failed.length + current().triggersFailed.length} could not be cancelled:</p>
                    <ul data-testid="kill-failed">
                      <For each={[...current().failed, ...current().triggersFailed]}>
                        {(failure) => (
                          <li>
                            {failure.description ?? <span class="mono">{shortId(failure.orderId)}</span>}: {failure.reason}
                          </li>
                        )}
                      </For>
                    </ul>
                  </Show>
                  <Show when={current().unread.length > 0}>
                    <p class="error">Not read, so what rests there is not known (look again, or use the kill switch again):</p>
                    <ul>
                      <For each={current().unread}>
                        {(book) => (
                          <li>
                            {marketNameOf(book.marketId)}
                            {book.turbo ? ' (Turbo book)' : ''}, account <span class="mono">{shortId(book.account)}</span>: {book.reason}
                          </li>
                        )}
                      </For>
                    </ul>
                  </Show>
                  <Show when={current().cancelled.length + current().triggersCancelled.length > 0}>
                    <details>
                      <summary>Cancelled orders and legs</summary>
                      <For each={current().cancelled}>{(orderId) => <div class="mono">order {orderId}</div>}</For>
                      <For each={current().triggersCancelled}>{(triggerId) => <div class="mono">leg {triggerId}</div>}</For>
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
