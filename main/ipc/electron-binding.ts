// Binds the dispatcher to Electron's IPC: one `ipcMain.handle` per contract request. The sender
// frame's URL is what the dispatcher checks against the app's origin.
import { ipcMain, type IpcMainInvokeEvent } from 'electron';
import { requestChannel } from '../../shared/ipc/channels';
import { requestNames } from '../../shared/ipc/contract';
import type { Dispatch } from './dispatcher';

export function bindIpc(dispatch: Dispatch): () => void {
  for (const name of requestNames) {
    ipcMain.handle(requestChannel(name), (event: IpcMainInvokeEvent, input: unknown) =>
      dispatch(name, input, {
        windowId: String(event.sender.id),
        // Only a main frame may talk to main; a subframe (there should be none) is refused.
        frameUrl: event.senderFrame && event.senderFrame.parent === null ? event.senderFrame.url : null,
      }),
    );
  }
  return () => {
    for (const name of requestNames) ipcMain.removeHandler(requestChannel(name));
  };
}
