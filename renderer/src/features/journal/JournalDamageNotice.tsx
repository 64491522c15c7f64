// Damage found in the journal of signed requests at start, shown until the trader acknowledges
// it. Main refuses new orders and withdrawals (JOURNAL_DAMAGED) meanwhile: requests recorded in the
// damaged part cannot be reconciled with the exchange automatically, so the trader must know what
// may be missing before trading again. Every window shows it; acknowledging in one clears all.
import { createSignal, For, onCleanup, onMount, Show, type Component } from 'solid-js';
import type { JournalDamageItemView, JournalDamageView } from '../../../../shared/ipc/views/journal';
import { useBridge } from '../../stores/bridge-context';
import { formatDateTime } from '../../format/time';
import './journal-damage.css';

const KIND_LABEL: Record<JournalDamageItemView['kind'], string> = {
  unreadable: 'Unreadable',
  duplicate: 'Duplicated',
  missing: 'Missing',
  'unreadable-report': 'Unreadable record',
};

export const JournalDamageNotice: Component = () => {
  const bridge = useBridge();
  const [damage, setDamage] = createSignal<JournalDamageView | null>(null);
  const [problem, setProblem] = createSignal<string | null>(null);
  const [busy, setBusy] = createSignal(false);

  onMount(() => {
    onCleanup(bridge.onJournalDamage((view) => setDamage(view)));
    void bridge.getJournalDamage({}).then((result) => {
      if (result.ok) setDamage(result.value);
      else setProblem(`The journal's damage report could not be read: ${result.message}`);
    });
  });

  const reports = () => damage()?.reports ?? [];
  const items = () => reports().flatMap((report) => report.items);
  const copies = () => [...new Set(items().flatMap((item) => (item.copy === null ? [] : [item.copy])))];

  const acknowledge = async () => {
    setBusy(true);
    const result = await bridge.acknowledgeJournalDamage({ reportIds: reports().map((report) => report.id) });
    setBusy(false);
    if (result.ok) {
      setDamage(result.value);
      setProblem(null);
    } else setProblem(`${result.code}: ${result.message}`);
  };

  return (
    <Show when={reports().length > 0}>
      <div class="modal-backdrop" data-testid="journal-damage">
        <div class="modal journal-damage" role="alertdialog" aria-modal="true" aria-labelledby="journal-damage-title">
          <h3 id="journal-damage-title">The journal of signed requests was damaged</h3>
          <p>
            At start, {items().length} damaged place{items().length === 1 ? ' was' : 's were'} found in the journal (found {formatDateTime(reports()[0]!.at)}). Every
            readable entry was kept and is reconciled with the exchange as usual; what is listed below could not be read.
          </p>
          <p>
            <strong>New orders and withdrawals are refused until you acknowledge this.</strong> Requests recorded in the damaged part cannot be checked
            automatically: compare your open orders, fills and balances with the exchange before trading again. Cancelling orders still works.
          </p>
          <table class="journal-damage-items" data-testid="journal-damage-items">
            <thead>
              <tr>
                <th>What</th>
                <th>Where</th>
                <th>Details</th>
              </tr>
            </thead>
            <tbody>
              <For each={items()}>
                {(item) => (
                  <tr data-testid="journal-damage-item" data-kind={item.kind}>
                    <td>{KIND_LABEL[item.kind]}</td>
                    <td class="mono">
                      {item.file}
                      <br />
                      {item.length} bytes at {item.offset}
                    </td>
                    <td>
                      {item.detail}
                      <Show when={item.afterSeq !== null || item.beforeSeq !== null}>
                        {' '}
                        (between entries #{item.afterSeq ?? 'start'} and #{item.beforeSeq ?? 'end'})
                      </Show>
                      <Show when={item.hints.length > 0}>
                        <div class="muted" data-testid="journal-damage-hints">
                          Still legible there: {item.hints.join('; ')}
                        </div>
                      </Show>
                    </td>
                  </tr>
                )}
              </For>
            </tbody>
          </table>
          <Show when={copies().length > 0}>
            <p class="muted">
              The files as they were found are kept untouched in the journal folder of the data directory: <span class="mono">{copies().join(', ')}</span>.
            </p>
          </Show>
          <Show when={problem()}>
            <p class="error" role="alert">
              {problem()}
            </p>
          </Show>
          <div class="actions">
            <button type="button" class="primary" data-testid="journal-damage-acknowledge" disabled={busy()} onClick={() => void acknowledge()}>
              I have seen what was damaged: allow trading
            </button>
          </div>
        </div>
      </div>
    </Show>
  );
};
