// The trader's margin (Turbo) accounts: the pool and the owner's discount, whether the trading
// session covers what margin actions need (and why a new one is made to add an account), the
// registration of a new account with its predicted id, and one card per account (open, credit
// actions, close, withdraw, and which account trades on Turbo books).
import { createEffect, createMemo, createResource, createSignal, For, on, onCleanup, Show, type Component } from 'solid-js';
import type { MarginOverview, MarginRegistration } from '../../../../shared/ipc/views/margin';
import type { Failure } from '../../../../shared/result';
import { AccountCard } from './AccountCard';
import { basisPoints, money } from './margin-format';
import { MarginSettingsForm } from './MarginSettingsForm';
import { FailureLine, ReceiptLine } from './parts';
import './margin.css';
import { useBridge } from '../../stores/bridge-context';
import { useTerminal } from '../../stores/terminal-context';
import { notifyMarginOutcome } from './margin-notices';

export const MarginAccountManager: Component<{
  now?: () => number;
  onSelectAccount?: (marginAccountId: string | null) => void;
  /** Every overview the manager shows (pushed or read after its own actions), for a panel beside it. */
  onOverview?: (overview: MarginOverview) => void;
  /** Read the overview again whenever this changes (the pool paused or resumed, a session ended). */
  refreshKey?: unknown;
}> = (props) => {
  const bridge = useBridge();
  const terminal = useTerminal();
  const now = () => (props.now ?? Date.now)();
  const [tick, setTick] = createSignal(now());
  const [pushed, setPushed] = createSignal<MarginOverview | null>(null);
  const [failure, setFailure] = createSignal<Failure | null>(null);
  const [registration, setRegistration] = createSignal<MarginRegistration | null>(null);
  const [busy, setBusy] = createSignal(false);
  const [loaded, { refetch }] = createResource(async () => {
    const read = await bridge.getMarginOverview({});
    if (!read.ok) {
      setFailure(read);
      return null;
    }
    setPushed(null);
    return read.value;
  });
  const stop = bridge.onMarginOverview((overview) => setPushed(overview));
  const timer = setInterval(() => setTick(now()), 1000);
  onCleanup(() => {
    stop();
    clearInterval(timer);
  });
  const overview = () => pushed() ?? loaded() ?? null;
  const reload = () => void refetch();
  createEffect(on(() => props.refreshKey, reload, { defer: true }));
  createEffect(() => {
    const current = overview();
    if (current) props.onOverview?.(current);
  });
  // One card per account id: a card keeps its own state (a tier being chosen) while overviews arrive.
  const accountIds = createMemo(() => overview()?.accounts.map((account) => account.marginAccountId) ?? [], [], { equals: (a, b) => a.length === b.length && a.every((id, index) => id === b[index]) });
  const accountById = (marginAccountId: string) => overview()?.accounts.find((account) => account.marginAccountId === marginAccountId) ?? null;

  const register = async () => {
    if (busy()) return;
    setBusy(true);
    setFailure(null);
    setRegistration(null);
    const registered = await bridge.registerMarginAccount({});
    setBusy(false);
    notifyMarginOutcome(terminal.store, 'Register a Turbo Account', registered);
    if (!registered.ok) {
      setFailure(registered);
      return;
    }
    setRegistration(registered.value);
    reload();
  };

  return (
    <section class="margin margin-manager" data-testid="margin-manager">
      <FailureLine failure={failure()} testId="margin-manager-error" />
      <Show when={overview()} fallback={<p class="muted" data-testid="margin-manager-loading">Loading margin accounts…</p>}>
        {(current) => (
          <>
            <div class="margin-status">
              <Show when={current().pool}>
                {(pool) => (
                  <span class="margin-badge" data-tone={pool().paused ? 'warning' : 'ok'} data-testid="margin-manager-pool">
                    {pool().paused ? 'Pool paused: no opens, draws or borrows' : 'Pool open'}
                  </span>
                )}
              </Show>
              <span class="margin-badge" data-testid="margin-manager-discount">
                Fee discount {basisPoints(current().discountBps)}
              </span>
              <span class="margin-badge" data-testid="margin-manager-trading-as">
                {current().selectedMarginAccountId ? 'Turbo orders: signed as the selected Turbo Account' : 'Turbo orders: signed as the trading account'}
              </span>
              <button type="button" data-testid="margin-manager-refresh" onClick={reload}>
                Refresh
              </button>
            </div>
            <Show when={current().problems.length > 0}>
              <p class="warning" data-testid="margin-manager-problems">
                {current().problems.join(' · ')}
              </p>
            </Show>
            <Show when={!current().scope.covered}>
              <p class="margin-alert" data-testid="margin-manager-scope">
                {current().scope.explanation}
              </p>
            </Show>
            <Show when={current().pool}>
              {(pool) => (
                <p class="muted" data-testid="margin-manager-inventory">
                  Pool inventory: {pool().inventory.map((entry) => money(entry.amount, entry)).join(', ')}
                </p>
              )}
            </Show>
            <div class="margin-row">
              <button type="button" data-testid="margin-manager-register" disabled={busy() || current().parentAccountId === null} onClick={() => void register()}>
                Register a Turbo Account
              </button>
              <Show when={current().nextAccount}>
                {(next) => (
                  <span class="muted" data-testid="margin-manager-next">
                    next: index {next().index.toString()}, id <span class="mono">{next().marginAccountId}</span>
                  </span>
                )}
              </Show>
            </div>
            <ReceiptLine receipt={registration()} testId="margin-manager-registration" />
            <For each={accountIds()} fallback={<p class="muted" data-testid="margin-manager-empty">No Turbo Account yet.</p>}>
              {(marginAccountId) => (
                <Show when={accountById(marginAccountId)}>
                  {(account) => <AccountCard account={account()} overview={current()} now={tick} onChanged={reload} {...(props.onSelectAccount ? { onSelectAccount: props.onSelectAccount } : {})} />}
                </Show>
              )}
            </For>
            <details>
              <summary data-testid="margin-manager-settings-toggle">Turbo order settings</summary>
              <MarginSettingsForm settings={current().settings} onSaved={reload} />
            </details>
          </>
        )}
      </Show>
    </section>
  );
};
