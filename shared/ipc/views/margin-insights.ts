// The margin reads that have no live stream, read by main on a fixed cadence while a window shows
// them (docs/protocol.md, "Margin insights"): the pool's statistics, the tier versions published,
// one Turbo Account's activity, the Turbo books' events; and the Turbo book's executable and demand
// depth per ladder row for the ladder's overlay. Money and sizes are bigint raw units; the
// renderer formats them.
import type { Side } from '../../market/order-type';

/**
 * `live`: the last read answered. `stale`: the last read failed (what is shown is the previous
 * answer's, `problem` says why). `resyncing`: nothing read yet on this network or for this account.
 */
export type InsightState = 'live' | 'stale' | 'resyncing';

/** One read's result and freshness: each part of the view ages on its own. */
export interface InsightPart<T> {
  readonly state: InsightState;
  /** When main last read it successfully (main's clock, ms); null before the first answer. */
  readonly readAt: number | null;
  readonly problem: string | null;
  readonly value: T;
}

/** GET /v1/margin/statistics: a figure the exchange left out is null. */
export interface MarginStatisticsView {
  readonly activeSessions: number | null;
  readonly activeLegacy: number | null;
  readonly activeTurbo: number | null;
  readonly frozen: number | null;
  readonly liquidatable: number | null;
  readonly closedSessions: number | null;
  readonly liquidatedSessions: number | null;
  readonly expiredSessions: number | null;
  /** Outstanding loans per asset, raw units of that asset. */
  readonly lent: readonly { readonly assetId: string; readonly amount: bigint }[];
  /** Raw units of the collateral asset. */
  readonly badDebt: bigint | null;
  readonly poolPaused: boolean | null;
}

/** One tier version of GET /v1/margin/tiers/history, newest publication first. */
export interface TierVersionRow {
  readonly tierId: string;
  readonly version: bigint;
  readonly name: string | null;
  readonly cohort: 'Legacy' | 'Turbo';
  /** Collateral raw units. */
  readonly line: bigint;
  readonly threshold: bigint;
  readonly maxCreditLineBps: bigint;
  readonly profitShareBps: bigint;
  /** Seconds; null for the no-expiry value. */
  readonly durationSeconds: bigint | null;
  readonly onSale: boolean | null;
  /** Unix ms, where the exchange says. */
  readonly publishedAt: number | null;
}

/** An amount of an activity entry, with the asset it is counted in (the collateral asset unless the entry names one). */
export interface ActivityAmount {
  readonly key: string;
  readonly assetId: string | null;
  readonly amount: bigint;
}

/** One entry of GET /v1/margin/activity, newest first. */
export interface ActivityRow {
  readonly sequence: bigint;
  readonly kind: string;
  /** Unix ms. */
  readonly time: number;
  readonly txId: string | null;
  /** The entry's figures in raw units (`amount`, `drawn_total`, `fee`…), totals as the exchange holds them after the event. */
  readonly amounts: readonly ActivityAmount[];
  /** Its other members, as text (period, tier, cohort…). */
  readonly notes: readonly { readonly key: string; readonly text: string }[];
}

/** One event of GET /v1/events, newest first. */
export interface TurboEventRow {
  readonly sequence: bigint | null;
  readonly type: 'SharedExecution' | 'SharedTradePerformed' | 'HouseOrderCreated' | 'HouseOrderCompleted' | 'SidecarChanged';
  readonly marketId: string | null;
  /** Unix ms (the wire's unit is not shown: seconds, ms or ns are told apart by size); null where the event carries none (SidecarChanged). */
  readonly time: number | null;
  readonly side: Side | null;
  /** Raw quote units per whole base unit. */
  readonly price: bigint | null;
  /** Raw base units. */
  readonly quantity: bigint | null;
  /** SharedExecution: the fee the Turbo order paid, raw quote units. */
  readonly turboFee: bigint | null;
  readonly role: 'Maker' | 'Taker' | null;
  /** The order ids the event names (Turbo order, house order, source quote), shortened by the renderer. */
  readonly orderId: string | null;
  readonly txId: string | null;
}

export interface MarginInsightsView {
  readonly networkId: string;
  /** The Turbo Account whose activity is read; null when the window named none. */
  readonly marginAccountId: string | null;
  /** How often main reads, ms. */
  readonly intervalMs: number;
  /** The pool's collateral asset as the tiers name it (the unit of lines, bad debt and unnamed activity amounts); null until known. */
  readonly collateralAssetId: string | null;
  readonly statistics: InsightPart<MarginStatisticsView | null>;
  readonly tierHistory: InsightPart<readonly TierVersionRow[]>;
  readonly activity: InsightPart<readonly ActivityRow[]>;
  readonly events: InsightPart<readonly TurboEventRow[]>;
}

/** One ladder row of the Turbo depth overlay: quantities in raw base units, 0 where none. */
export interface TurboDepthRow {
  /** The ladder row's price (the ladder's grouping rule: bids floored to the step, asks raised). */
  readonly price: bigint;
  /** Shared quotes a Turbo taker can hit: house bids (a Turbo sell fills against) and asks. */
  readonly executableBid: bigint;
  readonly executableAsk: bigint;
  /** Resting Turbo orders: buys and sells waiting for a shared quote. */
  readonly demandBid: bigint;
  readonly demandAsk: bigint;
}

export interface TurboDepthView {
  readonly networkId: string;
  readonly marketId: string;
  /** The row step the rows are grouped by (the ladder's precision). */
  readonly step: bigint;
  readonly intervalMs: number;
  readonly state: InsightState;
  readonly readAt: number | null;
  readonly problem: string | null;
  /** Highest price first; only rows with some depth. */
  readonly rows: readonly TurboDepthRow[];
}
