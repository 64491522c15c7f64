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
