// The Margin panel: the live risk of one Turbo Account beside the accounts themselves (register,
// open, credit actions, close, withdraw, which one trades on Turbo books). The risk shown follows
// the account chosen for Turbo trading, else the first with a live session, unless the trader
// picks another. Below the risk, the reads no stream carries (activity, statistics, tier history,
// Turbo events), read by main while shown.
import { createEffect, createMemo, createSignal, For, Show, type Component } from 'solid-js';
import { useTerminal } from '../../stores/terminal-context';
import type { MarginOverview } from '../../../../shared/ipc/views/margin';
import { MarginAccountManager } from './MarginAccountManager';
import { MarginInsights } from './MarginInsights';
import { MarginRiskPanel } from './MarginRiskPanel';
import { learnDisplayDecimals, shortAccount } from './margin-format';
import './margin.css';

export const MarginPanel: Component<{ now?: () => number }> = (props) => {
  const terminal = useTerminal();
  // Amounts are shown in each asset's display decimals, learnt from the markets.
  createEffect(() => learnDisplayDecimals(terminal.store.state.markets));
  // The accounts as the manager beside it shows them (it reads and follows the overview).
  const [overview, setOverview] = createSignal<MarginOverview | null>(null);
  const [picked, setPicked] = createSignal<string | null>(null);
  // The overview is pushed when accounts or sessions change, not when the pool pauses: the risk
  // frames say that, and the accounts beside them are read again.
  const [frameState, setFrameState] = createSignal('');
  const accounts = () => overview()?.accounts ?? [];
  const shown = createMemo(() => {
    const list = accounts();
    const choice = picked();
    if (choice !== null && list.some((account) => account.marginAccountId === choice)) return choice;
    return overview()?.selectedMarginAccountId ?? list.find((account) => account.hasSession)?.marginAccountId ?? list[0]?.marginAccountId ?? null;
  });
  return (
    <div class="margin-panel-host">
    <div class="margin-panel" data-testid="margin-panel">
      <section class="margin-panel-risk">
        <header class="margin-panel-head">
          <h3 class="subhead">Risk</h3>
          <Show when={accounts().length > 1}>
            <select data-testid="margin-panel-account" value={shown() ?? ''} onChange={(event) => setPicked(event.currentTarget.value)}>
              <For each={accounts()}>
                {(account) => (
                  <option value={account.marginAccountId}>
                    #{account.index.toString()} {shortAccount(account.marginAccountId)}
                    {account.hasSession ? '' : ' (no session)'}
                  </option>
                )}
              </For>
            </select>
          </Show>
        </header>
        <Show when={shown()} keyed fallback={<p class="muted" data-testid="margin-panel-no-account">Register a Turbo Account to see its risk here.</p>}>
          {(marginAccountId) => (
            <MarginRiskPanel
             
              marginAccountId={marginAccountId}
              {...(props.now ? { now: props.now } : {})}
              onFrame={(frame) => setFrameState(`${frame.poolPaused}|${frame.session !== null}|${frame.lastSession?.status ?? ''}`)}
            />
          )}
        </Show>
      </section>
      <section class="margin-panel-accounts">
        <h3 class="subhead">Turbo Accounts</h3>
        <MarginAccountManager
         
          {...(props.now ? { now: props.now } : {})}
          onOverview={setOverview}
          refreshKey={frameState()}
          onSelectAccount={(marginAccountId) => marginAccountId !== null && setPicked(marginAccountId)}
        />
      </section>
    </div>
    <MarginInsights marginAccountId={shown()} />
    </div>
  );
};
