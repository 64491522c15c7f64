// The composition root of main's services, shared by the Electron app and the browser host: the
// data directory (preferences, journal), the keychain, the networks (starting the embedded sandbox
// when it is chosen) and one NetworkRuntime for the active network. It answers every request of the
// contract by merging the handlers of each domain (main/services/<domain>/handlers.ts); a handler
// parses nothing (the dispatcher did) and delegates.
import type { OrderPathSpan } from './trading/order-path-span';
import { join } from 'node:path';
import type { Clock } from '../../shared/clock';
import type { B256 } from '../../shared/encoding/b256';
import type { AlertFiringView, ConnectionStatus, KeychainView, LinkState, NetworkView, Notice, Settings } from '../../shared/ipc/views';
import { fail, ok, type Result } from '../../shared/result';
import type { HttpFetch } from '../exchange/http';
import { fetchJson } from '../exchange/http';
import type { SocketFactory } from '../exchange/socket';
import { STALE_AFTER_MS } from '../exchange/stream-client';
import type { Handlers } from '../ipc/dispatcher';
import { accountHandlers } from './account/handlers';
import { AlertService } from './alerts/alert-service';
import { ALERTS_FILE, AlertStore } from './alerts/alert-store';
import { fillDetail, listedName, refusalDetail } from './alerts/alert-text';
import { alertHandlers } from './alerts/handlers';
import { MarginRiskWatches } from './alerts/margin-risk-watches';
import { HostCodeConfirmer } from './confirm/host-code-confirmer';
import type { TrustedConfirmer } from './confirm/trusted-confirmer';
import { custodyHandlers } from './custody/handlers';
import { DEFAULT_ALLOW_DELAY_MS } from './custody/withdraw-allow-list';
import { Desk } from './desk/desk';
import { deskHandlers } from './desk/handlers';
import type { HandlerContext } from './handler-context';
import { journalHandlers } from './journal/handlers';
import { Journal } from './journal/journal';
import { damageView, journalView } from './journal/journal-views';
import { KeyVault, type DigestSigner } from './keys/key-vault';
import type { SecretStore } from './keys/secret-store';
import { marginHandlers } from './margin/handlers';
import { marketDataHandlers, overviewHandlers } from './market-data/handlers';
import { MarketDataHub } from './market-data/market-data-hub';
import { MarketOverview, OVERVIEW_INTERVAL_MS, type OverviewTrades } from './market-data/market-overview';
import { TurboDepthOverlay } from './market-data/turbo-depth-overlay';
import { marginInsightHandlers } from './margin/insight-handlers';
import { MarginInsights } from './margin/margin-insights';
import { ConnectionMonitor, type HealthReading } from './network/connection-monitor';
import { FreshnessPublisher } from './network/freshness';
import { networkHandlers } from './network/handlers';
import { NetworkRuntime } from './network/network-runtime';
import { checkNetworkUrls, NETWORK_CODES, SANDBOX_CHAIN_ID, type NetworkConfig } from './network/networks';
import { SandboxSupervisor, type SpawnSandbox } from './network/sandbox-supervisor';
import { positionHandlers } from './positions/handlers';
import type { ChooseExportFile } from './records/export-file';
import { recordsHandlers } from './records/handlers';
import { DataDirectoryInUse, lockDataDirectory } from './storage/data-dir-lock';
import { settingsHandlers } from './storage/handlers';
import { PreferencesStore } from './storage/preferences';
import { tradingHandlers } from './trading/handlers';
import { triggerHandlers } from './triggers/handlers';
import { protectHandlers } from './protect/handlers';
import { algoHandlers } from './algos/handlers';
import { guardHandlers } from './guards/handlers';
import { openProtectiveStore, type ProtectiveStore } from './protect/protective-store';
import { openAlgoStore, type AlgoStore } from './algos/algo-store';
import { WindowHub } from './window-hub';

/** How digests are signed, as main/platform/native-secp256k1.ts chose (a port: services do not import the platform). */
export interface ChosenSigner {
  readonly sign: DigestSigner;
  /** Which implementation signs, for the log and the diagnostics. */
  readonly implementation: string;
  /** Why the native signer is not used, when it is not. */
  readonly reason: string | null;
}

export interface TerminalOptions {
  readonly clock: Clock;
  /** The clock execution algorithms schedule on (`clock` by default; tests drive it with the sandbox's clock). */
  readonly algoClock?: Clock;
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
  /**
   * Shows an alert's firing as the OS's own notification (Electron); false when it could not. The
   * browser host has none: its page shows the `alertFired` stream with the Notification API.
   */
  readonly showAlert?: (firing: AlertFiringView, settings: Settings) => boolean;
  /** A native save dialog for record exports (Electron); without it main writes into `<dataDir>/exports`. */
  readonly chooseExportFile?: ChooseExportFile;
  /** Told each signed order's timings once its answer is back (the browser host's `--record-bridge`, for the order-path bench). */
  readonly orderPathTrace?: (span: OrderPathSpan) => void;
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
  let protectiveStore: ProtectiveStore;
  let algoStore: AlgoStore;
  try {
    preferences = new PreferencesStore(options.dataDir, log);
    journal = new Journal({ directory: join(options.dataDir, 'journal'), now: () => clock.now(), log });
    protectiveStore = openProtectiveStore(options.dataDir, log);
    algoStore = openAlgoStore(options.dataDir, log, () => clock.now());
  } catch (error) {
    lock.value.release();
    throw error;
  }
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
  // The last price of a market main follows is its trade stream's, as in the market bar.
  const overviewTrades: OverviewTrades = {
    lastTrade: (marketId, turbo) => hub.lastTradePrice(marketId, turbo),
    onChange: (listener) => hub.onLastTrade(listener),
  };
  // Reads the active network's ticker and summary while a window follows the overview.
  const overview = new MarketOverview(windows, clock, () => {
    const current = runtime;
    if (!current || !network) return null;
    return {
      networkId: network.id,
      ticker: () => current.rest.getMarketTicker(),
      summary: () => current.rest.getMarketSummary(),
      turboTicker: () => current.rest.getMarketTicker({ turbo: true }),
      turboSummary: () => current.rest.getMarketSummary({ turbo: true }),
      marketOrder: () => current.markets?.markets().map((market) => market.market_id) ?? [],
    };
  }, OVERVIEW_INTERVAL_MS, overviewTrades);
  // Reads the margin reads no stream carries (statistics, tier history, activity, Turbo events)
  // while a window shows them, and the Turbo depth views while a ladder shows the overlay.
  const insights = new MarginInsights(windows, clock, () => {
    const current = runtime;
    if (!current || !network) return null;
    return {
      networkId: network.id,
      statistics: () => current.rest.getMarginStatistics(),
      tierHistory: () => current.rest.getMarginTierHistory(),
      activity: (account) => current.rest.getMarginActivity(account),
      events: (selectors) => current.rest.getEvents(selectors),
    };
  });
  const turboDepth = new TurboDepthOverlay(windows, clock, () => {
    const current = runtime;
    if (!current || !network) return null;
    return {
      networkId: network.id,
      depth: (marketId, view, step) => current.rest.getDepth({ market_id: marketId as B256, precision: step, turbo: true, view }),
    };
  });
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
    if (network.kind === 'sandbox') return sandbox?.current.url ?? null;
    // Never an address refused as insecure (activate refuses such a network; this is the second line).
    return checkNetworkUrls(network).ok ? network.restUrl : null;
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

  const marketRow = (marketId: string, turbo: boolean) => {
    const found = runtime?.markets?.market(marketId, turbo);
    return found?.ok ? found.value : null;
  };
  // The Turbo Accounts margin alerts name, followed on whichever network is active.
  const marginWatches = new MarginRiskWatches({
    clock,
    follow: (account, handlers) => (runtime === null ? null : runtime.margin.watchRisk(account as B256, handlers.onFrame, handlers.onEnd)),
    log,
  });
  const alerts = new AlertService({
    clock,
    store: new AlertStore(join(options.dataDir, ALERTS_FILE), log, () => clock.now()),
    watch: (marketId, turbo, onChange) => hub.watch(marketId, turbo, onChange),
    watchMargin: (account, onChange) => marginWatches.watch(account, onChange),
    market: marketRow,
    marketName: (marketId) => listedName(marketId, runtime?.markets?.markets() ?? []),
    silentMs: () => {
      const at = runtime?.stream.status().lastInboundAt ?? null;
      return at === null ? null : clock.now() - at;
    },
    announce: (firing) => {
      notice('warning', firing.text, 'ALERT_FIRED');
      windows.broadcast('alertFired', firing);
      const shown = options.showAlert?.(firing, settings()) ?? false;
      // Taken when the OS showed it or a window holds the notice; otherwise kept for the next window.
      return shown || windows.ids().length > 0;
    },
    publish: (snapshot) => windows.broadcast('alerts', snapshot),
    log,
  });
  windows.observe('fill', (fill) => alerts.onFill(fill.fill.marketId, fillDetail(fill, marketRow(fill.fill.marketId, fill.fill.turbo), listedName(fill.fill.marketId, runtime?.markets?.markets() ?? []))));
  journal.onEntry((entry) => {
    if (entry.kind === 'outcome' && (entry.status === 'refused' || entry.status === 'reverted')) alerts.onRejected(refusalDetail(entry.status, entry.code, entry.message));
  });

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
    // A network refused as insecure is refused before anything: no request reaches it (not even the
    // health probe), the current network stays, and it never becomes the active one.
    if (next.kind !== 'sandbox') {
      const secure = checkNetworkUrls(next);
      if (!secure.ok) return fail(secure.code, `${next.name}: ${secure.message}`, secure.details);
    }
    generation++;
    noRuntimeReason = `switching to ${next.name}`;
    // Nothing of the previous network stays on screen as if current: the hub clears every window's
    // book, tape and chart (and serves the same subscriptions from the next network), orders and
    // balances are emptied until the next network's arrive.
    hub.detach();
    overview.networkChanged();
    insights.networkChanged();
    turboDepth.networkChanged();
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
      protectiveStore,
      algoStore,
      ...(options.algoClock === undefined ? {} : { algoClock: options.algoClock }),
      ...(options.orderPathTrace === undefined ? {} : { orderPathTrace: options.orderPathTrace }),
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
    overview.networkChanged();
    insights.networkChanged();
    turboDepth.networkChanged();
    freshness.check('force');
    await created.start();
    void monitor.probe();
    windows.broadcast('account', created.accountState());
    publishConnection();
    // The alerts' descriptions name the markets the new network listed; their Turbo Accounts are followed there.
    alerts.marketsChanged();
    marginWatches.reconnect();
    return ok(undefined);
  };

  const switchTo = (next: NetworkConfig): Promise<Result<void>> => {
    const work = (switching ?? Promise.resolve(ok(undefined))).then(() => activate(next));
    switching = work.finally(() => {
      if (switching === work) switching = null;
    });
    return work;
  };

  const context: HandlerContext = {
    clock,
    dataDir: options.dataDir,
    preferences,
    journal,
    windows,
    confirmer,
    allowDelayMs,
    chooseExportFile: options.chooseExportFile,
    runtime: () => runtime,
    hub,
    network: () => network,
    vault: () => vault,
    notice,
    log,
  };

  const desk = new Desk({ clock, dataDir: options.dataDir, windows, log, newKey: () => Buffer.from(options.random(16)).toString('hex') });

  const handlers: Handlers = {
    getAppInfo: () => ok({ version: options.version, host: options.host, offline: false }),
    ...networkHandlers(context, {
      connection: connectionStatus,
      freshness: () => freshness.current(),
      views: networkViews,
      find: findNetwork,
      switchTo,
    }),
    ...marketDataHandlers(context),
    ...accountHandlers(context),
    ...tradingHandlers(context),
    ...settingsHandlers(context),
    ...journalHandlers(context),
    ...marginHandlers(context),
    ...triggerHandlers(context),
    ...protectHandlers(context),
    ...algoHandlers(context),
    ...guardHandlers(context),
    ...deskHandlers(context, desk),
    ...custodyHandlers(context),
    ...positionHandlers(context),
    ...recordsHandlers(context),
    ...alertHandlers(alerts),
    ...overviewHandlers(overview),
    ...marginInsightHandlers(insights, turboDepth),
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
      // Firings recorded but never announced (the app stopped in between) are announced first.
      alerts.start();
      const chosen = options.networkOverride ?? findNetwork(preferences.preferences.get().networkId) ?? findNetwork('sandbox');
      monitor.start();
      freshness.start();
      if (!chosen) return fail('UNKNOWN_NETWORK', 'no network');
      const started = await switchTo(chosen);
      if (!started.ok) log(`network start failed: ${started.message}`);
      // A saved choice refused as insecure (a settings file written before the check) must not stop
      // every later start: the local sandbox instead, saved as the choice, and the trader told why.
      // A network given on the command line is the caller's to fix: its refusal stands.
      if (!started.ok && started.code === NETWORK_CODES.INSECURE_URL && options.networkOverride === undefined && chosen.kind !== 'sandbox') {
        const fallback = findNetwork('sandbox');
        if (fallback) {
          preferences.preferences.update((current) => ({ ...current, networkId: fallback.id }));
          notice('warning', `${started.message}. The terminal started on the local sandbox instead; give ${chosen.name} https and wss addresses in the network settings to use it.`, started.code);
          return switchTo(fallback);
        }
      }
      return started;
    },
    async stop() {
      monitor.stop();
      freshness.stop();
      if (channelsDue !== null) clearImmediate(channelsDue);
      alerts.stop();
      marginWatches.stop();
      hub.close();
      overview.close();
      insights.close();
      turboDepth.close();
      runtime?.stop();
      runtime = null;
      await sandbox?.stop();
      vault?.clearMemory();
      await journal.close();
      lock.value.release();
    },
  };
}
