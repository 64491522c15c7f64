// The composition root of main's services, shared by the Electron app and the browser host: the
// data directory (preferences, journal), the keychain, the networks (starting the embedded sandbox
// when it is chosen) and one NetworkRuntime for the active network. It implements every request
// of the contract; each handler only parses nothing (the dispatcher did) and delegates.
import { join } from 'node:path';
import type { Clock } from '../../shared/clock';
import type { B256 } from '../../shared/encoding/b256';
import type { AccountState, ConnectionStatus, KeychainView, LinkState, MarketsView, NetworkView, Notice, Settings } from '../../shared/ipc/views';
import type { JournalDamageView, JournalEntryView } from '../../shared/ipc/views/journal';
import { fail, ok, type Result } from '../../shared/result';
import { applyKeymapChange } from '../../shared/hotkeys/keymap';
import type { HttpFetch } from '../exchange/http';
import { fetchJson } from '../exchange/http';
import type { SocketFactory } from '../exchange/socket';
import type { AreaHandlers, Handlers } from '../ipc/dispatcher';
import type { coreRequests } from '../../shared/ipc/areas/core';
import { custodyHandlers } from './custody/handlers';
import { Desk } from './desk/desk';
import { deskHandlers } from './desk/handlers';
import type { HandlerContext } from './handler-context';
import { marginHandlers } from './margin/handlers';
import { triggerHandlers } from './triggers/handlers';
import { positionHandlers } from './positions/handlers';
import { ConnectionMonitor, type HealthReading } from './network/connection-monitor';
import { STALE_AFTER_MS } from '../exchange/stream-client';
import { FreshnessPublisher } from './network/freshness';
import { MarketDataHub } from './market-data/market-data-hub';
import { DataDirectoryInUse, lockDataDirectory } from './storage/data-dir-lock';
import { Journal, type DamageReport, type JournalEntry } from './journal/journal';
import { KeyImportExchange } from './keys/key-import';
import type { ChosenSigner } from '../platform/native-secp256k1';
import { KeyVault } from './keys/key-vault';
import { NetworkRuntime } from './network/network-runtime';
import { checkNetworkUrls, NETWORK_CODES, PINNED_MAINNET, SANDBOX_CHAIN_ID, type NetworkConfig } from './network/networks';
import { HostCodeConfirmer } from './confirm/host-code-confirmer';
import { settingsWeakenings } from './confirm/settings-weakening';
import { confirmationDigest, type TrustedConfirmer } from './confirm/trusted-confirmer';
import { DEFAULT_ALLOW_DELAY_MS } from './custody/withdraw-allow-list';
import { formatUnits } from '../../shared/encoding/units';
import { PreferencesStore } from './storage/preferences';
import { SandboxSupervisor, type SpawnSandbox } from './network/sandbox-supervisor';
import type { SecretStore } from './keys/secret-store';
import { WindowHub } from './window-hub';

export interface TerminalOptions {
  readonly clock: Clock;
  readonly host: 'electron' | 'browser';
  readonly version: string;
  readonly dataDir: string;
  /** Opens the OS keychain, or explains why there is none. */
  readonly openKeychain: () => Promise<Result<SecretStore>>;
  /** How to spawn the embedded sandbox. */
  readonly spawnSandbox: SpawnSandbox;
  readonly sandboxArgs?: readonly string[];
  /** A network to use instead of the remembered one (tests, --network). */
  readonly networkOverride?: NetworkConfig;
  readonly random: (length: number) => Uint8Array;
  /** How digests are signed (main/platform/native-secp256k1.ts picks one); shared/crypto by default. */
  readonly signer?: ChosenSigner;
  readonly fetch?: HttpFetch;
  readonly socketFactory?: SocketFactory;
  /** Timeout of every REST request (tests of slow answers shorten it). */
  readonly requestTimeoutMs?: number;
  readonly log?: (line: string) => void;
  /**
   * Confirms funds leaving and weakened safety settings outside the renderer: Electron passes a
   * native-dialog confirmer; by default a one-time code is printed on this process's stderr (the
   * browser host's own terminal).
   */
  readonly confirmer?: TrustedConfirmer;
  /** Delay before first use of an added withdrawal address (default: 24 h; 10 s on the local sandbox). */
  readonly allowDelayMs?: (network: NetworkConfig) => number;
}

export interface Terminal {
  readonly handlers: Handlers;
  readonly windows: WindowHub;
  start(): Promise<Result<void>>;
  stop(): Promise<void>;
  restUrl(): string | null;
  /** The runtime of the active network (tests and diagnostics). */
  runtime(): NetworkRuntime | null;
  /** The windows' market data subscriptions; they outlive network switches. */
  readonly hub: MarketDataHub;
  /** The embedded sandbox's process id, when it runs (diagnostics and fault tests). */
  sandboxPid(): number | undefined;
  /** Windows, layouts and displays; the Electron entry or the browser host attaches its platform. */
  readonly desk: Desk;
  /** The user's settings as saved now. */
  settings(): Settings;
}

function journalView(entry: JournalEntry): JournalEntryView {
  if (entry.kind === 'signed') {
    const nonce = entry.nonce.mode === 'none' ? null : entry.nonce.mode === 'sequential' ? `sequential ${entry.nonce.value}` : `lane ${entry.nonce.lane} · ${entry.nonce.value}`;
    return { seq: entry.seq, at: entry.at, id: entry.id, kind: 'signed', networkId: entry.networkId, endpoint: entry.endpoint, nonce, description: entry.description, status: null, detail: null };
  }
  if (entry.kind === 'outcome') {
    const detail = entry.status === 'accepted' ? (entry.orderIds.length ? `orders ${entry.orderIds.join(', ')}` : (entry.txId ?? null)) : entry.message;
    return { seq: entry.seq, at: entry.at, id: entry.id, kind: 'outcome', networkId: null, endpoint: null, nonce: null, description: null, status: entry.status, detail };
  }
  return { seq: entry.seq, at: entry.at, id: entry.id, kind: 'reconciled', networkId: null, endpoint: null, nonce: null, description: null, status: entry.status, detail: entry.detail };
}

function damageView(reports: readonly DamageReport[]): JournalDamageView {
  return { reports: reports.map((report) => ({ id: report.id, at: report.at, items: report.items })) };
}

const NOT_READY = 'NOT_CONNECTED';

/**
 * Throws DataDirectoryInUse (before anything in the directory is opened) when another live
 * terminal holds the data directory: Electron's single-instance lock does not cover the browser
 * host, or two installs on one directory.
 */
export function createTerminal(options: TerminalOptions): Terminal {
  const log = options.log ?? (() => undefined);
  const clock = options.clock;
  const lock = lockDataDirectory(options.dataDir, { now: () => clock.now(), log });
  if (!lock.ok) throw new DataDirectoryInUse(lock.message);
  const windows = new WindowHub();
  let preferences: PreferencesStore;
  let journal: Journal;
  try {
    preferences = new PreferencesStore(options.dataDir, log);
    journal = new Journal({ directory: join(options.dataDir, 'journal'), now: () => clock.now(), log });
  } catch (error) {
    lock.value.release();
    throw error;
  }
  const keyImports = new KeyImportExchange(() => clock.now());
  const fetch = options.fetch ?? fetchJson;
  const confirmer: TrustedConfirmer = options.confirmer ?? new HostCodeConfirmer({ clock, random: options.random, write: (text) => process.stderr.write(text) });
  const allowDelayMs = options.allowDelayMs ?? ((candidate: NetworkConfig) => DEFAULT_ALLOW_DELAY_MS[candidate.kind]);

  let keychain: KeychainView = { available: false, description: 'OS keychain', reason: 'The keychain has not been opened yet', commands: [] };
  let vault: KeyVault | null = null;
  let sandbox: SandboxSupervisor | null = null;
  let network: NetworkConfig | null = null;
  let runtime: NetworkRuntime | null = null;
  let health: HealthReading | null = null;
  let switching: Promise<Result<void>> | null = null;
  let noticeCount = 0;
  /** Network activations so far: data of an earlier generation is another network's. */
  let generation = 0;
  /** Why no runtime serves the network now (a switch in progress, a failed start). */
  let noRuntimeReason: string | null = 'starting';
  const hub = new MarketDataHub(null, windows, clock);
  // A book or trade stream that turned live or resyncing is told to the windows on this turn.
  let channelsDue: NodeJS.Immediate | null = null;
  hub.onStateChange(() => {
    channelsDue ??= setImmediate(() => {
      channelsDue = null;
      freshness.check('state');
    });
  });

  const notice = (level: Notice['level'], text: string, code?: string, details?: string) => {
    const payload: Notice = { id: `notice-${++noticeCount}`, level, text, time: clock.now(), ...(code === undefined ? {} : { code }), ...(details === undefined ? {} : { details }) };
    log(`[${level}] ${text}`);
    windows.broadcast('notice', payload);
  };

  const restUrl = (): string | null => {
    if (!network) return null;
    return network.kind === 'sandbox' ? (sandbox?.current.url ?? null) : network.restUrl;
  };

  const freshness = new FreshnessPublisher({
    clock,
    inputs: () => {
      const stream = runtime?.stream ?? null;
      return {
        networkId: network?.id ?? 'none',
        generation,
        link: stream?.status() ?? null,
        switching: noRuntimeReason,
        orders: stream?.identityTopicState('orders') ?? 'absent',
        ordersTurbo: stream?.identityTopicState('orders_turbo') ?? 'absent',
        balances: stream?.identityTopicState('balances') ?? 'absent',
        channels: hub.channelStates(),
        staleAfterMs: STALE_AFTER_MS,
      };
    },
    publish: (view) => windows.broadcast('freshness', view),
    // The header's stream state turns stale by time passing: re-derived on the same beat.
    onTick: () => publishConnection(),
  });

  const connectionStatus = (): ConnectionStatus => {
    const sandboxStatus = network?.kind === 'sandbox' && sandbox ? sandbox.current : null;
    const rest: LinkState = health === null ? 'connecting' : health.up ? 'up' : 'down';
    const streamLink = runtime?.streamLink() ?? { state: 'connecting' as LinkState, latencyMs: null, detail: null };
    // The stream counts as up only while frames (heartbeats included) actually arrive.
    const lastInboundAt = runtime?.stream.status().lastInboundAt ?? null;
    const silentMs = lastInboundAt === null ? 0 : clock.now() - lastInboundAt;
    if (silentMs > STALE_AFTER_MS && (streamLink.state === 'up' || streamLink.state === 'resyncing')) {
      streamLink.state = 'stale';
      streamLink.detail = `nothing from the exchange for ${Math.floor(silentMs / 1000)} s, heartbeats included`;
    }
    return {
      networkId: network?.id ?? 'none',
      networkName: network?.name ?? 'No network',
      rest,
      stream: rest === 'down' ? 'down' : streamLink.state,
      latencyMs: health?.latencyMs ?? null,
      sandbox: sandboxStatus ? { state: sandboxStatus.state, restarts: sandboxStatus.restarts } : null,
      detail:
        sandboxStatus?.state === 'restarting'
          ? 'The local sandbox stopped; restarting it'
          : (health?.detail ?? runtime?.marketsProblem ?? streamLink.detail ?? null),
    };
  };

  // Sent only when it changed: the stream reports its status with every message it carries.
  let lastConnection = '';
  const publishConnection = () => {
    const status = connectionStatus();
    const text = JSON.stringify(status);
    if (text === lastConnection) return;
    lastConnection = text;
    windows.broadcast('connection', status);
    // A status change (the stream reconnected, resubscribed, went down) is a freshness change too.
    freshness.check('state');
  };

  const monitor = new ConnectionMonitor({
    fetch,
    clock,
    baseUrl: restUrl,
    onReading: (reading) => {
      const wasUp = health?.up === true;
      health = reading;
      publishConnection();
      if (reading.up && !wasUp && runtime && runtime.markets === null) void runtime.loadMarkets().then(() => publishConnection());
    },
  });

  const settings = (): Settings => preferences.preferences.get().settings;

  // A network given at start (an external exchange) is listed beside the configured ones.
  const knownNetworks = (): NetworkConfig[] => {
    const override = options.networkOverride;
    const configured = preferences.networks();
    return override ? [...configured.filter((candidate) => candidate.id !== override.id), override] : configured;
  };
  const findNetwork = (id: string): NetworkConfig | null => knownNetworks().find((candidate) => candidate.id === id) ?? null;

  const networkViews = (): NetworkView[] =>
    knownNetworks().map((candidate) => ({
      id: candidate.id,
      name: candidate.name,
      kind: candidate.kind,
      restUrl: candidate.kind === 'sandbox' ? (sandbox?.current.url ?? null) : candidate.restUrl,
      wsUrl: candidate.wsUrl,
      faucetUrl: candidate.faucetUrl,
      hasFaucet: candidate.kind === 'sandbox' || candidate.faucetUrl !== null,
      hasWhitelist: !candidate.production,
      production: candidate.production,
      configured: candidate.kind === 'sandbox' || candidate.restUrl !== null,
      active: candidate.id === network?.id,
    }));

  const ensureSandbox = async (): Promise<Result<string>> => {
    if (sandbox?.current.state === 'running' && sandbox.current.url) return ok(sandbox.current.url);
    if (!sandbox) {
      sandbox = new SandboxSupervisor({
        spawn: options.spawnSandbox,
        clock,
        // The chain id main expects of it (networks.ts); a later --chain-id in sandboxArgs wins and is then refused.
        args: ['--chain-id', SANDBOX_CHAIN_ID.toString(), ...(options.sandboxArgs ?? [])],
        log,
        onStatus: (status) => {
          if (status.state === 'running') {
            void monitor.probe();
            // A restarted sandbox has lost its accounts: the app finds out and onboards again.
            if (status.restarts > 0 && network?.kind === 'sandbox') {
              notice('warning', 'The local sandbox exchange restarted; its accounts and orders were reset');
              void runtime?.accounts.refresh();
            }
          }
          if (status.state === 'restarting') health = { up: false, latencyMs: null, detail: 'The local sandbox stopped' };
          publishConnection();
        },
      });
    }
    return sandbox.start();
  };

  const activate = async (next: NetworkConfig): Promise<Result<void>> => {
    generation++;
    noRuntimeReason = `switching to ${next.name}`;
    // Nothing of the previous network stays on screen as if current: the hub clears every window's
    // book, tape and chart (and serves the same subscriptions from the next network), orders and
    // balances are emptied until the next network's arrive.
    hub.detach();
    runtime?.stop();
    runtime = null;
    health = null;
    network = next;
    windows.broadcast('orders', { open: [], fills: [] });
    windows.broadcast('balances', []);
    freshness.check('force');
    publishConnection();
    const failed = <T>(result: Result<T>): Result<T> => {
      if (!result.ok) {
        noRuntimeReason = `${next.name}: ${result.message}`;
        freshness.check('force');
      }
      return result;
    };
    let url: string | null = next.restUrl;
    if (next.kind === 'sandbox') {
      const started = await ensureSandbox();
      if (!started.ok) return failed(started);
      url = started.value;
    }
    if (url === null) return failed(fail('NETWORK_NOT_CONFIGURED', `${next.name} has no REST address yet: configure its URLs first`));
    // Again here, not only when configured: a settings file written before this check cannot bring plaintext back.
    const secure = checkNetworkUrls({ restUrl: url, wsUrl: next.wsUrl, faucetUrl: next.faucetUrl });
    if (!secure.ok) return failed(fail(secure.code, `${next.name}: ${secure.message}`, secure.details));
    const created = new NetworkRuntime({
      network: next,
      restUrl: url,
      clock,
      preferences,
      vault,
      keychain,
      journal,
      windows,
      fetch,
      ...(options.socketFactory ? { socketFactory: options.socketFactory } : {}),
      ...(options.requestTimeoutMs === undefined ? {} : { timeoutMs: options.requestTimeoutMs }),
      log,
      notice,
      onConnection: publishConnection,
      onChainIdLearned: (chainId) => {
        log(`${next.name} answered chain id ${chainId}; it is kept, and a different one is refused from now on`);
        if (next.id === 'devnet' || next.id === 'testnet') {
          preferences.preferences.update((current) => {
            const saved = current.networks[next.id as 'devnet' | 'testnet'];
            return saved ? { ...current, networks: { ...current.networks, [next.id]: { ...saved, chainId: chainId.toString() } } } : current;
          });
        }
      },
    });
    runtime = created;
    noRuntimeReason = null;
    hub.attach(created.marketFeed);
    freshness.check('force');
    await created.start();
    void monitor.probe();
    windows.broadcast('account', created.accountState());
    publishConnection();
    return ok(undefined);
  };

  const switchTo = (next: NetworkConfig): Promise<Result<void>> => {
    const work = (switching ?? Promise.resolve(ok(undefined))).then(() => activate(next));
    switching = work.finally(() => {
      if (switching === work) switching = null;
    });
    return work;
  };

  const withRuntime = <T>(action: (current: NetworkRuntime) => Promise<Result<T>> | Result<T>): Promise<Result<T>> | Result<T> => {
    if (!runtime) return fail(NOT_READY, `${network?.name ?? 'The network'} is not connected yet`);
    return action(runtime);
  };

  const accountState = (): Result<AccountState> => {
    if (!runtime) return fail(NOT_READY, 'The network is not connected yet');
    return ok(runtime.accountState());
  };

  const coreHandlers: AreaHandlers<typeof coreRequests> = {
    getAppInfo: () => ok({ version: options.version, host: options.host, offline: false }),
    getConnection: () => ok(connectionStatus()),
    getFreshness: () => ok(freshness.current()),
    listNetworks: () => ok(networkViews()),
    selectNetwork: async ({ networkId }) => {
      const target = findNetwork(networkId);
      if (!target) return fail('UNKNOWN_NETWORK', `networkId: no network named ${JSON.stringify(networkId)}`, { field: 'networkId' });
      if (target.kind === 'mainnet' && PINNED_MAINNET === null && target.id === 'mainnet') {
        return fail(NETWORK_CODES.NOT_PINNED, 'networkId: mainnet\'s addresses and chain id are pinned in the app, and this build has none (the exchange\'s specification does not publish them)', { field: 'networkId' });
      }
      if (target.kind !== 'sandbox' && target.restUrl === null) {
        return fail('NETWORK_NOT_CONFIGURED', `${target.name} has no REST address yet: configure its URLs first`, { field: 'networkId' });
      }
      const saved = preferences.preferences.update((current) => ({ ...current, networkId }));
      if (!saved.ok) return saved;
      const switched = await switchTo(target);
      if (!switched.ok) return switched;
      const view = networkViews().find((candidate) => candidate.id === networkId);
      return view ? ok(view) : fail('UNKNOWN_NETWORK', networkId);
    },
    configureNetwork: async ({ networkId, restUrl, wsUrl, faucetUrl, chainId, confirmationCode }, caller) => {
      if (networkId === 'mainnet') {
        return fail(NETWORK_CODES.PINNED, 'networkId: mainnet\'s addresses and chain id are pinned in the app; they cannot be configured', { field: 'networkId' });
      }
      const trim = (url: string | null) => (url === null ? null : url.replace(/\/+$/, ''));
      const next = { restUrl: trim(restUrl), wsUrl: trim(wsUrl), faucetUrl: trim(faucetUrl) };
      const secure = checkNetworkUrls(next);
      if (!secure.ok) return secure;
      const saved = preferences.preferences.get().networks[networkId];
      const expectedChain = chainId === undefined ? (saved?.restUrl === next.restUrl ? (saved?.chainId ?? null) : null) : chainId;
      const unchanged = saved !== undefined && saved.restUrl === next.restUrl && saved.wsUrl === next.wsUrl && saved.faucetUrl === next.faucetUrl && (saved.chainId ?? null) === expectedChain;
      if (!unchanged) {
        // A new address is where orders, sessions and withdrawals will go: confirmed outside the page.
        const name = findNetwork(networkId)?.name ?? networkId;
        const confirmed = await confirmer.confirm(
          {
            action: 'networkAddress',
            title: `Use new addresses for ${name}`,
            lines: [
              `REST: ${next.restUrl ?? '(none)'}`,
              `WebSocket: ${next.wsUrl ?? '(derived from REST)'}`,
              `Faucet: ${next.faucetUrl ?? '(none)'}`,
              `Chain id: ${expectedChain ?? 'the one it answers first, then required'}`,
              'Orders, sessions and withdrawals on this network will be sent there.',
            ],
            digest: confirmationDigest('networkAddress', { networkId, ...next, chainId: expectedChain }),
          },
          { windowId: caller.windowId, code: confirmationCode },
        );
        if (!confirmed.ok) return confirmed;
      }
      const stored = preferences.preferences.update((current) => ({
        ...current,
        networks: { ...current.networks, [networkId]: { ...next, chainId: expectedChain } },
      }));
      if (!stored.ok) return stored;
      const view = networkViews().find((candidate) => candidate.id === networkId);
      return view ? ok(view) : fail('UNKNOWN_NETWORK', networkId);
    },
    listMarkets: () =>
      withRuntime(async (current) => {
        const index = current.markets ?? (await current.loadMarkets().then((loaded) => (loaded.ok ? loaded.value : null)));
        if (!index) return fail(NOT_READY, `The markets of ${network?.name ?? 'the network'} could not be loaded: ${current.marketsProblem ?? 'no answer'}`);
        const view: MarketsView = { networkId: network?.id ?? '', chainId: index.chainId, markets: index.markets(), turboMarkets: index.turboMarkets() };
        return ok(view);
      }),

    getAccountState: () => accountState(),
    createOwnerKey: ({ style }) => withRuntime((current) => current.accounts.createOwnerKey(style)),
    beginKeyImport: async () => ok(await keyImports.begin()),
    importOwnerKey: (input) =>
      withRuntime(async (current) => {
        const opened = await keyImports.open(input);
        if (!opened.ok) return opened;
        return current.accounts.importOwnerKey(opened.value, input.style);
      }),
    registerWatchOnlyOwner: ({ address, style }) => withRuntime((current) => current.accounts.registerWatchOnly(address as B256, style)),
    selectOwner: ({ address }) =>
      withRuntime((current) => {
        const selected = current.accounts.selectOwner(address as B256);
        if (!selected.ok) return selected;
        void current.accounts.refresh();
        return ok(current.accountState());
      }),
    forgetOwner: ({ address }) =>
      withRuntime((current) => {
        const forgotten = current.accounts.forgetOwner(address as B256);
        return forgotten.ok ? ok(current.accountState()) : forgotten;
      }),
    createTradeAccount: () => withRuntime((current) => current.accounts.createTradeAccount()),
    mintFromFaucet: () =>
      withRuntime(async (current) => {
        const minted = await current.accounts.mintFromFaucet();
        if (minted.ok) void current.trading.refresh();
        return minted;
      }),
    whitelistAccount: () => withRuntime((current) => current.accounts.whitelist()),
    createSession: ({ marketIds, days, hours }) =>
      withRuntime((current) => {
        const seconds = hours !== undefined ? BigInt(hours) * 3600n : BigInt(days ?? settings().sessionDays) * 86_400n;
        return current.accounts.createSession(marketIds, seconds);
      }),

    // Market data subscriptions are the hub's, not a network's: they are accepted during a switch
    // and served by whichever network is active (their frames say when nothing is live).
    subscribeBook: (input, caller) => {
      const market = runtime?.markets?.market(input.marketId, input.turbo ?? false);
      if (market && !market.ok) return market;
      const subscribed = hub.subscribeBook(caller.windowId, { marketId: input.marketId, turbo: input.turbo ?? false, precision: input.precision, levels: input.levels });
      return subscribed.ok ? ok({ subscriptionId: subscribed.value }) : subscribed;
    },
    updateBookView: ({ subscriptionId, levels }, caller) => hub.updateBookView(caller.windowId, subscriptionId, levels),
    subscribeTrades: (input, caller) => {
      const subscribed = hub.subscribeTrades(caller.windowId, { marketId: input.marketId, turbo: input.turbo ?? false });
      return subscribed.ok ? ok({ subscriptionId: subscribed.value }) : subscribed;
    },
    subscribeBars: async (input, caller) => {
      const subscribed = await hub.subscribeBars(caller.windowId, { marketId: input.marketId, turbo: input.turbo ?? false, resolution: input.resolution, countBack: input.countBack });
      return subscribed.ok ? ok({ subscriptionId: subscribed.value }) : subscribed;
    },
    unsubscribe: ({ subscriptionId }, caller) => hub.unsubscribe(caller.windowId, subscriptionId),
    setWindowVisible: ({ visible }, caller) => {
      hub.setVisible(caller.windowId, visible);
      return ok(null);
    },

    placeOrder: (input) =>
      withRuntime((current) =>
        current.trading.placeOrder({
          marketId: input.marketId,
          turbo: input.turbo ?? false,
          side: input.side,
          price: input.price,
          quantity: input.quantity,
          orderType: input.orderType,
        }),
      ),
    cancelOrder: ({ marketId, turbo, orderId }) => withRuntime((current) => current.trading.cancelOrder(marketId, turbo ?? false, orderId as B256)),
    cancelAllOrders: ({ marketId }) => withRuntime((current) => current.trading.cancelAll(marketId)),
    moveOrder: ({ marketId, turbo, orderId, price }) => withRuntime((current) => current.trading.moveOrder(marketId, turbo ?? false, orderId as B256, price)),
    amendOrder: ({ marketId, turbo, orderId, price, quantity }) => withRuntime((current) => current.trading.amendOrder(marketId, turbo ?? false, orderId as B256, { price, quantity })),
    settleBalance: ({ marketId, turbo }) => withRuntime((current) => current.trading.settle(marketId, turbo ?? false)),
    getOrders: () => withRuntime((current) => ok(current.trading.snapshot())),
    getBalances: () => withRuntime((current) => ok(current.trading.balancesView())),
    getOrderHistory: ({ marketId, cursor }) => withRuntime((current) => current.trading.orderHistory(marketId, cursor)),
    getFills: ({ marketId, cursor }) => withRuntime((current) => current.trading.fillHistory(marketId, cursor)),

    getSettings: () => ok(settings()),
    updateSettings: async ({ confirmationCode, ...patch }, caller) => {
      // Hotkeys: every binding parses (the input schema) and no two actions share a key, checked on
      // the keymap as it would be saved; a refusal applies nothing of the patch.
      if (patch.hotkeys !== undefined) {
        const keymap = applyKeymapChange(settings().hotkeys, patch.hotkeys);
        if (!keymap.ok) return fail('HOTKEY_CONFLICT', keymap.message, { field: `hotkeys.${keymap.action}`, value: keymap.value });
        patch = { ...patch, hotkeys: keymap.keymap };
      }
      // Turning a safety off or loosening it is confirmed outside the page (settings-weakening.ts).
      const weakened = settingsWeakenings(settings(), patch, {
        market: (marketId) => {
          const market = runtime?.markets?.market(marketId);
          return market?.ok ? `${market.value.base.symbol}/${market.value.quote.symbol} (${marketId})` : marketId;
        },
        quantity: (marketId, quantity) => {
          const market = runtime?.markets?.market(marketId);
          return market?.ok ? `${formatUnits(quantity, market.value.base.decimals)} ${market.value.base.symbol} (${quantity} raw units)` : `${quantity} raw units`;
        },
      });
      if (weakened.length > 0) {
        const confirmed = await confirmer.confirm(
          { action: 'weakenSettings', title: 'Loosen trading safety settings', lines: weakened, digest: confirmationDigest('weakenSettings', patch) },
          { windowId: caller.windowId, code: confirmationCode },
        );
        if (!confirmed.ok) return confirmed;
      }
      const saved = preferences.preferences.update((current) => {
        const next = { ...current.settings };
        if (patch.confirmOrders !== undefined) next.confirmOrders = patch.confirmOrders;
        if (patch.maxOrderQuantity !== undefined) next.maxOrderQuantity = patch.maxOrderQuantity;
        if (patch.hotkeys !== undefined) next.hotkeys = { ...next.hotkeys, ...patch.hotkeys };
        if (patch.sound !== undefined) next.sound = patch.sound;
        if (patch.desktopNotifications !== undefined) next.desktopNotifications = patch.desktopNotifications;
        if (patch.parallelLanes !== undefined) next.parallelLanes = patch.parallelLanes;
        if (patch.sessionDays !== undefined) next.sessionDays = patch.sessionDays;
        if (patch.quantityPresets !== undefined) next.quantityPresets = patch.quantityPresets;
        return { ...current, settings: next };
      });
      if (!saved.ok) return saved;
      if (patch.parallelLanes !== undefined) runtime?.setParallelLanes(patch.parallelLanes);
      windows.broadcast('settings', saved.value.settings);
      return ok(saved.value.settings);
    },
    getRateLimits: () => withRuntime((current) => ok(current.rateLimits())),
    getJournal: ({ limit, beforeSeq }) => ok(journal.list(limit, beforeSeq).map(journalView)),
    getJournalDamage: () => ok(damageView(journal.damage())),
    acknowledgeJournalDamage: ({ reportIds }) => {
      const open = journal.acknowledgeDamage(reportIds);
      return open.ok ? ok(damageView(open.value)) : open;
    },
  };

  const context: HandlerContext = {
    clock,
    dataDir: options.dataDir,
    preferences,
    journal,
    windows,
    confirmer,
    allowDelayMs,
    runtime: () => runtime,
    hub,
    network: () => network,
    vault: () => vault,
    notice,
    log,
  };

  const desk = new Desk({ clock, dataDir: options.dataDir, windows, log, newKey: () => Buffer.from(options.random(16)).toString('hex') });

  const handlers: Handlers = {
    ...coreHandlers,
    ...marginHandlers(context),
    ...triggerHandlers(context),
    ...deskHandlers(context, desk),
    ...custodyHandlers(context),
    ...positionHandlers(context),
  };

  journal.onEntry((entry) => windows.broadcast('journal', journalView(entry)));
  journal.onDamageChange((open) => windows.broadcast('journalDamage', damageView(open)));
  for (const report of journal.damage()) log(`journal damage not yet acknowledged (${report.id}): ${report.items.map((item) => `${item.file}: ${item.detail}`).join('; ')}`);

  return {
    handlers,
    windows,
    restUrl,
    runtime: () => runtime,
    hub,
    sandboxPid: () => sandbox?.pid,
    desk,
    settings,
    async start() {
      const opened = await options.openKeychain();
      if (opened.ok) {
        vault = new KeyVault(opened.value, options.random, options.signer?.sign);
        if (options.signer) log(`signing with ${options.signer.implementation}${options.signer.reason === null ? '' : ` (${options.signer.reason})`}`);
        keychain = { available: true, description: opened.value.description, reason: null, commands: [] };
        // Keys already in the keychain (from an earlier install) are owners the app knows.
        const held = await vault.ownerAddresses();
        if (held.ok) {
          for (const address of held.value) {
            if (!preferences.accounts.get().owners.some((owner) => owner.address === address)) {
              preferences.accounts.update((file) => ({ ...file, owners: [...file.owners, { address, style: /^0x0{24}/.test(address) ? 'evm' : 'ledger', custody: 'keychain' }] }));
            }
          }
        }
      } else {
        const commands = typeof opened.details?.['commands'] === 'string' ? opened.details['commands'].split('\n').filter(Boolean) : [];
        keychain = { available: false, description: 'OS keychain', reason: opened.message, commands };
        log(opened.message);
      }
      const chosen = options.networkOverride ?? findNetwork(preferences.preferences.get().networkId) ?? findNetwork('sandbox');
      monitor.start();
      freshness.start();
      if (!chosen) return fail('UNKNOWN_NETWORK', 'no network');
      const started = await switchTo(chosen);
      if (!started.ok) log(`network start failed: ${started.message}`);
      return started;
    },
    async stop() {
      monitor.stop();
      freshness.stop();
      if (channelsDue !== null) clearImmediate(channelsDue);
      hub.close();
      runtime?.stop();
      runtime = null;
      await sandbox?.stop();
      vault?.clearMemory();
      await journal.close();
      lock.value.release();
    },
  };
}
