// Where the encrypted owner key lives, and who else could touch it. The keystore is encrypted,
// but a copy in another account's hands can be attacked offline at that account's own pace, and
// a directory others can write lets them delete or swap the file. So: the file is a regular file
// (not a link), owned by this user, mode 0600; its directory is not writable by group or others
// (unless sticky, like /tmp, where others cannot remove what is not theirs).
// POSIX only: on Windows the mode bits do not describe access (ACLs do) and these checks are skipped.
import { closeSync, fsyncSync, linkSync, lstatSync, openSync, fchmodSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fail, ok, type Result } from '../../shared/result';

export const FILE_CODES = {
  NOT_FOUND: 'FILE_NOT_FOUND',
  UNSAFE_PERMISSIONS: 'FILE_UNSAFE_PERMISSIONS',
  EXISTS: 'FILE_EXISTS',
  IO: 'FILE_IO',
} as const;

export interface OwnershipContext {
  /** `process.platform`; checks apply to every platform but win32. */
  readonly platform: NodeJS.Platform;
  /** This user's uid, or null where there is none. */
  readonly uid: number | null;
}

export function currentOwnership(): OwnershipContext {
  return { platform: process.platform, uid: typeof process.getuid === 'function' ? process.getuid() : null };
}

const octal = (mode: number) => `0${(mode & 0o7777).toString(8).padStart(3, '0')}`;

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function ioFailure(path: string, action: string, error: unknown): Result<never> {
  if (errorCode(error) === 'ENOENT') return fail(FILE_CODES.NOT_FOUND, `${path}: no such file`, { field: path });
  return fail(FILE_CODES.IO, `${path}: could not ${action}: ${error instanceof Error ? error.message : String(error)}`, { field: path });
}

/** The directory holding a secret file must not let other accounts remove or replace it. */
export function checkPrivateDirectory(directory: string, context: OwnershipContext): Result<void> {
  if (context.platform === 'win32') return ok(undefined);
  let stats;
  try {
    stats = statSync(directory);
  } catch (error) {
    return ioFailure(directory, 'read the directory', error);
  }
  if (!stats.isDirectory()) return fail(FILE_CODES.IO, `${directory}: not a directory`, { field: directory });
  const sticky = (stats.mode & 0o1000) !== 0;
  if ((stats.mode & 0o022) !== 0 && !sticky) {
    return fail(
      FILE_CODES.UNSAFE_PERMISSIONS,
      `${directory} has mode ${octal(stats.mode)}: other accounts on this machine can write to it, so they could delete the keystore or ` +
        `put their own in its place. Keep keystores in a directory only you can write (chmod go-w ${directory}).`,
      { field: directory },
    );
  }
  if (context.uid !== null && stats.uid !== context.uid && stats.uid !== 0) {
    return fail(FILE_CODES.UNSAFE_PERMISSIONS, `${directory} belongs to uid ${stats.uid}, not to you (uid ${context.uid}) or root: its owner controls what is in it.`, { field: directory });
  }
  return ok(undefined);
}

/** A secret file (keystore, passphrase file): regular, ours, mode 0600 or stricter, in a safe directory. */
export function checkPrivateFile(path: string, context: OwnershipContext, what = 'the keystore'): Result<void> {
  let stats;
  try {
    stats = lstatSync(path);
  } catch (error) {
    return ioFailure(path, `read ${what}`, error);
  }
  if (stats.isSymbolicLink()) {
    return fail(FILE_CODES.UNSAFE_PERMISSIONS, `${path} is a symbolic link; give the real path of ${what} (a link can be re-pointed by whoever controls its directory).`, { field: path });
  }
  if (!stats.isFile()) return fail(FILE_CODES.IO, `${path}: ${what} must be a regular file`, { field: path });
  if (context.platform === 'win32') return ok(undefined);
  if ((stats.mode & 0o077) !== 0) {
    return fail(
      FILE_CODES.UNSAFE_PERMISSIONS,
      `${path} has mode ${octal(stats.mode)}: other accounts on this machine can read ${what}, and an encrypted key in their hands ` +
        `can be attacked offline, one passphrase guess after another. Refusing to use it; run chmod 600 ${path}.`,
      { field: path },
    );
  }
  if (context.uid !== null && stats.uid !== context.uid) {
    return fail(FILE_CODES.UNSAFE_PERMISSIONS, `${path} belongs to uid ${stats.uid}, not to you (uid ${context.uid}).`, { field: path });
  }
  return checkPrivateDirectory(dirname(resolve(path)), context);
}

/**
 * Create `path` with `contents`, mode 0600, never replacing an existing file: it is written to a
 * temporary name, flushed, then hard-linked to its name (which fails if the name exists) — a
 * crash leaves either no keystore or a whole one, and a mistyped --out cannot overwrite a key.
 */
export function writeNewPrivateFile(path: string, contents: string, context: OwnershipContext): Result<void> {
  const directory = dirname(resolve(path));
  const safe = checkPrivateDirectory(directory, context);
  if (!safe.ok) return safe;
  const temporary = join(directory, `.${basename(path)}.${process.pid}.tmp`);
  try {
    const fd = openSync(temporary, 'wx', 0o600);
    try {
      // The umask can only remove bits, but be explicit: the mode is the point of this function.
      if (context.platform !== 'win32') fchmodSync(fd, 0o600);
      writeSync(fd, contents);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    return ioFailure(temporary, 'write', error);
  }
  try {
    linkSync(temporary, path);
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return fail(FILE_CODES.EXISTS, `${path} already exists; refusing to replace it (it may hold a key). Choose another path.`, { field: path });
    return ioFailure(path, 'create', error);
  } finally {
    try {
      unlinkSync(temporary);
    } catch {
      // Already gone; nothing secret is in it beyond what the keystore itself holds.
    }
  }
  if (context.platform !== 'win32') {
    try {
      const fd = openSync(directory, 'r');
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    } catch {
      // Some file systems refuse to fsync a directory; the file itself is flushed.
    }
  }
  return ok(undefined);
}

/** Create a public file (a signature, QR parts) without replacing an existing one. */
export function writeNewPublicFile(path: string, contents: string | Uint8Array): Result<void> {
  try {
    const fd = openSync(path, 'wx', 0o644);
    try {
      if (typeof contents === 'string') writeSync(fd, contents);
      else writeSync(fd, contents);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    return ok(undefined);
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return fail(FILE_CODES.EXISTS, `${path} already exists; refusing to replace it. Choose another path.`, { field: path });
    return ioFailure(path, 'write', error);
  }
}
