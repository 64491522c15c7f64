// Builds one sandbox instance: network, clock, ledger, house and maker, streams, routes,
// control. The transport (server.ts) only calls `dispatch` and `streams.upgrade`.
import type { ChangeListener, SandboxApp } from './app-types';
import { AdjustableClock, nowNanos, nowSeconds } from './clock';
import { buildNetwork } from './config/network';
import { buildReferralCodes } from './config/referrals';
import { Faults } from './control/faults';
import { createHouse, type House } from './house/accounts';
import { DEFAULT_MAKER, HouseMaker } from './house/maker';
import { ErrorCode, refusal, show } from './http/errors';
import { OWNER_HEADER } from './http/owner';
import { refuse, type Reply } from './http/reply';
import { header, type ApiRequest } from './http/request';
import { Router } from './http/router';
import { deriveId } from './ids';
import { Ledger } from './ledger/ledger';
import { buildMarginConfig } from './margin/config';
import { MarginEngine } from './margin/engine';
import type { SandboxOptions } from './options';
import { seededRandom } from './random';
import { RateLimiter, ruleFor } from './ratelimit';
import { registerAccountRoutes } from './routes/accounts';
import { registerAggregatedRoutes } from './routes/aggregated';
import { registerControlRoutes } from './routes/control';
import { registerFaucetRoutes } from './routes/faucet';
import { registerMarginRoutes } from './routes/margin';
import { registerMarketDataRoutes } from './routes/market-data';
import { registerOrderRoutes } from './routes/orders';
import { registerOwnerRoutes } from './routes/owner';
import { registerPublicRoutes } from './routes/public';
import { registerSessionRoutes } from './routes/session';
import { StreamHub } from './ws/hub';
import { TriggerEngine } from './triggers/engine';

/** Endpoints that ignore `turbo` (margin 4.5: account-wide reads). */
const TURBO_AGNOSTIC_PREFIXES = ['/v1/balance', '/v1/accounts', '/v1/margin/', '/v1/events', '/v1/aggregated/', '/v1/agg/'];

/** `turbo` must be true or false where it is read; market-scoped routes resolve the Turbo book themselves. */
function turboProblem(request: ApiRequest): Reply | undefined {
  const turbo = request.query.get('turbo');
  if (turbo === null || request.method !== 'GET' || !request.path.startsWith('/v1/')) return undefined;
  if (TURBO_AGNOSTIC_PREFIXES.some((prefix) => request.path.startsWith(prefix))) return undefined;
  if (turbo !== 'true' && turbo !== 'false') return refuse(refusal(ErrorCode.INVALID_FIELD, `turbo: expected true or false, got ${show(turbo)}`));
  return undefined;
}

/** How often the margin clock steps on wall time (expiry, rollover, liquidation, oracle). */
export const MARGIN_TICK_MS = 1000;

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
  let marginTimer: NodeJS.Timeout | undefined;
  // Held by the control surface: the wall-time margin step skips, explicit steps still run.
  let marginClockHeld = false;

  const nextTxId = (): string => deriveId(options.seed, `tx/${++transactions}`);

  const marginConfig = buildMarginConfig(options.seed, network);

  function build(): { ledger: Ledger; house: House; maker: HouseMaker; margin: MarginEngine; triggers: TriggerEngine } {
    const ledger = new Ledger(network, clock.now());
    const house = createHouse(ledger, network, options.seed);
    // The house maker quotes the canonical books with shared orders: it has the house role on every Turbo book.
    for (const link of ledger.turbo.values()) link.houseRoles.add(house.maker.id);
    const margin = new MarginEngine(ledger, marginConfig, nowSeconds(clock));
    margin.nowSeconds = () => nowSeconds(clock);
    ledger.onChange((changes) => {
      for (const listener of changeListeners) listener(changes, app);
    });
    const triggers = new TriggerEngine({ ledger, margin, nextTxId, now: () => nowNanos(clock) });
    const maker = new HouseMaker((line) => app.log(line), ledger, house, clock, seededRandom(options.seed), nextTxId, { ...DEFAULT_MAKER, takesPerSecond: options.makerRate, profile: options.makerProfile, regime: options.makerRegime });
    return { ledger, house, maker, margin, triggers };
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
    get margin() {
      return state.margin;
    },
    get triggers() {
      return state.triggers;
    },
    marginTick: () => {
      const timestamp = nowNanos(clock);
      const moved = state.margin.oracle.refresh(nowSeconds(clock));
      // Every live session sees moved prices on its stream.
      if (moved.length > 0) for (const child of state.margin.sessions.keys()) state.ledger.changes.marginActivity(child, { kind: 'Prices', details: { assets: moved.join(',') } });
      state.ledger.publish();
      return state.margin.tick(nextTxId, timestamp);
    },
    holdMarginClock: (held) => {
      marginClockHeld = held;
    },
    streams: { upgrade: (_request, socket) => socket.destroy(), closeAll: () => 0, stallAll: () => 0, restartTurboTrades: () => 0, stop: () => undefined },
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
      const turbo = turboProblem(request);
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
      marginClockHeld = false;
      for (const listener of resetListeners) listener();
      if (started && options.maker) state.maker.start();
    },
    log: (line) => process.stderr.write(`${line}\n`),
    start: () => {
      started = true;
      if (options.maker) state.maker.start();
      marginTimer = setInterval(() => {
        if (marginClockHeld) return;
        try {
          app.marginTick();
        } catch (error) {
          app.log(`bug in the margin clock: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        }
      }, MARGIN_TICK_MS);
      marginTimer.unref();
    },
    stop: () => {
      started = false;
      state.maker.stop();
      if (marginTimer !== undefined) clearInterval(marginTimer);
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
  registerMarginRoutes(app);
  registerAggregatedRoutes(app);
  registerControlRoutes(app);
  app.streams = new StreamHub(app);
  return app;
}
