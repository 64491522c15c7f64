// The desk's platform in Electron: panel windows are BrowserWindows on the app page (hardened like
// the main window), displays are `screen`'s, and moves, closes and display changes are reported to
// the desk. Create it after `app` is ready (`screen` needs it).
import { screen, type BrowserWindow, type Display } from 'electron';
import type { DisplayView, Rect } from '../../shared/ipc/views/desk';
import { MAIN_WINDOW_KEY } from '../../shared/ipc/views/desk';
import { ok } from '../../shared/result';
import type { DeskPlatform, DeskPlatformEvents } from '../services/desk/desk-platform';
import { openAppWindow, openMainWindow, pageIdOf, type WindowFactoryOptions } from './windows';

function rect(value: { x: number; y: number; width: number; height: number }): Rect {
  return { x: Math.round(value.x), y: Math.round(value.y), width: Math.round(value.width), height: Math.round(value.height) };
}

function displayView(display: Display, primaryId: number, index: number): DisplayView {
  return {
    id: String(display.id),
    label: display.label || `Display ${index + 1}`,
    bounds: rect(display.bounds),
    workArea: rect(display.workArea),
    primary: display.id === primaryId,
  };
}

export class ElectronDeskPlatform implements DeskPlatform {
  readonly host = 'electron' as const;
  private readonly windows = new Map<string, BrowserWindow>();

  constructor(
    private readonly factory: WindowFactoryOptions,
    private readonly events: DeskPlatformEvents,
  ) {}

  displays(): DisplayView[] {
    const primaryId = screen.getPrimaryDisplay().id;
    return screen.getAllDisplays().map((display, index) => displayView(display, primaryId, index));
  }

  onDisplaysChanged(listener: () => void): () => void {
    screen.on('display-added', listener);
    screen.on('display-removed', listener);
    screen.on('display-metrics-changed', listener);
    return () => {
      screen.off('display-added', listener);
      screen.off('display-removed', listener);
      screen.off('display-metrics-changed', listener);
    };
  }

  /** The main window, at the bounds the desk restored. */
  openMain(bounds: Rect | null): BrowserWindow {
    const window = openMainWindow(this.factory, bounds);
    this.track(MAIN_WINDOW_KEY, window);
    return window;
  }

  openWindow(spec: { windowKey: string; bounds: Rect; title: string }) {
    const window = openAppWindow(this.factory, { bounds: spec.bounds, minWidth: 240, minHeight: 160, title: `Ledger Terminal · ${spec.title}` });
    this.track(spec.windowKey, window);
    return ok({ url: null });
  }

  private track(windowKey: string, window: BrowserWindow): void {
    this.windows.set(windowKey, window);
    // Bound before the page loads, so its first request already finds its window context.
    this.events.bindPage(pageIdOf(window), windowKey === MAIN_WINDOW_KEY ? null : windowKey);
    const report = () => {
      if (!window.isDestroyed() && !window.isMinimized()) this.events.windowMoved(windowKey, rect(window.getBounds()));
    };
    window.on('move', report);
    window.on('resize', report);
    window.on('closed', () => {
      if (this.windows.get(windowKey) === window) this.windows.delete(windowKey);
      this.events.windowClosed(windowKey);
    });
  }

  closeWindow(windowKey: string): void {
    const window = this.windows.get(windowKey);
    if (window && !window.isDestroyed()) window.close();
  }

  setBounds(windowKey: string, bounds: Rect): void {
    const window = this.windows.get(windowKey);
    if (window && !window.isDestroyed()) window.setBounds(bounds);
  }

  pageGone(): void {
    // A BrowserWindow's 'closed' event says when it is gone; a reload keeps the window.
  }
}
