// Creates the app's windows from the secure preferences and connects each one to the window hub.
import { BrowserWindow } from 'electron';
import { streamChannel } from '../../shared/ipc/channels';
import type { WindowHub } from '../services/window-hub';
import { APP_ORIGIN, secureWebPreferences } from './security';

export interface WindowFactoryOptions {
  readonly preload: string;
  readonly hub: WindowHub;
  /** Dev server URL in development; the app:// origin otherwise. */
  readonly rendererUrl?: string;
}

export function openMainWindow(options: WindowFactoryOptions): BrowserWindow {
  const window = new BrowserWindow({
    width: 1440,
    height: 900,
    minWidth: 900,
    minHeight: 600,
    show: false,
    backgroundColor: '#0e1116',
    title: 'Ledger Terminal',
    webPreferences: secureWebPreferences(options.preload),
  });
  const windowId = String(window.webContents.id);
  options.hub.attach(
    windowId,
    { send: (stream, payload) => window.webContents.send(streamChannel(stream), payload) },
    false,
  );
  const updateVisibility = () => options.hub.setVisible(windowId, window.isVisible() && !window.isMinimized());
  window.on('show', updateVisibility);
  window.on('hide', updateVisibility);
  window.on('minimize', updateVisibility);
  window.on('restore', updateVisibility);
  window.on('closed', () => options.hub.detach(windowId));
  window.once('ready-to-show', () => window.show());
  void window.loadURL(options.rendererUrl ?? `${APP_ORIGIN}/index.html`);
  return window;
}
