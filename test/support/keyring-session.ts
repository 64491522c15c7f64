// Runs a command inside its own D-Bus session with an unlocked gnome-keyring, the recipe of the
// architecture guide, so tests that need a real Secret Service are self-contained.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** `keyringHome`: reuse a keyring directory (keys survive a restart of the app); a new one otherwise. */
export function spawnInKeyringSession(command: string, args: readonly string[], options: SpawnOptions & { keyringHome?: string } = {}): ChildProcess {
  const { keyringHome, ...spawnOptions } = options;
  const dataHome = keyringHome ?? mkdtempSync(join(tmpdir(), 'lt-keyring-'));
  const script = 'echo -n test-password | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1; exec "$@"';
  return spawn('dbus-run-session', ['--', 'sh', '-c', script, 'sh', command, ...args], {
    ...spawnOptions,
    env: { ...process.env, ...spawnOptions.env, XDG_DATA_HOME: dataHome, HOME: process.env.HOME ?? dataHome },
  });
}

export interface Completed {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function collect(child: ChildProcess): Promise<Completed> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
