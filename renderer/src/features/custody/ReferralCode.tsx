// A referral code: look it up (valid? active? whose?) and register its owner as this account's
// referer (a session action: a live session that covers the accounts registry is needed).
// Invalid, inactive and own codes are refused by main with the reason.
import { createSignal, Show, type Component } from 'solid-js';
import type { ReferralCodeView, ReferralRegistrationView } from '../../../../shared/ipc/views';
import type { Failure } from '../../../../shared/result';
import { FailureLine } from './parts';
import { useBridge } from '../../stores/bridge-context';

const CODE_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export const ReferralCode: Component = () => {
  const bridge = useBridge();
  const [code, setCode] = createSignal('');
  const [found, setFound] = createSignal<ReferralCodeView | null>(null);
  const [registered, setRegistered] = createSignal<ReferralRegistrationView | null>(null);
  const [failure, setFailure] = createSignal<Failure | null>(null);
  const [busy, setBusy] = createSignal(false);

  const checkCode = (): string | null => {
    const text = code().trim();
    if (CODE_PATTERN.test(text)) return text;
    setFailure({ ok: false, code: 'INVALID_INPUT', message: `code: expected 1 to 64 letters, digits, "-" or "_", got ${JSON.stringify(text)}` });
    return null;
  };

  const lookup = async () => {
    setFailure(null);
    setRegistered(null);
    const text = checkCode();
    if (text === null) return;
    setBusy(true);
    const answer = await bridge.lookupReferralCode({ code: text });
    setBusy(false);
    if (answer.ok) setFound(answer.value);
    else setFailure(answer);
  };

  const register = async () => {
    setFailure(null);
    const text = checkCode();
    if (text === null) return;
    setBusy(true);
    const answer = await bridge.registerReferral({ code: text });
    setBusy(false);
    if (answer.ok) setRegistered(answer.value);
    else setFailure(answer);
  };

  return (
    <section class="custody" data-testid="referral">
      <label>
        Referral code{' '}
        <input
          data-testid="referral-code"
          autocomplete="off"
          value={code()}
          onInput={(event) => {
            setCode(event.currentTarget.value);
            setFound(null);
          }}
        />
      </label>
      <div>
        <button type="button" data-testid="referral-lookup" disabled={busy()} onClick={() => void lookup()}>
          Look up
        </button>{' '}
        <button type="button" data-testid="referral-register" disabled={busy() || found()?.usable !== true} onClick={() => void register()}>
          Register this referral
        </button>
      </div>
      <Show when={found()}>
        {(view) => (
          <p data-testid="referral-found" data-usable={view().usable ? 'true' : 'false'}>
            {view().usable ? (
              <>
                Code {view().code} is active; its referer is <span class="mono">{view().refererAddress}</span>.
              </>
            ) : (
              <span class="warning">{view().reason}</span>
            )}
          </p>
        )}
      </Show>
      <FailureLine failure={failure()} testId="referral-error" />
      <Show when={registered()}>
        {(done) => (
          <p class="custody-result" data-testid="referral-registered">
            Registered: referer <span class="mono">{done().refererAddress}</span>, transaction <span class="mono">{done().txId}</span>.
          </p>
        )}
      </Show>
    </section>
  );
};
