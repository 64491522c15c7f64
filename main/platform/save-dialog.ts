// Electron's chooser of an export's file: a native save dialog of main, modal on the window whose
// page asked (found from its web contents id, the caller's windowId), offering the name main made
// in the trader's documents folder. The page never names a path.
import { app, BrowserWindow, dialog, webContents } from 'electron';
import { join } from 'node:path';
import type { ChooseExportFile } from '../services/records/export-file';

export const nativeSaveDialog: ChooseExportFile = async (windowId, suggestedName) => {
  const contents = webContents.fromId(Number(windowId));
  const owner = contents ? BrowserWindow.fromWebContents(contents) : null;
  const options = { title: 'Export records', defaultPath: join(app.getPath('documents'), suggestedName), filters: [{ name: 'CSV', extensions: ['csv'] }] };
  const answer = owner && !owner.isDestroyed() ? await dialog.showSaveDialog(owner, options) : await dialog.showSaveDialog(options);
  return answer.canceled || answer.filePath === undefined || answer.filePath === '' ? null : answer.filePath;
};
