// Small pieces the margin components share: a failure line as a trader sentence (its stable code
// and raw text behind "Details"), a field problem found before any confirmation, and what became
// of a signed margin request (journal entries and notes).
import { For, Show, type Component } from 'solid-js';
import { describeFailure } from '../../../../shared/errors/trader-text';
import type { MarginActionReceipt } from '../../../../shared/ipc/views/margin';
import type { Failure } from '../../../../shared/result';
import { marginSentence } from './margin-notices';

export const FailureLine: Component<{ failure: Failure | null; testId: string }> = (props) => (
  <Show when={props.failure}>
    {(failure) => {
      const text = () => describeFailure(failure());
      return (
        <div class="error" role="alert" data-testid={props.testId} data-code={failure().code}>
          <p>{marginSentence(text().sentence)}</p>
          <details class="muted small">
            <summary>Details</summary>
            <pre class="mono">{text().details}</pre>
          </details>
        </div>
      );
    }}
  </Show>
);

/** What is wrong with a field, found in the form before any confirmation. */
export const InputProblem: Component<{ problem: string | null; testId: string }> = (props) => (
  <Show when={props.problem}>
    {(problem) => (
      <p class="error" role="alert" data-testid={props.testId}>
        {problem()}
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
