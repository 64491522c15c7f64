// The window's one confirmation dialog. `confirm` returns a promise the dialog settles; Enter
// confirms and Escape refuses, so a confirmed order stays a two-key motion.
import { createSignal, For, onCleanup, onMount, Show, type Component } from 'solid-js';

interface Question {
  readonly title: string;
  readonly lines: readonly string[];
  readonly answer: (accepted: boolean) => void;
}

export function createConfirm() {
  const [question, setQuestion] = createSignal<Question | null>(null);
  const confirm = (title: string, lines: readonly string[]) =>
    new Promise<boolean>((resolve) => {
      question()?.answer(false);
      setQuestion({ title, lines, answer: resolve });
    });
  const settle = (accepted: boolean) => {
    const current = question();
    setQuestion(null);
    current?.answer(accepted);
  };
  return { question, confirm, settle };
}

export const ConfirmDialog: Component<{ question: Question | null; settle: (accepted: boolean) => void }> = (props) => {
  onMount(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!props.question) return;
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        props.settle(false);
      } else if (event.key === 'Enter') {
        event.preventDefault();
        event.stopPropagation();
        props.settle(true);
      }
    };
    window.addEventListener('keydown', onKey, true);
    onCleanup(() => window.removeEventListener('keydown', onKey, true));
  });
  return (
    <Show when={props.question}>
      {(question) => (
        <div class="modal-backdrop" data-testid="confirm-dialog">
          <div class="modal" role="dialog" aria-modal="true">
            <h3>{question().title}</h3>
            <For each={question().lines}>{(line) => <p>{line}</p>}</For>
            <div class="actions">
              <button type="button" data-testid="confirm-cancel" onClick={() => props.settle(false)}>
                Cancel (Esc)
              </button>
              <button type="button" class="primary" data-testid="confirm-accept" onClick={() => props.settle(true)}>
                Confirm (Enter)
              </button>
            </div>
          </div>
        </div>
      )}
    </Show>
  );
};
