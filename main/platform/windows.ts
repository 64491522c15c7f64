// Creates the app's windows from the secure preferences and connects each one to the window hub.
// The main window and every panel window are the same page of the same origin, built the same way:
// a panel window learns which panel it shows from main (getDesk), not from its URL.
import { app, BrowserWindow, type Rectangle } from 'electron';
import { streamChannel } from '../../shared/ipc/channels';
import type { WindowHub } from '../services/window-hub';
import { APP_ORIGIN, secureWebPreferences } from './security';

export interface WindowFactoryOptions {
  readonly preload: string;
  readonly hub: WindowHub;
  /** Dev server URL in development; the app:// origin otherwise. */
  readonly rendererUrl?: string;
}

export interface AppWindowOptions {
  readonly bounds: Partial<Rectangle> | null;
  readonly minWidth: number;
  readonly minHeight: number;
  readonly title: string;
}

/** The page id of a window in the hub: its web contents id, which is what the IPC binding reports. */
export function pageIdOf(window: BrowserWindow): string {
  return String(window.webContents.id);
}

/**
 * A window on the app page, attached to the hub as a sink that hears nothing while hidden or
 * minimised (no frames to a window nobody sees; the hub refreshes it when it shows again).
 */
export function openAppWindow(factory: WindowFactoryOptions, options: AppWindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    width: 1440,
    height: 900,
    ...(options.bounds ?? {}),
    minWidth: options.minWidth,
    minHeight: options.minHeight,
    show: false,
    backgroundColor: '#0e1116',
    title: options.title,
    // Every window, the main one and each panel's, gets the same hardened preferences.
    webPreferences: secureWebPreferences(factory.preload, { packaged: app.isPackaged }),
  });
  const pageId = pageIdOf(window);
  factory.hub.attach(pageId, { send: (stream, payload) => window.webContents.send(streamChannel(stream), payload) }, false);
  const updateVisibility = () => factory.hub.setVisible(pageId, window.isVisible() && !window.isMinimized());
  window.on('show', updateVisibility);
  window.on('hide', updateVisibility);
  window.on('minimize', updateVisibility);
  window.on('restore', updateVisibility);
  window.on('closed', () => factory.hub.detach(pageId));
  window.once('ready-to-show', () => window.show());
  void window.loadURL(factory.rendererUrl ?? `${APP_ORIGIN}/index.html`);
  return window;
}

export function openMainWindow(options: WindowFactoryOptions, bounds: Partial<Rectangle> | null = null): BrowserWindow {
  return openAppWindow(options, { bounds, minWidth: 900, minHeight: 600, title: 'Ledger Terminal' });
}
