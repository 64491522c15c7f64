// The desk's platform in the browser host. A browser gives main no windows and no displays: a
// panel window is a tab the renderer opens with window.open on the URL main answers (the host's own
// page, its token, and the window's key, which the tab's bridge connection carries back so main
// knows which prepared window it is); the displays are simulated, from `--displays` or a request,
// so that tests can remove a display and watch the desk move windows onto the remaining ones.
// Bounds are the desk's model only: moving a real browser window is up to the browser.
import type { Clock, TimerHandle } from '../../shared/clock';
import type { DisplayView } from '../../shared/ipc/views/desk';
import { fail, ok, type Result } from '../../shared/result';
import type { DeskPlatform } from '../services/desk/desk-platform';

/** How long a tab may be gone before its window counts as closed: a reload comes back well within it. */
export const RELOAD_GRACE_MS = 3000;

export const DEFAULT_DISPLAYS = '0,0,1920,1080';

/**
 * `--displays "x,y,width,height;x,y,width,height"`: one rectangle per display, the first one primary,
 * ids "1", "2", ... in order. The work area is the whole display (a browser has no taskbar to leave).
 */
export function parseDisplaysFlag(text: string): Result<DisplayView[]> {
  const parts = text.split(';').map((part) => part.trim()).filter((part) => part.length > 0);
  if (parts.length === 0 || parts.length > 16) return fail('INVALID_DISPLAYS', `--displays: expected 1 to 16 displays as "x,y,width,height;…", got ${JSON.stringify(text)}`);
  const displays: DisplayView[] = [];
  for (const [index, part] of parts.entries()) {
    const numbers = part.split(',').map((value) => value.trim());
    const valid = numbers.length === 4 && numbers.every((value) => /^-?\d{1,6}$/.test(value));
    const [x, y, width, height] = numbers.map(Number) as [number, number, number, number];
    if (!valid || width < 1 || height < 1 || Math.abs(x) > 100_000 || Math.abs(y) > 100_000 || width > 100_000 || height > 100_000) {
      return fail('INVALID_DISPLAYS', `--displays: display ${index + 1} must be "x,y,width,height" in whole pixels with a positive size, got ${JSON.stringify(part)}`);
    }
    const bounds = { x, y, width, height };
    displays.push({ id: String(index + 1), label: `Display ${index + 1}`, bounds, workArea: bounds, primary: index === 0 });
  }
  return ok(displays);
}

export interface BrowserDeskOptions {
  /** The page a panel window's tab opens. */
  readonly pageUrl: (windowKey: string) => string;
  readonly displays: readonly DisplayView[];
  readonly clock: Clock;
  /** A panel window's tab has been gone for the grace period. */
  readonly onGone: (windowKey: string) => void;
}

export class BrowserDeskPlatform implements DeskPlatform {
  readonly host = 'browser' as const;
  private current: DisplayView[];
  private readonly listeners = new Set<() => void>();
  private readonly timers = new Map<string, TimerHandle>();

  constructor(private readonly options: BrowserDeskOptions) {
    this.current = [...options.displays];
  }

  displays(): DisplayView[] {
    return this.current;
  }

  onDisplaysChanged(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  setSimulatedDisplays(displays: readonly DisplayView[]): void {
    // Exactly one primary display, as an OS reports: the first when none or several claim it.
    const primary = Math.max(0, displays.findIndex((display) => display.primary));
    this.current = displays.map((display, index) => ({ ...display, primary: index === primary }));
    for (const listener of this.listeners) listener();
  }

  openWindow(spec: { windowKey: string }) {
    return ok({ url: this.options.pageUrl(spec.windowKey) });
  }

  closeWindow(): void {
    // The tab sees its window leave the desk state and closes itself.
  }

  setBounds(): void {
    // Simulated displays: the bounds live in the desk's model.
  }

  pageGone(windowKey: string): void {
    const pending = this.timers.get(windowKey);
    if (pending) this.options.clock.clearTimeout(pending);
    this.timers.set(
      windowKey,
      this.options.clock.setTimeout(() => {
        this.timers.delete(windowKey);
        this.options.onGone(windowKey);
      }, RELOAD_GRACE_MS),
    );
  }

  close(): void {
    for (const timer of this.timers.values()) this.options.clock.clearTimeout(timer);
    this.timers.clear();
  }
}
