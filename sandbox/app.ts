// Builds one sandbox instance: network, clock, ledger, engine, streams, routes, maker.
// The transport (server.ts) only calls into what this returns.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { AdjustableClock } from './clock';
import { buildNetwork, type NetworkConfig } from './config/network';
import { Faults } from './control/faults';
import { Router } from './http/router';
import type { SandboxOptions } from './options';
import { registerPublicRoutes } from './routes/public';

export interface StreamServer {
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
}

export interface SandboxApp {
  readonly options: SandboxOptions;
  readonly network: NetworkConfig;
  readonly clock: AdjustableClock;
  readonly router: Router;
  readonly faults: Faults;
  readonly streams: StreamServer;
  log(line: string): void;
  start(): void;
  stop(): void;
}

export function createApp(options: SandboxOptions): SandboxApp {
  const network = buildNetwork(options.seed, options.chainId);
  const clock = new AdjustableClock();
  const router = new Router();
  const app: SandboxApp = {
    options,
    network,
    clock,
    router,
    faults: new Faults(),
    streams: { upgrade: (_request, socket) => socket.destroy() },
    log: (line) => process.stderr.write(`${line}\n`),
    start: () => undefined,
    stop: () => undefined,
  };
  registerPublicRoutes(app);
  return app;
}
