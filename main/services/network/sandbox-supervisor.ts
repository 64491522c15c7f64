// Runs the embedded sandbox exchange as a child process: starts it on a free loopback port,
// waits for its "listening" line, restarts it (on the same port, with backoff) if it dies, and
// stops it with the app. How the child is spawned is a parameter: child_process.fork in the
// browser host and tests, Electron's utilityProcess.fork in the desktop app.
import type { Clock, TimerHandle } from '../../../shared/clock';
import { fail, ok, type Result } from '../../../shared/result';

export interface SandboxProcess {
  /** OS process id, when the platform reports one. */
  readonly pid?: number | undefined;
  onLine(listener: (line: string) => void): void;
  onExit(listener: (code: number | null) => void): void;
  kill(signal: 'SIGTERM' | 'SIGKILL'): void;
}

export type SpawnSandbox = (args: readonly string[]) => SandboxProcess;

export type SandboxState = 'stopped' | 'starting' | 'running' | 'restarting';

export interface SandboxStatus {
  readonly state: SandboxState;
  readonly url: string | null;
  readonly restarts: number;
  readonly lastExitCode: number | null;
}

export interface SandboxSupervisorOptions {
  readonly spawn: SpawnSandbox;
  readonly clock: Clock;
  /** Extra CLI flags for the sandbox (seed, chain id, maker). `--port` is managed here. */
  readonly args?: readonly string[];
  readonly startTimeoutMs?: number;
  readonly stopTimeoutMs?: number;
  readonly onStatus?: (status: SandboxStatus) => void;
  readonly log?: (line: string) => void;
}

export const LISTENING_LINE = /^sandbox listening on (http:\/\/127\.0\.0\.1:(\d+))\s*$/;
const MAX_BACKOFF_MS = 10_000;

export class SandboxSupervisor {
  private child: SandboxProcess | null = null;
  private status: SandboxStatus = { state: 'stopped', url: null, restarts: 0, lastExitCode: null };
  private port = 0;
  private stopping = false;
  private restartTimer: TimerHandle | null = null;
  private consecutiveFailures = 0;

  constructor(private readonly options: SandboxSupervisorOptions) {}

  get current(): SandboxStatus {
    return this.status;
  }

  /** The running child's process id (diagnostics and tests). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Start the sandbox and resolve with its URL once it listens. */
  start(): Promise<Result<string>> {
    this.stopping = false;
    return this.launch('starting');
  }

  /** Stop the sandbox and do not restart it. Resolves when it has exited. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.restartTimer !== null) this.options.clock.clearTimeout(this.restartTimer);
    this.restartTimer = null;
    const child = this.child;
    if (child === null) {
      this.update({ state: 'stopped', url: null });
      return;
    }
    await new Promise<void>((resolve) => {
      const killTimer = this.options.clock.setTimeout(() => child.kill('SIGKILL'), this.options.stopTimeoutMs ?? 3000);
      child.onExit(() => {
        this.options.clock.clearTimeout(killTimer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  }

  private update(patch: Partial<SandboxStatus>): void {
    this.status = { ...this.status, ...patch };
    this.options.onStatus?.(this.status);
  }

  private launch(state: 'starting' | 'restarting'): Promise<Result<string>> {
    this.update({ state });
    const args = [...(this.options.args ?? []), '--port', String(this.port)];
    const child = this.options.spawn(args);
    this.child = child;
    return new Promise((resolve) => {
      let settled = false;
      const settle = (result: Result<string>) => {
        if (settled) return;
        settled = true;
        this.options.clock.clearTimeout(startTimer);
        resolve(result);
      };
      const startTimer = this.options.clock.setTimeout(() => {
        settle(fail('SANDBOX_START_TIMEOUT', 'The local sandbox exchange did not start in time'));
        child.kill('SIGKILL');
      }, this.options.startTimeoutMs ?? 30_000);

      child.onLine((line) => {
        const match = LISTENING_LINE.exec(line);
        if (match === null) {
          this.options.log?.(`[sandbox] ${line}`);
          return;
        }
        this.port = Number(match[2]);
        this.consecutiveFailures = 0;
        this.update({ state: 'running', url: match[1] ?? null });
        settle(ok(match[1] ?? ''));
      });

      child.onExit((code) => {
        if (this.child === child) this.child = null;
        settle(fail('SANDBOX_EXITED', `The local sandbox exchange exited during start (exit code ${code ?? 'signal'})`));
        if (this.stopping) {
          this.update({ state: 'stopped', url: null, lastExitCode: code });
          return;
        }
        this.consecutiveFailures += 1;
        const delay = Math.min(MAX_BACKOFF_MS, 500 * 2 ** (this.consecutiveFailures - 1));
        this.options.log?.(`[sandbox] exited with code ${code ?? 'signal'}; restarting in ${delay} ms`);
        this.update({ state: 'restarting', url: null, restarts: this.status.restarts + 1, lastExitCode: code });
        this.restartTimer = this.options.clock.setTimeout(() => {
          this.restartTimer = null;
          if (!this.stopping) void this.launch('restarting');
        }, delay);
      });
    });
  }
}
