import { describe, expect, it } from 'vitest';
import { collect, spawnInKeyringSession } from '../../support/keyring-session';
import { spawn } from 'node:child_process';

const probe = ['--import', 'tsx', 'test/support/platform/keychain-probe.ts'];

function lastJsonLine(stdout: string): Record<string, unknown> {
  const line = stdout.trim().split('\n').filter((text) => text.startsWith('{')).pop();
  if (line === undefined) throw new Error(`probe printed no result: ${stdout}`);
  return JSON.parse(line) as Record<string, unknown>;
}

describe('OS keychain adapter', () => {
  it('round-trips secrets through a real Secret Service (gnome-keyring)', async () => {
    const result = await collect(spawnInKeyringSession(process.execPath, [...probe, 'lt-roundtrip']));
    const steps = lastJsonLine(result.stdout);
    expect(steps.opened).toBe(true);
    expect(steps.before).toEqual({ ok: true, value: null });
    expect(steps.set1).toEqual({ ok: true });
    expect(steps.get).toEqual({ ok: true, value: 'secret-one' });
    expect(steps.list).toEqual({ ok: true, value: ['owner-1', 'session-2'] });
    expect(steps.badAccount).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    expect(steps.delete).toEqual({ ok: true, value: true });
    expect(steps.deleteAgain).toEqual({ ok: true, value: false });
    expect(steps.after).toEqual({ ok: true, value: null });
    expect(steps.listAfter).toEqual({ ok: true, value: ['session-2'] });
  });

  it('refuses, with the reason, when no secure store is available', async () => {
    // A session bus address that leads nowhere: no Secret Service can answer, and the adapter
    // must not fall back to the kernel keyring.
    const child = spawn(process.execPath, [...probe, 'lt-none'], {
      env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' },
    });
    const steps = lastJsonLine((await collect(child)).stdout);
    expect(steps.opened).toBe(false);
    expect(steps.code).toBe('KEYCHAIN_UNAVAILABLE');
    expect(String(steps.message)).toMatch(/^No OS keychain: .*Secret Service/);
    expect(String(steps.message)).toMatch(/never written in plain text/);
    // The exact commands of this OS (Debian: apt-get), one per line.
    expect(String(steps.commands).split('\n')[0]).toBe('sudo apt-get install gnome-keyring libsecret-1-0 dbus-user-session');
  });
});
