// The main window: the top bar (network, connection, budget, session, layouts, account, funds, a
// menu of the rest, kill switch), the market bar (market, Canonical/Turbo book, link group, the
// book's rules, inside market), the workspace of panels for the selected market and book (each can
// go to a window of its own and come back), account setup, the funds drawer, notices. Its market
// and book are remembered here and told to main, which passes them on to the windows of its link
// group; theirs come back the same way.
import { createEffect, createMemo, createSignal, For, on, onCleanup, onMount, Show, type Accessor, type Component } from 'solid-js';
import { priceTick } from '../../../shared/market/tick';
import { streamGrouping } from '../features/markets/inside-text';
import { installAlertFirings } from '../features/alerts/alert-firings';
import { installFillAlerts } from '../features/alerts/fill-alerts';
import { ConnectionIndicator } from '../features/connection/ConnectionIndicator';
import { useDesk } from '../features/desk/desk-context';
import { detachedKinds, workspaceGrid } from '../features/desk/desk-model';
import { LayoutMenu } from '../features/desk/LayoutMenu';
import { DetachButton, DetachedPlaceholder, PanelSlot } from '../features/desk/PanelSlot';
import { PanelTabs, type PanelTab } from '../features/desk/PanelTabs';
import { PendingWindows } from '../features/desk/PendingWindows';
import '../features/desk/desk.css';
import { FundsPanel } from '../features/funds/FundsPanel';
import { installHotkeys, setHotkeysOverlayOpen } from '../features/hotkeys/hotkey-controller';
import { createBookFeed } from '../features/market-data/book-feed';
import { createFreshness, marketSource } from '../lib/freshness';
import { MarketHeader } from '../features/markets/MarketHeader';
import { Onboarding } from '../features/onboarding/Onboarding';
import { SettingsDrawer } from '../features/settings/SettingsDrawer';
import { KillSwitch } from '../features/shell/KillSwitch';
import { MoreMenu } from '../features/shell/MoreMenu';
import { NetworkSelector } from '../features/shell/NetworkSelector';
import { RateLimits } from '../features/shell/RateLimits';
import { GuardState } from '../features/guards/GuardState';
import { SessionCountdown } from '../features/shell/SessionCountdown';
import { Toasts } from '../features/shell/Toasts';
import { NotificationBell } from '../features/notices/NotificationCentre';
import { useTerminal } from '../stores/terminal-context';
import { useBridge } from '../stores/bridge-context';
import { ordersAndLegsText } from '../features/orders/orders-count';
import { createTriggerSnapshot } from '../features/triggers/trigger-data';

const SELECTED_MARKET_KEY = 'ledger-terminal.market';
/** Markets shown on their Turbo book, by market id. */
const TURBO_MARKETS_KEY = 'ledger-terminal.turbo-markets';

function loadTurboMarkets(): ReadonlySet<string> {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(TURBO_MARKETS_KEY) ?? '[]');
    return new Set(Array.isArray(stored) ? stored.filter((item): item is string => typeof item === 'string' && /^0x[0-9a-f]{64}$/.test(item)) : []);
  } catch {
    return new Set();
  }
}

export const MainWindow: Component<{ now: Accessor<number>; confirm: (title: string, lines: readonly string[]) => Promise<boolean> }> = (props) => {
  const terminal = useTerminal();
  const bridge = useBridge();
  const desk = useDesk();
  const state = terminal.store.state;

  const [selectedId, setSelectedId] = createSignal<string | null>(localStorage.getItem(SELECTED_MARKET_KEY));
  const markets = () => state.markets?.markets ?? [];
  const market = createMemo(() => markets().find((item) => item.market_id === selectedId()) ?? markets()[0] ?? null);
  const remember = (marketId: string) => {
    setSelectedId(marketId);
    localStorage.setItem(SELECTED_MARKET_KEY, marketId);
  };

  // Canonical or Turbo, per market: the choice is kept for each market the trader switched, and
  // holds only where the market has a Turbo book.
  const [turboChosen, setTurboChosen] = createSignal<ReadonlySet<string>>(loadTurboMarkets());
  const chooseTurbo = (marketId: string, on: boolean) => {
    const next = new Set(turboChosen());
    if (on) next.add(marketId);
    else next.delete(marketId);
    setTurboChosen(next);
    localStorage.setItem(TURBO_MARKETS_KEY, JSON.stringify([...next]));
  };
  const turbo = createMemo(() => {
    const current = market();
    if (!current || !turboChosen().has(current.market_id)) return false;
    // Until the Turbo rows are known the choice stands; a market without a Turbo book shows its canonical one.
    return terminal.turboBooks.row(current.market_id)?.hasTurboBook !== false;
  });

  // A market main sends (a linked window's choice, a layout's) is shown, not sent back.
  onCleanup(
    desk.onMarket((choice) => {
      remember(choice.marketId);
      chooseTurbo(choice.marketId, choice.turbo);
    }),
  );
  // The market shown is the one main knows for this window, so linked windows follow it.
  // Only once main has said which window this is: before that, the window may be about to take a restored market.
  createEffect(
    on([market, turbo, desk.self], ([current, book, self]) => {
      if (current && self) desk.chooseMarket({ marketId: current.market_id, turbo: book });
    }),
  );
  const selectMarket = (marketId: string) => remember(marketId);

  const [tab, setTab] = createSignal('orders');
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

  // The inside market of the selected book, for hotkeys and the market bar (a one-level subscription).
  const inside = createBookFeed(bridge, terminal.frames, () => {
    const current = market();
    return current ? { marketId: current.market_id, turbo: turbo(), precision: priceTick(current), levels: 1 } : null;
  });
  // How current it is: a stale inside market stays on screen dimmed and marked; a resyncing or
  // disconnected one is not shown. Hotkeys that trade at the book refuse anything but live.
  const insideFreshness = createFreshness(
    terminal.freshness,
    (view) => {
      const current = market();
      return current ? [marketSource(view, current.market_id, turbo(), 'book')] : [];
    },
    () => (inside.frame()?.state === 'live' ? null : { state: 'resyncing', detail: 'waiting for the book' }),
  );
  const liveInside = () => (inside.frame()?.state === 'live' && insideFreshness.state() !== 'disconnected' && insideFreshness.state() !== 'resyncing' ? inside.frame() : null);
  const bestBid = () => liveInside()?.bids[0]?.price ?? null;
  const bestAsk = () => liveInside()?.asks[0]?.price ?? null;
  installHotkeys(terminal, { market, turbo, bestBid, bestAsk, book: () => ({ live: insideFreshness.live(), label: insideFreshness.label() }) });
  installFillAlerts(terminal, bridge);
  installAlertFirings(terminal, bridge);

  // Drawers open below the top bar, whose height depends on whether it wrapped.
  let topbar: HTMLElement | undefined;
  onMount(() => {
    if (!topbar) return;
    const element = topbar;
    const observer = new ResizeObserver(() => document.documentElement.style.setProperty('--topbar-bottom', `${Math.ceil(element.getBoundingClientRect().bottom)}px`));
    observer.observe(element);
    onCleanup(() => observer.disconnect());
  });

  const detached = createMemo(() => detachedKinds(desk.state()));
  const ticketTabs: readonly PanelTab[] = [
    { kind: 'ticket', label: () => 'Order ticket' },
    { kind: 'stops', label: () => 'Stops' },
  ];
  /** The blotter's tabs are panels too: each can be detached on its own. */
  const triggers = createTriggerSnapshot(bridge);
  const blotterTabs: readonly PanelTab[] = [
    { kind: 'positions', label: () => 'Positions' },
    // The legs listed under the orders are counted too, as the panel's "Cancel all" button counts them.
    { kind: 'orders', label: () => `Open orders (${ordersAndLegsText(state.openOrders.length, triggers().pending.length)})` },
    { kind: 'algos', label: () => 'Algorithms' },
    { kind: 'history', label: () => 'History' },
    { kind: 'fills', label: () => 'Fills' },
    { kind: 'balances', label: () => 'Balances' },
    { kind: 'margin', label: () => 'Margin' },
    { kind: 'journal', label: () => 'Journal' },
    { kind: 'records', label: () => 'Records' },
    { kind: 'alerts', label: () => 'Alerts' },
    { kind: 'overview', label: () => 'Markets' },
  ];

  // Detached panels leave no hole: their places go from the grid and the rest reflows; a slim strip
  // says where they are and brings each back to its place.
  const groupGone = (tabs: readonly PanelTab[]) => {
    const visible = tabs.filter((entry) => entry.visible?.() !== false);
    return visible.length > 0 && visible.every((entry) => detached().has(entry.kind));
  };
  const gone = createMemo(() => ({
    ladder: detached().has('ladder'),
    chart: detached().has('chart'),
    tape: detached().has('tape'),
    ticket: groupGone(ticketTabs),
    blotter: groupGone(blotterTabs),
  }));
  const gonePlaces = () => (Object.entries(gone()) as [string, boolean][]).filter(([, out]) => out).map(([place]) => place);
  const stripKinds = createMemo(() => {
    const kinds: string[] = [];
    const places = gone();
    if (places.ladder) kinds.push('ladder');
    if (places.chart) kinds.push('chart');
    if (places.ticket) kinds.push(...ticketTabs.filter((entry) => detached().has(entry.kind)).map((entry) => entry.kind));
    if (places.blotter) kinds.push(...blotterTabs.filter((entry) => detached().has(entry.kind)).map((entry) => entry.kind));
    if (places.tape) kinds.push('tape');
    return kinds;
  });
  const grid = createMemo(() => workspaceGrid(gone(), stripKinds().length > 0));

  return (
    <div class="app">
      <header class="topbar" data-testid="topbar" ref={(element) => (topbar = element)}>
        <div class="topbar-group">
          <div class="brand" title="Ledger Terminal">
            Ledger<span class="brand-long"> Terminal</span>
          </div>
          <NetworkSelector confirm={props.confirm} />
          <ConnectionIndicator status={state.connection} compact />
        </div>
        <div class="topbar-group topbar-end">
          <GuardState />
          <RateLimits />
          <SessionCountdown now={props.now} />
          <LayoutMenu confirm={props.confirm} />
          <button type="button" data-testid="open-setup" classList={{ on: setupOpen(), attention: setupIncomplete() }} onClick={() => setSetupOpen(!setupOpen())} title={state.problems.account ?? (setupIncomplete() ? 'Account setup is not finished: trading needs it' : 'Owner keys, trading account, session')}>
            {setupIncomplete() ? 'Setup' : 'Account'}
          </button>
          <button
            type="button"
            data-testid="open-funds"
            classList={{ on: fundsOpen() }}
            title="Balances, deposit, withdraw, requests for the offline signer, referral"
            onClick={() => {
              setSettingsOpen(false);
              setFundsOpen(!fundsOpen());
            }}
          >
            Funds
          </button>
          <button type="button" data-testid="open-hotkeys" title={`Hotkeys${state.settings?.hotkeys.showHotkeys ? ` (${state.settings.hotkeys.showHotkeys})` : ''}`} onClick={() => setHotkeysOverlayOpen(true)}>
            ?
          </button>
          <MoreMenu
            settingsOpen={settingsOpen()}
            onSettings={() => {
              setFundsOpen(false);
              setSettingsOpen(!settingsOpen());
            }}
          />
          <NotificationBell />
          <KillSwitch />
        </div>
      </header>
      <MarketHeader
        markets={markets()}
        market={market()}
        onSelect={selectMarket}
        problem={state.problems.markets ?? null}
        turbo={turbo()}
        onTurbo={(on) => {
          const current = market();
          if (current) chooseTurbo(current.market_id, on);
        }}
        bestBid={bestBid()}
        bestAsk={bestAsk()}
        lastTrade={inside.frame()?.lastTrade?.price ?? null}
        // The stream groups depth by at least 10 raw units (spec depth precisions), whatever the frame asked for.
        insidePrecision={streamGrouping(liveInside()?.precision ?? null)}
        freshness={insideFreshness}
      />
      <PendingWindows />
      <Show
        when={!setupOpen()}
        fallback={
          <div class="setup-page">
            <Onboarding now={props.now} onFinished={() => setSetupOpen(false)} />
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
            <main
              class="workspace"
              data-testid="workspace"
              data-book={turbo() ? 'turbo' : 'canonical'}
              data-gone={gonePlaces().join(' ')}
              style={{ 'grid-template-columns': grid().columns, 'grid-template-rows': grid().rows, 'grid-template-areas': grid().areas }}
            >
              <Show when={stripKinds().length > 0}>
                <div class="dock-strip area-dock" data-testid="dock-strip">
                  <span class="muted">In windows of their own:</span>
                  <For each={stripKinds()}>{(kind) => <DetachedPlaceholder kind={kind} compact />}</For>
                </div>
              </Show>
              <Show when={!gone().ladder}>
                <PanelSlot kind="ladder" class="area-ladder" market={current()} turbo={turbo()} />
              </Show>
              <Show when={!gone().chart}>
                <PanelSlot kind="chart" class="area-chart" market={current()} turbo={turbo()} />
              </Show>
              <Show when={!gone().ticket}>
                <PanelTabs tabs={ticketTabs} class="area-ticket" testId="ticket-area" market={current()} turbo={turbo()} />
              </Show>
              <Show when={!gone().blotter}>
                <PanelTabs tabs={blotterTabs} class="area-blotter" testId="blotter" market={current()} turbo={turbo()} selected={tab()} onSelect={setTab} />
              </Show>
              <Show when={!gone().tape}>
                <PanelSlot kind="tape" class="area-tape" market={current()} turbo={turbo()} />
              </Show>
              <Show when={grid().areas.includes('empty')}>
                <div class="panel-note" style={{ 'grid-area': 'empty' }} data-testid="workspace-empty">
                  Every panel of this window is in a window of its own.
                </div>
              </Show>
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
            <Show when={!detached().has('funds')}>
              <DetachButton kind="funds" market={null} turbo={false} />
            </Show>
            <button type="button" data-testid="funds-close" onClick={() => setFundsOpen(false)}>
              Close
            </button>
          </header>
          <Show when={!detached().has('funds')} fallback={<DetachedPlaceholder kind="funds" />}>
            <FundsPanel now={props.now} />
          </Show>
        </aside>
      </Show>
      <Toasts />
    </div>
  );
};
