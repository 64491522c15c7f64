// A watch-only owner's trading session: choose the markets and how long it lasts, and main makes
// the session key (it never leaves main) and prepares the request for the offline signer.
import { createResource, createSignal, For, Show, type Component } from 'solid-js';
import type { OwnerRequestView } from '../../../../shared/ipc/views';
import type { Failure } from '../../../../shared/result';
import { labelText, marketLabel } from '../markets/market-label';
import { FailureLine } from './parts';
import { useBridge } from '../../stores/bridge-context';

export const SessionRequestForm: Component<{ onPrepared?: (request: OwnerRequestView) => void }> = (props) => {
  const bridge = useBridge();
  const [markets] = createResource(async () => {
    const listed = await bridge.listMarkets({});
    return listed.ok ? listed.value.markets : [];
  });
  const [chosen, setChosen] = createSignal<readonly string[] | null>(null);
  const [hours, setHours] = createSignal(30 * 24);
  const [failure, setFailure] = createSignal<Failure | null>(null);
  const [prepared, setPrepared] = createSignal<OwnerRequestView | null>(null);
  const [busy, setBusy] = createSignal(false);

  const selected = () => chosen() ?? (markets() ?? []).map((market) => market.market_id);
  const toggle = (marketId: string, on: boolean) => setChosen(on ? [...new Set([...selected(), marketId])] : selected().filter((id) => id !== marketId));

  const prepare = async () => {
    if (busy()) return;
    setBusy(true);
    setFailure(null);
    const made = await bridge.prepareOwnerRequest({ kind: 'session', marketIds: [...selected()], hours: hours() });
    setBusy(false);
    if (!made.ok) {
      setFailure(made);
      return;
    }
    setPrepared(made.value);
    props.onPrepared?.(made.value);
  };

  return (
    <section class="custody" data-testid="session-request-form">
      <fieldset class="custody-markets">
        <legend>Markets the session may trade</legend>
        <For each={markets() ?? []}>
          {(market) => (
            <label>
              <input type="checkbox" data-testid="session-market" value={market.market_id} checked={selected().includes(market.market_id)} onChange={(event) => toggle(market.market_id, event.currentTarget.checked)} />
              <b>{labelText(marketLabel(market, markets() ?? []))}</b>
              <span class="mono muted" title={`market ${market.market_id}\nquote asset ${market.quote.asset}`}>
                {market.market_id}
              </span>
            </label>
          )}
        </For>
      </fieldset>
      <label>
        Lasts{' '}
        <input
          type="number"
          data-testid="session-hours"
          min="1"
          max={24 * 365}
          value={hours()}
          onInput={(event) => setHours(Math.max(1, Math.min(24 * 365, Math.floor(Number(event.currentTarget.value) || 1))))}
        />{' '}
        hours once submitted (at least one)
      </label>
      <p class="muted">The session also covers the accounts registry, so it can register a referral code.</p>
      <button type="button" data-testid="session-prepare" disabled={busy() || selected().length === 0} onClick={() => void prepare()}>
        Prepare the session request
      </button>
      <FailureLine failure={failure()} testId="session-error" />
      <Show when={prepared()}>
        {(request) => (
          <p class="callout" data-testid="session-prepared">
            Request {request().requestId} is waiting for its signature; the session key is {request().lines.find((line) => line.label === 'Session key')?.value}.
          </p>
        )}
      </Show>
    </section>
  );
};
