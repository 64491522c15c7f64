// One terminal per data directory: a second one refuses, naming the holder (pid, since when); a
// lock left by a process that is gone (killed, crashed, or its pid reused) is taken over.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createOfflineTerminal } from '../../../../../main/services/custody/offline-terminal';
import { DATA_DIR_LOCKED, DataDirectoryInUse, LOCK_FILE, isProcessAlive, lockDataDirectory, processStartOf } from '../../../../../main/services/storage/data-dir-lock';
import { ManualClock } from '../../../../../shared/clock';

const directory = () => mkdtempSync(join(tmpdir(), 'lt-lock-'));
const lockText = (dir: string) => JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')) as { pid: number; since: number };

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('the data directory lock', () => {
  it('refuses a second holder while the first is alive, saying who holds it and since when', () => {
    const dir = directory();
    const first = lockDataDirectory(dir, { now: () => Date.UTC(2026, 10, 26, 1, 2, 3) });
    expect(first.ok).toBe(true);
    expect(lockText(dir)).toMatchObject({ pid: process.pid, since: Date.UTC(2026, 10, 26, 1, 2, 3) });
    const second = lockDataDirectory(dir, { now: () => 5, pid: 999_999_999 });
    expect(second).toMatchObject({ ok: false, code: DATA_DIR_LOCKED });
    expect(second.ok ? '' : second.message).toBe(
      `The data directory ${dir} is in use by another terminal (process ${process.pid} on ${hostname()}, since 2026-11-26T01:02:03.000Z). Close that terminal first, or start this one with another --data-dir.`,
    );
    if (first.ok) first.value.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    expect(lockDataDirectory(dir, { now: () => 6 }).ok).toBe(true);
    // Nothing else is left in the directory.
    expect(readdirSync(dir)).toEqual([LOCK_FILE]);
  });

  it('takes over a lock whose process is gone', () => {
    const dir = directory();
    const pid = deadPid();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid, host: hostname(), since: 1, processStart: null }));
    const logged: string[] = [];
    const lock = lockDataDirectory(dir, { now: () => 7, log: (line) => logged.push(line) });
    expect(lock.ok).toBe(true);
    expect(lockText(dir)).toMatchObject({ pid: process.pid, since: 7 });
    expect(logged.join()).toMatch(new RegExp(`taking over the lock of process ${pid} .*no longer running`));
    expect(readdirSync(dir)).toEqual([LOCK_FILE]);
  });

  it('takes over a lock whose pid now belongs to another process (its start time differs)', () => {
    const dir = directory();
    // This process is alive, but the lock names a different start time for its pid.
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: process.pid, host: hostname(), since: 1, processStart: '12345' }));
    const lock = lockDataDirectory(dir, { now: () => 8, processStart: (pid) => (pid === process.pid ? '99999' : null) });
    expect(lock.ok).toBe(true);
    expect(lockText(dir)).toMatchObject({ since: 8 });
  });

  it('reads the start time of a live process on Linux', () => {
    if (!existsSync('/proc/self/stat')) return;
    expect(processStartOf(process.pid)).toMatch(/^\d+$/);
    expect(processStartOf(deadPid())).toBeNull();
  });

  it('does not remove a lock that is no longer its own', () => {
    const dir = directory();
    const first = lockDataDirectory(dir, { now: () => 1 });
    if (!first.ok) throw new Error(first.message);
    // Someone replaced it (taken over while this process looked dead).
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: process.pid, host: hostname(), since: 2, processStart: null }));
    first.value.release();
    expect(lockText(dir)).toMatchObject({ since: 2 });
  });

  it('holds for the offline signer too: a second terminal on its data directory refuses', () => {
    const dir = directory();
    const options = { clock: new ManualClock(Date.UTC(2026, 10, 26)), random: (length: number) => new Uint8Array(length).fill(1), host: 'browser' as const, version: 'test', dataDir: dir };
    createOfflineTerminal(options);
    expect(() => createOfflineTerminal(options)).toThrow(DataDirectoryInUse);
    expect(() => createOfflineTerminal(options)).toThrow(`is in use by another terminal (process ${process.pid} on ${hostname()}, since 2026-11-26T00:00:00.000Z)`);
  });
});

describe('a zombie holds no lock', () => {
  it.skipIf(process.platform !== 'linux')('counts a killed process its parent has not reaped as gone', async () => {
    // `sleep 0` exits at once; its parent execs into `sleep 5`, which never reaps it: a zombie for 5 s.
    const parent = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 5'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const zombie = Number((await new Promise<string>((resolve) => parent.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString())))).trim());
      let state = '';
      for (let tries = 0; tries < 100 && state !== 'Z'; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        const stat = readFileSync(`/proc/${zombie}/stat`, 'utf8');
        state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? '';
      }
      expect(state).toBe('Z');
      expect(() => process.kill(zombie, 0)).not.toThrow(); // signal 0 alone would call it alive
      expect(isProcessAlive(zombie)).toBe(false);
      expect(isProcessAlive(process.pid)).toBe(true);
    } finally {
      parent.kill('SIGKILL');
    }
  });
});
