// Views of the desk: the app's windows, the displays they sit on, the saved layouts and the link
// groups that make windows follow one another's market. Coordinates are the OS's (Electron's
// screen coordinates, DIP) or, in the browser host, those of its simulated displays.

/** Link groups by colour, as trading terminals do; a window in no group keeps its own market. */
export const LINK_GROUPS = ['red', 'green', 'blue', 'yellow', 'purple'] as const;
export type LinkGroup = (typeof LINK_GROUPS)[number];

/**
 * A panel kind is a name the renderer's panel registry knows (ladder, chart, ticket, ...). Main
 * does not list them, so a new kind (margin, triggers) needs no change here: it only checks the
 * shape of the name.
 */
export type PanelKind = string;
export const PANEL_KIND_PATTERN = /^[a-z][a-z0-9-]{0,31}$/;

/** The key of the main window; panel windows get random keys. */
export const MAIN_WINDOW_KEY = 'main';

export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface DisplayView {
  readonly id: string;
  readonly label: string;
  readonly bounds: Rect;
  /** The bounds less the taskbar, dock and menu bar: where windows may go. */
  readonly workArea: Rect;
  readonly primary: boolean;
}

/**
 * A window of the desk. `opening`: main prepared it and waits for its page (in the browser host,
 * until the renderer opens the tab main gave it the URL of); `open`: its page is connected.
 */
export interface DeskWindowView {
  readonly windowKey: string;
  /** null for the main window. */
  readonly panel: PanelKind | null;
  readonly marketId: string | null;
  readonly turbo: boolean;
  readonly linkGroup: LinkGroup | null;
  readonly bounds: Rect | null;
  /** The display the window overlaps most, null when it overlaps none. */
  readonly displayId: string | null;
  readonly state: 'opening' | 'open';
  /** Browser host only: the page to open for an `opening` window. */
  readonly url: string | null;
}

export interface LayoutSummary {
  readonly name: string;
  readonly savedAt: number;
  /** Panels in windows of their own. */
  readonly panels: readonly PanelKind[];
}

export interface DeskState {
  readonly host: 'electron' | 'browser';
  readonly windows: readonly DeskWindowView[];
  readonly displays: readonly DisplayView[];
  readonly layouts: readonly LayoutSummary[];
  /** The layout last saved or switched to. */
  readonly activeLayout: string | null;
}

/** What a window learns about itself when it starts. */
export interface DeskSelf {
  /** null: this page was opened for a window that no longer exists (docked, or its layout switched away). */
  readonly windowKey: string | null;
  readonly panel: PanelKind | null;
}

export interface DeskView {
  readonly self: DeskSelf;
  readonly state: DeskState;
}

/** A market chosen in a window, pushed by main to the other windows of its link group. */
export interface LinkedMarket {
  readonly linkGroup: LinkGroup;
  readonly marketId: string;
  readonly turbo: boolean;
  /** The window the choice was made in. */
  readonly fromWindowKey: string;
}

export interface OpenedWindow {
  readonly windowKey: string;
  /** Browser host: the URL the renderer opens with window.open. Electron: null (main opened it). */
  readonly url: string | null;
}

/** Read-only figures for tests and support: what main holds upstream and how many pages it serves. */
export interface DeskDiagnostics {
  /** Upstream market-data subscriptions main holds (one per market and book, whatever the windows). */
  readonly upstream: { readonly depth: number; readonly trades: number };
  /** Pages connected to main (windows and tabs). */
  readonly connections: number;
}
