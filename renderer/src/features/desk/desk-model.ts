// The desk's rules in the renderer, kept pure so they are tested without a page: which panels the
// main window shows in place, when a window takes a market from main, whether a URL main answered
// may be opened, and the popup features of a window at its bounds.
import type { DeskState, DeskWindowView, Rect } from '../../../../shared/ipc/views/desk';

/** Panel kinds that have a window of their own (open or being opened): the main window shows a placeholder for them. */
export function detachedKinds(state: DeskState | null): Set<string> {
  const kinds = new Set<string>();
  for (const window of state?.windows ?? []) if (window.panel !== null) kinds.add(window.panel);
  return kinds;
}

/** The (first) window of a panel kind. */
export function windowOfKind(state: DeskState | null, kind: string): DeskWindowView | null {
  return state?.windows.find((window) => window.panel === kind) ?? null;
}

export function ownWindow(state: DeskState | null, windowKey: string | null): DeskWindowView | null {
  if (windowKey === null) return null;
  return state?.windows.find((window) => window.windowKey === windowKey) ?? null;
}

/** Windows main prepared that a browser tab has not opened yet (the browser host only). */
export function pendingWindows(state: DeskState | null): DeskWindowView[] {
  return (state?.windows ?? []).filter((window) => window.state === 'opening' && window.url !== null);
}

/**
 * The market a window should switch to when main's record of it changes: only on a change of the
 * record (edge, not level), so a state published while the window's own choice is on its way to
 * main never drags it back to the old market.
 */
export function marketChange(previous: DeskWindowView | null, next: DeskWindowView | null): { marketId: string; turbo: boolean } | null {
  if (!next?.marketId) return null;
  if (previous && previous.marketId === next.marketId && previous.turbo === next.turbo) return null;
  return { marketId: next.marketId, turbo: next.turbo };
}

/** A panel window's page closes itself once main no longer lists it (docked, or its layout switched away). */
export function shouldClose(state: DeskState | null, windowKey: string | null, seen: boolean): boolean {
  return windowKey !== null && seen && state !== null && !state.windows.some((window) => window.windowKey === windowKey);
}

/** Only the host's own page may be opened: main answers it, and anything else is refused here too. */
export function isOwnPage(url: string, origin: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.origin === origin && parsed.pathname === '/' && /^[0-9a-f]{32}$/.test(parsed.searchParams.get('window') ?? '');
  } catch {
    return false;
  }
}

/** `window.open` features for a popup at these bounds. */
export function popupFeatures(bounds: Rect | null): string {
  if (!bounds) return 'popup';
  return `popup,left=${bounds.x},top=${bounds.y},width=${bounds.width},height=${bounds.height}`;
}

export function displayLabel(state: DeskState | null, displayId: string | null): string {
  if (displayId === null) return 'off-screen';
  return state?.displays.find((display) => display.id === displayId)?.label ?? `display ${displayId}`;
}

/** Which places of the main window's workspace have their panel(s) in windows of their own. */
export interface WorkspaceGone {
  readonly ladder: boolean;
  readonly chart: boolean;
  readonly ticket: boolean;
  readonly blotter: boolean;
  readonly tape: boolean;
}

export interface WorkspaceGrid {
  readonly columns: string;
  readonly rows: string;
  readonly areas: string;
}

/**
 * The workspace grid without the places whose panels are in windows of their own: the panels left
 * take the room (no empty hole), and a docked panel gets its place back. Columns: ladder | chart
 * over blotter | ticket over tape; a column whose two places are both gone goes, and the widest
 * column left takes the free width. `strip`: a slim row on top lists what is detached.
 */
export function workspaceGrid(gone: WorkspaceGone, strip: boolean): WorkspaceGrid {
  const center = { top: gone.chart ? 'blotter' : 'chart', bottom: gone.blotter ? 'chart' : 'blotter', present: !(gone.chart && gone.blotter) };
  const right = { top: gone.ticket ? 'tape' : 'ticket', bottom: gone.tape ? 'ticket' : 'tape', present: !(gone.ticket && gone.tape) };
  const columns: { top: string; bottom: string; width: string }[] = [];
  if (!gone.ladder) columns.push({ top: 'ladder', bottom: 'ladder', width: 'minmax(380px, 430px)' });
  if (center.present) columns.push({ top: center.top, bottom: center.bottom, width: 'minmax(420px, 1fr)' });
  if (right.present) columns.push({ top: right.top, bottom: right.bottom, width: 'minmax(300px, 340px)' });
  if (columns.length === 0) return { columns: '1fr', rows: strip ? 'auto 1fr' : '1fr', areas: strip ? "'dock' 'empty'" : "'empty'" };
  // Without the chart column, the last column left takes the free width.
  if (!center.present) {
    const last = columns[columns.length - 1]!;
    columns[columns.length - 1] = { ...last, width: last.top === 'ladder' ? 'minmax(380px, 1fr)' : 'minmax(300px, 1fr)' };
  }
  const row = (cells: readonly string[]) => `'${cells.join(' ')}'`;
  const areas = [row(columns.map((column) => column.top)), row(columns.map((column) => column.bottom))];
  const rows = ['minmax(0, 1.15fr)', 'minmax(0, 1fr)'];
  if (strip) {
    areas.unshift(row(columns.map(() => 'dock')));
    rows.unshift('auto');
  }
  return { columns: columns.map((column) => column.width).join(' '), rows: rows.join(' '), areas: areas.join(' ') };
}
