// Builds one sandbox instance: network, clock, ledger, streams, routes, maker, control.
// The transport (server.ts) only calls `dispatch` and `streams.upgrade`.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { AdjustableClock } from './clock';
import { buildNetwork, type NetworkConfig } from './config/network';
import { buildReferralCodes, type ReferralCode } from './config/referrals';
import { Faults } from './control/faults';
import { ErrorCode, refusal, show } from './http/errors';
import { OWNER_HEADER } from './http/owner';
import { refuse, type Reply } from './http/reply';
import { header, type ApiRequest } from './http/request';
import { Router } from './http/router';
import { deriveId } from './ids';
import { Ledger } from './ledger/ledger';
import type { SandboxOptions } from './options';
import { RateLimiter, ruleFor } from './ratelimit';
import { registerAccountRoutes } from './routes/accounts';
import { registerFaucetRoutes } from './routes/faucet';
import { registerPublicRoutes } from './routes/public';
import { registerSessionRoutes } from './routes/session';

export interface StreamServer {
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  closeAll(): void;
  stop(): void;
}

export interface SandboxApp {
  readonly options: SandboxOptions;
  readonly network: NetworkConfig;
  readonly clock: AdjustableClock;
  readonly router: Router;
  readonly faults: Faults;
  readonly limiter: RateLimiter;
  readonly referralCodes: ReadonlyMap<string, ReferralCode>;
  ledger: Ledger;
  streams: StreamServer;
  dispatch(request: ApiRequest): Reply | Promise<Reply>;
  /** A fresh transaction id (deterministic for a seed). */
  nextTxId(): string;
  log(line: string): void;
  start(): void;
  stop(): void;
}

export function createApp(options: SandboxOptions): SandboxApp {
  const network = buildNetwork(options.seed, options.chainId);
  const clock = new AdjustableClock();
  const router = new Router();
  const limiter = new RateLimiter(clock);
  let transactions = 0;
  const app: SandboxApp = {
    options,
    network,
    clock,
    router,
    faults: new Faults(),
    limiter,
    referralCodes: buildReferralCodes(options.seed),
    ledger: new Ledger(network),
    streams: { upgrade: (_request, socket) => socket.destroy(), closeAll: () => undefined, stop: () => undefined },
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
      return router.dispatch(request);
    },
    nextTxId: () => deriveId(options.seed, `tx/${++transactions}`),
    log: (line) => process.stderr.write(`${line}\n`),
    start: () => undefined,
    stop: () => app.streams.stop(),
  };
  registerPublicRoutes(app);
  registerAccountRoutes(app);
  registerFaucetRoutes(app);
  registerSessionRoutes(app);
  return app;
}
