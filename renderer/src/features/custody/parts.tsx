// Small pieces the custody components share: a failure line (code and message), a copy button,
// a file download, a countdown, the lines of a request to sign, and an animated QR code (one image
// per part, in a loop).
import { createSignal, For, onCleanup, Show, type Component } from 'solid-js';
import type { RequestLineView } from '../../../../shared/ipc/views';
import type { Failure } from '../../../../shared/result';
import { formatRemaining } from '../../format/time';
import './custody.css';

export const FailureLine: Component<{ failure: Failure | null; testId: string }> = (props) => (
  <Show when={props.failure}>
    {(failure) => (
      <p class="error custody-failure" role="alert" data-testid={props.testId} data-code={failure().code}>
        <span class="mono">{failure().code}</span> {failure().message}
      </p>
    )}
  </Show>
);

export const CopyButton: Component<{ text: string; label?: string; testId: string }> = (props) => {
  const [copied, setCopied] = createSignal(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.text);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      setCopied(false);
    }
  };
  return (
    <button type="button" class="custody-copy" data-testid={props.testId} onClick={() => void copy()}>
      {copied() ? 'Copied' : (props.label ?? 'Copy')}
    </button>
  );
};

/** Save `text` as a file through the browser's download (no network: a local object URL). */
export function downloadText(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Read a chosen file as text (the request or response files are small JSON). */
export async function readChosenFile(input: HTMLInputElement): Promise<string | null> {
  const file = input.files?.[0];
  if (!file) return null;
  // A request or response is a few KiB; anything far larger is not one.
  if (file.size > 256 * 1024) return null;
  return file.text();
}

/** "expires in 23h 59m", refreshed every second from `now` (milliseconds). */
export const Countdown: Component<{ untilSeconds: bigint; now: () => number; testId: string }> = (props) => {
  const [tick, setTick] = createSignal(props.now());
  const timer = setInterval(() => setTick(props.now()), 1000);
  onCleanup(() => clearInterval(timer));
  const remaining = () => Number(props.untilSeconds) * 1000 - tick();
  return (
    <span class="custody-countdown" data-testid={props.testId} data-expired={remaining() <= 0 ? 'true' : 'false'}>
      {remaining() <= 0 ? 'expired' : `expires in ${formatRemaining(remaining())}`}
    </span>
  );
};

/**
 * The QR codes of a document. Several parts play in a loop (an animated QR, as Sparrow shows a PSBT)
 * so a camera collects them all; it can be paused and stepped by hand.
 */
export const QrLoop: Component<{ images: readonly string[]; payloads: readonly string[]; testId: string; intervalMs?: number }> = (props) => {
  const [index, setIndex] = createSignal(0);
  const [playing, setPlaying] = createSignal(true);
  const count = () => props.images.length;
  const timer = setInterval(() => {
    if (playing() && count() > 1) setIndex((index() + 1) % count());
  }, props.intervalMs ?? 700);
  onCleanup(() => clearInterval(timer));
  const current = () => Math.min(index(), Math.max(0, count() - 1));
  return (
    <figure class="custody-qr" data-testid={props.testId} data-parts={count()} data-part={current() + 1}>
      <Show when={count() > 0} fallback={<p class="muted">No QR code</p>}>
        <img src={props.images[current()]} alt={`QR code part ${current() + 1} of ${count()}`} width="276" height="276" />
        <figcaption>
          Part {current() + 1} of {count()}
          <Show when={count() > 1}>
            <button type="button" data-testid={`${props.testId}-toggle`} onClick={() => setPlaying(!playing())}>
              {playing() ? 'Pause' : 'Play'}
            </button>
            <button type="button" data-testid={`${props.testId}-next`} onClick={() => setIndex((current() + 1) % count())}>
              Next part
            </button>
          </Show>
        </figcaption>
        <details>
          <summary>QR payloads as text</summary>
          <pre class="mono custody-payloads" data-testid={`${props.testId}-payloads`}>
            <For each={props.payloads}>{(payload) => `${payload}\n`}</For>
          </pre>
        </details>
      </Show>
    </figure>
  );
};

/** What a request signs, line by line (label, value), as the offline signer's CLI `show` prints it. */
export const RequestLines: Component<{ lines: readonly RequestLineView[]; testId: string }> = (props) => (
  <table class="custody-lines" data-testid={props.testId}>
    <tbody>
      <For each={props.lines}>
        {(line) => (
          <tr>
            <th>{line.label}</th>
            <td>{line.value}</td>
          </tr>
        )}
      </For>
    </tbody>
  </table>
);
