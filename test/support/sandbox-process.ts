// A sandbox exchange in its own process, outside the app (so it outlives an app crash).
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface SandboxProcess {
  readonly url: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

export function startSandboxProcess(args: readonly string[] = []): Promise<SandboxProcess> {
  // The thin book the tests were written against unless `args` names another (the later flag wins).
  const child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/cli.ts', '--port', '0', '--maker-profile', 'thin-legacy', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the sandbox did not start')), 30_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /^sandbox listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
      if (!match?.[1]) return;
      clearTimeout(timer);
      resolve({
        url: match[1],
        child,
        stop: () =>
          new Promise((done) => {
            // A signal leaves exitCode null: check both, or a second stop would wait forever.
            if (child.exitCode !== null || child.signalCode !== null) return done();
            const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
            child.once('exit', () => {
              clearTimeout(timer);
              done();
            });
            child.kill('SIGTERM');
          }),
      });
    });
    child.once('exit', (code) => reject(new Error(`the sandbox exited with ${code}`)));
  });
}
