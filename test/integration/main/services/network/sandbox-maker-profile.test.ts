// Which book the embedded sandbox's maker quotes: the realistic one when the app starts it as
// `npm start` does (no maker flags), the thin-legacy one in the test harness, which pins it for
// the tests written against it, and the realistic one again when a test of depth asks for it.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeSandboxSpawner } from '../../../../../main/services/network/sandbox-process-node';
import { SandboxSupervisor } from '../../../../../main/services/network/sandbox-supervisor';
import { systemClock } from '../../../../../main/services/system-clock';
import { startHarness } from '../../../../support/terminal-harness';

describe("the embedded sandbox's maker profile", () => {
  it('is realistic when the app starts the sandbox with no profile flag', async () => {
    const supervisor = new SandboxSupervisor({
      spawn: nodeSandboxSpawner({ modulePath: join(process.cwd(), 'sandbox/cli.ts'), execArgv: ['--import', 'tsx'] }),
      clock: systemClock,
      // No profile flag, as main starts it; no house takes, so no take leaves a level missing while the test reads.
      args: ['--control', '--maker-rate', '0'],
    });
    const started = await supervisor.start();
    try {
      expect(started.ok).toBe(true);
      const url = started.ok ? started.value : '';
      expect(await (await fetch(`${url}/control/maker`)).json()).toMatchObject({ profile: 'realistic', regime: 'normal', pinned: false });
      const markets = (await (await fetch(`${url}/v1/markets`)).json()) as { markets: { market_id: string }[] };
      const depth = (await (await fetch(`${url}/v1/depth?market_id=${markets.markets[0]?.market_id}&precision=1`)).json()) as { view: { buys: unknown[]; sells: unknown[] } };
      expect(depth.view.buys).toHaveLength(40);
      expect(depth.view.sells).toHaveLength(40);
    } finally {
      await supervisor.stop();
    }
  });

  it('is thin-legacy in the test harness unless a test asks for realistic', async () => {
    const pinned = await startHarness();
    try {
      expect(await pinned.control('/control/maker')).toMatchObject({ profile: 'thin-legacy' });
    } finally {
      await pinned.stop();
    }
    const deep = await startHarness({ sandboxArgs: ['--maker-profile', 'realistic'] });
    try {
      expect(await deep.control('/control/maker')).toMatchObject({ profile: 'realistic' });
    } finally {
      await deep.stop();
    }
  });
});
