// The window: top bar (network, market, connection, budget, session, settings, kill switch), the
// workspace of panels for the selected market, account setup, notices and the confirmation dialog.
import { createEffect, createMemo, createSignal, onCleanup, onMount, Show, type Component } from 'solid-js';
import type { TerminalApi } from '../../../shared/ipc/contract';
import { priceTick } from '../../../shared/market/tick';
import { ConfirmDialog, createConfirm } from '../components/ConfirmDialog';
import { installFillAlerts } from '../features/alerts/fill-alerts';
import { Balances } from '../features/balances/Balances';
import { CandleChart } from '../features/chart/CandleChart';
import { CustodyPanel } from '../features/custody';
import { ConnectionIndicator } from '../features/connection/ConnectionIndicator';
import { installHotkeys } from '../features/hotkeys/hotkey-controller';
import { Journal } from '../features/journal/Journal';
import { Ladder } from '../features/ladder/Ladder';
import { createBookFeed } from '../features/market-data/book-feed';
import { MarketSelector } from '../features/markets/MarketSelector';
import { Onboarding } from '../features/onboarding/Onboarding';
import { OpenOrders } from '../features/orders/OpenOrders';
import { Fills, OrderHistory } from '../features/orders/OrderHistory';
import { SettingsDrawer } from '../features/settings/SettingsDrawer';
import { KillSwitch } from '../features/shell/KillSwitch';
import { NetworkSelector } from '../features/shell/NetworkSelector';
import { RateLimits } from '../features/shell/RateLimits';
import { SessionCountdown } from '../features/shell/SessionCountdown';
import { Toasts } from '../features/shell/Toasts';
import { Tape } from '../features/tape/Tape';
import { OrderTicket } from '../features/ticket/OrderTicket';
import { createTerminal } from './create-terminal';
import { TerminalContext } from './terminal-context';

const SELECTED_MARKET_KEY = 'ledger-terminal.market';
type BlotterTab = 'orders' | 'history' | 'fills' | 'balances' | 'journal';
const TABS: readonly { id: BlotterTab; label: string }[] = [
  { id: 'orders', label: 'Open orders' },
  { id: 'history', label: 'History' },
  { id: 'fills', label: 'Fills' },
  { id: 'balances', label: 'Balances' },
  { id: 'journal', label: 'Journal' },
];

export const App: Component<{ api: TerminalApi; now?: () => number }> = (props) => {
  const dialog = createConfirm();
  const terminal = createTerminal(props.api, dialog.confirm);
  onCleanup(() => {
    terminal.store.dispose();
    terminal.frames.dispose();
  });
  const state = terminal.store.state;

  const clock = props.now ?? (() => Date.now());
  const [now, setNow] = createSignal(clock());
  onMount(() => {
    const timer = setInterval(() => setNow(clock()), 1000);
    onCleanup(() => clearInterval(timer));
  });

  const [selectedId, setSelectedId] = createSignal<string | null>(localStorage.getItem(SELECTED_MARKET_KEY));
  const markets = () => state.markets?.markets ?? [];
  const market = createMemo(() => markets().find((item) => item.market_id === selectedId()) ?? markets()[0] ?? null);
  const selectMarket = (marketId: string) => {
    setSelectedId(marketId);
    localStorage.setItem(SELECTED_MARKET_KEY, marketId);
  };
  // The canonical book; the Turbo toggle arrives with the margin panels.
  const turbo = () => false;

  const [tab, setTab] = createSignal<BlotterTab>('orders');
  const [settingsOpen, setSettingsOpen] = createSignal(false);
  const [fundsOpen, setFundsOpen] = createSignal(false);
  const [setupOpen, setSetupOpen] = createSignal(false);
  const setupIncomplete = () => state.account !== null && !state.account.canTrade;
  // Open account setup by itself once, when main first reports an account that cannot trade.
  let setupShown = false;
  createEffect(() => {
    if (!setupShown && setupIncomplete()) {
      setupShown = true;
      setSetupOpen(true);
    }
  });

  // The inside market of the selected market for hotkeys (a one-level subscription).
  const inside = createBookFeed(terminal.api, terminal.frames, () => {
    const current = market();
    return current ? { marketId: current.market_id, turbo: turbo(), precision: priceTick(current), levels: 1 } : null;
  });
  const liveInside = () => (inside.frame()?.state === 'live' ? inside.frame() : null);
  installHotkeys(terminal, {
    market,
    turbo,
    bestBid: () => liveInside()?.bids[0]?.price ?? null,
    bestAsk: () => liveInside()?.asks[0]?.price ?? null,
  });
  installFillAlerts(terminal);

  // A hidden window needs no frames: main stops pushing market data to it until it shows again.
  onMount(() => {
    const onVisibility = () => void terminal.api.setWindowVisible({ visible: !document.hidden });
    document.addEventListener('visibilitychange', onVisibility);
    onCleanup(() => document.removeEventListener('visibilitychange', onVisibility));
  });

  return (
    <TerminalContext.Provider value={terminal}>
      <div class="app">
        <header class="topbar">
          <div class="brand">Ledger Terminal</div>
          <NetworkSelector confirm={dialog.confirm} />
          <MarketSelector markets={markets()} selected={market()} onSelect={selectMarket} problem={state.problems.markets ?? null} />
          <ConnectionIndicator status={state.connection} />
          <div class="spacer" />
          <RateLimits />
          <SessionCountdown now={now} />
          <button type="button" data-testid="open-setup" classList={{ on: setupOpen() }} onClick={() => setSetupOpen(!setupOpen())} title={state.problems.account ?? ''}>
            Account{setupIncomplete() ? ' · setup' : ''}
          </button>
          <button
            type="button"
            data-testid="sound-toggle"
            title={state.settings?.sound ? 'Fill sound on: click to mute' : 'Fill sound off: click to unmute'}
            disabled={!state.settings}
            onClick={() => void terminal.api.updateSettings({ sound: !state.settings?.sound }).then((result) => result.ok && terminal.store.setSettings(result.value))}
          >
            {state.settings?.sound ? '♪ on' : '♪ off'}
          </button>
          <button
            type="button"
            data-testid="open-funds"
            classList={{ on: fundsOpen() }}
            title="Deposit, withdraw, requests for the offline signer, referral"
            onClick={() => {
              setSettingsOpen(false);
              setFundsOpen(!fundsOpen());
            }}
          >
            Funds
          </button>
          <button
            type="button"
            data-testid="open-settings"
            classList={{ on: settingsOpen() }}
            onClick={() => {
              setFundsOpen(false);
              setSettingsOpen(!settingsOpen());
            }}
          >
            Settings
          </button>
          <KillSwitch />
        </header>
        <Show
          when={!setupOpen()}
          fallback={
            <div style={{ flex: 1, overflow: 'auto' }}>
              <Onboarding now={now} />
              <div style={{ 'text-align': 'center', 'padding-bottom': '24px' }}>
                <button type="button" data-testid="close-setup" onClick={() => setSetupOpen(false)}>
                  Back to the workspace
                </button>
              </div>
            </div>
          }
        >
          <Show when={market()} fallback={<div class="panel-note" data-testid="no-market">{state.problems.markets ? `Markets are not available: ${state.problems.markets}` : 'Loading markets…'}</div>}>
            {(current) => (
              <main class="workspace" data-testid="workspace">
                <section class="panel area-ladder" data-testid="ladder-panel">
                  <Ladder market={current()} turbo={turbo()} />
                </section>
                <div class="area-chart" style={{ display: 'flex', 'min-height': 0 }}>
                  <CandleChart market={current()} turbo={turbo()} />
                </div>
                <div class="area-ticket" style={{ display: 'flex', 'min-height': 0 }}>
                  <OrderTicket market={current()} turbo={turbo()} />
                </div>
                <section class="panel area-blotter" data-testid="blotter">
                  <header class="panel-head">
                    <div class="tabs">
                      {TABS.map((item) => (
                        <button type="button" classList={{ on: tab() === item.id }} data-testid={`tab-${item.id}`} onClick={() => setTab(item.id)}>
                          {item.label}
                          {item.id === 'orders' ? ` (${state.openOrders.length})` : ''}
                        </button>
                      ))}
                    </div>
                  </header>
                  <div class="panel-body">
                    <Show when={tab() === 'orders'}>
                      <OpenOrders market={current()} turbo={turbo()} allMarkets={true} />
                    </Show>
                    <Show when={tab() === 'history'}>
                      <OrderHistory market={current()} turbo={turbo()} />
                    </Show>
                    <Show when={tab() === 'fills'}>
                      <Fills market={current()} turbo={turbo()} />
                    </Show>
                    <Show when={tab() === 'balances'}>
                      <Balances turbo={turbo()} />
                    </Show>
                    <Show when={tab() === 'journal'}>
                      <Journal />
                    </Show>
                  </div>
                </section>
                <section class="panel area-tape" data-testid="tape-panel">
                  <header class="panel-head">
                    <h2>Trades</h2>
                    <span class="muted">
                      {current().base.symbol}/{current().quote.symbol}
                    </span>
                  </header>
                  <div class="panel-body">
                    <Tape market={current()} turbo={turbo()} />
                  </div>
                </section>
              </main>
            )}
          </Show>
        </Show>
        <Show when={settingsOpen()}>
          <SettingsDrawer market={market()} onClose={() => setSettingsOpen(false)} />
        </Show>
        <Show when={fundsOpen()}>
          <aside class="drawer funds-drawer" data-testid="funds-drawer">
            <header class="panel-head">
              <h2>Funds</h2>
              <div class="spacer" />
              <button type="button" data-testid="funds-close" onClick={() => setFundsOpen(false)}>
                Close
              </button>
            </header>
            <div class="funds-body">
              <CustodyPanel api={props.api} now={now} />
            </div>
          </aside>
        </Show>
        <Toasts />
        <ConfirmDialog question={dialog.question()} settle={dialog.settle} />
      </div>
    </TerminalContext.Provider>
  );
};
