// The offline signer (the app started with --offline on the machine that holds the owner key):
// load a request (its file, or its QR payloads), read exactly what will be signed (the same lines
// the CLI prints), choose a keystore of the data directory or create or import one, sign, and
// carry the response back as a file or QR codes. Main refuses malformed, tampered, expired and
// other-owner requests with the reason. The passphrase and a key to import never cross the bridge
// in plain text: they are encrypted to main's one-time key (secret-crypto.ts) and the fields cleared.
import { createResource, createSignal, For, Show, type Component } from 'solid-js';
import type { OwnerStyle } from '../../../../shared/crypto/address';
import type { TerminalApi } from '../../../../shared/ipc/contract';
import type { KeystoreView, OfflineRequestPreview, OfflineSignatureView } from '../../../../shared/ipc/views';
import { fail, type Failure, type Result } from '../../../../shared/result';
import { parsePrivateKeyText } from '../onboarding/key-import-crypto';
import { Countdown, downloadText, FailureLine, QrLoop, RequestLines, readChosenFile } from './parts';
import { encryptSecret, keyThenPassphrase, passphraseBytes, webRandom, type EncryptedSecretInput, type SecretPurpose } from './secret-crypto';
import { useBridge } from '../../stores/bridge-context';

/** Encrypt `plaintext` to a fresh one-time key of main; the plaintext is wiped whatever happens. */
async function sealSecret(api: TerminalApi, purpose: SecretPurpose, plaintext: Uint8Array<ArrayBuffer>): Promise<Result<EncryptedSecretInput>> {
  try {
    const challenge = await api.offlineBeginSecret({});
    if (!challenge.ok) return challenge;
    return await encryptSecret(crypto.subtle, webRandom, challenge.value, purpose, plaintext);
  } finally {
    plaintext.fill(0);
  }
}

/** Take a password field's value and clear the field at once: the secret must not linger in the page. */
function takeSecret(input: HTMLInputElement | undefined): string {
  if (!input) return '';
  const value = input.value;
  input.value = '';
  return value;
}

export const OfflineSigner: Component<{ now?: () => number }> = (props) => {
  const bridge = useBridge();
  const now = () => (props.now ? props.now() : Date.now());
  const [requestText, setRequestText] = createSignal('');
  const [preview, setPreview] = createSignal<OfflineRequestPreview | null>(null);
  const [keystore, setKeystore] = createSignal<string | null>(null);
  const [signature, setSignature] = createSignal<OfflineSignatureView | null>(null);
  const [failure, setFailure] = createSignal<Failure | null>(null);
  const [keystoreFailure, setKeystoreFailure] = createSignal<Failure | null>(null);
  const [busy, setBusy] = createSignal(false);
  const [newName, setNewName] = createSignal('owner');
  const [newStyle, setNewStyle] = createSignal<OwnerStyle>('ledger');
  const [newMode, setNewMode] = createSignal<'generate' | 'import'>('generate');
  const [keystores, { refetch }] = createResource(async (): Promise<readonly KeystoreView[]> => {
    const listed = await bridge.offlineListKeystores({});
    if (!listed.ok) setKeystoreFailure(listed);
    return listed.ok ? listed.value : [];
  });
  let signPassphrase: HTMLInputElement | undefined;
  let newPassphrase: HTMLInputElement | undefined;
  let newPassphraseAgain: HTMLInputElement | undefined;
  let newKey: HTMLInputElement | undefined;

  const matches = (view: KeystoreView) => view.address !== null && view.address === preview()?.owner && view.style === preview()?.ownerStyle;

  const load = async () => {
    setFailure(null);
    setSignature(null);
    setPreview(null);
    setBusy(true);
    const loaded = await bridge.offlineLoadRequest({ text: requestText() });
    setBusy(false);
    if (!loaded.ok) {
      setFailure(loaded);
      return;
    }
    setPreview(loaded.value);
    const owner = (keystores() ?? []).find(matches);
    if (owner) setKeystore(owner.name);
  };

  const create = async () => {
    setKeystoreFailure(null);
    const passphrase = takeSecret(newPassphrase);
    const again = takeSecret(newPassphraseAgain);
    const keyText = takeSecret(newKey);
    if (passphrase !== again) {
      setKeystoreFailure(fail('PASSPHRASE_MISMATCH', 'passphrase: the two entries differ; type it again'));
      return;
    }
    let plaintext: Uint8Array<ArrayBuffer>;
    const passphraseData = passphraseBytes(passphrase);
    if (newMode() === 'import') {
      const key = parsePrivateKeyText(keyText);
      if (!key.ok) {
        passphraseData.fill(0);
        setKeystoreFailure(key);
        return;
      }
      plaintext = keyThenPassphrase(key.value, passphraseData);
      key.value.fill(0);
      passphraseData.fill(0);
    } else plaintext = passphraseData;
    setBusy(true);
    const sealed = await sealSecret(bridge, newMode() === 'import' ? 'import' : 'create', plaintext);
    const created = sealed.ok ? await bridge.offlineCreateKeystore({ name: newName(), style: newStyle(), mode: newMode(), secret: sealed.value }) : sealed;
    setBusy(false);
    if (!created.ok) {
      setKeystoreFailure(created);
      return;
    }
    await refetch();
    setKeystore(created.value.name);
  };

  const sign = async () => {
    const request = preview();
    const chosen = keystore();
    setFailure(null);
    const passphrase = takeSecret(signPassphrase);
    if (!request || !chosen) return;
    setBusy(true);
    const sealed = await sealSecret(bridge, 'sign', passphraseBytes(passphrase));
    const signed = sealed.ok ? await bridge.offlineSign({ requestHash: request.requestHash, keystore: chosen, secret: sealed.value }) : sealed;
    setBusy(false);
    if (!signed.ok) {
      setFailure(signed);
      return;
    }
    setSignature(signed.value);
  };

  return (
    <section class="custody" data-testid="offline-signer">
      <h2>Offline signer</h2>
      <p class="muted">This machine has no network. Load the request the online terminal made, read every line, sign, and carry the response back.</p>

      <h3>1. The request</h3>
      <textarea
        class="custody-text"
        data-testid="offline-request-text"
        spellcheck={false}
        placeholder="The request file's text, or its QR payloads (LTQR1/…) one per line"
        value={requestText()}
        onInput={(event) => setRequestText(event.currentTarget.value)}
      />
      <label>
        Or choose the request file{' '}
        <input
          type="file"
          accept=".json,application/json,text/plain"
          data-testid="offline-request-file"
          onChange={(event) => {
            const input = event.currentTarget;
            void readChosenFile(input).then((contents) => {
              if (contents !== null) setRequestText(contents);
              input.value = '';
            });
          }}
        />
      </label>
      <button type="button" data-testid="offline-request-load" disabled={busy() || requestText().trim() === ''} onClick={() => void load()}>
        Load and check
      </button>
      <FailureLine failure={failure()} testId="offline-error" />

      <Show when={preview()}>
        {(request) => (
          <article class="custody-request" data-testid="offline-preview" data-kind={request().kind} data-request-hash={request().requestHash}>
            <header>
              <strong>What you are about to sign</strong> <Countdown untilSeconds={request().expiresAt} now={now} testId="offline-preview-countdown" />
            </header>
            <RequestLines lines={request().lines} testId="offline-preview-lines" />
            <For each={request().warnings}>{(warning) => <p class="custody-warning">Note: {warning}</p>}</For>
            <p data-testid="offline-preview-check">{request().check}</p>
          </article>
        )}
      </Show>

      <h3>2. The owner's keystore</h3>
      <FailureLine failure={keystoreFailure()} testId="offline-keystore-error" />
      <For each={keystores() ?? []} fallback={<p class="muted">No keystore in this data directory yet.</p>}>
        {(view) => (
          <label data-testid="offline-keystore" data-name={view.name} data-matches={matches(view) ? 'true' : 'false'}>
            <input type="radio" name="offline-keystore" value={view.name} disabled={view.address === null} checked={keystore() === view.name} onChange={() => setKeystore(view.name)} /> {view.name}{' '}
            <span class="mono">{view.address ?? ''}</span> {view.style ?? ''}
            <Show when={view.weak}>
              <span class="warning"> test-only KDF: never keep a real key in it</span>
            </Show>
            <Show when={view.problem}>{(problem) => <span class="error"> {problem()}</span>}</Show>
            <Show when={preview() !== null && view.address !== null && !matches(view)}>
              <span class="muted"> (not this request's owner)</span>
            </Show>
          </label>
        )}
      </For>
      <details data-testid="offline-keystore-create">
        <summary>Create or import a keystore</summary>
        <div class="custody-form">
          <label for="offline-new-name">Name</label>
          <input id="offline-new-name" data-testid="offline-new-name" value={newName()} onInput={(event) => setNewName(event.currentTarget.value)} />
          <label for="offline-new-style">Style</label>
          <select id="offline-new-style" data-testid="offline-new-style" value={newStyle()} onChange={(event) => setNewStyle(event.currentTarget.value as OwnerStyle)}>
            <option value="ledger">Ledger-style (SHA-256 address)</option>
            <option value="evm">EVM-style (Keccak-256 address)</option>
          </select>
          <label for="offline-new-mode">Key</label>
          <select id="offline-new-mode" data-testid="offline-new-mode" value={newMode()} onChange={(event) => setNewMode(event.currentTarget.value as 'generate' | 'import')}>
            <option value="generate">Generate a new key here</option>
            <option value="import">Import an existing key</option>
          </select>
          <Show when={newMode() === 'import'}>
            <label for="offline-new-key">Private key</label>
            <input id="offline-new-key" data-testid="offline-new-key" type="password" autocomplete="off" placeholder="64 hex digits" ref={(element) => (newKey = element)} />
          </Show>
          <label for="offline-new-passphrase">Passphrase</label>
          <input id="offline-new-passphrase" data-testid="offline-new-passphrase" type="password" autocomplete="new-password" ref={(element) => (newPassphrase = element)} />
          <label for="offline-new-passphrase-again">Passphrase again</label>
          <input id="offline-new-passphrase-again" data-testid="offline-new-passphrase-again" type="password" autocomplete="new-password" ref={(element) => (newPassphraseAgain = element)} />
          <div class="custody-actions">
            <button type="button" data-testid="offline-new-create" disabled={busy()} onClick={() => void create()}>
              {newMode() === 'import' ? 'Import into a new keystore' : 'Create the keystore'}
            </button>
          </div>
        </div>
        <p class="muted">At least 12 characters; several random words are easier to type than symbols. Back up the file and remember the passphrase: without both, the key is gone.</p>
      </details>

      <h3>3. Sign</h3>
      <label>
        Passphrase of {keystore() ?? 'the chosen keystore'}{' '}
        <input data-testid="offline-sign-passphrase" type="password" autocomplete="off" ref={(element) => (signPassphrase = element)} />
      </label>
      <button type="button" data-testid="offline-sign" disabled={busy() || preview() === null || keystore() === null} onClick={() => void sign()}>
        Sign exactly this request
      </button>

      <Show when={signature()}>
        {(signed) => (
          <article class="custody-result" data-testid="offline-signature">
            <p>
              Signed by <span class="mono">{signed().signer}</span>: signature <span class="mono" data-testid="offline-signature-value">{signed().signature}</span>
            </p>
            <button type="button" data-testid="offline-signature-download" onClick={() => downloadText(signed().fileName, signed().fileText)}>
              Download {signed().fileName}
            </button>
            <pre class="mono custody-payloads" data-testid="offline-signature-text">
              {signed().fileText}
            </pre>
            <QrLoop images={signed().qrImages} payloads={signed().qrPayloads} testId="offline-signature-qr" />
          </article>
        )}
      </Show>
    </section>
  );
};
