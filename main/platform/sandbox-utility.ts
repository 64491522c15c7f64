// Spawns the embedded sandbox with Electron's utilityProcess.fork, which keeps working when the
// run-as-node fuse is off (child_process.fork of the Electron binary would need it).
import { utilityProcess } from 'electron';
import { createInterface } from 'node:readline';
import type { SandboxProcess, SpawnSandbox } from '../services/network/sandbox-supervisor';

export function utilitySandboxSpawner(modulePath: string): SpawnSandbox {
  return (args) => {
    const child = utilityProcess.fork(modulePath, [...args], { stdio: 'pipe', serviceName: 'Sandbox exchange' });
    const lineSources = [child.stdout, child.stderr].filter((stream) => stream !== null);
    const process: SandboxProcess = {
      get pid() {
        return child.pid;
      },
      onLine: (listener) => {
        for (const stream of lineSources) createInterface({ input: stream }).on('line', listener);
      },
      onExit: (listener) => {
        child.once('exit', (code) => listener(code));
      },
      kill: () => {
        child.kill();
      },
    };
    return process;
  };
}
