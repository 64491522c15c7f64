// The input of every margin formula: one consistent snapshot (spec margin-api 2.4: "never mix
// balances, prices and session fields fetched at different times"). Money, prices, amounts,
// basis points and timestamps are bigint in raw units; decimals and term counters are small
// integers and stay `number`. The wire member each field comes from is listed in
// docs/protocol.md (Margin).

/** An asset id (B256, lowercase 0x-prefixed hex). */
export type AssetId = string;

/** `session.cohort` on the wire. */
export type Cohort = 'Legacy' | 'Turbo';

export interface MarginSession {
  /** Pinned at open; preferred over the tier test (spec 2.3). Absent only on old payloads. */
  readonly cohort?: Cohort;
  /** C: posted collateral including fees charged from it, raw collateral units. Zero on prepaid. */
  readonly collateral: bigint;
  /** F: fees accrued this session, raw collateral units. */
  readonly fees: bigint;
  /** Dq: collateral-asset quote drawn from the pool. */
  readonly quoteDrawn: bigint;
  /** Unix seconds; NO_EXPIRY (u64 max) means the session does not expire. */
  readonly expiresAt: bigint;
  /**
   * The PnL basis realized profit is measured from (`session.pnl_basis` ★, docs/protocol.md
   * (Margin) 3.2); absent: the spec's trading basis C - F stands in. May be negative.
   */
  readonly pnlBasis?: bigint;
}

/** `tier.turbo`: present exactly on prepaid tiers. */
export interface TurboTerms {
  /** Drawdown escalator in bps of tier.line, indexed by rollovers_used, clamped at the last entry. */
  readonly maxLossBps: readonly bigint[];
  readonly rolloverProfitBps: bigint;
  readonly maxRollovers: number;
  /** Length of one term in seconds; NO_EXPIRY on a tier without expiry. */
  readonly termSeconds: bigint;
  readonly forfeitCollateral: boolean;
}

/** The fields of the session's exact tier version that the formulas read. */
export interface MarginTier {
  /** tier.line: the constant the drawdown and the rollover bar are measured on. */
  readonly line: bigint;
  readonly maxCreditLineBps: bigint;
  /** k: the tier capital constant. */
  readonly capital: bigint;
  /** Static liquidation threshold (legacy, and prepaid tiers selling no anchored drawdown). */
  readonly threshold: bigint;
  readonly openBuffer: bigint;
  readonly maintenance: bigint;
  /** Seconds; NO_EXPIRY on a tier without expiry. */
  readonly duration: bigint;
  readonly turbo?: TurboTerms;
}

/** `rollover` of GET /v1/margin/state: prepaid sessions on tiers that grant free terms. */
export interface RolloverState {
  /** V at the start of the current term (account value, not equity). */
  readonly anchor: bigint;
  /** Collateral value withdrawn this term; added back when judging the profit bar. */
  readonly withdrawn: bigint;
  /** Value that arrived this term rather than being earned; subtracted when judging the bar. */
  readonly outside: bigint;
  readonly rolloversUsed: number;
  readonly maxRollovers: number;
}

/** `balances[asset]`: H[a] is the sum of the first four; `debt` is the in-kind debt. */
export interface AssetBalance {
  readonly onAccount: bigint;
  readonly received: bigint;
  readonly locked: bigint;
  readonly settled: bigint;
  readonly debt: bigint;
}

/** `prices[asset]`: 1e18-scaled bid and ask, the asset's decimals, and the oracle's stale flag. */
export interface AssetPrice {
  readonly bid: bigint;
  readonly ask: bigint;
  readonly decimals: number;
  readonly stale: boolean;
}

/**
 * The account's resting orders on the book of one base asset (quote = the collateral asset),
 * summed by the client from its own open orders. The sell quantity and the buy quote are
 * locked balances (part of H); the other two say what a complete fill would turn them into.
 */
export interface RestingOrders {
  /** Base quantity locked by resting sells: effective position = pos - sellQuantity. */
  readonly sellQuantity: bigint;
  /** Collateral the resting sells receive if they fill at their limits, before fees. */
  readonly sellQuote: bigint;
  /** Base quantity the resting buys receive if they fill. */
  readonly buyQuantity: bigint;
  /** Collateral locked by the resting buys (the forwarded amounts). */
  readonly buyQuote: bigint;
}

/**
 * `risk_params` of GET /v1/margin/state, which the spec leaves open and we define: per-asset
 * bands in bps with an optional published default. An asset with neither takes the built-in
 * fallback and is listed in the report, so a panel can mark the figures as estimates.
 */
export interface RiskParams {
  readonly stressBandBps: Readonly<Record<AssetId, bigint>>;
  readonly absorptionBandBps: Readonly<Record<AssetId, bigint>>;
  readonly defaultStressBandBps?: bigint;
  readonly defaultAbsorptionBandBps?: bigint;
}

export interface MarginSnapshot {
  readonly session: MarginSession;
  readonly tier: MarginTier;
  readonly rollover?: RolloverState;
  /** The pool's collateral (quote) asset; it is drawn, never borrowed in kind. */
  readonly collateralAssetId: AssetId;
  /** cd: the scale of every collateral-denominated result. */
  readonly collateralDecimals: number;
  /** Missing entries are zero balances. The collateral asset's `debt` must be zero (drawn quote is session.quoteDrawn). */
  readonly balances: Readonly<Record<AssetId, AssetBalance>>;
  /** Every non-collateral asset with a price is reported; an asset with exposure needs one. */
  readonly prices: Readonly<Record<AssetId, AssetPrice>>;
  /** Keyed by base asset; missing entries mean no resting orders on that book. */
  readonly restingOrders: Readonly<Record<AssetId, RestingOrders>>;
  /** Pool inventory per asset (GET /v1/margin/pool); the collateral entry bounds drawable quote. */
  readonly poolInventory: Readonly<Record<AssetId, bigint>>;
  readonly riskParams: RiskParams;
}
