// Builds one sandbox instance: network, clock, ledger, house and maker, streams, routes,
// control. The transport (server.ts) only calls `dispatch` and `streams.upgrade`.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { AdjustableClock } from './clock';
import { buildNetwork, type NetworkConfig } from './config/network';
import { buildReferralCodes, type ReferralCode } from './config/referrals';
import { Faults } from './control/faults';
import { createHouse, type House } from './house/accounts';
import { DEFAULT_MAKER, HouseMaker } from './house/maker';
import { ErrorCode, refusal, show } from './http/errors';
import { OWNER_HEADER } from './http/owner';
import { refuse, type Reply } from './http/reply';
import { header, type ApiRequest } from './http/request';
import { Router } from './http/router';
import { deriveId } from './ids';
import type { ChangeSet } from './ledger/changes';
import { Ledger } from './ledger/ledger';
import type { SandboxOptions } from './options';
import { seededRandom } from './random';
import { RateLimiter, ruleFor } from './ratelimit';
import { registerAccountRoutes } from './routes/accounts';
import { registerAggregatedRoutes } from './routes/aggregated';
import { registerControlRoutes } from './routes/control';
import { registerFaucetRoutes } from './routes/faucet';
import { registerMarketDataRoutes } from './routes/market-data';
import { registerOrderRoutes } from './routes/orders';
import { registerOwnerRoutes } from './routes/owner';
import { registerPublicRoutes } from './routes/public';
import { registerSessionRoutes } from './routes/session';
import { StreamHub } from './ws/hub';

export interface StreamServer {
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Close every client connection; returns how many were closed. */
  closeAll(): number;
  stop(): void;
}

export type ChangeListener = (changes: ChangeSet, app: SandboxApp) => void;

export interface SandboxApp {
  readonly options: SandboxOptions;
  readonly network: NetworkConfig;
  readonly clock: AdjustableClock;
  readonly router: Router;
  readonly faults: Faults;
  readonly limiter: RateLimiter;
  readonly referralCodes: ReadonlyMap<string, ReferralCode>;
  /** Replaced by `reset`: read it through the app each time, never keep it. */
  readonly ledger: Ledger;
  readonly house: House;
  readonly maker: HouseMaker;
  streams: StreamServer;
  dispatch(request: ApiRequest): Reply | Promise<Reply>;
  /** Listen to every committed change set, across resets. */
  onChange(listener: ChangeListener): void;
  /** Listen for resets (read models drop their state). */
  onReset(listener: () => void): void;
  /** A fresh transaction id (deterministic for a seed). */
  nextTxId(): string;
  /** Back to the state at start: empty ledger, fresh house, no faults, no rate-limit history. */
  reset(): void;
  log(line: string): void;
  start(): void;
  stop(): void;
}

/** Endpoints that ignore `turbo` (margin 4.5: account-wide reads). */
const TURBO_AGNOSTIC = new Set(['/v1/balance', '/v1/accounts', '/v1/accounts/window']);

/**
 * No market has a Turbo book yet (margin document): `turbo=true` lists no markets on
 * GET /v1/markets and is refused on market-scoped reads with the margin spec's MarketNotFound text.
 */
function turboRefusal(request: ApiRequest): Reply | undefined {
  const turbo = request.query.get('turbo');
  if (turbo === null || request.method !== 'GET' || TURBO_AGNOSTIC.has(request.path) || !request.path.startsWith('/v1/')) return undefined;
  if (turbo !== 'true' && turbo !== 'false') return refuse(refusal(ErrorCode.INVALID_FIELD, `turbo: expected true or false, got ${show(turbo)}`));
  if (turbo === 'false') return undefined;
  if (request.path === '/v1/markets') return undefined;
  const marketId = request.query.get('market_id');
  if (marketId === null) return undefined;
  return refuse(refusal(ErrorCode.MARKET_NOT_FOUND, `Market ${marketId.slice(0, 80)} has no Turbo order book`, 404));
}

export function createApp(options: SandboxOptions, now: () => number = Date.now): SandboxApp {
  const network = buildNetwork(options.seed, options.chainId);
  const clock = new AdjustableClock(now);
  const router = new Router();
  const limiter = new RateLimiter(clock);
  const faults = new Faults();
  const changeListeners: ChangeListener[] = [];
  const resetListeners: (() => void)[] = [];
  let transactions = 0;
  let started = false;

  const nextTxId = (): string => deriveId(options.seed, `tx/${++transactions}`);

  function build(): { ledger: Ledger; house: House; maker: HouseMaker } {
    const ledger = new Ledger(network);
    const house = createHouse(ledger, network, options.seed);
    ledger.onChange((changes) => {
      for (const listener of changeListeners) listener(changes, app);
    });
    const maker = new HouseMaker((line) => app.log(line), ledger, house, clock, seededRandom(options.seed), nextTxId, { ...DEFAULT_MAKER, takesPerSecond: options.makerRate });
    return { ledger, house, maker };
  }

  let state = build();

  const app: SandboxApp = {
    options,
    network,
    clock,
    router,
    faults,
    limiter,
    referralCodes: buildReferralCodes(options.seed),
    get ledger() {
      return state.ledger;
    },
    get house() {
      return state.house;
    },
    get maker() {
      return state.maker;
    },
    streams: { upgrade: (_request, socket) => socket.destroy(), closeAll: () => 0, stop: () => undefined },
    dispatch: (request) => {
      if (!options.control && request.path.startsWith('/control/')) {
        return refuse(refusal(ErrorCode.NOT_FOUND, `path: no such endpoint, got ${show(request.path)}`, 404));
      }
      const rule = options.rateLimits ? ruleFor(request.method, request.path) : undefined;
      if (rule !== undefined) {
        const owner = header(request, OWNER_HEADER)?.trim().toLowerCase().replace(/^0x/, '');
        const key = rule.by === 'owner' && owner ? `owner:${owner}` : `ip:${request.ip}`;
        if (!limiter.take(rule, key)) {
          const per = rule.windowMs === 1000 ? 'second' : 'minute';
          return refuse(refusal(ErrorCode.RATE_LIMITED, `Rate limit exceeded: ${rule.name} allows ${rule.limit} per ${per} per ${rule.by === 'owner' ? OWNER_HEADER : 'IP'}`, 429));
        }
      }
      const turbo = turboRefusal(request);
      if (turbo) return turbo;
      return router.dispatch(request);
    },
    onChange: (listener) => {
      changeListeners.push(listener);
    },
    onReset: (listener) => {
      resetListeners.push(listener);
    },
    nextTxId,
    reset: () => {
      state.maker.stop();
      state = build();
      faults.clear();
      limiter.reset();
      for (const listener of resetListeners) listener();
      if (started && options.maker) state.maker.start();
    },
    log: (line) => process.stderr.write(`${line}\n`),
    start: () => {
      started = true;
      if (options.maker) state.maker.start();
    },
    stop: () => {
      started = false;
      state.maker.stop();
      app.streams.stop();
    },
  };
  registerPublicRoutes(app);
  registerAccountRoutes(app);
  registerFaucetRoutes(app);
  registerSessionRoutes(app);
  registerOwnerRoutes(app);
  registerMarketDataRoutes(app);
  registerOrderRoutes(app);
  registerAggregatedRoutes(app);
  registerControlRoutes(app);
  app.streams = new StreamHub(app);
  return app;
}
