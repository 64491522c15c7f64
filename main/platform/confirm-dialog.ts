// Electron's trusted confirmer: main/services/confirm/dialog-confirmer.ts with a native message box
// of the main process, modal on the window whose page asked (found from its web contents id, which
// is the caller's windowId). No page can script, move or answer it.
import { BrowserWindow, dialog, webContents } from 'electron';
import { DialogConfirmer, type ShowMessageBox } from '../services/confirm/dialog-confirmer';

export const showNativeMessageBox: ShowMessageBox = async (windowId, box) => {
  const contents = webContents.fromId(Number(windowId));
  const owner = contents ? BrowserWindow.fromWebContents(contents) : null;
  if (!owner || owner.isDestroyed()) return null;
  if (owner.isMinimized()) owner.restore();
  owner.focus();
  const answer = await dialog.showMessageBox(owner, { ...box, buttons: [...box.buttons] });
  return answer.response;
};

export function nativeDialogConfirmer(): DialogConfirmer {
  return new DialogConfirmer(showNativeMessageBox);
}
