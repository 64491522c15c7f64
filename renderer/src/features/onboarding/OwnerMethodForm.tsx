// The owner endpoints (upgrade, call, calls, actions) from the Account view. The methods and
// their parameters come from main's table (getOwnerMethods): the page only fills them in. Main
// builds the request, shows the endpoint, the method and every parameter in its trusted
// confirmation (a native dialog, or the code printed on the host's terminal), and signs it with the
// owner key; the page never builds or signs anything. For a watch-only owner main prepares the
// request for the offline signer instead, which shows every call it signs; the request waits
// below with its file and QR codes until its signature is imported here.
import { createResource, createSignal, For, Show, type Component } from 'solid-js';
import type { OwnerMethodResultView, OwnerMethodView } from '../../../../shared/ipc/views';
import { ImportSignature, PendingRequests } from '../custody';
import { useBridge } from '../../stores/bridge-context';
import { useTerminal } from '../../stores/terminal-context';
import { labelText, marketLabel } from '../markets/market-label';
import { explain } from './steps';

export const OwnerMethodForm: Component = () => {
  const terminal = useTerminal();
  const bridge = useBridge();
  const account = () => terminal.store.state.account;
  const markets = () => terminal.store.state.markets?.markets ?? [];
  const [methods] = createResource(async () => {
    const listed = await bridge.getOwnerMethods({});
    return listed.ok ? listed.value : [];
  });
  const [chosen, setChosen] = createSignal<string>('');
  const [values, setValues] = createSignal<Record<string, string>>({});
  const [busy, setBusy] = createSignal(false);
  const [problem, setProblem] = createSignal<string | null>(null);
  const [done, setDone] = createSignal<OwnerMethodResultView | null>(null);
  const watchOnly = () => account()?.activeOwner?.custody === 'watch-only';

  const method = (): OwnerMethodView | null => methods()?.find((item) => item.method === chosen()) ?? methods()?.[0] ?? null;
  const valueOf = (name: string, kind: 'market' | 'b256') => values()[name] ?? (kind === 'market' ? (markets()[0]?.market_id ?? '') : '');

  const submit = async () => {
    const current = method();
    if (current === null || busy()) return;
    setBusy(true);
    setProblem(null);
    setDone(null);
    const parameters = Object.fromEntries(current.parameters.map((parameter) => [parameter.name, valueOf(parameter.name, parameter.kind).trim()]));
    if (watchOnly()) {
      // Nothing is signed here: main builds the request from its table; it then waits below.
      const prepared = await bridge.prepareOwnerRequest({ kind: 'owner-call', method: current.method, parameters });
      setBusy(false);
      if (prepared.ok) terminal.store.notify('info', `Prepared for the offline signer: ${prepared.value.description}`);
      else setProblem(explain(prepared.code, prepared.message));
      return;
    }
    const result = await bridge.callOwnerMethod({ method: current.method, parameters });
    setBusy(false);
    if (result.ok) {
      setDone(result.value);
      terminal.store.notify('info', `${result.value.description}: ${result.value.detail}`);
    } else setProblem(explain(result.code, result.message));
  };

  return (
    <Show when={account()?.tradeAccount && (methods()?.length ?? 0) > 0}>
      <div class="owner-keys" data-testid="owner-methods">
        <span class="title">Owner requests</span>
        <Show
          when={watchOnly()}
          fallback={<span class="help">Requests only the owner key may sign: upgrading the account contract, and calls and actions on a book. Each is confirmed outside this window, showing every parameter.</span>}
        >
          <p class="help" data-testid="owner-methods-watch-only">
            This owner is watch-only: its key stays on the offline signer. The terminal prepares the request; carry its file or QR codes to the offline machine, check every call it shows there, sign,
            and import the signature below. It is submitted once the signature is verified.
          </p>
        </Show>
        <form
          class="actions"
          style={{ 'flex-wrap': 'wrap' }}
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <label class="field-inline">
            Request
            <select data-testid="owner-method" value={method()?.method ?? ''} onChange={(event) => setChosen(event.currentTarget.value)}>
              <For each={methods() ?? []}>{(item) => <option value={item.method}>{item.title}</option>}</For>
            </select>
          </label>
          <For each={method()?.parameters ?? []}>
            {(parameter) => (
              <label class="field-inline">
                {parameter.label}
                <Show
                  when={parameter.kind === 'market'}
                  fallback={
                    <input class="mono" style={{ width: '420px' }} placeholder="0x + 64 hex digits" data-testid={`owner-method-${parameter.name}`} value={valueOf(parameter.name, parameter.kind)} onInput={(event) => setValues({ ...values(), [parameter.name]: event.currentTarget.value })} />
                  }
                >
                  <select data-testid={`owner-method-${parameter.name}`} value={valueOf(parameter.name, parameter.kind)} onChange={(event) => setValues({ ...values(), [parameter.name]: event.currentTarget.value })}>
                    <For each={markets()}>{(market) => <option value={market.market_id}>{labelText(marketLabel(market, markets()))}</option>}</For>
                  </select>
                </Show>
              </label>
            )}
          </For>
          <Show
            when={watchOnly()}
            fallback={
              <button type="submit" class="primary" data-testid="owner-method-submit" disabled={busy()}>
                Review and sign
              </button>
            }
          >
            <button type="submit" class="primary" data-testid="owner-method-prepare" disabled={busy()}>
              Prepare for the offline signer
            </button>
          </Show>
        </form>
        <Show when={method()}>{(current) => <span class="help">{current().endpoint}: {current().explains}</span>}</Show>
        <Show when={busy()}>
          <div class="muted">{watchOnly() ? 'Preparing the request…' : 'Waiting for your confirmation, then the exchange…'}</div>
        </Show>
        <Show when={problem()}>
          <div class="step-error" role="alert" data-testid="owner-method-error">
            {problem()}
          </div>
        </Show>
        <Show when={watchOnly()}>
          <PendingRequests kinds={['owner-call']} testId="owner-method-requests" />
          <ImportSignature testId="owner-method-import" showResult={false} />
        </Show>
        <Show when={done()}>
          {(result) => (
            <div class="step-detail" data-testid="owner-method-result">
              {result().description}: {result().status === 'accepted' ? 'accepted' : 'landed'}
              {result().txId ? ` in transaction ${result().txId}` : ''}.
            </div>
          )}
        </Show>
      </div>
    </Show>
  );
};
