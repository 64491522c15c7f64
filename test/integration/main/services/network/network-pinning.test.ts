// Networks, against a real sandbox on 127.0.0.1 (in process): the chain id a
// network answers must be the one main expects, or its markets are refused and nothing can be
// signed for it; once learned, a chain id is kept and a different one refused; a remote network
// over plaintext is refused; mainnet is pinned.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchJson, type HttpFetch } from '../../../../../main/exchange/http';
import type { NetworkConfig } from '../../../../../main/services/network/networks';
import { PreferencesStore } from '../../../../../main/services/storage/preferences';
import { systemClock } from '../../../../../main/services/system-clock';
import { createTerminal, type Terminal } from '../../../../../main/services/terminal';
import { startSandbox, type RunningSandbox } from '../../../../../sandbox/server';
import { ok } from '../../../../../shared/result';
import { MemorySecretStore } from '../../../../support/memory-secret-store';
import { caller, value } from '../../../../support/terminal-harness';

let sandbox: RunningSandbox;
const started: Terminal[] = [];

/** When set, GET /v1/markets answers this chain id instead (another exchange now at the same address). */
let answeredChain: bigint | null = null;
const fetchAnswering: HttpFetch = async (request) => {
  const answer = await fetchJson(request);
  if (answeredChain === null || !answer.ok || !/\/v1\/markets(\?|$)/.test(request.url)) return answer;
  return ok({ ...answer.value, body: { ...(answer.value.body as Record<string, unknown>), chain_id: `0x${answeredChain.toString(16)}` } });
};

function terminal(network: NetworkConfig | undefined, dataDir = mkdtempSync(join(tmpdir(), 'lt-pinning-'))): Terminal {
  const made = createTerminal({
    fetch: fetchAnswering,
    clock: systemClock,
    host: 'browser',
    version: 'test',
    dataDir,
    openKeychain: () => Promise.resolve(ok(new MemorySecretStore())),
    spawnSandbox: () => {
      throw new Error('this test runs its own sandbox');
    },
    ...(network ? { networkOverride: network } : {}),
    random: (length) => new Uint8Array(randomBytes(length)),
  });
  started.push(made);
  return made;
}

const external = (chainId: bigint | null): NetworkConfig => ({ id: 'external', name: 'External exchange', kind: 'devnet', restUrl: sandbox.url, wsUrl: null, faucetUrl: sandbox.url, faucetNetwork: 'sandbox', production: false, chainId });

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, makerProfile: 'thin-legacy', maker: false, chainId: 77n });
});

afterAll(async () => {
  for (const made of started) await made.stop();
  await sandbox?.close();
});

describe('network pinning', () => {
  it('refuses the markets of a network whose chain id is not the expected one, so nothing is signed', async () => {
    const wrong = terminal(external(9889n));
    await wrong.start();
    const markets = await wrong.handlers.listMarkets({}, caller);
    expect(markets).toMatchObject({ ok: false });
    expect(!markets.ok && markets.message).toContain('answered chain id 77, but this terminal expects 9889');
    value(await wrong.handlers.createOwnerKey({ style: 'ledger' }, caller));
    // A session signs the chain id: refused, nothing sent.
    expect(await wrong.handlers.createSession({ marketIds: [`0x${'11'.repeat(32)}`], hours: 1 }, caller)).toMatchObject({ ok: false });

    const right = terminal(external(77n));
    value(await right.start());
    expect(value(await right.handlers.listMarkets({}, caller)).chainId).toBe(77n);
  });

  it('learns the chain id of a network that names none, and refuses a different one afterwards', async () => {
    const learning = terminal(external(null));
    value(await learning.start());
    expect(value(await learning.handlers.listMarkets({}, caller)).chainId).toBe(77n);
    // The same runtime, the exchange now answering another chain id (a different exchange at the address).
    const runtime = learning.runtime()!;
    answeredChain = 78n;
    try {
      const reloaded = await runtime.loadMarkets();
      expect(reloaded).toMatchObject({ ok: false, code: 'CHAIN_ID_MISMATCH' });
      expect(runtime.markets).toBeNull();
      expect(await learning.handlers.listMarkets({}, caller)).toMatchObject({ ok: false });
    } finally {
      answeredChain = null;
    }
  });

  it('refuses plaintext to a remote host even when given at start; loopback may be plaintext', async () => {
    // A settings file written earlier is refused the same way and the terminal falls back to the
    // sandbox (insecure-network.test.ts); a network given on the command line is refused outright.
    const remote = terminal({ ...external(77n), restUrl: 'http://exchange.example', faucetUrl: null });
    const startedRemote = await remote.start();
    expect(startedRemote).toMatchObject({ ok: false, code: 'INSECURE_NETWORK_URL' });
    expect(remote.runtime()).toBeNull();
    // A sandbox on this machine's loopback over http is allowed (the external network above is one).
    expect(external(77n).restUrl).toMatch(/^http:\/\/127\.0\.0\.1:/);
  });

  it('mainnet is pinned: not configurable, and a settings file cannot point it anywhere', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lt-pinning-mainnet-'));
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ version: 1, networkId: 'sandbox', networks: { mainnet: { restUrl: 'https://evil.example', wsUrl: null, faucetUrl: null } }, settings: { confirmOrders: true, maxOrderQuantity: {}, hotkeys: { buyAtBest: 'Shift+B', sellAtBest: 'Shift+S', cancelLast: 'Shift+Z', cancelAll: 'Shift+X', recenter: 'Space', togglePostOnly: 'Shift+P' }, sound: true, desktopNotifications: true, parallelLanes: 0, sessionDays: 30, quantityPresets: {} } }));
    const store = new PreferencesStore(dataDir, () => undefined);
    expect(store.network('mainnet')).toMatchObject({ restUrl: null, production: true });
    const app = terminal(external(77n), dataDir);
    value(await app.start());
    expect(await app.handlers.configureNetwork({ networkId: 'mainnet', restUrl: 'https://evil.example', wsUrl: null, faucetUrl: null }, caller)).toMatchObject({ ok: false, code: 'NETWORK_PINNED' });
    expect(await app.handlers.selectNetwork({ networkId: 'mainnet' }, caller)).toMatchObject({ ok: false, code: 'NETWORK_NOT_PINNED' });
  });
});
