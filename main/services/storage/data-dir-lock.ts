// One terminal per data directory. Two would write the same journal, nonce cursors and settings
// over each other, so the composition root (createTerminal: Electron and the browser host alike)
// takes this lock before it opens anything in the directory, and refuses to start when another
// live process holds it, saying which one and since when.
//
// The lock is a file made by link(2) from a complete temporary file, so it exists only whole
// (O_EXCL semantics without a half-written state). It names its holder: pid, host, the time it was
// taken and, on Linux, the process's start time (so a pid reused by another process is not taken
// for the holder). A lock whose holder is gone (killed, crashed) is stale and taken over.
import { closeSync, fsyncSync, linkSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { fail, ok, type Result } from '../../../shared/result';
import { ensureDirectory } from './files';

export const LOCK_FILE = 'terminal.lock';
export const DATA_DIR_LOCKED = 'DATA_DIR_LOCKED';

const holderSchema = z.object({
  pid: z.number().int().positive(),
  host: z.string(),
  /** When the lock was taken, ms since the epoch. */
  since: z.number(),
  /** The process's start time as the OS counts it (Linux: /proc/<pid>/stat field 22), or null. */
  processStart: z.string().nullable(),
});

export type LockHolder = z.output<typeof holderSchema>;

export interface DataDirLock {
  readonly path: string;
  readonly holder: LockHolder;
  /** Remove the lock if it is still ours. */
  release(): void;
}

export interface LockOptions {
  readonly now: () => number;
  readonly pid?: number;
  readonly log?: (line: string) => void;
  /** Whether a process is alive, and its start time; the OS's by default (tests replace them). */
  readonly isAlive?: (pid: number) => boolean;
  readonly processStart?: (pid: number) => string | null;
}

/** Thrown by createTerminal when the data directory is held by another terminal. */
export class DataDirectoryInUse extends Error {
  readonly code = DATA_DIR_LOCKED;
  constructor(message: string) {
    super(message);
    this.name = 'DataDirectoryInUse';
  }
}

/** The process's state letter (Linux: /proc/<pid>/stat field 3), or null where there is no /proc. */
function processStateOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? null;
  } catch {
    return null;
  }
}

export function processStartOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count from after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null; // field 22 overall
  } catch {
    return null;
  }
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // A zombie (killed, not yet reaped by its parent, or by init once its parent died first)
    // still answers signal 0 but holds nothing: its lock is stale (Linux: state Z or X).
    return !/^[ZX]$/.test(processStateOf(pid) ?? '');
  } catch (error) {
    // EPERM: it exists, owned by someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(path: string): LockHolder | null {
  try {
    const parsed = holderSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function describe(holder: LockHolder): string {
  return `process ${holder.pid} on ${holder.host}, since ${new Date(holder.since).toISOString()}`;
}

const held = new Set<DataDirLock>();
let exitHook = false;

/** Take the data directory, or say who holds it. */
export function lockDataDirectory(directory: string, options: LockOptions): Result<DataDirLock> {
  ensureDirectory(directory);
  const path = join(directory, LOCK_FILE);
  const pid = options.pid ?? process.pid;
  const isAlive = options.isAlive ?? isProcessAlive;
  const startOf = options.processStart ?? processStartOf;
  const holder: LockHolder = { pid, host: hostname(), since: options.now(), processStart: startOf(pid) };
  const text = `${JSON.stringify(holder)}\n`;
  const unique = `${pid}-${Math.random().toString(36).slice(2)}`;

  for (let attempt = 0; attempt < 5; attempt++) {
    const temporary = join(directory, `.${LOCK_FILE}.${unique}`);
    const fd = openSync(temporary, 'w', 0o600);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(temporary, path);
      unlinkSync(temporary);
      const lock: DataDirLock = {
        path,
        holder,
        release: () => {
          held.delete(lock);
          const current = readHolder(path);
          if (current && current.pid === holder.pid && current.since === holder.since && current.host === holder.host) unlinkSync(path);
        },
      };
      held.add(lock);
      if (!exitHook) {
        exitHook = true;
        process.once('exit', () => {
          for (const each of [...held]) {
            try {
              each.release();
            } catch {
              // Exiting: a lock left behind is stale and taken over next time.
            }
          }
        });
      }
      return ok(lock);
    } catch (error) {
      unlinkSync(temporary);
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }

    const current = readHolder(path);
    if (current !== null) {
      if (current.host !== holder.host) {
        return fail(DATA_DIR_LOCKED, `The data directory ${directory} is in use by another terminal (${describe(current)}); it cannot be checked from this host. Close that terminal first, or start this one with another --data-dir.`);
      }
      const alive = isAlive(current.pid) && (current.processStart === null || startOf(current.pid) === null || startOf(current.pid) === current.processStart);
      if (alive) {
        return fail(DATA_DIR_LOCKED, `The data directory ${directory} is in use by another terminal (${describe(current)}). Close that terminal first, or start this one with another --data-dir.`);
      }
    }
    // Stale (its holder is gone) or unreadable: move it away, and take it only if what was moved
    // is what was judged stale (another starting terminal may have taken it meanwhile).
    const moved = join(directory, `.${LOCK_FILE}.stale-${unique}`);
    try {
      renameSync(path, moved);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    const movedHolder = readHolder(moved);
    if (current !== null && (movedHolder === null || movedHolder.pid !== current.pid || movedHolder.since !== current.since)) {
      // Not the lock that was judged stale: put it back (unless yet another one is there now).
      try {
        linkSync(moved, path);
      } catch {
        // Someone holds the directory now; the next attempt sees it.
      }
      unlinkSync(moved);
      continue;
    }
    unlinkSync(moved);
    options.log?.(current === null ? `${path}: an unreadable lock file was replaced` : `${path}: taking over the lock of ${describe(current)}, which is no longer running`);
  }
  return fail(DATA_DIR_LOCKED, `The data directory ${directory} could not be locked: other terminals kept taking it.`);
}
