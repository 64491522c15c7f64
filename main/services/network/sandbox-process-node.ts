// Spawns the sandbox with child_process.fork (browser host and tests). The IPC channel ties the
// child's life to ours: the sandbox exits when the channel disconnects, even if we are killed.
import { fork } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { SandboxProcess, SpawnSandbox } from './sandbox-supervisor';

export interface NodeSandboxEntry {
  /** The sandbox CLI module: `sandbox/cli.ts` from source, or the built `out/main/sandbox.js`. */
  readonly modulePath: string;
  /** `['--import', 'tsx']` when running from TypeScript source. */
  readonly execArgv: readonly string[];
}

export function nodeSandboxSpawner(entry: NodeSandboxEntry): SpawnSandbox {
  return (args) => {
    const child = fork(entry.modulePath, [...args], {
      execArgv: [...entry.execArgv],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const lines = createInterface({ input: child.stdout! });
    const errors = createInterface({ input: child.stderr! });
    const process: SandboxProcess = {
      pid: child.pid,
      onLine: (listener) => {
        lines.on('line', listener);
        errors.on('line', listener);
      },
      onExit: (listener) => {
        child.once('exit', (code) => listener(code));
      },
      kill: (signal) => {
        child.kill(signal);
      },
    };
    return process;
  };
}
