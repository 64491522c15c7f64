// The main window: top bar (network, market, link group, connection, budget, session, layouts,
// settings, kill switch), the workspace of panels for the selected market (each can go to a window
// of its own and come back), account setup, notices. Its market is remembered here and told to main,
// which passes it on to the windows of its link group; theirs come back the same way.
import { createEffect, createMemo, createSignal, on, onCleanup, Show, type Accessor, type Component } from 'solid-js';
import { priceTick } from '../../../shared/market/tick';
import { installFillAlerts } from '../features/alerts/fill-alerts';
import { Balances } from '../features/balances/Balances';
import { CustodyPanel } from '../features/custody';
import { ConnectionIndicator } from '../features/connection/ConnectionIndicator';
import { useDesk } from '../features/desk/desk-context';
import { detachedKinds } from '../features/desk/desk-model';
import { LayoutMenu } from '../features/desk/LayoutMenu';
import { LinkGroupSelector } from '../features/desk/LinkGroupSelector';
import { DetachButton, DetachedPlaceholder, PanelSlot } from '../features/desk/PanelSlot';
import { PendingWindows } from '../features/desk/PendingWindows';
import '../features/desk/desk.css';
import { installHotkeys } from '../features/hotkeys/hotkey-controller';
import { Journal } from '../features/journal/Journal';
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
import { useTerminal } from './terminal-context';

const SELECTED_MARKET_KEY = 'ledger-terminal.market';
type BlotterTab = 'orders' | 'history' | 'fills' | 'balances' | 'journal';
/** The blotter's tabs are panels too: each can be detached on its own. */
const TABS: readonly { id: BlotterTab; label: string }[] = [
  { id: 'orders', label: 'Open orders' },
  { id: 'history', label: 'History' },
  { id: 'fills', label: 'Fills' },
  { id: 'balances', label: 'Balances' },
  { id: 'journal', label: 'Journal' },
];

export const MainWindow: Component<{ now: Accessor<number>; confirm: (title: string, lines: readonly string[]) => Promise<boolean> }> = (props) => {
  const terminal = useTerminal();
  const desk = useDesk();
  const state = terminal.store.state;

  const [selectedId, setSelectedId] = createSignal<string | null>(localStorage.getItem(SELECTED_MARKET_KEY));
  const markets = () => state.markets?.markets ?? [];
  const market = createMemo(() => markets().find((item) => item.market_id === selectedId()) ?? markets()[0] ?? null);
  const remember = (marketId: string) => {
    setSelectedId(marketId);
    localStorage.setItem(SELECTED_MARKET_KEY, marketId);
  };
  // The canonical book; the Turbo toggle arrives with the margin panels.
  const turbo = () => false;
  // A market main sends (a linked window's choice, a layout's) is shown, not sent back.
  onCleanup(desk.onMarket((choice) => remember(choice.marketId)));
  // The market shown is the one main knows for this window, so linked windows follow it.
  // Only once main has said which window this is: before that, the window may be about to take a restored market.
  createEffect(
    on([market, desk.self], ([current, self]) => {
      if (current && self) desk.chooseMarket({ marketId: current.market_id, turbo: turbo() });
    }),
  );
  const selectMarket = (marketId: string) => remember(marketId);

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

  const detached = createMemo(() => detachedKinds(desk.state()));

  return (
    <div class="app">
      <header class="topbar">
        <div class="brand">Ledger Terminal</div>
        <NetworkSelector confirm={props.confirm} />
        <MarketSelector markets={markets()} selected={market()} onSelect={selectMarket} problem={state.problems.markets ?? null} />
        <LinkGroupSelector />
        <ConnectionIndicator status={state.connection} />
        <div class="spacer" />
        <RateLimits />
        <SessionCountdown now={props.now} />
        <LayoutMenu confirm={props.confirm} />
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
      <PendingWindows />
      <Show
        when={!setupOpen()}
        fallback={
          <div style={{ flex: 1, overflow: 'auto' }}>
            <Onboarding now={props.now} />
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
              <PanelSlot kind="ladder" class="area-ladder" market={current()} turbo={turbo()} />
              <PanelSlot kind="chart" class="area-chart" market={current()} turbo={turbo()} />
              <PanelSlot kind="ticket" class="area-ticket" market={current()} turbo={turbo()} />
              <section class="panel area-blotter" data-testid="blotter">
                <header class="panel-head">
                  <div class="tabs">
                    {TABS.map((item) => (
                      <button type="button" classList={{ on: tab() === item.id, detached: detached().has(item.id) }} data-testid={`tab-${item.id}`} onClick={() => setTab(item.id)}>
                        {item.label}
                        {item.id === 'orders' ? ` (${state.openOrders.length})` : ''}
                        {detached().has(item.id) ? ' ⧉' : ''}
                      </button>
                    ))}
                  </div>
                  <div class="spacer" />
                  <Show when={!detached().has(tab())}>
                    <DetachButton kind={tab()} market={current()} turbo={turbo()} />
                  </Show>
                </header>
                <div class="panel-body">
                  <Show when={!detached().has(tab())} fallback={<DetachedPlaceholder kind={tab()} />}>
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
                  </Show>
                </div>
              </section>
              <PanelSlot kind="tape" class="area-tape" market={current()} turbo={turbo()} />
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
            <CustodyPanel api={terminal.api} now={props.now} />
          </div>
        </aside>
      </Show>
      <Toasts />
    </div>
  );
};
