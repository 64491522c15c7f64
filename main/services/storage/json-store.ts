// A small JSON document on disk (settings, accounts, layouts, nonce cursors): parsed with its
// schema when read, validated before every write, written atomically. A file that does not parse
// is set aside (never silently overwritten) and the defaults are used, with a warning.
import { renameSync } from 'node:fs';
import type { z } from 'zod';
import { decodeFrame, encodeFrame } from '../../../shared/ipc/codec';
import { fail, ok, type Result } from '../../../shared/result';
import { parseWith } from '../../../shared/schema';
import { readTextIfExists, writeFileAtomic } from './files';

export class JsonStore<S extends z.ZodType> {
  private value: z.output<S>;

  constructor(
    private readonly path: string,
    private readonly schema: S,
    defaults: () => z.output<S>,
    log: (line: string) => void = () => undefined,
    now: () => number = Date.now,
  ) {
    const text = readTextIfExists(path);
    if (text === null) {
      this.value = defaults();
      return;
    }
    let decoded: unknown;
    try {
      decoded = decodeFrame(text);
    } catch {
      decoded = undefined;
    }
    const parsed = parseWith(schema, decoded, path);
    if (parsed.ok) {
      this.value = parsed.value;
    } else {
      const aside = `${path}.corrupt-${now()}`;
      renameSync(path, aside);
      log(`${path} could not be read (${parsed.message}); it was moved to ${aside} and defaults are used`);
      this.value = defaults();
    }
  }

  get(): z.output<S> {
    return this.value;
  }

  /** Apply a change, validate the result, write it durably; on failure nothing changes. */
  update(change: (current: z.output<S>) => z.output<S>): Result<z.output<S>> {
    const next = change(this.value);
    const checked = parseWith(this.schema, next, this.path);
    if (!checked.ok) return checked;
    try {
      writeFileAtomic(this.path, `${encodeFrame(checked.value)}\n`);
    } catch (error) {
      return fail('STORAGE_FAILURE', `Could not save ${this.path}: ${error instanceof Error ? error.message : String(error)}`);
    }
    this.value = checked.value;
    return ok(this.value);
  }
}
