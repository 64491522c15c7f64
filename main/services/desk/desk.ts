// The desk: which windows exist (the main window and panel windows), where they are, what market
// each shows and which follow one another. It holds the window registry, the layouts file and the
// platform (Electron or the browser host), keeps windows on visible displays, routes link groups
// and pushes its state to every window. No Electron here: the platform adapter does the windows.
import type { Clock, TimerHandle } from '../../../shared/clock';
import { MAIN_WINDOW_KEY, type DeskState, type DeskView, type DisplayView, type LayoutSummary, type LinkGroup, type OpenedWindow, type PanelKind, type Rect } from '../../../shared/ipc/views/desk';
import { fail, ok, type Result } from '../../../shared/result';
import type { WindowHub } from '../window-hub';
import type { DeskPlatform, DeskPlatformEvents } from './desk-platform';
import { cascadeFrom, displayOf, fitToDisplays, placeOnDisplay, sameRect } from './display-fit';
import { LayoutStore, UNKNOWN_LAYOUT, type Layout } from './layout-store';
import { followersOf, marketOnJoin } from './link-router';
import { WindowRegistry, type DeskWindow } from './window-registry';

export const NO_WINDOW_PLATFORM = 'NO_WINDOW_PLATFORM';
export const UNKNOWN_WINDOW = 'UNKNOWN_WINDOW';
export const UNKNOWN_DISPLAY = 'UNKNOWN_DISPLAY';
export const NOT_SIMULATED = 'NOT_SIMULATED';

/** Moves come in bursts while a window is dragged: publish and remember once it rests. */
const SETTLE_MS = 400;
const DEFAULT_PANEL_SIZE = { width: 720, height: 520 };
const CURRENT_NAME = 'Last session';

export interface DeskOptions {
  readonly clock: Clock;
  readonly dataDir: string;
  readonly windows: WindowHub;
  readonly log: (line: string) => void;
  /** 16 random bytes as hex: a panel window's key. */
  readonly newKey: () => string;
}

export class Desk implements DeskPlatformEvents {
  private readonly registry: WindowRegistry;
  private readonly layouts: LayoutStore;
  private platform: DeskPlatform | null = null;
  private settleTimer: TimerHandle | null = null;
  /** The app is quitting: windows closing now are not the trader closing them. */
  private frozen = false;
  private readonly stops: (() => void)[] = [];

  constructor(private readonly options: DeskOptions) {
    this.registry = new WindowRegistry(options.newKey);
    this.layouts = new LayoutStore(options.dataDir, options.log, () => options.clock.now());
    this.stops.push(options.windows.onWindowClosed((pageId) => this.pageClosed(pageId)));
  }

  // ---- platform -------------------------------------------------------------------------------

  attachPlatform(platform: DeskPlatform): () => void {
    this.platform = platform;
    const stop = platform.onDisplaysChanged(() => this.refit());
    return () => {
      stop();
      if (this.platform === platform) this.platform = null;
    };
  }

  /** The main window's bounds fitted to the displays (the Electron main window opens there). */
  mainBounds(): Rect | null {
    const main = this.registry.main();
    if (!main.bounds || !this.platform) return main.bounds;
    return fitToDisplays(main.bounds, this.platform.displays(), { preferredDisplayId: main.displayId });
  }

  /** Start as the trader left it: the last arrangement, else the active layout. */
  restore(): void {
    const layout = this.layouts.current() ?? (this.layouts.active() ? this.layouts.find(this.layouts.active()!) : null);
    if (layout) this.arrange(layout);
    this.publish();
  }

  bindPage(pageId: string, windowKey: string | null): void {
    if (!this.registry.bindPage(pageId, windowKey ?? MAIN_WINDOW_KEY)) {
      this.options.log(`a page connected for window ${windowKey ?? MAIN_WINDOW_KEY}, which no longer exists`);
      return;
    }
    this.publish();
  }

  windowClosed(windowKey: string): void {
    if (this.frozen) return;
    if (this.registry.remove(windowKey)) this.changed();
  }

  windowMoved(windowKey: string, bounds: Rect): void {
    const window = this.registry.get(windowKey);
    if (!window || sameRect(window.bounds, bounds)) return;
    window.bounds = bounds;
    window.displayId = this.displayIdOf(bounds);
    this.settleSoon();
  }

  private pageClosed(pageId: string): void {
    if (this.frozen) return;
    const windowKey = this.registry.unbindPage(pageId);
    if (windowKey === null || windowKey === MAIN_WINDOW_KEY) return;
    if (!this.registry.isOpen(windowKey)) this.platform?.pageGone(windowKey);
  }

  /** Browser host: a tab closed and did not come back (a reload would have). */
  pageGoneFor(windowKey: string): void {
    if (!this.registry.isOpen(windowKey)) this.windowClosed(windowKey);
  }

  // ---- requests -------------------------------------------------------------------------------

  view(pageId: string): DeskView {
    const windowKey = this.registry.keyOfPage(pageId);
    return { self: { windowKey, panel: windowKey ? (this.registry.get(windowKey)?.panel ?? null) : null }, state: this.state() };
  }

  state(): DeskState {
    return {
      host: this.platform?.host ?? 'browser',
      windows: this.registry.views(),
      displays: this.platform?.displays() ?? [],
      layouts: this.layouts.summaries(),
      activeLayout: this.layouts.active(),
    };
  }

  openPanelWindow(
    pageId: string,
    input: { panel: PanelKind; marketId?: string | null | undefined; turbo?: boolean | undefined; linkGroup?: LinkGroup | null | undefined; size?: { width: number; height: number } | undefined },
  ): Result<OpenedWindow> {
    const platform = this.platform;
    if (!platform) return fail(NO_WINDOW_PLATFORM, 'windows cannot be opened here');
    const opener = this.registry.get(this.registry.keyOfPage(pageId) ?? MAIN_WINDOW_KEY) ?? this.registry.main();
    const displays = platform.displays();
    const bounds = cascadeFrom(opener.bounds, input.size ?? DEFAULT_PANEL_SIZE, this.registry.panels().length, displays);
    const added = this.registry.add({
      panel: input.panel,
      marketId: input.marketId !== undefined ? input.marketId : opener.marketId,
      turbo: input.turbo ?? opener.turbo,
      linkGroup: input.linkGroup !== undefined ? input.linkGroup : opener.linkGroup,
      bounds,
      displayId: displayOf(bounds, displays)?.id ?? null,
    });
    if (!added.ok) return added;
    const opened = this.open(added.value);
    if (!opened.ok) return opened;
    this.changed();
    return ok({ windowKey: added.value.windowKey, url: added.value.url });
  }

  private open(window: DeskWindow): Result<null> {
    const opened = this.platform!.openWindow({ windowKey: window.windowKey, bounds: window.bounds ?? { x: 0, y: 0, ...DEFAULT_PANEL_SIZE }, title: window.panel ?? 'Terminal' });
    if (!opened.ok) {
      this.registry.remove(window.windowKey);
      return opened;
    }
    window.url = opened.value.url;
    return ok(null);
  }

  dockPanelWindow(windowKey: string): Result<null> {
    const window = this.registry.get(windowKey);
    if (!window || window.panel === null) return fail(UNKNOWN_WINDOW, `windowKey: no panel window ${windowKey}`, { field: 'windowKey' });
    this.registry.remove(windowKey);
    this.platform?.closeWindow(windowKey);
    this.changed();
    return ok(null);
  }

  /** The window of `pageId` shows `marketId`; the rest of its link group follows. */
  setWindowMarket(pageId: string, choice: { marketId: string; turbo: boolean }): Result<{ followers: number }> {
    const from = this.registry.get(this.registry.keyOfPage(pageId) ?? '');
    if (!from) return fail(UNKNOWN_WINDOW, 'this page is not a window of the desk');
    from.marketId = choice.marketId;
    from.turbo = choice.turbo;
    const followers = followersOf(this.registry.all(), from.windowKey, choice);
    for (const follower of followers) {
      const window = this.registry.get(follower.windowKey)!;
      window.marketId = choice.marketId;
      window.turbo = choice.turbo;
      this.pushMarket(window, from.windowKey);
    }
    this.changed();
    return ok({ followers: followers.length });
  }

  setWindowLinkGroup(pageId: string, windowKey: string | undefined, linkGroup: LinkGroup | null): Result<null> {
    const window = this.registry.get(windowKey ?? this.registry.keyOfPage(pageId) ?? '');
    if (!window) return fail(UNKNOWN_WINDOW, `windowKey: no window ${windowKey ?? '(this page)'}`, { field: 'windowKey' });
    window.linkGroup = linkGroup;
    if (linkGroup !== null) {
      // Joining a group means showing what the group shows.
      const market = marketOnJoin(this.registry.all(), window.windowKey, linkGroup);
      if (market && (market.marketId !== window.marketId || market.turbo !== window.turbo)) {
        window.marketId = market.marketId;
        window.turbo = market.turbo;
        this.pushMarket(window, window.windowKey);
      }
    }
    this.changed();
    return ok(null);
  }

  private pushMarket(window: DeskWindow, fromWindowKey: string): void {
    if (window.marketId === null || window.linkGroup === null) return;
    for (const page of this.registry.pagesOf(window.windowKey)) {
      this.options.windows.sendTo(page, 'linkedMarket', { linkGroup: window.linkGroup, marketId: window.marketId, turbo: window.turbo, fromWindowKey });
    }
  }

  setWindowBounds(windowKey: string, bounds: Rect): Result<null> {
    const window = this.registry.get(windowKey);
    if (!window) return fail(UNKNOWN_WINDOW, `windowKey: no window ${windowKey}`, { field: 'windowKey' });
    // Never put a window where it cannot be grabbed.
    this.place(window, fitToDisplays(bounds, this.platform?.displays() ?? []));
    this.changed();
    return ok(null);
  }

  moveWindowToDisplay(windowKey: string, displayId: string): Result<null> {
    const window = this.registry.get(windowKey);
    if (!window) return fail(UNKNOWN_WINDOW, `windowKey: no window ${windowKey}`, { field: 'windowKey' });
    const display = this.platform?.displays().find((candidate) => candidate.id === displayId);
    if (!display) return fail(UNKNOWN_DISPLAY, `displayId: no display ${JSON.stringify(displayId)}`, { field: 'displayId' });
    this.place(window, placeOnDisplay(window.bounds ?? { x: 0, y: 0, ...DEFAULT_PANEL_SIZE }, display));
    this.changed();
    return ok(null);
  }

  saveLayout(name: string): Result<readonly LayoutSummary[]> {
    const saved = this.layouts.save(this.snapshot(name));
    if (saved.ok) this.publish();
    return saved;
  }

  applyLayout(name: string): Result<null> {
    if (!this.platform) return fail(NO_WINDOW_PLATFORM, 'windows cannot be arranged here');
    const layout = this.layouts.find(name);
    if (!layout) return fail(UNKNOWN_LAYOUT, `name: no layout named ${JSON.stringify(name)}`, { field: 'name' });
    this.arrange(layout);
    const activated = this.layouts.setActive(layout.name);
    if (!activated.ok) return activated;
    this.changed();
    return ok(null);
  }

  deleteLayout(name: string): Result<readonly LayoutSummary[]> {
    const deleted = this.layouts.delete(name);
    if (deleted.ok) this.publish();
    return deleted;
  }

  setSimulatedDisplays(displays: readonly DisplayView[]): Result<null> {
    if (!this.platform?.setSimulatedDisplays) return fail(NOT_SIMULATED, 'the displays are real here; only the browser host simulates them');
    this.platform.setSimulatedDisplays(displays);
    return ok(null);
  }

  // ---- arranging ------------------------------------------------------------------------------

  /**
   * Make the desk look like `layout`: the main window takes its market, group and place; panel
   * windows of a kind the layout has are reused (moved, retargeted), others closed, missing ones
   * opened. Every place is fitted to the displays there are now.
   */
  private arrange(layout: Layout): void {
    const displays = this.platform?.displays() ?? [];
    const fit = (bounds: Rect | null, displayId: string | null) => (bounds ? fitToDisplays(bounds, displays, { preferredDisplayId: displayId }) : null);
    const main = this.registry.main();
    this.retarget(main, layout.main);
    const mainBounds = fit(layout.main.bounds, layout.main.displayId);
    if (mainBounds) this.place(main, mainBounds);
    const spare = this.registry.panels();
    for (const saved of layout.windows) {
      const bounds = fit(saved.bounds, saved.displayId) ?? cascadeFrom(main.bounds, DEFAULT_PANEL_SIZE, this.registry.panels().length, displays);
      const reuse = spare.findIndex((window) => window.panel === saved.panel);
      if (reuse >= 0) {
        const window = spare.splice(reuse, 1)[0]!;
        this.retarget(window, saved);
        this.place(window, bounds);
        continue;
      }
      const added = this.registry.add({ panel: saved.panel, marketId: saved.marketId, turbo: saved.turbo, linkGroup: saved.linkGroup, bounds, displayId: displayOf(bounds, displays)?.id ?? null });
      if (!added.ok) {
        this.options.log(`layout ${layout.name}: ${added.message}`);
        break;
      }
      if (this.platform) {
        const opened = this.open(added.value);
        if (!opened.ok) this.options.log(`layout ${layout.name}: could not open the ${saved.panel} window: ${opened.message}`);
      }
    }
    for (const window of spare) {
      this.registry.remove(window.windowKey);
      this.platform?.closeWindow(window.windowKey);
    }
  }

  private retarget(window: DeskWindow, saved: { marketId: string | null; turbo: boolean; linkGroup: LinkGroup | null }): void {
    const marketChanged = saved.marketId !== null && (saved.marketId !== window.marketId || saved.turbo !== window.turbo);
    window.linkGroup = saved.linkGroup;
    if (saved.marketId !== null) {
      window.marketId = saved.marketId;
      window.turbo = saved.turbo;
    }
    if (marketChanged) this.pushMarket(window, window.windowKey);
  }

  private place(window: DeskWindow, bounds: Rect): void {
    const moved = !sameRect(window.bounds, bounds);
    window.bounds = bounds;
    window.displayId = this.displayIdOf(bounds);
    if (moved) this.platform?.setBounds(window.windowKey, bounds);
  }

  /** After a display change: every window that would be off-screen goes onto a visible display. */
  refit(): void {
    const displays = this.platform?.displays() ?? [];
    for (const window of this.registry.all()) {
      if (!window.bounds) continue;
      this.place(window, fitToDisplays(window.bounds, displays, { preferredDisplayId: window.displayId }));
    }
    this.changed();
  }

  private displayIdOf(bounds: Rect): string | null {
    return displayOf(bounds, this.platform?.displays() ?? [])?.id ?? null;
  }

  private snapshot(name: string): Layout {
    const placed = (window: DeskWindow) => ({ marketId: window.marketId, turbo: window.turbo, linkGroup: window.linkGroup, bounds: window.bounds, displayId: window.displayId });
    return {
      name,
      savedAt: this.options.clock.now(),
      main: placed(this.registry.main()),
      windows: this.registry.panels().map((window) => ({ panel: window.panel!, ...placed(window) })),
    };
  }

  // ---- publishing -----------------------------------------------------------------------------

  private publish(): void {
    this.options.windows.broadcast('desk', this.state());
  }

  /** Publish now, and remember the arrangement for the next start. */
  private changed(): void {
    this.publish();
    this.remember();
  }

  private remember(): void {
    const remembered = this.layouts.setCurrent(this.snapshot(this.layouts.active() ?? CURRENT_NAME));
    if (!remembered.ok) this.options.log(`desk: ${remembered.message}`);
  }

  private settleSoon(): void {
    if (this.settleTimer !== null) this.options.clock.clearTimeout(this.settleTimer);
    this.settleTimer = this.options.clock.setTimeout(() => {
      this.settleTimer = null;
      this.changed();
    }, SETTLE_MS);
  }

  /** Stop changing the remembered arrangement: the app is quitting and closes every window. */
  freeze(): void {
    if (this.settleTimer !== null) {
      this.options.clock.clearTimeout(this.settleTimer);
      this.settleTimer = null;
      this.remember();
    }
    this.frozen = true;
  }

  close(): void {
    if (this.settleTimer !== null) this.options.clock.clearTimeout(this.settleTimer);
    for (const stop of this.stops) stop();
  }
}
