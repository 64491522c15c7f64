// Starts the real browser host (real main services, real sandbox child) as a separate process,
// inside its own D-Bus session with an unlocked gnome-keyring, and a fresh data directory.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { spawnInKeyringSession } from './keyring-session';

export interface RunningHost {
  readonly url: string;
  readonly origin: string;
  readonly token: string;
  readonly dataDir: string;
  readonly output: string[];
  readonly child: ChildProcess;
  stop(): Promise<void>;
  /** Kill the whole process group at once (a crash: no shutdown code runs). */
  crash(): Promise<void>;
}

export async function startHost(options: { dataDir?: string; args?: readonly string[]; keyringHome?: string } = {}): Promise<RunningHost> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'lt-host-'));
  const child = spawnInKeyringSession(process.execPath, ['--import', 'tsx', 'main/host/cli.ts', '--port', '0', '--data-dir', dataDir, ...(options.args ?? [])], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    ...(options.keyringHome === undefined ? {} : { keyringHome: options.keyringHome }),
  });
  const output: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => output.push(line));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`browser host did not start:\n${output.join('\n')}`)), 60_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line);
      const match = /^terminal ready at (\S+)$/.exec(line);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`browser host exited with ${code}:\n${output.join('\n')}`));
    });
  });
  const parsed = new URL(url);
  return {
    url,
    origin: parsed.origin,
    token: parsed.searchParams.get('token') ?? '',
    dataDir,
    output,
    child,
    crash: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.pid === undefined) return resolve();
        child.once('exit', () => resolve());
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          resolve();
        }
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.pid === undefined) return resolve();
        const timer = setTimeout(() => {
          try {
            process.kill(-child.pid!, 'SIGKILL');
          } catch {
            /* already gone */
          }
        }, 5000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        // The whole process group: dbus-run-session, the host and its sandbox child.
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          // Already gone between the check and the signal.
          clearTimeout(timer);
          resolve();
        }
      }),
  };
}
