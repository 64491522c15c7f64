// Where an export is written: main chooses, never the page. In Electron the trader picks the file
// in a native save dialog of main (main/platform/save-dialog.ts); in the browser host (no native
// dialog, and a page must not name a path on the trader's disk) main writes into the data
// directory's `exports` folder, under a name it made, never over an existing file, and tells the
// trader the full path.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fail, ok, type Result } from '../../../shared/result';

/** A native save dialog: the path chosen, or null when the trader cancelled. */
export type ChooseExportFile = (windowId: string, suggestedName: string) => Promise<string | null>;

export const EXPORTS_FOLDER = 'exports';

export interface ExportTarget {
  readonly dataDir: string;
  readonly choose?: ChooseExportFile | undefined;
  readonly windowId: string;
}

/** Write `text`; the path written, or null when the trader cancelled the dialog. */
export async function writeExport(target: ExportTarget, name: string, text: string): Promise<Result<string | null>> {
  try {
    if (target.choose !== undefined) {
      const path = await target.choose(target.windowId, name);
      if (path === null) return ok(null);
      await writeFile(path, text, { mode: 0o600 });
      return ok(path);
    }
    const folder = join(target.dataDir, EXPORTS_FOLDER);
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const dot = name.lastIndexOf('.');
    for (let attempt = 1; attempt <= 100; attempt++) {
      const path = join(folder, attempt === 1 ? name : `${name.slice(0, dot)}-${attempt}${name.slice(dot)}`);
      try {
        await writeFile(path, text, { mode: 0o600, flag: 'wx' });
        return ok(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
    return fail('EXPORT_FAILED', `Nothing was written: ${folder} already holds 100 exports named ${name}; move some away`);
  } catch (error) {
    return fail('EXPORT_FAILED', `The export could not be written: ${error instanceof Error ? error.message : String(error)}`);
  }
}
