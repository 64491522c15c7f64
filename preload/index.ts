// The preload builds the bridge from an ipcRenderer transport and exposes it as
// `window.terminal`. It exposes nothing else: no ipcRenderer, no generic invoke.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { createBridge, type BridgeTransport } from '../shared/ipc/bridge';
import { requestChannel, streamChannel } from '../shared/ipc/channels';
import type { Result } from '../shared/result';

const transport: BridgeTransport = {
  invoke: (name, input) => ipcRenderer.invoke(requestChannel(name), input) as Promise<Result<unknown>>,
  listen: (name, listener) => {
    const channel = streamChannel(name);
    // Hand the page only the payload, never the IPC event (it carries `sender`).
    const forward = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(channel, forward);
    return () => {
      ipcRenderer.removeListener(channel, forward);
    };
  },
};

contextBridge.exposeInMainWorld('terminal', createBridge(transport));
