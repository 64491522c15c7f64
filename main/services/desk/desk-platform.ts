// What the desk needs from the place its windows live: Electron's BrowserWindows and screen
// (main/platform/desk-windows.ts), or the browser host's tabs and simulated displays
// (main/host/desk-browser.ts). The desk itself imports neither.
import type { DisplayView, Rect } from '../../../shared/ipc/views/desk';
import type { Result } from '../../../shared/result';

export interface DeskPlatform {
  readonly host: 'electron' | 'browser';
  displays(): DisplayView[];
  /** Displays were added, removed or rearranged. */
  onDisplaysChanged(listener: () => void): () => void;
  /**
   * Open a panel window. Electron opens a BrowserWindow on the app page and binds it to the key;
   * the browser host cannot open a tab itself and answers the URL the renderer opens.
   */
  openWindow(window: { readonly windowKey: string; readonly bounds: Rect; readonly title: string }): Result<{ readonly url: string | null }>;
  closeWindow(windowKey: string): void;
  /** Move or resize a real window; nothing where bounds are only the desk's model. */
  setBounds(windowKey: string, bounds: Rect): void;
  /**
   * The last page of a panel window went away. Electron reports a closed window itself, so it does
   * nothing here; the browser host cannot tell a closed tab from a reload and waits a little.
   */
  pageGone(windowKey: string): void;
  /** Browser host only: replace the simulated displays. */
  setSimulatedDisplays?(displays: readonly DisplayView[]): void;
}

/** How a platform tells the desk what the user did to a window. */
export interface DeskPlatformEvents {
  windowClosed(windowKey: string): void;
  windowMoved(windowKey: string, bounds: Rect): void;
  bindPage(pageId: string, windowKey: string | null): void;
}
