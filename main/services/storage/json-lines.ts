// A file of one record per line (the alerts, the algorithms): read line by line so that a damaged
// byte loses only the line it is on, the file as found set aside beside it and said; written whole
// and atomically, so a crash leaves the old file or the new one, never half of each.
import { copyFileSync } from 'node:fs';
import type { z } from 'zod';
import { decodeFrame, encodeFrame } from '../../../shared/ipc/codec';
import { fail, ok, type Result } from '../../../shared/result';
import { parseWith } from '../../../shared/schema';
import { readTextIfExists, writeFileAtomic } from './files';

export interface JsonLinesFile {
  readonly path: string;
  readonly log: (line: string) => void;
  readonly now: () => number;
}

/** The lines that parse, in order; the damaged ones dropped, and the file as found kept aside when there were any. */
export function readJsonLines<T>(file: JsonLinesFile, schema: z.ZodType<T>): T[] {
  const text = readTextIfExists(file.path);
  if (text === null) return [];
  const records: T[] = [];
  const damaged: number[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    let decoded: unknown;
    try {
      decoded = decodeFrame(line);
    } catch {
      damaged.push(index + 1);
      return;
    }
    const parsed = parseWith(schema, decoded, `${file.path}:${index + 1}`);
    if (!parsed.ok) {
      damaged.push(index + 1);
      return;
    }
    records.push(parsed.value);
  });
  if (damaged.length > 0) {
    const aside = `${file.path}.damaged-${file.now()}`;
    copyFileSync(file.path, aside);
    file.log(`${file.path}: line(s) ${damaged.join(', ')} could not be read and were dropped; the other ${records.length} were kept; the file as found is in ${aside}`);
  }
  return records;
}

/** Replace the file's contents durably (on the device when this returns ok). */
export function writeJsonLines(path: string, records: readonly unknown[]): Result<null> {
  const lines = records.map((record) => encodeFrame(record));
  try {
    writeFileAtomic(path, lines.length === 0 ? '' : `${lines.join('\n')}\n`);
  } catch (error) {
    return fail('STORAGE_FAILURE', `Could not save ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return ok(null);
}
