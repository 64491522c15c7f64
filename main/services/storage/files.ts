// Durable file writes. Settings are written to a temporary file, flushed and renamed over the
// old one, so a crash leaves either the old or the new file, never half of one. Journal lines
// are appended and flushed before the caller goes on.
import { closeSync, fsyncSync, openSync, renameSync, writeSync, mkdirSync, readFileSync, existsSync, unlinkSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';

export function ensureDirectory(path: string): void {
  mkdirSync(path, { recursive: true, mode: 0o700 });
}

export function writeFileAtomic(path: string, contents: string, mode = 0o600): void {
  ensureDirectory(dirname(path));
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  const fd = openSync(temporary, 'w', mode);
  try {
    writeSync(fd, contents);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temporary, path);
  } catch (error) {
    if (existsSync(temporary)) unlinkSync(temporary);
    throw error;
  }
  // The rename itself must reach the disk too.
  const directory = openSync(dirname(path), 'r');
  try {
    fsyncSync(directory);
  } finally {
    closeSync(directory);
  }
}

export function readTextIfExists(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
