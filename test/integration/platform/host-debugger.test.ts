// The browser host holds the keys, so no debugger may reach into it: started with an inspector
// flag (on its command line or in NODE_OPTIONS) it refuses before serving anything, and a running
// host sent SIGUSR1 by a process of the same user (what `kill -USR1` and `process._debugProcess`
// do on Linux and macOS) opens no inspector. Real processes: the host in offline mode (no sandbox,
// no keychain), on the Node that runs the tests.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');

interface Host {
  readonly child: ChildProcess;
  readonly output: () => string;
  readonly exited: Promise<number | null>;
}

const started: ChildProcess[] = [];

function startHost(nodeArgs: readonly string[], env: Record<string, string> = {}): Host {
  const dataDir = mkdtempSync(join(tmpdir(), 'lt-host-debugger-'));
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'main/host/cli.ts', '--offline', '--data-dir', dataDir, '--renderer-dir', dataDir], {
    cwd: root,
    env: { ...process.env, NODE_OPTIONS: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return { child, output: () => output, exited };
}

async function until(probe: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (probe()) return true;
    await new Promise((done) => setTimeout(done, 50));
  }
  return probe();
}

afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

describe('no debugger into the browser host', () => {
  it('refuses to start with --inspect, --inspect-port or an inspector flag in NODE_OPTIONS, before serving', async () => {
    for (const [nodeArgs, env] of [
      [['--inspect=127.0.0.1:0'], {}],
      [['--inspect-port=0'], {}],
      [[], { NODE_OPTIONS: '--inspect-port=0' }],
    ] as const) {
      const host = startHost(nodeArgs, env);
      const code = await Promise.race([host.exited, new Promise<'running'>((done) => setTimeout(() => done('running'), 30_000))]);
      expect(code, `${nodeArgs.join(' ')} ${JSON.stringify(env)}: ${host.output()}`).toBe(1);
      expect(host.output()).toMatch(/refusing to start: .*debugger/);
      expect(host.output()).not.toMatch(/terminal ready at/);
    }
  }, 120_000);

  it('a running host sent SIGUSR1 opens no inspector and keeps serving', async () => {
    const host = startHost([]);
    expect(await until(() => /terminal ready at/.test(host.output()), 30_000), host.output()).toBe(true);
    host.child.kill('SIGUSR1');
    await new Promise((done) => setTimeout(done, 1_500));
    expect(host.output()).not.toMatch(/Debugger listening|Starting inspector/);
    expect(host.child.exitCode).toBeNull();
    expect(host.child.signalCode).toBeNull();
    host.child.kill('SIGTERM');
    expect(await host.exited).toBe(0);
  }, 60_000);
});
