// The sandbox as the app runs it: a child process that prints one line when ready, exits 2 on
// a bad flag, and exits cleanly on SIGTERM or when its parent's IPC channel closes.
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';

const LINE = /^sandbox listening on (http:\/\/127\.0\.0\.1:(\d+))$/m;

function readyUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = LINE.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`exited ${code} before ready: ${err}`)));
  });
}

describe('sandbox CLI', () => {
  it('prints its URL, serves /health and /v1/markets, and exits on SIGTERM (npx tsx), leaving no process behind', async () => {
    // Its own process group: npx, tsx and the sandbox are signalled together, as a terminal's ^C
    // would (npx does not pass a SIGTERM sent to it alone down to its child).
    const child = spawn('npx', ['tsx', 'sandbox/cli.ts', '--port', '0', '--maker', 'off'], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const group = -child.pid!;
    const alive = () => {
      try {
        process.kill(group, 0);
        return true;
      } catch {
        return false;
      }
    };
    try {
      const url = await readyUrl(child);
      const health = await fetch(`${url}/health`);
      expect(await health.json()).toEqual({ status: 'ok' });
      const markets = (await (await fetch(`${url}/v1/markets`)).json()) as { chain_id: string; markets: unknown[] };
      expect(markets.chain_id).toMatch(/^0x[0-9a-f]+$/);
      expect(BigInt(markets.chain_id)).not.toBe(0n);
      expect(markets.markets.length).toBeGreaterThanOrEqual(4);
    } finally {
      const exited = once(child, 'exit');
      process.kill(group, 'SIGTERM');
      await exited;
      for (let wait = 0; wait < 50 && alive(); wait++) await new Promise((resolve) => setTimeout(resolve, 100));
      const leftBehind = alive();
      if (leftBehind) process.kill(group, 'SIGKILL');
      expect(leftBehind, 'a process of the sandbox outlived SIGTERM by 5 s').toBe(false);
    }
  });

  it('exits when the parent IPC channel disconnects', async () => {
    const child = fork('sandbox/cli.ts', ['--port', '0', '--maker', 'off', '--chain-id', '0'], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const url = await readyUrl(child);
    const markets = (await (await fetch(`${url}/v1/markets`)).json()) as { chain_id: string };
    expect(markets.chain_id).toBe('0x0');
    const exited = once(child, 'exit');
    child.disconnect();
    const [code] = (await exited) as [number | null];
    expect(code).toBe(0);
  });

  it('refuses a bad flag with exit code 2 naming the flag and the value', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/cli.ts', '--maker', 'maybe'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(2);
    expect(err).toContain('--maker');
    expect(err).toContain('"maybe"');
  });
});
