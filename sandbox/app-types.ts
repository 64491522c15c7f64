// The shape of a running sandbox as its routes, streams and helpers see it. Kept apart from
// app.ts, which builds it and registers the routes, so a route imports this and not its builder.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AdjustableClock } from './clock';
import type { NetworkConfig } from './config/network';
import type { ReferralCode } from './config/referrals';
import type { Faults } from './control/faults';
import type { House } from './house/accounts';
import type { HouseMaker } from './house/maker';
import type { Reply } from './http/reply';
import type { ApiRequest } from './http/request';
import type { Router } from './http/router';
import type { ChangeSet } from './ledger/changes';
import type { Ledger } from './ledger/ledger';
import type { MarginEngine } from './margin/engine';
import type { SandboxOptions } from './options';
import type { RateLimiter } from './ratelimit';
import type { TriggerEngine } from './triggers/engine';

export interface StreamServer {
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Close every client connection; returns how many were closed. */
  closeAll(): number;
  /** Every connection sends nothing (not even a PONG) for `ms`, then what it held; returns how many. */
  stallAll(ms: number): number;
  /** The Turbo trade stream of a market restarts: send the resync error and drop those subscriptions. */
  restartTurboTrades(marketId: string, message: string): number;
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
  /** The margin extension (pool, oracle, sessions); replaced by `reset` like the ledger. */
  readonly margin: MarginEngine;
  /** Fires trigger legs after each committed transaction; replaced by `reset` like the ledger. */
  readonly triggers: TriggerEngine;
  streams: StreamServer;
  /** Run the margin clock step now (expiry, rollover, liquidation); the control surface calls it after moving time or prices. */
  marginTick(): string[];
  /** Hold (true) or release the margin step that runs every second on wall time; `marginTick` still runs when called. */
  holdMarginClock(held: boolean): void;
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
