// How current the data of each source is, as main knows it.
// Main publishes a FreshnessView on the `freshness` stream when a state changes and once a second
// while anything arrives; each panel reads the sources it depends on and ages them on its own
// second tick, so a panel turns stale even when main itself stops publishing.

/**
 * `live`: the source is subscribed, has its snapshot and its connection answered within the
 * expected cadence. `stale`: subscribed, but nothing (data or heartbeat) arrived for longer than
 * that cadence. `resyncing`: (re)subscribing, waiting for a fresh snapshot. `disconnected`: no
 * connection, or the network is being switched.
 */
export type Freshness = 'live' | 'stale' | 'resyncing' | 'disconnected';

export const FRESHNESS_STATES: readonly Freshness[] = ['live', 'stale', 'resyncing', 'disconnected'];

/** The worst of several states, for a panel that depends on more than one source. */
export function worstFreshness(states: readonly Freshness[]): Freshness {
  for (const state of ['disconnected', 'stale', 'resyncing'] as const) if (states.includes(state)) return state;
  return 'live';
}

export interface SourceFreshness {
  readonly state: Freshness;
  /**
   * Age, in ms at the time of the view, of the newest evidence that the data is current: a message
   * of the source, or any frame (heartbeats included) on its connection while it is subscribed.
   * Null when nothing arrived yet.
   */
  readonly ageMs: number | null;
  /** Why, in words, when not live. */
  readonly detail: string | null;
}

export interface MarketFreshness {
  readonly marketId: string;
  readonly turbo: boolean;
  /** The depth stream of the book (ladder, inside market, click-to-trade). */
  readonly book: SourceFreshness;
  /** The trade stream (tape, chart, last price). */
  readonly trades: SourceFreshness;
}

export interface FreshnessView {
  readonly networkId: string;
  /**
   * Increases with every network activation. Anything a window holds from an earlier generation
   * is another network's (or an earlier connection's) data.
   */
  readonly generation: number;
  /**
   * Silence on a connection longer than this is `stale`: the client sends a heartbeat (PING) at a
   * shorter interval, so a healthy connection always answers within it.
   */
  readonly staleAfterMs: number;
  /** The WebSocket connection of the network (the header's state). */
  readonly link: SourceFreshness;
  /** The order streams of the trading account (open orders, fills, history). */
  readonly orders: SourceFreshness;
  /** The balance stream of the trading account. */
  readonly balances: SourceFreshness;
  /** Every book and trade stream any window subscribes to. */
  readonly markets: readonly MarketFreshness[];
}
