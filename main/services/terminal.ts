// The composition root of main's services, shared by the Electron app and the browser host:
// it owns the network connection (starting the embedded sandbox when no network is configured)
// and implements every request of the contract.
import type { Clock } from '../../shared/clock';
import type { ConnectionStatus, LinkState, MarketsView } from '../../shared/ipc/views';
import { fail, ok, type Result } from '../../shared/result';
import { parseWith } from '../../shared/schema';
import { fetchJson, type HttpFetch } from '../exchange/http';
import { marketsResponse } from '../exchange/markets-response';
import type { Handlers } from '../ipc/dispatcher';
import { ConnectionMonitor, type HealthReading } from './connection-monitor';
import { SANDBOX_NETWORK, type NetworkConfig } from './networks';
import { SandboxSupervisor, type SandboxStatus, type SpawnSandbox } from './sandbox-supervisor';
import { WindowHub } from './window-hub';

const notReady = (name: string) => fail('NOT_READY', `${name} is not available yet in this build`);

export interface TerminalOptions {
  readonly clock: Clock;
  readonly host: 'electron' | 'browser';
  readonly version: string;
  /** A configured network; null runs the embedded sandbox. */
  readonly network: NetworkConfig | null;
  /** How to spawn the embedded sandbox; required when `network` is null. */
  readonly spawnSandbox?: SpawnSandbox;
  readonly sandboxArgs?: readonly string[];
  readonly fetch?: HttpFetch;
  readonly log?: (line: string) => void;
}

export interface Terminal {
  readonly handlers: Handlers;
  readonly windows: WindowHub;
  start(): Promise<Result<void>>;
  stop(): Promise<void>;
  /** The REST base URL in use, once known. */
  restUrl(): string | null;
}

export function createTerminal(options: TerminalOptions): Terminal {
  const network = options.network ?? SANDBOX_NETWORK;
  const fetch = options.fetch ?? fetchJson;
  const log = options.log ?? (() => undefined);
  const windows = new WindowHub();

  let sandbox: SandboxSupervisor | null = null;
  let health: HealthReading | null = null;
  let marketsCache: MarketsView | null = null;

  const restUrl = (): string | null => (sandbox ? sandbox.current.url : network.restUrl);

  const connectionStatus = (): ConnectionStatus => {
    const sandboxStatus: SandboxStatus | null = sandbox ? sandbox.current : null;
    const rest: LinkState = health === null ? 'connecting' : health.up ? 'up' : 'down';
    return {
      networkId: network.id,
      networkName: network.name,
      rest,
      // The market-data stream arrives with the protocol core; until then it follows REST.
      stream: rest,
      latencyMs: health?.latencyMs ?? null,
      sandbox: sandboxStatus ? { state: sandboxStatus.state, restarts: sandboxStatus.restarts } : null,
      detail: sandboxStatus?.state === 'restarting' ? 'The local sandbox stopped; restarting it' : (health?.detail ?? null),
    };
  };

  const publishStatus = () => windows.broadcast('connection', connectionStatus());

  const monitor = new ConnectionMonitor({
    fetch,
    clock: options.clock,
    baseUrl: restUrl,
    onReading: (reading) => {
      health = reading;
      publishStatus();
    },
  });

  if (options.network === null) {
    if (!options.spawnSandbox) throw new Error('createTerminal: spawnSandbox is required to run the embedded sandbox');
    sandbox = new SandboxSupervisor({
      spawn: options.spawnSandbox,
      clock: options.clock,
      args: options.sandboxArgs ?? [],
      log,
      onStatus: (status) => {
        if (status.state === 'running') void monitor.probe();
        if (status.state === 'restarting') health = { up: false, latencyMs: null, detail: 'The local sandbox stopped' };
        publishStatus();
      },
    });
  }

  const loadMarkets = async (): Promise<Result<MarketsView>> => {
    const base = restUrl();
    if (base === null) return fail('NOT_CONNECTED', `${network.name} has no address yet; the markets cannot be loaded`);
    const response = await fetch({ method: 'GET', url: `${base}/v1/markets`, timeoutMs: 10_000 });
    if (!response.ok) return response;
    if (response.value.status !== 200) return fail('EXCHANGE_ERROR', `GET /v1/markets answered HTTP ${response.value.status}`);
    const parsed = parseWith(marketsResponse, response.value.body, 'markets response', 'BAD_RESPONSE');
    if (!parsed.ok) return parsed;
    marketsCache = { networkId: network.id, chainId: parsed.value.chain_id, markets: parsed.value.markets };
    return ok(marketsCache);
  };

  const handlers: Handlers = {
    getAppInfo: () => ok({ version: options.version, host: options.host, offline: false }),
    getConnection: () => ok(connectionStatus()),
    listMarkets: () => loadMarkets(),
    // Under construction (issue 5): each of these is replaced by its service.
    listNetworks: () => notReady('listNetworks'),
    selectNetwork: () => notReady('selectNetwork'),
    configureNetwork: () => notReady('configureNetwork'),
    getAccountState: () => notReady('getAccountState'),
    createOwnerKey: () => notReady('createOwnerKey'),
    beginKeyImport: () => notReady('beginKeyImport'),
    importOwnerKey: () => notReady('importOwnerKey'),
    registerWatchOnlyOwner: () => notReady('registerWatchOnlyOwner'),
    selectOwner: () => notReady('selectOwner'),
    forgetOwner: () => notReady('forgetOwner'),
    createTradeAccount: () => notReady('createTradeAccount'),
    mintFromFaucet: () => notReady('mintFromFaucet'),
    whitelistAccount: () => notReady('whitelistAccount'),
    createSession: () => notReady('createSession'),
    subscribeBook: () => notReady('subscribeBook'),
    updateBookView: () => notReady('updateBookView'),
    subscribeTrades: () => notReady('subscribeTrades'),
    subscribeBars: () => notReady('subscribeBars'),
    unsubscribe: () => notReady('unsubscribe'),
    setWindowVisible: () => notReady('setWindowVisible'),
    placeOrder: () => notReady('placeOrder'),
    cancelOrder: () => notReady('cancelOrder'),
    cancelAllOrders: () => notReady('cancelAllOrders'),
    moveOrder: () => notReady('moveOrder'),
    settleBalance: () => notReady('settleBalance'),
    getOrders: () => notReady('getOrders'),
    getBalances: () => notReady('getBalances'),
    getOrderHistory: () => notReady('getOrderHistory'),
    getFills: () => notReady('getFills'),
    getSettings: () => notReady('getSettings'),
    updateSettings: () => notReady('updateSettings'),
    getRateLimits: () => notReady('getRateLimits'),
    getJournal: () => notReady('getJournal'),
  };

  return {
    handlers,
    windows,
    restUrl,
    async start() {
      if (sandbox) {
        const started = await sandbox.start();
        if (!started.ok) return started;
        log(`sandbox exchange at ${started.value}`);
      }
      monitor.start();
      return ok(undefined);
    },
    async stop() {
      monitor.stop();
      await sandbox?.stop();
      marketsCache = null;
    },
  };
}
