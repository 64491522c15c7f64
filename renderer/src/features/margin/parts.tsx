// Small pieces the margin components share: a failure line with its stable code, and what became
// of a signed margin request (journal entries and notes).
import { For, Show, type Component } from 'solid-js';
import type { MarginActionReceipt } from '../../../../shared/ipc/views/margin';
import type { Failure } from '../../../../shared/result';

export const FailureLine: Component<{ failure: Failure | null; testId: string }> = (props) => (
  <Show when={props.failure}>
    {(failure) => (
      <p class="error" role="alert" data-testid={props.testId} data-code={failure().code}>
        <span class="mono">{failure().code}</span> {failure().message}
      </p>
    )}
  </Show>
);

export const ReceiptLine: Component<{ receipt: MarginActionReceipt | null; testId: string }> = (props) => (
  <Show when={props.receipt}>
    {(receipt) => (
      <div data-testid={props.testId} data-journal={receipt().journalIds.join(',')}>
        <p>{receipt().description}</p>
        <Show when={receipt().notes.length > 0}>
          <ul class="margin-notes">
            <For each={receipt().notes}>{(note) => <li>{note}</li>}</For>
          </ul>
        </Show>
      </div>
    )}
  </Show>
);
