// Account setup, step by step as main reports them (AccountState.steps): an owner key (created,
// imported encrypted to main, or watch-only), the trade account, test funds and whitelisting
// where the network has them, and a trading session scoped to chosen markets. Each step says
// what it is doing and, when it fails, why, in a trader's words.
import { createSignal, For, Match, Show, Switch, type Component } from 'solid-js';
import type { OwnerStyle } from '../../../../shared/crypto/address';
import type { OnboardingStep } from '../../../../shared/ipc/views';
import type { Result } from '../../../../shared/result';
import { useTerminal } from '../../stores/terminal-context';
import { useBridge } from '../../stores/bridge-context';
import { formatDateTime, formatRemaining } from '../../format/time';
import { shortId } from '../../format/units';
import { ImportSignature, PendingRequests, SessionRequestForm } from '../custody';
import { labelText, marketLabel } from '../markets/market-label';
import { explain, waitingFor } from './steps';
import { OwnerKeys } from './OwnerKeys';
import { OwnerMethodForm } from './OwnerMethodForm';
import { encryptKeyForImport, parsePrivateKeyText, webRandom } from './key-import-crypto';
import { sessionScope, sessionScopeText } from '../../../../shared/market/session-scope';

const STATE_LABELS: Record<OnboardingStep['state'], string> = { todo: 'to do', working: 'working', done: 'done', failed: 'failed', 'not-needed': 'not needed' };

export const Onboarding: Component<{ now: () => number; onFinished?: () => void }> = (props) => {
  const terminal = useTerminal();
  const bridge = useBridge();
  const account = () => terminal.store.state.account;
  const network = () => terminal.store.state.networks.find((item) => item.active) ?? null;
  const markets = () => terminal.store.state.markets?.markets ?? [];
  const [busy, setBusy] = createSignal<string | null>(null);
  const [errors, setErrors] = createSignal<Partial<Record<OnboardingStep['id'], string>>>({});
  const [style, setStyle] = createSignal<OwnerStyle>('ledger');
  const [ownerMode, setOwnerMode] = createSignal<'create' | 'import' | 'watch'>('create');
  const [watchAddress, setWatchAddress] = createSignal('');
  const [addingOwner, setAddingOwner] = createSignal(false);
  const [chosenMarkets, setChosenMarkets] = createSignal<readonly string[] | null>(null);
  const [sessionDays, setSessionDays] = createSignal<number | null>(null);
  const [sessionHours, setSessionHours] = createSignal(0);
  let keyInput: HTMLInputElement | undefined;

  const stepError = (id: OnboardingStep['id'], text: string | null) => setErrors({ ...errors(), [id]: text ?? undefined });

  const run = async <T,>(id: OnboardingStep['id'], label: string, action: () => Promise<Result<T>>, onDone?: (value: T) => void): Promise<boolean> => {
    setBusy(label);
    stepError(id, null);
    const result = await action();
    setBusy(null);
    if (result.ok) {
      onDone?.(result.value);
      if (id === 'owner') setAddingOwner(false);
      terminal.store.reload('account');
    } else stepError(id, explain(result.code, result.message));
    return result.ok;
  };

  const importKey = async () => {
    const input = keyInput;
    if (!input) return;
    const parsed = parsePrivateKeyText(input.value);
    // The field is cleared whatever happens next: the key must not linger in the page.
    input.value = '';
    if (!parsed.ok) {
      stepError('owner', parsed.message);
      return;
    }
    const keyBytes = parsed.value;
    await run('owner', 'Importing the key', async () => {
      try {
        const challenge = await bridge.beginKeyImport({});
        if (!challenge.ok) return challenge;
        const request = await encryptKeyForImport(crypto.subtle, webRandom, challenge.value, style(), keyBytes);
        if (!request.ok) return request;
        return bridge.importOwnerKey(request.value);
      } finally {
        keyBytes.fill(0);
      }
    });
  };

  const selectedMarketIds = () => chosenMarkets() ?? markets().map((market) => market.market_id);
  const days = () => sessionDays() ?? terminal.store.state.settings?.sessionDays ?? 30;

  const createSession = () => {
    const hours = sessionHours();
    const input = days() === 0 ? { marketIds: [...selectedMarketIds()], hours: Math.max(1, hours) } : { marketIds: [...selectedMarketIds()], days: days(), ...(hours > 0 ? { hours } : {}) };
    void run('session', 'Creating the session', () => bridge.createSession(input));
  };

  // From an empty keychain on a test network, every step in one click, with the defaults each step
  // shows (a new owner key of the chosen style, test funds, whitelisting, a session on every market
  // for the default length); it stops at the first step that fails, which says why, as a click on
  // that step would. Then back to the workspace: the first order is one ticket or ladder away.
  const canSetUpAll = () => {
    const state = account();
    const owner = state?.steps.find((step) => step.id === 'owner');
    return state !== null && state !== undefined && state.keychain.available && owner?.state === 'todo' && network()?.production === false && markets().length > 0;
  };
  const setUpAll = async () => {
    const current = network();
    if (!(await run('owner', 'Creating the key', () => bridge.createOwnerKey({ style: style() })))) return;
    if (!(await run('account', 'Creating the trade account', () => bridge.createTradeAccount({})))) return;
    if (current?.hasFaucet && !(await run('funds', 'Asking the faucet', () => bridge.mintFromFaucet({})))) return;
    if (current?.hasWhitelist !== false && !(await run('whitelist', 'Whitelisting', () => bridge.whitelistAccount({})))) return;
    if (!(await run('session', 'Creating the session', () => bridge.createSession({ marketIds: markets().map((market) => market.market_id), days: days() })))) return;
    terminal.store.notify('info', `Set up: owner key, trading account${current?.hasFaucet ? ', test funds' : ''}, a ${days()}-day session on every market. Trade from the ticket, or arm the ladder.`);
    props.onFinished?.();
  };

  const stepBody = (step: OnboardingStep) => {
    const state = account();
    if (!state) return null;
    switch (step.id) {
      case 'owner':
        return (
          <Show
            when={state.keychain.available || state.activeOwner !== null}
            fallback={
              <>
                <div class="callout error" data-testid="keychain-unavailable">
                  <p>
                    {state.keychain.reason ??
                      `No secure key store is available (${state.keychain.description}). The terminal never writes a private key in plain text, so it cannot hold an owner key on this machine.`}
                  </p>
                  <Show when={state.keychain.commands.length > 0}>
                    <p>To fix it on this machine, run, then start the terminal again:</p>
                    <For each={state.keychain.commands}>
                      {(command) => (
                        <pre class="command" data-testid="keychain-command">
                          {command}
                        </pre>
                      )}
                    </For>
                  </Show>
                </div>
                {ownerChoices(state.keychain.description, false)}
              </>
            }
          >
            <Show when={state.activeOwner} fallback={ownerChoices(state.keychain.description)}>
              {(owner) => (
                <div class="step-detail" data-testid="owner-address">
                  Owner <span class="mono">{owner().address}</span> ({owner().style === 'evm' ? 'EVM-style' : 'ledger-style'},{' '}
                  {owner().custody === 'watch-only' ? 'watch-only: the key stays offline' : `key in ${state.keychain.description}`})
                </div>
              )}
            </Show>
          </Show>
        );
      case 'account':
        return (
          <Show
            when={state.tradeAccount}
            fallback={
              <div class="actions">
                <span>The trade account is the contract that holds your funds and executes trades; your owner key controls it.</span>
                <button type="button" class="primary" data-testid="onboarding-create-account" disabled={!state.activeOwner || busy() !== null} onClick={() => void run('account', 'Creating the trade account', () => bridge.createTradeAccount({}))}>
                  Create trade account
                </button>
              </div>
            }
          >
            {(trade) => (
              <div class="step-detail">
                Trade account <span class="mono">{trade().tradeAccountId}</span> · nonce {trade().nonce.toString()}
              </div>
            )}
          </Show>
        );
      case 'funds':
        return (
          <Show
            when={network()?.hasFaucet !== false}
            fallback={
              <div>
                This network has no faucet. Fund the account with an on-chain transfer to the trade account{' '}
                <span class="mono">{state.tradeAccount?.tradeAccountId ?? '(create it first)'}</span>, naming the asset id and the amount.
              </div>
            }
          >
            <div class="actions">
              <span>The faucet mints test assets into the trade account, once a minute.</span>
              <button type="button" data-testid="onboarding-mint" disabled={!state.tradeAccount || busy() !== null} onClick={() => void run('funds', 'Asking the faucet', () => bridge.mintFromFaucet({}), () => terminal.store.notify('info', 'Faucet: test funds were minted into the trading account; Funds and Balances show them as they arrive.'))}>
                Mint test funds
              </button>
            </div>
          </Show>
        );
      case 'whitelist':
        return (
          <Show when={network()?.hasWhitelist !== false} fallback={<div>This network does not need whitelisting.</div>}>
            <div class="actions">
              <span>Some order books accept orders only from whitelisted accounts; without it, orders fail with "trader not whitelisted".</span>
              <button
                type="button"
                data-testid="onboarding-whitelist"
                disabled={!state.tradeAccount || state.tradeAccount.whitelisted === true || busy() !== null}
                onClick={() => void run('whitelist', 'Whitelisting', () => bridge.whitelistAccount({}), (value) => value.alreadyWhitelisted && terminal.store.notify('info', 'The account was already whitelisted.'))}
              >
                Whitelist the account
              </button>
            </div>
          </Show>
        );
      case 'session':
        return (
          <Switch>
            <Match when={state.activeOwner?.custody === 'watch-only'}>
              <div class="watch-only-session" data-testid="watch-only-session">
                <p class="callout">
                  This owner is watch-only: its key stays offline, so the session is signed there. Choose the markets and how long it lasts: the terminal makes the session key (it never leaves this
                  machine) and a request for the offline signer. Carry the request file or its QR codes to the offline machine, sign it there, and bring the signature back below; the session
                  starts once it is submitted.
                </p>
                <SessionRequestForm />
                <PendingRequests now={props.now} kinds={['withdraw', 'session']} />
                <ImportSignature />
              </div>
            </Match>
            <Match when={state.session}>
              {(session) => (
                <div class="step-detail" data-testid="session-info">
                  Session <span class="mono">{shortId(session().sessionAddress)}</span> · expires {formatDateTime(Number(session().expiry) * 1000)} (in{' '}
                  {formatRemaining(Number(session().expiry) * 1000 - props.now())}) · <span data-testid="session-scope">{sessionScopeText(sessionScope(session().contractIds, markets(), terminal.store.state.markets?.turboMarkets ?? []))}</span> · {session().state}. The terminal renews
                  it ahead of expiry while it runs.
                </div>
              )}
            </Match>
            <Match when={true}>
              <div class="actions" style={{ 'flex-direction': 'column', 'align-items': 'stretch' }}>
                <span>
                  A session key lives in the terminal and may only place, cancel and settle on the books you choose, until it expires. It can never withdraw. Your owner key signs it once.
                </span>
                <div style={{ display: 'flex', gap: '10px', 'flex-wrap': 'wrap' }} data-testid="session-markets">
                  <For each={markets()}>
                    {(market) => (
                      <label class="field-inline">
                        <input
                          type="checkbox"
                          checked={selectedMarketIds().includes(market.market_id)}
                          onChange={(event) => {
                            const current = selectedMarketIds().filter((item) => item !== market.market_id);
                            setChosenMarkets(event.currentTarget.checked ? [...current, market.market_id] : current);
                          }}
                        />
                        {labelText(marketLabel(market, markets()))}
                      </label>
                    )}
                  </For>
                </div>
                <div class="actions">
                  <label class="field-inline">
                    Days <input type="number" min="0" max="365" style={{ width: '70px' }} data-testid="session-days" value={days()} onChange={(event) => setSessionDays(Math.max(0, Math.min(365, Math.floor(Number(event.currentTarget.value) || 0))))} />
                  </label>
                  <label class="field-inline">
                    Hours <input type="number" min="0" max="23" style={{ width: '60px' }} data-testid="session-hours" value={sessionHours()} onChange={(event) => setSessionHours(Math.max(0, Math.min(23, Math.floor(Number(event.currentTarget.value) || 0))))} />
                  </label>
                  <span class="help">{terminal.store.state.settings?.sessionDays ?? 30} days by default (the configured length; longer needs your confirmation); at least 1 hour. Renewed for the same length before it ends.</span>
                  <button type="button" class="primary" data-testid="onboarding-create-session" disabled={!state.tradeAccount || selectedMarketIds().length === 0 || busy() !== null} onClick={createSession}>
                    Create session
                  </button>
                </div>
              </div>
            </Match>
          </Switch>
        );
      default:
        return null;
    }
  };

  // A finished step is described by main's detail; the session keeps its countdown, and a step
  // that can be repeated (the faucet) keeps its button.
  const showsOwnBody = (step: OnboardingStep) => step.state !== 'done' || step.detail === null || step.id === 'session' || step.id === 'funds';

  /** `keychain`: false when there is none, so only a watch-only owner (no key stored) can be added. */
  const ownerChoices = (storeName: string, keychain = true) => (
    <div class="step-body" style={{ 'margin-top': 0 }}>
      <div class="actions">
        <label class="field-inline">
          Address style
          <select data-testid="owner-style" value={style()} onChange={(event) => setStyle(event.currentTarget.value as OwnerStyle)}>
            <option value="ledger">Ledger-style (SHA-256 address)</option>
            <option value="evm">EVM-style (Keccak, 20 bytes)</option>
          </select>
        </label>
        <div class="tabs">
          <Show when={keychain}>
            <button type="button" classList={{ on: ownerMode() === 'create' }} data-testid="owner-mode-create" onClick={() => setOwnerMode('create')}>
              Create
            </button>
            <button type="button" classList={{ on: ownerMode() === 'import' }} data-testid="owner-mode-import" onClick={() => setOwnerMode('import')}>
              Import
            </button>
          </Show>
          <button type="button" classList={{ on: !keychain || ownerMode() === 'watch' }} data-testid="owner-mode-watch" onClick={() => setOwnerMode('watch')}>
            Watch-only
          </button>
        </div>
      </div>
      <Switch>
        <Match when={keychain && ownerMode() === 'create'}>
          <div class="actions">
            <span>A new owner key is generated in the terminal's main process and kept in {storeName}; it never reaches this window.</span>
            <button type="button" class="primary" data-testid="onboarding-create-key" disabled={busy() !== null} onClick={() => void run('owner', 'Creating the key', () => bridge.createOwnerKey({ style: style() }))}>
              Create owner key
            </button>
          </div>
        </Match>
        <Match when={keychain && ownerMode() === 'import'}>
          <div class="actions">
            <input
              type="password"
              autocomplete="off"
              spellcheck={false}
              placeholder="Private key: 64 hex digits"
              style={{ width: '340px' }}
              data-testid="owner-import-key"
              ref={(element) => (keyInput = element)}
            />
            <button type="button" class="primary" data-testid="onboarding-import-key" disabled={busy() !== null} onClick={() => void importKey()}>
              Import
            </button>
          </div>
          <span class="help">The key is encrypted in this window to a one-time key of the main process before it leaves it, stored in {storeName}, and the field is cleared.</span>
        </Match>
        <Match when={!keychain || ownerMode() === 'watch'}>
          <div class="actions">
            <input placeholder="Owner address (0x + 64 hex digits)" style={{ width: '420px' }} class="mono" data-testid="owner-watch-address" value={watchAddress()} onInput={(event) => setWatchAddress(event.currentTarget.value.trim())} />
            <button
              type="button"
              data-testid="onboarding-watch-only"
              disabled={busy() !== null || !/^(0x)?[0-9a-fA-F]{64}$/.test(watchAddress())}
              onClick={() => void run('owner', 'Registering the address', () => bridge.registerWatchOnlyOwner({ address: watchAddress(), style: style() }))}
            >
              Register watch-only
            </button>
          </div>
          <span class="help">
            Watch-only: the owner key stays offline and the terminal only knows its address. Owner-signed actions (the trading session, withdrawals) are prepared here as requests, signed by the
            offline signer, and their signatures imported back; the session step below walks through it.
          </span>
        </Match>
      </Switch>
    </div>
  );

  return (
    <div class="onboarding" data-testid="onboarding">
      <h1>Account setup{network() ? ` · ${network()!.name}` : ''}</h1>
      <Show when={canSetUpAll() && busy() === null}>
        <div class="callout setup-all" data-testid="onboarding-setup-all-box">
          <span>
            New here? One click does every step below with its defaults: a new {style() === 'evm' ? 'EVM-style' : 'ledger-style'} owner key in the OS keychain, the trading account
            {network()?.hasFaucet ? ', test funds from the faucet' : ''}
            {network()?.hasWhitelist !== false ? ', whitelisting' : ''} and a {days()}-day session on every market. Or take the steps one by one.
          </span>
          <button type="button" class="primary" data-testid="onboarding-setup-all" onClick={() => void setUpAll()}>
            Set up and trade
          </button>
        </div>
      </Show>
      <Show when={busy()}>
        <div class="callout" data-testid="onboarding-busy">{busy()}…</div>
      </Show>
      <OwnerKeys onAddOwner={() => setAddingOwner(true)} />
      <Show when={addingOwner() && account()}>
        {(state) => (
          <div class="owner-keys" data-testid="owner-add-choices">
            {ownerChoices(state().keychain.description, state().keychain.available)}
            <Show when={errors().owner}>
              <div class="step-error" role="alert">
                {errors().owner}
              </div>
            </Show>
          </div>
        )}
      </Show>
      <OwnerMethodForm />
      <Show when={account()} fallback={<div class="callout">{terminal.store.state.problems.account ? `Account state is not available: ${terminal.store.state.problems.account}` : 'Loading the account…'}</div>}>
        {(state) => (
          <div class="steps">
            <For each={state().steps}>
              {(step, index) => (
                <div class="step" data-testid={`onboarding-step-${step.id}`} data-state={step.state}>
                  <div class="step-head">
                    <span class="muted mono">{index() + 1}</span>
                    <span class="title">{step.title}</span>
                    <span class="step-state" data-state={step.state}>
                      {STATE_LABELS[step.state]}
                    </span>
                  </div>
                  <div class="step-body">
                    <Show when={step.detail}>
                      <div class="step-detail" data-testid={`onboarding-detail-${step.id}`}>
                        {step.detail}
                      </div>
                    </Show>
                    <Show when={step.state !== 'not-needed'}>
                      <Show when={waitingFor(state().steps, index())} fallback={showsOwnBody(step) ? stepBody(step) : null}>
                        {(previous) => <div class="muted" data-testid={`onboarding-waiting-${step.id}`}>Waits for: {previous().title}.</div>}
                      </Show>
                    </Show>
                    <Show when={errors()[step.id]}>
                      <div class="step-error" data-testid={`onboarding-error-${step.id}`} role="alert">
                        {errors()[step.id]}
                      </div>
                    </Show>
                  </div>
                </div>
              )}
            </For>
          </div>
        )}
      </Show>
    </div>
  );
};
