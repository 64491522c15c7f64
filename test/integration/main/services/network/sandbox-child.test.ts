import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { nodeSandboxSpawner } from '../../../../../main/services/network/sandbox-process-node';
import { SandboxSupervisor, type SandboxStatus } from '../../../../../main/services/network/sandbox-supervisor';
import { systemClock } from '../../../../../main/services/system-clock';

async function health(url: string): Promise<string> {
  try {
    const response = await fetch(`${url}/health`);
    return ((await response.json()) as { status: string }).status;
  } catch {
    return 'unreachable';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('embedded sandbox as a child process', () => {
  it('starts on a free loopback port, answers, is restarted after being killed, and stops with the app', async () => {
    const statuses: SandboxStatus[] = [];
    const supervisor = new SandboxSupervisor({
      spawn: nodeSandboxSpawner({ modulePath: join(process.cwd(), 'sandbox/cli.ts'), execArgv: ['--import', 'tsx'] }),
      clock: systemClock,
      args: ['--maker', 'off'],
      onStatus: (status) => statuses.push(status),
    });
    const started = await supervisor.start();
    expect(started.ok).toBe(true);
    const url = started.ok ? started.value : '';
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await health(url)).toBe('ok');
    const markets = (await (await fetch(`${url}/v1/markets`)).json()) as { markets: unknown[] };
    expect(markets.markets.length).toBeGreaterThanOrEqual(3);

    const firstPid = supervisor.pid!;
    process.kill(firstPid, 'SIGKILL');
    await until(() => statuses.some((status) => status.state === 'restarting'));
    await until(() => supervisor.current.state === 'running');
    expect(supervisor.current.restarts).toBe(1);
    expect(supervisor.current.url).toBe(url);
    expect(supervisor.pid).not.toBe(firstPid);
    expect(await health(url)).toBe('ok');

    const secondPid = supervisor.pid!;
    await supervisor.stop();
    expect(supervisor.current.state).toBe('stopped');
    await until(() => !isAlive(secondPid));
    expect(await health(url)).toBe('unreachable');
  });
});
