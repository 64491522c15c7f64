// The desk's windows as main knows them: the main window and each panel window, with its market,
// Turbo flag, link group and bounds, and which connected pages (window hub ids) show it. A window
// exists here before its page connects (main prepared it), so a page that connects with its key
// finds the context it was opened for.
import { MAX_PANEL_WINDOWS } from '../../../shared/ipc/areas/desk';
import { MAIN_WINDOW_KEY, type DeskWindowView, type LinkGroup, type PanelKind, type Rect } from '../../../shared/ipc/views/desk';
import { fail, ok, type Result } from '../../../shared/result';

export interface DeskWindow {
  readonly windowKey: string;
  readonly panel: PanelKind | null;
  marketId: string | null;
  turbo: boolean;
  linkGroup: LinkGroup | null;
  bounds: Rect | null;
  displayId: string | null;
  /** Browser host: the URL of the page to open. */
  url: string | null;
}

export interface NewPanelWindow {
  readonly panel: PanelKind;
  readonly marketId: string | null;
  readonly turbo: boolean;
  readonly linkGroup: LinkGroup | null;
  readonly bounds: Rect | null;
  readonly displayId: string | null;
}

export const TOO_MANY_WINDOWS = 'TOO_MANY_WINDOWS';

export class WindowRegistry {
  private readonly windows = new Map<string, DeskWindow>();
  /** Window hub id of a connected page → its window key. */
  private readonly pages = new Map<string, string>();

  constructor(
    /** Random 16 bytes, hex: a key nobody can guess from another window's. */
    private readonly newKey: () => string,
    initialMain: Omit<DeskWindow, 'windowKey' | 'panel' | 'url'> = { marketId: null, turbo: false, linkGroup: 'green', bounds: null, displayId: null },
  ) {
    this.windows.set(MAIN_WINDOW_KEY, { windowKey: MAIN_WINDOW_KEY, panel: null, url: null, ...initialMain });
  }

  main(): DeskWindow {
    return this.windows.get(MAIN_WINDOW_KEY)!;
  }

  get(windowKey: string): DeskWindow | null {
    return this.windows.get(windowKey) ?? null;
  }

  all(): DeskWindow[] {
    return [...this.windows.values()];
  }

  panels(): DeskWindow[] {
    return this.all().filter((window) => window.panel !== null);
  }

  add(spec: NewPanelWindow): Result<DeskWindow> {
    if (this.panels().length >= MAX_PANEL_WINDOWS) return fail(TOO_MANY_WINDOWS, `at most ${MAX_PANEL_WINDOWS} panels may have windows of their own; dock one first`);
    let windowKey = this.newKey();
    while (this.windows.has(windowKey)) windowKey = this.newKey();
    const window: DeskWindow = { windowKey, url: null, ...spec };
    this.windows.set(windowKey, window);
    return ok(window);
  }

  /** Forget a panel window and its pages. The main window is never removed. */
  remove(windowKey: string): boolean {
    if (windowKey === MAIN_WINDOW_KEY) return false;
    for (const [page, key] of this.pages) if (key === windowKey) this.pages.delete(page);
    return this.windows.delete(windowKey);
  }

  /** A page connected as this window. Several pages may show the main window (browser tabs). */
  bindPage(pageId: string, windowKey: string): boolean {
    if (!this.windows.has(windowKey)) return false;
    if (windowKey !== MAIN_WINDOW_KEY) {
      // A panel window shows in one page: a reload replaces the old page.
      for (const [page, key] of this.pages) if (key === windowKey) this.pages.delete(page);
    }
    this.pages.set(pageId, windowKey);
    return true;
  }

  unbindPage(pageId: string): string | null {
    const key = this.pages.get(pageId) ?? null;
    this.pages.delete(pageId);
    return key;
  }

  keyOfPage(pageId: string): string | null {
    return this.pages.get(pageId) ?? null;
  }

  pagesOf(windowKey: string): string[] {
    return [...this.pages].filter(([, key]) => key === windowKey).map(([page]) => page);
  }

  isOpen(windowKey: string): boolean {
    return this.pagesOf(windowKey).length > 0;
  }

  view(window: DeskWindow): DeskWindowView {
    const open = this.isOpen(window.windowKey);
    return {
      windowKey: window.windowKey,
      panel: window.panel,
      marketId: window.marketId,
      turbo: window.turbo,
      linkGroup: window.linkGroup,
      bounds: window.bounds,
      displayId: window.displayId,
      state: open || window.panel === null ? 'open' : 'opening',
      url: open ? null : window.url,
    };
  }

  views(): DeskWindowView[] {
    return this.all().map((window) => this.view(window));
  }
}
