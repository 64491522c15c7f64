// What a domain's request handlers may use: the active network's runtime and the app-wide stores.
// Each domain that answers the bridge builds its handlers from this in
// main/services/<domain>/handlers.ts, and the terminal merges them.
import type { Clock } from '../../shared/clock';
import type { coreRequests } from '../../shared/ipc/areas/core';
import type { Notice } from '../../shared/ipc/views';
import { fail, type Result } from '../../shared/result';
import type { AreaHandlers } from '../ipc/dispatcher';
import type { Journal } from './journal/journal';
import type { KeyVault } from './keys/key-vault';
import type { MarketDataHub } from './market-data/market-data-hub';
import type { NetworkRuntime } from './network/network-runtime';
import type { NetworkConfig } from './network/networks';
import type { PreferencesStore } from './storage/preferences';
import type { WindowHub } from './window-hub';
import type { TrustedConfirmer } from './confirm/trusted-confirmer';
import type { ChooseExportFile } from './records/export-file';

export interface HandlerContext {
  readonly clock: Clock;
  readonly dataDir: string;
  readonly preferences: PreferencesStore;
  readonly journal: Journal;
  readonly windows: WindowHub;
  /** Confirms funds leaving and weakened safety settings outside the renderer (dialog or host code). */
  readonly confirmer: TrustedConfirmer;
  /** Delay before first use of a withdrawal address added now, on this network. */
  allowDelayMs(network: NetworkConfig): number;
  /** Electron's native save dialog for exports; absent in the browser host (main writes into the data directory's exports folder). */
  readonly chooseExportFile?: ChooseExportFile | undefined;
  runtime(): NetworkRuntime | null;
  /** The windows' market data subscriptions (they outlive network switches). */
  readonly hub: MarketDataHub;
  network(): NetworkConfig | null;
  vault(): KeyVault | null;
  notice(level: Notice['level'], text: string): void;
  log(line: string): void;
}

export const NOT_CONNECTED = 'NOT_CONNECTED';

/** Run `action` with the active runtime, or explain that the network is not connected. */
export function withRuntime<T>(context: HandlerContext, action: (runtime: NetworkRuntime) => Promise<Result<T>> | Result<T>): Promise<Result<T>> | Result<T> {
  const runtime = context.runtime();
  if (!runtime) return fail(NOT_CONNECTED, `${context.network()?.name ?? 'The network'} is not connected yet`);
  return action(runtime);
}

/** The handlers of some requests of the core area: each domain answers its part of it. */
export type CoreHandlers<K extends keyof typeof coreRequests> = Pick<AreaHandlers<typeof coreRequests>, K>;
