// Asks for the confirmation code the browser host printed on its own terminal (host-confirmation.ts).
// The dialog says where to look and what to check there; it cannot show the code or the details
// itself, by design: the page is not trusted with them.
import { createSignal, Show, type Component } from 'solid-js';
import type { AskCode, CodeQuestion } from '../bridge/host-confirmation';

interface Pending extends CodeQuestion {
  readonly answer: (code: string | null) => void;
}

export function createCodePrompt() {
  const [pending, setPending] = createSignal<Pending | null>(null);
  const ask: AskCode = (question) =>
    new Promise((resolve) => {
      pending()?.answer(null);
      setPending({ ...question, answer: resolve });
    });
  const settle = (code: string | null) => {
    const current = pending();
    setPending(null);
    current?.answer(code);
  };
  return { pending, ask, settle };
}

export const CodeDialog: Component<{ pending: Pending | null; settle: (code: string | null) => void }> = (props) => {
  const [code, setCode] = createSignal('');
  const submit = () => {
    const typed = code();
    setCode('');
    props.settle(typed);
  };
  return (
    <Show when={props.pending}>
      {(question) => (
        <div class="modal-backdrop" data-testid="host-code-dialog">
          <form
            class="modal"
            role="dialog"
            aria-modal="true"
            onSubmit={(event) => {
              event.preventDefault();
              submit();
            }}
          >
            <h3>Confirm in the terminal host's window</h3>
            <p>{question().message}</p>
            <p class="muted">The terminal host printed what it will do and an 8-digit code in the terminal window it runs in. Type the code only if what it printed is exactly what you asked for.</p>
            <Show when={question().problem}>
              <p class="error" data-testid="host-code-problem">
                {question().problem}
              </p>
            </Show>
            <input data-testid="host-code-input" class="mono" inputMode="numeric" autocomplete="off" maxLength={9} placeholder="1234 5678" value={code()} onInput={(event) => setCode(event.currentTarget.value)} />
            <div class="actions">
              <button
                type="button"
                data-testid="host-code-cancel"
                onClick={() => {
                  setCode('');
                  props.settle(null);
                }}
              >
                Cancel
              </button>
              <button type="submit" class="primary" data-testid="host-code-submit">
                Confirm
              </button>
            </div>
          </form>
        </div>
      )}
    </Show>
  );
};
