// The markets overview main reads for the windows: each listed market's last price, 24-hour
// figures and inside quote, from the exchange's ticker and summary reads (docs/protocol.md,
// "Markets overview"). Prices and sizes are raw units; the renderer formats them.

/** One market's row. A figure the exchange left out (or sent as something other than a whole number) is null. */
export interface MarketOverviewRow {
  readonly marketId: string;
  /** Raw quote units. */
  readonly last: bigint | null;
  /** The price 24 hours ago (the ticker's `open`), raw quote units: the 24-hour change is `last - open`. */
  readonly open: bigint | null;
  readonly high: bigint | null;
  readonly low: bigint | null;
  readonly bid: bigint | null;
  readonly ask: bigint | null;
  /** Base traded in the last 24 hours, raw base units. */
  readonly volume: bigint | null;
  /** The exchange's 24-hour change in percent, as decimal text ("-1.25"); null when it sent none. */
  readonly changePercent: string | null;
}

/**
 * `live`: the last read answered within the cadence. `stale`: the last read failed (the rows are the
 * previous answer's, `problem` says why). `resyncing`: nothing read yet on this network.
 */
export type OverviewState = 'live' | 'stale' | 'resyncing';

export interface MarketOverviewView {
  readonly networkId: string;
  readonly state: OverviewState;
  /** When the rows were read (main's clock, ms); null before the first answer. */
  readonly readAt: number | null;
  /** How often main reads, ms: a window that hears nothing for a few of these marks the panel stale. */
  readonly intervalMs: number;
  readonly problem: string | null;
  readonly rows: readonly MarketOverviewRow[];
  /**
   * The Turbo books' rows (the same reads with `turbo=true`: figures computed from each Turbo book,
   * markets without one skipped); absent before main has read them.
   */
  readonly turboRows?: readonly MarketOverviewRow[];
}
