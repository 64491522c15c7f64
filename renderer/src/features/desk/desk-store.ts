// The window's copy of the desk: main's windows, displays and layouts (the `desk` stream), this
// window's own record, and the market main wants this window on (a link group's choice, a layout
// switch). Actions go to main; in the browser host, a panel window main prepared is opened here as
// a tab on the URL main answered, the only window.open the app makes.
import { batch, createSignal, type Accessor } from 'solid-js';
import { createStore, reconcile } from 'solid-js/store';
import type { TerminalApi } from '../../../../shared/ipc/contract';
import type { DeskSelf, DeskState, DeskWindowView, LayoutSummary, LinkGroup } from '../../../../shared/ipc/views/desk';
import { fail, ok, type Result } from '../../../../shared/result';
import { isOwnPage, marketChange, ownWindow, popupFeatures } from './desk-model';
import { panelDefinition } from './panel-registry';

export interface MarketChoice {
  readonly marketId: string;
  readonly turbo: boolean;
}

export interface DeskStore {
  /** null until main answered. */
  readonly state: Accessor<DeskState | null>;
  readonly self: Accessor<DeskSelf | null>;
  readonly problem: Accessor<string | null>;
  own(): DeskWindowView | null;
  /** Main wants this window on a market: a window of its link group chose it, or a layout was switched to. */
  onMarket(listener: (choice: MarketChoice) => void): () => void;
  /** The trader chose a market in this window: main records it and passes it on to the link group. */
  chooseMarket(choice: MarketChoice): void;
  /**
   * A panel of this window (the markets overview) opens a market here: the window shows it as if
   * it had been chosen in its market bar, and main passes it on to the link group.
   */
  openMarket(choice: MarketChoice): void;
  detach(kind: string, choice: MarketChoice | null): Promise<Result<string>>;
  dock(windowKey: string): Promise<Result<null>>;
  /** Browser host: open the tab of a window main prepared. False when the browser refused (popup blocked). */
  openPending(window: DeskWindowView): boolean;
  setLinkGroup(linkGroup: LinkGroup | null, windowKey?: string): Promise<Result<null>>;
  moveToDisplay(windowKey: string, displayId: string): Promise<Result<null>>;
  saveLayout(name: string): Promise<Result<readonly LayoutSummary[]>>;
  applyLayout(name: string): Promise<Result<null>>;
  deleteLayout(name: string): Promise<Result<readonly LayoutSummary[]>>;
  /** Ask main again (a window shown after being hidden missed the pushes of that time). */
  refresh(): void;
  dispose(): void;
}

export interface DeskStoreOptions {
  /** window.open, or a fake in tests. */
  readonly open?: (url: string, target: string, features: string) => unknown;
  /** The page's own origin: the only one a panel window may be opened on. */
  readonly origin?: string;
}

export function createDeskStore(api: TerminalApi, options: DeskStoreOptions = {}): DeskStore {
  const [holder, setHolder] = createStore<{ state: DeskState | null }>({ state: null });
  const [self, setSelf] = createSignal<DeskSelf | null>(null);
  const [problem, setProblem] = createSignal<string | null>(null);
  const listeners = new Set<(choice: MarketChoice) => void>();
  const open = options.open ?? ((url: string, target: string, features: string) => window.open(url, target, features));
  const origin = options.origin ?? (typeof location === 'undefined' ? '' : location.origin);
  /** Choices of this window still on their way to main: state published meanwhile is older than them. */
  let choicesInFlight = 0;
  let disposed = false;

  const state = () => holder.state;
  const own = () => ownWindow(state(), self()?.windowKey ?? null);
  /** A plain copy: `reconcile` updates the store's window objects in place, so a proxy would read the new values. */
  const ownCopy = (): DeskWindowView | null => {
    const mine = own();
    return mine ? { ...mine } : null;
  };
  const emit = (choice: MarketChoice) => {
    for (const listener of listeners) listener(choice);
  };

  const apply = (next: DeskState) => {
    const before = ownCopy();
    setHolder('state', reconcile(next, { key: 'windowKey' }));
    const change = marketChange(before, own());
    if (change && choicesInFlight === 0) emit(change);
  };

  const load = () =>
    void api.getDesk({}).then((result) => {
      if (disposed) return;
      if (!result.ok) {
        setProblem(result.message);
        return;
      }
      // One update: the window learns who it is and takes the market main has for it (a restored
      // layout's) before anything reacts to either.
      batch(() => {
        setProblem(null);
        const before = ownCopy();
        setSelf(result.value.self);
        setHolder('state', reconcile(result.value.state, { key: 'windowKey' }));
        const mine = own();
        if (mine?.marketId && (!before || marketChange(before, mine))) emit({ marketId: mine.marketId, turbo: mine.turbo });
      });
    });

  const stops = [
    api.onDesk((next) => apply(next)),
    api.onLinkedMarket((linked) => emit({ marketId: linked.marketId, turbo: linked.turbo })),
  ];
  load();

  const openUrl = (url: string, windowKey: string): boolean => {
    if (!isOwnPage(url, origin)) return false;
    const bounds = state()?.windows.find((window) => window.windowKey === windowKey)?.bounds ?? null;
    return Boolean(open(url, `lt-${windowKey}`, popupFeatures(bounds)));
  };

  return {
    state,
    self,
    problem,
    own,
    onMarket(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    chooseMarket(choice) {
      const mine = own();
      if (mine && mine.marketId === choice.marketId && mine.turbo === choice.turbo) return;
      choicesInFlight++;
      void api.setWindowMarket({ marketId: choice.marketId, ...(choice.turbo ? { turbo: true } : {}) }).finally(() => choicesInFlight--);
    },
    openMarket(choice) {
      emit(choice);
      this.chooseMarket(choice);
    },
    async detach(kind, choice) {
      const definition = panelDefinition(kind);
      if (!definition) return fail('UNKNOWN_PANEL', `no panel of kind ${JSON.stringify(kind)} in this window`);
      const opened = await api.openPanelWindow({
        panel: kind,
        ...(choice ? { marketId: choice.marketId, turbo: choice.turbo } : {}),
        size: { width: definition.size.width, height: definition.size.height },
      });
      if (!opened.ok) return opened;
      // Electron opened the window itself; the browser host answers the tab's URL.
      if (opened.value.url !== null) openUrl(opened.value.url, opened.value.windowKey);
      return ok(opened.value.windowKey);
    },
    dock: (windowKey) => api.dockPanelWindow({ windowKey }),
    openPending: (window) => (window.url ? openUrl(window.url, window.windowKey) : false),
    setLinkGroup: (linkGroup, windowKey) => api.setWindowLinkGroup({ linkGroup, ...(windowKey ? { windowKey } : {}) }),
    moveToDisplay: (windowKey, displayId) => api.moveWindowToDisplay({ windowKey, displayId }),
    saveLayout: (name) => api.saveLayout({ name }),
    applyLayout: (name) => api.applyLayout({ name }),
    deleteLayout: (name) => api.deleteLayout({ name }),
    refresh: load,
    dispose() {
      disposed = true;
      for (const stop of stops) stop();
      listeners.clear();
    },
  };
}
