// Offline mode has no network by construction: the offline terminal's whole import graph (ours and
// the packages') reaches no network module and none of the online composition (the terminal, the
// network runtime, the exchange clients, the sandbox); the host's online path is imported only
// dynamically. And the two modes refuse each other's requests: ONLINE_ONLY offline, OFFLINE_ONLY online.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HostCodeConfirmer } from '../../../../../main/services/confirm/host-code-confirmer';
import { custodyHandlers } from '../../../../../main/services/custody/handlers';
import { createOfflineTerminal } from '../../../../../main/services/custody/offline-terminal';
import type { HandlerContext } from '../../../../../main/services/handler-context';
import { Journal } from '../../../../../main/services/journal/journal';
import { MarketDataHub } from '../../../../../main/services/market-data/market-data-hub';
import { PreferencesStore } from '../../../../../main/services/storage/preferences';
import { WindowHub } from '../../../../../main/services/window-hub';
import { ManualClock } from '../../../../../shared/clock';
import { CUSTODY_OFFLINE_REQUESTS, CUSTODY_ONLINE_REQUESTS } from '../../../../../shared/ipc/areas/custody';
import { requestNames } from '../../../../../shared/ipc/contract';
import { importGraph, NETWORK_MODULES } from '../../../../support/import-graph';

const root = resolve(import.meta.dirname, '../../../../..');
const caller = { windowId: 'w1', frameUrl: 'app://terminal/' };

const ONLINE_COMPOSITION = [/^main\/exchange\//, /^main\/services\/terminal\.ts$/, /^main\/services\/network-runtime\.ts$/, /^main\/services\/sandbox-/, /^main\/platform\/keychain/, /^sandbox\//, /^main\/services\/custody\/handlers\.ts$/];

describe('offline mode: no network by construction', () => {
  it('the offline terminal reaches no network module and nothing of the online composition', () => {
    const graph = importGraph(join(root, 'main/services/custody/offline-terminal.ts'), true);
    expect([...graph.builtins].filter((name) => NETWORK_MODULES.has(name))).toEqual([]);
    expect([...graph.packages].filter((name) => NETWORK_MODULES.has(name))).toEqual([]);
    const ours = [...graph.files].filter((file) => !file.includes('node_modules')).map((file) => relative(root, file));
    expect(ours.filter((file) => ONLINE_COMPOSITION.some((pattern) => pattern.test(file)))).toEqual([]);
    // The walk went where it should (otherwise the checks above prove nothing).
    expect(ours).toEqual(expect.arrayContaining(['main/services/custody/offline-signer.ts', 'main/offline/keystore.ts', 'shared/offline/sign.ts']));
    expect(graph.packages).toContain('qrcode');
    expect(graph.builtins).toContain('crypto');
  });

  it("the host's static imports reach the page server only; the online composition is imported dynamically", () => {
    const host = join(root, 'main/host/cli.ts');
    const graph = importGraph(host, false);
    const ours = [...graph.files].filter((file) => !file.includes('node_modules')).map((file) => relative(root, file));
    expect(ours.filter((file) => ONLINE_COMPOSITION.some((pattern) => pattern.test(file)))).toEqual([]);
    const source = readFileSync(host, 'utf8');
    expect(source).toMatch(/import\('\.\.\/services\/terminal'\)/);
    expect(source).toMatch(/await import\('\.\.\/services\/custody\/offline-terminal'\)/);
    expect(source).toMatch(/for \(const name of \['fetch', 'WebSocket'/);
  });
});

describe('each mode refuses the other mode’s requests', () => {
  it('offline: getAppInfo says offline, the signer answers, everything else is ONLINE_ONLY', async () => {
    const terminal = createOfflineTerminal({ clock: new ManualClock(0), random: (length) => new Uint8Array(length).fill(1), host: 'browser', version: 'test', dataDir: mkdtempSync(join(tmpdir(), 'lt-offline-')) });
    expect(await terminal.handlers.getAppInfo({}, caller)).toEqual({ ok: true, value: { version: 'test', host: 'browser', offline: true } });
    expect(await terminal.handlers.offlineListKeystores({}, caller)).toEqual({ ok: true, value: [] });
    const offline = new Set<string>([...CUSTODY_OFFLINE_REQUESTS, 'getAppInfo']);
    const refused = requestNames.filter((name) => !offline.has(name));
    expect(refused).toEqual(expect.arrayContaining(['listMarkets', 'placeOrder', 'createSession', ...CUSTODY_ONLINE_REQUESTS]));
    for (const name of refused) {
      const handler = terminal.handlers[name] as (input: unknown, from: typeof caller) => unknown;
      const answer = (await handler({}, caller)) as { ok: boolean; code?: string; message?: string };
      expect(answer, name).toMatchObject({ ok: false, code: 'ONLINE_ONLY' });
      expect(answer.message).toContain(`${name}: the app runs in offline mode`);
    }
  });

  it('online: the signer requests are OFFLINE_ONLY', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lt-online-'));
    const clock = new ManualClock(0);
    const windows = new WindowHub();
    const context: HandlerContext = {
      clock,
      dataDir,
      preferences: new PreferencesStore(dataDir, () => undefined),
      journal: new Journal({ directory: join(dataDir, 'journal'), now: () => clock.now() }),
      windows,
      confirmer: new HostCodeConfirmer({ clock, random: (length) => new Uint8Array(length), write: () => undefined }),
      allowDelayMs: () => 0,
      runtime: () => null,
      hub: new MarketDataHub(null, windows, clock),
      network: () => null,
      vault: () => null,
      notice: () => undefined,
      log: () => undefined,
    };
    const handlers = custodyHandlers(context);
    for (const name of CUSTODY_OFFLINE_REQUESTS) {
      const handler = handlers[name] as (input: unknown, from: typeof caller) => unknown;
      expect(await handler({}, caller), name).toMatchObject({ ok: false, code: 'OFFLINE_ONLY' });
    }
    expect(await handlers.getDepositInstructions({}, caller)).toMatchObject({ ok: false, code: 'NOT_CONNECTED' });
    expect(await handlers.getOwnerRequests({}, caller)).toEqual({ ok: true, value: { networkId: null, owner: null, custody: null, pending: [], lastResult: null } });
  });
});
