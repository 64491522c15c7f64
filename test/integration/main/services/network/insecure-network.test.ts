// A network refused as insecure (plaintext to a host off this machine's loopback, named by a
// settings file written before the check) gets no request at all, not even GET /health; it never
// becomes the active network and is never saved as the choice; and the terminal still starts, on
// the local sandbox, saying why.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchJson, type HttpFetch } from '../../../../../main/exchange/http';
import { nodeSandboxSpawner } from '../../../../../main/services/network/sandbox-process-node';
import { PreferencesStore } from '../../../../../main/services/storage/preferences';
import { systemClock } from '../../../../../main/services/system-clock';
import { createTerminal, type Terminal } from '../../../../../main/services/terminal';
import type { Notice } from '../../../../../shared/ipc/views';
import { ok } from '../../../../../shared/result';
import { MemorySecretStore } from '../../../../support/memory-secret-store';
import { caller, value } from '../../../../support/terminal-harness';

const INSECURE = 'http://exchange.example';
const started: Terminal[] = [];

afterEach(async () => {
  for (const made of started.splice(0)) await made.stop();
});

function terminal(dataDir: string, requests: string[], notices: Notice[]): Terminal {
  const recording: HttpFetch = (request) => {
    requests.push(request.url);
    // Nothing may reach the insecure host; answer as if it did not exist, never over the network.
    if (request.url.startsWith(INSECURE)) return Promise.resolve({ ok: false, code: 'NETWORK_ERROR', message: 'not reached in this test' } as const);
    return fetchJson(request);
  };
  const made = createTerminal({
    fetch: recording,
    clock: systemClock,
    host: 'browser',
    version: 'test',
    dataDir,
    openKeychain: () => Promise.resolve(ok(new MemorySecretStore())),
    spawnSandbox: nodeSandboxSpawner({ modulePath: join(process.cwd(), 'sandbox/cli.ts'), execArgv: ['--import', 'tsx'] }),
    sandboxArgs: ['--maker-profile', 'thin-legacy'],
    random: (length) => new Uint8Array(randomBytes(length)),
  });
  made.windows.attach(caller.windowId, { send: (stream, payload) => (stream === 'notice' ? notices.push(payload as Notice) : undefined) });
  started.push(made);
  return made;
}

describe('a network refused as insecure', () => {
  it('gets no request, never becomes active or saved, and the terminal starts on the sandbox saying why', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lt-insecure-'));
    const store = new PreferencesStore(dataDir, () => undefined);
    value(store.preferences.update((current) => ({ ...current, networkId: 'testnet', networks: { testnet: { restUrl: INSECURE, wsUrl: null, faucetUrl: null } } })));

    const requests: string[] = [];
    const notices: Notice[] = [];
    const first = terminal(dataDir, requests, notices);
    value(await first.start());
    expect(value(await first.handlers.getConnection({}, caller)).networkId).toBe('sandbox');
    const networks = value(await first.handlers.listNetworks({}, caller));
    expect(networks.find((network) => network.id === 'testnet')?.active).toBe(false);
    expect(networks.find((network) => network.id === 'sandbox')?.active).toBe(true);
    expect(notices.map((notice) => notice.text)).toContainEqual(expect.stringMatching(/Testnet.*exchange\.example.*must use https.*local sandbox/s));

    // Chosen again from the list: refused before anything is saved or torn down.
    expect(await first.handlers.selectNetwork({ networkId: 'testnet' }, caller)).toMatchObject({ ok: false, code: 'INSECURE_NETWORK_URL' });
    expect(value(await first.handlers.getConnection({}, caller)).networkId).toBe('sandbox');
    expect(new PreferencesStore(dataDir, () => undefined).preferences.get().networkId).not.toBe('testnet');
    await first.stop();
    started.length = 0;

    // The next start starts too.
    const second = terminal(dataDir, requests, []);
    value(await second.start());
    expect(value(await second.handlers.getConnection({}, caller)).networkId).toBe('sandbox');
    expect(requests.filter((url) => url.startsWith(INSECURE))).toEqual([]);
  }, 120_000);
});
