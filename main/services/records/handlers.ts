// Request handlers of the records area: the daily summary, and an export main writes to a file it
// chooses (export-file.ts); inputs were parsed by the dispatcher.
import type { recordsRequests } from '../../../shared/ipc/areas/records';
import { csvDocument } from '../../../shared/records/csv';
import { ok } from '../../../shared/result';
import type { AreaHandlers } from '../../ipc/dispatcher';
import { withRuntime, type HandlerContext } from '../handler-context';
import { writeExport } from './export-file';

export function recordsHandlers(context: HandlerContext): AreaHandlers<typeof recordsRequests> {
  return {
    getRecords: (range) => withRuntime(context, (runtime) => runtime.records.records(range)),
    exportRecords: ({ kind, ...range }, caller) =>
      withRuntime(context, async (runtime) => {
        const table = await runtime.records.table(kind, range);
        if (!table.ok) return table;
        const written = await writeExport({ dataDir: context.dataDir, choose: context.chooseExportFile, windowId: caller.windowId }, table.value.name, csvDocument(table.value.header, table.value.rows));
        if (!written.ok) return written;
        if (written.value !== null) context.log(`records: ${kind} export of ${table.value.rows.length} rows written to ${written.value}`);
        return ok({ kind, path: written.value, rows: table.value.rows.length });
      }),
  };
}
