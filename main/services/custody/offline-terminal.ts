// The app in offline mode (`npm run web -- --offline`): the offline signer and nothing else.
//
// NO NETWORK, BY CONSTRUCTION. This module builds no sandbox, no NetworkRuntime, no REST or
// WebSocket client: it does not even import them (main/services/terminal.ts, network-runtime.ts,
// main/exchange/*), so no later edit of the online path can make the signer's machine connect.
// test/unit/main/services/custody/offline-terminal.test.ts walks its import graph and fails if a network
// module appears. Every online request answers ONLINE_ONLY; getAppInfo says `offline: true`, which
// is what the renderer's shell reads to show the signer instead of the trading screens.
// (The browser host that serves the renderer listens on 127.0.0.1 for the page only.)
import type { Clock } from '../../../shared/clock';
import type { RandomBytes } from '../../../shared/crypto/keys';
import { ONLINE_ONLY } from '../../../shared/ipc/areas/custody';
import { requestNames, type RequestName } from '../../../shared/ipc/contract';
import { fail, ok } from '../../../shared/result';
import type { Handlers } from '../../ipc/dispatcher';
import { currentOwnership, type OwnershipContext } from '../../offline/file-permissions';
import type { ScryptParameters } from '../../offline/keystore';
import { DataDirectoryInUse, lockDataDirectory } from '../storage/data-dir-lock';
import { WindowHub } from '../window-hub';
import { offlineSignerHandlers } from './offline-handlers';
import { OfflineSigner } from './offline-signer';
import { SecretExchange } from './secret-exchange';

export interface OfflineTerminalOptions {
  readonly clock: Clock;
  readonly random: RandomBytes;
  readonly host: 'electron' | 'browser';
  readonly version: string;
  readonly dataDir: string;
  readonly ownership?: OwnershipContext;
  readonly log?: (line: string) => void;
  /** Tests only: cheap scrypt parameters for keystores made here. */
  readonly testOnlyKdf?: ScryptParameters;
}

export interface OfflineTerminal {
  readonly handlers: Handlers;
  readonly windows: WindowHub;
  readonly offline: true;
}

function refuseOnline(name: RequestName) {
  return () =>
    fail(
      ONLINE_ONLY,
      `${name}: the app runs in offline mode (--offline) and has no network; only the offline signer works here. Start it without --offline on the online machine for this.`,
    );
}

/** Throws DataDirectoryInUse when another terminal holds the data directory (see data-dir-lock.ts). */
export function createOfflineTerminal(options: OfflineTerminalOptions): OfflineTerminal {
  const log = options.log ?? (() => undefined);
  // One terminal per data directory, offline too; the lock goes when the process exits.
  const lock = lockDataDirectory(options.dataDir, { now: () => options.clock.now(), log });
  if (!lock.ok) throw new DataDirectoryInUse(lock.message);
  const signer = new OfflineSigner({
    dataDir: options.dataDir,
    clock: options.clock,
    random: options.random,
    secrets: new SecretExchange(() => options.clock.now(), options.random),
    ownership: options.ownership ?? currentOwnership(),
    log,
    ...(options.testOnlyKdf ? { testOnlyKdf: options.testOnlyKdf } : {}),
  });
  // Every request refuses unless named below. The cast is sound: a refusal is a Result of any type.
  const refusals = Object.fromEntries(requestNames.map((name) => [name, refuseOnline(name)])) as unknown as Handlers;
  const handlers: Handlers = {
    ...refusals,
    getAppInfo: () => ok({ version: options.version, host: options.host, offline: true }),
    ...offlineSignerHandlers(signer),
  };
  log('offline mode: no network, no sandbox; the offline signer only');
  return { handlers, windows: new WindowHub(), offline: true };
}
