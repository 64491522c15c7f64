// Where a window goes when the displays change: pure geometry, no Electron, so it is tested with
// properties rather than with monitors.
//
// A window counts as visible when a grip of its title area is on a display's work area: its top
// edge is on the work area (a title bar above the screen cannot be grabbed, as Signal checks) and
// at least 100 × 50 px of its top strip (or all of it, for a smaller window) is inside. A visible
// window whose size fits that work area stays exactly where it is: the trader put it there.
// Otherwise it is moved onto the display it overlapped most (or, when it overlaps none, onto the
// display it was saved on if that still exists, else the primary one, as Ledger Live does), with its
// size clamped to that work area and then the smallest move that puts it wholly inside.
import type { DisplayView, Rect } from '../../../shared/ipc/views/desk';

export const MIN_VISIBLE_WIDTH = 100;
export const MIN_VISIBLE_HEIGHT = 50;

export interface FitOptions {
  /** The display the window was last on (a saved layout's), tried when it overlaps no display. */
  readonly preferredDisplayId?: string | null;
}

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return { width: Math.max(0, width), height: Math.max(0, height) };
}

function overlapArea(a: Rect, b: Rect): number {
  const { width, height } = overlap(a, b);
  return width * height;
}

/** Whether the window's title area can be seen and grabbed on this work area. */
export function isGrippable(window: Rect, workArea: Rect): boolean {
  const strip: Rect = { x: window.x, y: window.y, width: window.width, height: Math.min(MIN_VISIBLE_HEIGHT, window.height) };
  const shown = overlap(strip, workArea);
  return window.y >= workArea.y && shown.height >= strip.height && shown.width >= Math.min(MIN_VISIBLE_WIDTH, window.width);
}

export function fitsIn(window: Rect, workArea: Rect): boolean {
  return window.width <= workArea.width && window.height <= workArea.height;
}

/** The display a window overlaps most (by work area), or null when it overlaps none. */
export function displayOf(window: Rect, displays: readonly DisplayView[]): DisplayView | null {
  let best: DisplayView | null = null;
  let bestArea = 0;
  for (const display of displays) {
    const area = overlapArea(window, display.workArea);
    if (area > bestArea) {
      best = display;
      bestArea = area;
    }
  }
  return best;
}

function primaryOf(displays: readonly DisplayView[]): DisplayView | null {
  return displays.find((display) => display.primary) ?? displays[0] ?? null;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), high);
}

/** The window as it should be on these displays: unchanged when it is visible and fits, else moved onto one. */
export function fitToDisplays(window: Rect, displays: readonly DisplayView[], options: FitOptions = {}): Rect {
  if (displays.length === 0) return window;
  for (const display of displays) {
    if (isGrippable(window, display.workArea) && fitsIn(window, display.workArea)) return window;
  }
  const overlapped = displayOf(window, displays);
  const target = overlapped ?? displays.find((display) => display.id === options.preferredDisplayId) ?? primaryOf(displays)!;
  const area = target.workArea;
  const width = Math.min(window.width, area.width);
  const height = Math.min(window.height, area.height);
  if (overlapped === null) {
    // It was on a display that is gone: its old position means nothing here; centre it.
    return { x: area.x + Math.floor((area.width - width) / 2), y: area.y + Math.floor((area.height - height) / 2), width, height };
  }
  // Partly on this display: the smallest move that brings it wholly inside.
  return { x: clamp(window.x, area.x, area.x + area.width - width), y: clamp(window.y, area.y, area.y + area.height - height), width, height };
}

/** A window placed on a chosen display: its size clamped to the work area, centred there. */
export function placeOnDisplay(window: Rect, display: DisplayView): Rect {
  const area = display.workArea;
  const width = Math.min(window.width, area.width);
  const height = Math.min(window.height, area.height);
  return { x: area.x + Math.floor((area.width - width) / 2), y: area.y + Math.floor((area.height - height) / 2), width, height };
}

/** A new window's place: beside its opener, cascaded by `index`, fitted to the displays. */
export function cascadeFrom(opener: Rect | null, size: { width: number; height: number }, index: number, displays: readonly DisplayView[]): Rect {
  const base = opener ?? primaryOf(displays)?.workArea ?? { x: 0, y: 0, width: size.width, height: size.height };
  const step = 32 * (index % 8);
  return fitToDisplays({ x: base.x + 48 + step, y: base.y + 48 + step, width: size.width, height: size.height }, displays);
}

export function sameRect(a: Rect | null, b: Rect | null): boolean {
  return a === b || (a !== null && b !== null && a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height);
}
