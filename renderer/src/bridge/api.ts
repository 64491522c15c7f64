// The renderer's handle on main: the preload's bridge in Electron, or a bridge over the browser
// host's WebSocket. Both are built by the same createBridge from shared/ipc.
import { createBridge } from '../../../shared/ipc/bridge';
import type { TerminalApi } from '../../../shared/ipc/contract';
import { connectBrowserTransport } from './browser-transport';

declare global {
  interface Window {
    /** Exposed by the preload in the desktop app. */
    readonly terminal?: TerminalApi;
  }
}

export async function connectApi(onClosed: (reason: string) => void): Promise<TerminalApi> {
  if (window.terminal) return window.terminal;
  return createBridge(await connectBrowserTransport(window.location, onClosed));
}
