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
  // Whether the host has exited, however (a signal leaves exitCode null), and a promise for it.
  let exited = child.exitCode !== null || child.signalCode !== null;
  const exit = exited ? Promise.resolve() : new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exit.then(() => (exited = true));
  // Signal the whole process group: dbus-run-session, the host, its sandbox child and the keyring
  // daemon, which outlives the session it was started in unless it is told to stop.
  const signalGroup = (signal: NodeJS.Signals): boolean => {
    if (child.pid === undefined) return false;
    try {
      process.kill(-child.pid, signal);
      return true;
    } catch {
      return false; // the group is gone
    }
  };
  return {
    url,
    origin: parsed.origin,
    token: parsed.searchParams.get('token') ?? '',
    dataDir,
    output,
    child,
    crash: async () => {
      if (!exited && signalGroup('SIGKILL')) await exit;
    },
    stop: async () => {
      if (exited) {
        signalGroup('SIGKILL'); // whatever of the group is left
        return;
      }
      if (!signalGroup('SIGTERM')) return;
      const timer = setTimeout(() => signalGroup('SIGKILL'), 5000);
      await exit;
      clearTimeout(timer);
      signalGroup('SIGKILL');
    },
  };
}
