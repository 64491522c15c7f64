// Starts the real browser host (real main services, real sandbox child) as a separate process,
// inside its own D-Bus session with an unlocked gnome-keyring, and a fresh data directory.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Result } from '../../shared/result';
import { spawnInKeyringSession } from './keyring-session';

/** The environment with no way to reach a D-Bus session bus (no address, no X display to autolaunch one). */
function withoutSessionBus(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { DBUS_SESSION_BUS_ADDRESS: _bus, DISPLAY: _display, WAYLAND_DISPLAY: _wayland, ...rest } = env;
  return { ...rest, XDG_RUNTIME_DIR: mkdtempSync(join(tmpdir(), 'lt-nobus-')) };
}

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
  /**
   * The next trusted-confirmation code the host prints on its own terminal after output line
   * `since` (take `output.length` before the request), as the trader reads it there, with the lines
   * printed around it. A page has no way to read it: only this process's stderr carries it.
   */
  confirmationCode(since: number, timeoutMs?: number): Promise<{ code: string; printed: string }>;
}

/**
 * A request main confirms on the host's terminal (a withdrawal, a loosened setting, a network
 * address): called once, which makes the host print a code, then again with the code read from
 * the host's output, as the trader would type it. Answers the second call's result.
 */
export async function confirmWithHostCode<T>(host: RunningHost, call: (confirmationCode: string | undefined) => Promise<Result<T>>): Promise<Result<T>> {
  const since = host.output.length;
  const asked = await call(undefined);
  if (asked.ok || asked.code !== 'CONFIRMATION_REQUIRED') return asked;
  const { code } = await host.confirmationCode(since);
  return call(code);
}

/**
 * `keyring: false` starts the host with no D-Bus session at all (no Secret Service: a first run on a bare machine).
 * `entry`: a built host bundle to run instead of the source (main/host/cli.ts under tsx), e.g. a test build's.
 */
export async function startHost(options: { dataDir?: string; args?: readonly string[]; keyringHome?: string; keyring?: boolean; entry?: string } = {}): Promise<RunningHost> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'lt-host-'));
  // LT_HOST_NODE_ARGS: extra Node flags for the host (a diagnosis, e.g. "--trace-gc"); none by default.
  const nodeArgs = (process.env.LT_HOST_NODE_ARGS ?? '').split(' ').filter((flag) => flag !== '');
  // The built host, as `npm start` runs it (the e2e project's global setup builds it when sources
  // changed), or another built entry a test names (a host bundled with a pinned network).
  const entry = options.entry ?? 'out/main/host.js';
  // The embedded sandbox quotes the thin book the tests were written against unless a test asks for another.
  const args = options.args ?? [];
  const pinProfile = !args.includes('--offline') && !args.some((arg) => arg.startsWith('--sandbox-maker-profile'));
  const hostArgs = [...nodeArgs, entry, '--port', '0', '--data-dir', dataDir, ...(pinProfile ? ['--sandbox-maker-profile', 'thin-legacy'] : []), ...args];
  const child =
    options.keyring === false
      ? spawn(process.execPath, hostArgs, { stdio: ['ignore', 'pipe', 'pipe'], detached: true, env: withoutSessionBus(process.env) })
      : spawnInKeyringSession(process.execPath, hostArgs, {
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
    confirmationCode: async (since, timeoutMs = 15_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const lines = output.slice(since);
        const at = lines.findIndex((line) => /confirmation code: \d{4} \d{4}/.test(line));
        if (at >= 0) {
          const code = /confirmation code: (\d{4} \d{4})/.exec(lines[at]!)![1]!;
          const start = lines.slice(0, at).findLastIndex((line) => line.startsWith('CONFIRM IN THE APP'));
          return { code, printed: lines.slice(Math.max(0, start), at + 1).join('\n') };
        }
        if (Date.now() > deadline) throw new Error(`the host printed no confirmation code:\n${lines.join('\n')}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
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
