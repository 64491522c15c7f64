// A panel in a window of its own: a slim bar (panel, market, link group, display, connection, dock)
// and the panel filling the rest. Its market is the window's own: chosen here (and passed by main to
// its link group), or chosen in another window of its group.
import { createEffect, createMemo, createSignal, For, onCleanup, Show, type Component } from 'solid-js';
import { priceTick } from '../../../../shared/market/tick';
import { useTerminal } from '../../stores/terminal-context';
import { useBridge } from '../../stores/bridge-context';
import { ConnectionIndicator } from '../connection/ConnectionIndicator';
import { installHotkeys } from '../hotkeys/hotkey-controller';
import { createBookFeed } from '../market-data/book-feed';
import { MarketSelector } from '../markets/MarketSelector';
import { displayLabel } from './desk-model';
import { useDesk } from './desk-context';
import { LinkGroupSelector } from './LinkGroupSelector';
import { panelDefinition, panelTitle } from './panel-registry';
import './desk.css';
import { marketName } from '../markets/market-label';

export const PanelWindow: Component<{ kind: string }> = (props) => {
  const terminal = useTerminal();
  const bridge = useBridge();
  const desk = useDesk();
  const state = terminal.store.state;
  const definition = panelDefinition(props.kind);
  const own = () => desk.own();
  const [marketId, setMarketId] = createSignal<string | null>(own()?.marketId ?? null);
  const [turbo, setTurbo] = createSignal(own()?.turbo ?? false);
  onCleanup(
    desk.onMarket((choice) => {
      setMarketId(choice.marketId);
      setTurbo(choice.turbo);
    }),
  );
  const markets = () => state.markets?.markets ?? [];
  const market = createMemo(() => markets().find((item) => item.market_id === marketId()) ?? (marketId() === null ? (markets()[0] ?? null) : null));
  // The title the OS shows in its taskbar and window switcher: which panel, which market.
  createEffect(() => {
    const current = definition?.needsMarket ? market() : null;
    document.title = `${panelTitle(props.kind)}${current ? ` · ${marketName(current, markets())}` : ''} — Ledger Terminal`;
  });
  const choose = (id: string) => {
    setMarketId(id);
    desk.chooseMarket({ marketId: id, turbo: turbo() });
  };

  // Hotkeys act on this window's market, as they do on the main window's.
  const inside = createBookFeed(bridge, terminal.frames, () => {
    const current = market();
    return definition?.needsMarket && current ? { marketId: current.market_id, turbo: turbo(), precision: priceTick(current), levels: 1 } : null;
  });
  const liveInside = () => (inside.frame()?.state === 'live' ? inside.frame() : null);
  installHotkeys(terminal, { market: () => (definition?.needsMarket ? market() : null), turbo, bestBid: () => liveInside()?.bids[0]?.price ?? null, bestAsk: () => liveInside()?.asks[0]?.price ?? null });

  const [docking, setDocking] = createSignal(false);
  const dock = async () => {
    const key = desk.self()?.windowKey;
    if (!key) return;
    setDocking(true);
    const result = await desk.dock(key);
    setDocking(false);
    if (!result.ok) terminal.store.notify('error', `Could not dock (${result.code}): ${result.message}`);
  };
  const displays = () => desk.state()?.displays ?? [];

  return (
    <div class="app panel-window" data-testid="panel-window" data-panel={props.kind}>
      <header class="topbar panel-window-bar">
        <div class="brand">{panelTitle(props.kind)}</div>
        <Show when={definition?.needsMarket}>
          <MarketSelector markets={markets()} selected={market()} onSelect={choose} problem={state.problems.markets ?? null} />
          <Show when={turbo()}>
            <span class="chip turbo-chip" data-testid="window-turbo" title="This window shows the market's Turbo book (switched in the main window's market bar, followed through the link group)">
              Turbo book
            </span>
          </Show>
        </Show>
        <LinkGroupSelector />
        <span class="chip window-place" data-testid="window-place" title="The display main keeps this window on, and its size">
          <Show when={displays().length > 1} fallback={<span>{displayLabel(desk.state(), own()?.displayId ?? null)}</span>}>
            <select
              data-testid="window-display"
              title="Move this window to another display"
              value={own()?.displayId ?? ''}
              onChange={(event) => {
                const key = desk.self()?.windowKey;
                if (key) void desk.moveToDisplay(key, event.currentTarget.value);
              }}
            >
              <Show when={own()?.displayId == null}>
                <option value="">{displayLabel(desk.state(), null)}</option>
              </Show>
              <For each={displays()}>{(display) => <option value={display.id}>{display.label}</option>}</For>
            </select>
          </Show>
          <Show when={own()?.bounds}>{(bounds) => <b class="mono" data-testid="window-size">{`${bounds().width}×${bounds().height}`}</b>}</Show>
        </span>
        <div class="spacer" />
        <ConnectionIndicator status={state.connection} />
        <button type="button" data-testid="dock-window" disabled={docking()} title="Close this window and show the panel in the main window again" onClick={() => void dock()}>
          Dock
        </button>
      </header>
      <main class="panel-window-body" data-testid="panel-window-body">
        <Show when={definition} fallback={<div class="panel-note">This window shows a panel this version does not have: {props.kind}</div>}>
          {(found) => (
            <Show when={!found().needsMarket || market()} fallback={<div class="panel-note">{state.problems.markets ? `Markets are not available: ${state.problems.markets}` : 'Loading markets…'}</div>}>
              {found().render({
                get market() {
                  return market();
                },
                get turbo() {
                  return turbo();
                },
              })}
            </Show>
          )}
        </Show>
      </main>
    </div>
  );
};

/** A page opened for a window that is no longer on the desk (docked while it loaded, or a stale tab). */
export const WindowGone: Component = () => (
  <div class="app" data-testid="window-gone">
    <div class="panel-note" style={{ margin: 'auto', 'text-align': 'center' }}>
      <p>This window is no longer part of the desk: its panel was docked or its layout was switched.</p>
      <button type="button" onClick={() => window.close()}>
        Close this window
      </button>
    </div>
  </div>
);
