// Domain views that cross the bridge. They are display-ready but still exact: every amount,
// price, fee and nonce is a bigint in raw units; formatting happens only in the renderer.
import type { Market } from '../../market/market';

export interface MarketsView {
  readonly networkId: string;
  readonly chainId: bigint;
  /** Rows of GET /v1/markets with money as bigint. Markets are matched by asset ids, never symbols. */
  readonly markets: readonly Market[];
  /**
   * The Turbo rows (GET /v1/markets?turbo=true), one per market that has a Turbo book, under the
   * canonical row's `market_id`: their own contract, fees, min_order and price window, which the
   * ticket validates against on a Turbo book. Absent or empty where the network has none.
   */
  readonly turboMarkets?: readonly Market[];
}

/** `stale`: the socket is open but nothing (not even a heartbeat) arrived within the expected cadence. */
export type LinkState = 'connecting' | 'up' | 'down' | 'resyncing' | 'stale';

export interface ConnectionStatus {
  readonly networkId: string;
  readonly networkName: string;
  /** REST reachability, from the last health probe. */
  readonly rest: LinkState;
  /** The market-data WebSocket. */
  readonly stream: LinkState;
  /** Round-trip time of the last health probe, in milliseconds; null before the first one. */
  readonly latencyMs: number | null;
  /** Present when the network is the embedded sandbox. */
  readonly sandbox: { readonly state: 'starting' | 'running' | 'restarting' | 'stopped'; readonly restarts: number } | null;
  /** Human explanation when something is down. */
  readonly detail: string | null;
}

export interface AppInfo {
  readonly version: string;
  readonly host: 'electron' | 'browser';
  readonly offline: boolean;
}
