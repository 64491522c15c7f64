import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../../shared/clock';
import { SandboxSupervisor, type SandboxProcess } from '../../../../../main/services/network/sandbox-supervisor';

class FakeChild implements SandboxProcess {
  private lineListeners: ((line: string) => void)[] = [];
  private exitListeners: ((code: number | null) => void)[] = [];
  readonly signals: string[] = [];
  constructor(readonly args: readonly string[]) {}
  onLine(listener: (line: string) => void) { this.lineListeners.push(listener); }
  onExit(listener: (code: number | null) => void) { this.exitListeners.push(listener); }
  kill(signal: 'SIGTERM' | 'SIGKILL') { this.signals.push(signal); if (signal === 'SIGTERM' || signal === 'SIGKILL') this.exit(null); }
  print(line: string) { for (const listener of this.lineListeners) listener(line); }
  exit(code: number | null) { const listeners = this.exitListeners; this.exitListeners = []; for (const listener of listeners) listener(code); }
}

function setup() {
  const clock = new ManualClock(0);
  const children: FakeChild[] = [];
  const supervisor = new SandboxSupervisor({
    clock,
    args: ['--seed', '7'],
    spawn: (args) => {
      const child = new FakeChild(args);
      children.push(child);
      return child;
    },
  });
  return { clock, children, supervisor };
}

describe('sandbox supervisor', () => {
  it('starts on a free port and reports the URL the sandbox printed', async () => {
    const { children, supervisor } = setup();
    const started = supervisor.start();
    expect(children[0]?.args).toEqual(['--seed', '7', '--port', '0']);
    children[0]?.print('some log line');
    children[0]?.print('sandbox listening on http://127.0.0.1:41234');
    expect(await started).toEqual({ ok: true, value: 'http://127.0.0.1:41234' });
    expect(supervisor.current).toMatchObject({ state: 'running', url: 'http://127.0.0.1:41234', restarts: 0 });
  });

  it('restarts a sandbox that died, on the same port, with backoff', async () => {
    const { clock, children, supervisor } = setup();
    const started = supervisor.start();
    children[0]?.print('sandbox listening on http://127.0.0.1:41234');
    await started;
    children[0]?.exit(1);
    expect(supervisor.current).toMatchObject({ state: 'restarting', restarts: 1, lastExitCode: 1 });
    clock.advance(499);
    expect(children).toHaveLength(1);
    clock.advance(1);
    expect(children[1]?.args).toEqual(['--seed', '7', '--port', '41234']);
    children[1]?.exit(1);
    clock.advance(999);
    expect(children).toHaveLength(2);
    clock.advance(1);
    expect(children).toHaveLength(3);
    children[2]?.print('sandbox listening on http://127.0.0.1:41234');
    expect(supervisor.current).toMatchObject({ state: 'running', restarts: 2 });
  });

  it('stops the sandbox with the app and does not restart it', async () => {
    const { clock, children, supervisor } = setup();
    const started = supervisor.start();
    children[0]?.print('sandbox listening on http://127.0.0.1:41234');
    await started;
    await supervisor.stop();
    expect(children[0]?.signals).toEqual(['SIGTERM']);
    clock.advance(60_000);
    expect(children).toHaveLength(1);
    expect(supervisor.current.state).toBe('stopped');
  });

  it('gives up waiting for a sandbox that never listens', async () => {
    const { clock, children, supervisor } = setup();
    const started = supervisor.start();
    clock.advance(30_000);
    expect(await started).toMatchObject({ ok: false, code: 'SANDBOX_START_TIMEOUT' });
    expect(children[0]?.signals).toContain('SIGKILL');
    await supervisor.stop();
  });
});
