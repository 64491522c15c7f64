// The offline signer's answer comes back: paste the response file's text or the QR payloads (one
// per line, any order), or choose the file. Main checks it against the pending request (same id and
// hash, unexpired, signed by the owner) before it submits anything, and says why when it refuses.
import { createSignal, Show, type Component } from 'solid-js';
import type { OwnerSubmissionView } from '../../../../shared/ipc/views';
import type { Failure } from '../../../../shared/result';
import { FailureLine, readChosenFile } from './parts';
import { OwnerResult } from './OwnerResult';
import { useBridge } from '../../stores/bridge-context';

/**
 * `showResult: false` when the result is shown elsewhere (PendingRequests shows the last one).
 * `testId`: the prefix of the element ids, for a second box on the same page (default `import-signature`).
 */
export const ImportSignature: Component<{ onResult?: (result: OwnerSubmissionView) => void; showResult?: boolean; testId?: string }> = (props) => {
  const bridge = useBridge();
  const id = (suffix: string) => `${props.testId ?? 'import-signature'}${suffix}`;
  const [text, setText] = createSignal('');
  const [failure, setFailure] = createSignal<Failure | null>(null);
  const [result, setResult] = createSignal<OwnerSubmissionView | null>(null);
  const [busy, setBusy] = createSignal(false);

  const submit = async () => {
    if (busy() || text().trim() === '') return;
    setBusy(true);
    setFailure(null);
    setResult(null);
    const imported = await bridge.importOwnerSignature({ text: text() });
    setBusy(false);
    if (!imported.ok) {
      setFailure(imported);
      return;
    }
    setResult(imported.value);
    setText('');
    props.onResult?.(imported.value);
  };

  return (
    <section class="custody" data-testid={id('')}>
      <label for={id('-text')}>Signature response (the file's text, or the QR payloads one per line)</label>
      <textarea id={id('-text')} class="custody-text" data-testid={id('-text')} spellcheck={false} value={text()} onInput={(event) => setText(event.currentTarget.value)} />
      <label>
        Or choose the file{' '}
        <input
          type="file"
          accept=".json,application/json,text/plain"
          data-testid={id('-file')}
          onChange={(event) => {
            const input = event.currentTarget;
            void readChosenFile(input).then((contents) => {
              if (contents === null) setFailure({ ok: false, code: 'NOT_A_DOCUMENT', message: 'file: not a signature response (empty, or far larger than one)' });
              else setText(contents);
              input.value = '';
            });
          }}
        />
      </label>
      <button type="button" data-testid={id('-submit')} disabled={busy() || text().trim() === ''} onClick={() => void submit()}>
        Verify and submit
      </button>
      <FailureLine failure={failure()} testId={id('-error')} />
      <Show when={props.showResult !== false ? result() : null}>{(done) => <OwnerResult result={done()} />}</Show>
      <Show when={props.showResult === false && result() !== null}>
        <p class="muted" data-testid={id('-done')}>
          Submitted; the result is shown above.
        </p>
      </Show>
    </section>
  );
};
