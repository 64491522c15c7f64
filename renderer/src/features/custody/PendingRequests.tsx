// Owner requests waiting for the offline signer (AWAITING SIGNATURE, one per kind): what each does
// in words, every field exactly as the signer will show it, the nonce and a countdown to expiry,
// the request file to download and its QR codes (animated when there are several parts), and
// cancel. Kept current by the `ownerRequests` stream.
import { createSignal, For, onCleanup, onMount, Show, type Component } from 'solid-js';
import type { OwnerNonceView, OwnerRequestKind, OwnerRequestsView, OwnerRequestView } from '../../../../shared/ipc/views';
import type { Failure } from '../../../../shared/result';
import { Countdown, downloadText, FailureLine, QrLoop, RequestLines } from './parts';
import { OwnerResult } from './OwnerResult';
import { useBridge } from '../../stores/bridge-context';

const STATE_TEXT: Record<OwnerRequestView['state'], string> = {
  'awaiting-signature': 'AWAITING SIGNATURE',
  submitting: 'SUBMITTING',
  'outcome-unknown': 'OUTCOME UNKNOWN',
  expired: 'EXPIRED',
};

export function nonceText(nonce: OwnerNonceView): string {
  if (nonce.kind === 'sequential') return `sequential ${nonce.value}`;
  return `parallel, lane ${nonce.lane}, word ${nonce.wordPosition}, bit ${nonce.bitPosition} (${nonce.value})`;
}

const PendingRequest: Component<{ request: OwnerRequestView; now: () => number; onFailure: (failure: Failure | null) => void }> = (props) => {
  const bridge = useBridge();
  const [busy, setBusy] = createSignal(false);
  const cancel = async () => {
    setBusy(true);
    const cancelled = await bridge.cancelOwnerRequest({ kind: props.request.kind });
    setBusy(false);
    props.onFailure(cancelled.ok ? null : cancelled);
  };
  return (
    <article class="custody-request" data-testid="pending-request" data-kind={props.request.kind} data-state={props.request.state} data-request-id={props.request.requestId}>
      <header>
        <strong data-testid="pending-request-state">{STATE_TEXT[props.request.state]}</strong>{' '}
        <Countdown untilSeconds={props.request.expiresAt} now={props.now} testId="pending-request-countdown" />
      </header>
      <p class="custody-words" data-testid="pending-request-words">
        {props.request.description}
      </p>
      <RequestLines lines={props.request.lines} testId="pending-request-lines" />
      <p>
        Nonce: <span class="mono" data-testid="pending-request-nonce">{nonceText(props.request.nonce)}</span>
      </p>
      <For each={props.request.warnings}>{(warning) => <p class="custody-warning">{warning}</p>}</For>
      <Show when={props.request.detail}>{(detail) => <p class="warning" data-testid="pending-request-detail">{detail()}</p>}</Show>
      <div>
        <button type="button" data-testid="pending-request-download" onClick={() => downloadText(props.request.fileName, props.request.fileText)}>
          Download {props.request.fileName}
        </button>{' '}
        <button type="button" data-testid="pending-request-cancel" disabled={busy() || props.request.state === 'submitting'} onClick={() => void cancel()}>
          Cancel this request
        </button>
      </div>
      <QrLoop images={props.request.qrImages} payloads={props.request.qrPayloads} testId="pending-request-qr" />
    </article>
  );
};

/**
 * `kinds`: only these kinds (the owner methods table shows its own; the session step the others).
 * `testId`: the prefix of the list's ids, for a second list on the same page (default `pending-requests`).
 */
export const PendingRequests: Component<{ now?: () => number; kinds?: readonly OwnerRequestKind[]; testId?: string }> = (props) => {
  const bridge = useBridge();
  const now = () => (props.now ? props.now() : Date.now());
  const [view, setView] = createSignal<OwnerRequestsView | null>(null);
  const [failure, setFailure] = createSignal<Failure | null>(null);
  onMount(() => {
    void bridge.getOwnerRequests({}).then((loaded) => {
      if (loaded.ok) setView(loaded.value);
      else setFailure(loaded);
    });
  });
  onCleanup(bridge.onOwnerRequests((next) => setView(next)));
  const id = (suffix: string) => `${props.testId ?? 'pending-requests'}${suffix}`;
  const pending = () => (view()?.pending ?? []).filter((request) => props.kinds === undefined || props.kinds.includes(request.kind));
  return (
    <section class="custody" data-testid={id('')}>
      <Show when={pending().length > 0} fallback={<p class="muted" data-testid={id('-empty')}>No owner request is waiting for a signature.</p>}>
        <For each={pending()}>{(request) => <PendingRequest request={request} now={now} onFailure={setFailure} />}</For>
      </Show>
      <FailureLine failure={failure()} testId={id('-error')} />
      <Show when={view()?.lastResult && (props.kinds === undefined || props.kinds.includes(view()!.lastResult!.kind)) ? view()?.lastResult : null}>{(result) => <OwnerResult result={result()} />}</Show>
    </section>
  );
};
