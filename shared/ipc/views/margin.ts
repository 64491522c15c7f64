// Margin (Turbo accounts) as the renderer sees it: tiers with the exact opening amounts, the pool,
// the parent's margin accounts, the live risk of one account, and the Turbo rows of the markets.
// Money is bigint in raw units (collateral-denominated figures in the collateral asset's units,
// prices 1e18-scaled as the margin state publishes them); formatting happens at the edge.
import type { Side } from '../../market/order-type';

export type MarginCohort = 'Legacy' | 'Turbo';
export type MarginPeriod = 'SixHours' | 'Day' | 'Week' | 'Month';

export interface MarginAssetRef {
  readonly assetId: string;
  readonly symbol: string;
  readonly decimals: number;
}

/** What opening a session with one period costs, computed with shared/margin's openingAmount. */
export interface MarginPeriodOffer {
  readonly period: MarginPeriod;
  /** False on a prepaid tier for every period but Week, and where the tier publishes no fee. */
  readonly allowed: boolean;
  /** Why the period cannot be chosen; null when allowed. */
  readonly reason: string | null;
  /** Legacy: required_collateral (never discounted). Prepaid: discounted(required_collateral). */
  readonly collateralLeg: bigint | null;
  /** discounted(open_fee + prolong_fee[period]). */
  readonly feeLeg: bigint | null;
  /** The exact amount StartMarginSession forwards; a prepaid open refuses any other. */
  readonly amount: bigint | null;
  /** Seconds the opening buys; null when the tier does not expire (show no countdown). */
  readonly termSeconds: bigint | null;
}

export interface MarginBookRef {
  readonly marketId: string;
  /** `BASE/QUOTE`. */
  readonly pair: string;
  /** The Turbo book's contract. */
  readonly contractId: string;
}

export interface MarginTierView {
  readonly tierId: string;
  readonly version: bigint;
  readonly name: string;
  /** `Turbo` (prepaid) when the tier carries `turbo`, else `Legacy`. */
  readonly cohort: MarginCohort;
  readonly onSale: boolean;
  readonly line: bigint;
  /** floor(line × max_credit_line_bps / 10,000). */
  readonly lineCap: bigint;
  /** k, the tier capital constant. */
  readonly capital: bigint;
  readonly threshold: bigint;
  readonly openBuffer: bigint;
  readonly maintenance: bigint;
  readonly profitShareBps: bigint;
  readonly requiredCollateral: bigint;
  readonly openFee: bigint;
  /** duration (and term_seconds) is the u64 no-expiry value. */
  readonly noExpiry: boolean;
  readonly maxLossBps: readonly bigint[];
  readonly rolloverProfitBps: bigint;
  /** floor(line × rollover_profit_bps / 10,000); 0 without rollovers. */
  readonly profitRequired: bigint;
  readonly maxRollovers: number;
  readonly forfeitCollateral: boolean;
  readonly books: readonly MarginBookRef[];
  /** One entry per period, in the order SixHours, Day, Week, Month. */
  readonly periods: readonly MarginPeriodOffer[];
}

export interface MarginPoolView {
  readonly poolId: string | null;
  readonly paused: boolean;
  readonly inventory: readonly (MarginAssetRef & { readonly amount: bigint })[];
}

export interface MarginHolding extends MarginAssetRef {
  readonly amount: bigint;
}

export interface MarginAccountView {
  readonly marginAccountId: string;
  readonly index: bigint;
  readonly hasSession: boolean;
  readonly cohort: MarginCohort | null;
  readonly tierId: string | null;
  readonly tierVersion: bigint | null;
  /** Unix seconds; null without a session or when it does not expire. */
  readonly expiresAt: bigint | null;
  readonly noExpiry: boolean;
  /** The parent session's contract list names this account (it can act). */
  readonly inSessionScope: boolean;
  /** Trades on Turbo books for the parent (selectMarginAccount). */
  readonly selected: boolean;
  /** What the account itself holds (withdrawable once no session is live). */
  readonly holdings: readonly MarginHolding[];
}

export interface MarginScopeView {
  /** The parent session covers the pool, the registry and every registered account. */
  readonly covered: boolean;
  /** What is missing, in words, one per contract. */
  readonly missing: readonly string[];
  /** Why a new session is needed and what happens when it is made; null when nothing is missing. */
  readonly explanation: string | null;
  /** A keychain owner: main can create the new session itself. A watch-only owner signs it offline. */
  readonly canRecreate: boolean;
}

export interface MarginSettingsView {
  /** Turn a plain Market order from the ticket into a BoundedMarket (true), or refuse it (false). */
  readonly convertMarketOrders: boolean;
  /** The bound of a converted market order, in bps of the ticket's price. */
  readonly marketSlippageBps: number;
  /** Draw the missing quote (buys) or borrow the missing base (sells) in the order's own batch. */
  readonly fundOrders: boolean;
}

export interface MarginOverview {
  readonly networkId: string;
  readonly parentAccountId: string | null;
  readonly collateral: MarginAssetRef | null;
  /** The owner's active fee discount (docs/protocol.md (Margin) 8), bps. */
  readonly discountBps: bigint;
  readonly pool: MarginPoolView | null;
  readonly tiers: readonly MarginTierView[];
  readonly accounts: readonly MarginAccountView[];
  /** The id the next registration will use (GET /v1/margin/next-account). */
  readonly nextAccount: { readonly marginAccountId: string; readonly index: bigint } | null;
  readonly selectedMarginAccountId: string | null;
  readonly scope: MarginScopeView;
  readonly settings: MarginSettingsView;
  /** Reads that failed, in words (the rest of the overview is still usable). */
  readonly problems: readonly string[];
}

export interface MarginActionReceipt {
  /** The journal entry of each signed request, in order. */
  readonly journalIds: readonly string[];
  readonly txIds: readonly string[];
  /** What was done, in words. */
  readonly description: string;
  /** Anything the trader should know (a session recreated, a conversion, what remains). */
  readonly notes: readonly string[];
}

export interface MarginRegistration extends MarginActionReceipt {
  readonly marginAccountId: string;
  readonly index: bigint;
  readonly sessionRecreated: boolean;
}

export type CloseStepState = 'done' | 'not-needed' | 'remaining';

export interface CloseStep {
  readonly step: 'cancel-orders' | 'settle-books' | 'return-quote' | 'repay-debts' | 'fetch-cleanups' | 'close';
  readonly state: CloseStepState;
  readonly detail: string;
}

export interface CloseMarginReport extends MarginActionReceipt {
  readonly closed: boolean;
  readonly steps: readonly CloseStep[];
  /** The list passed to CloseMarginSession, exactly as fetched right before. */
  readonly cleanups: readonly { readonly orderBookId: string; readonly orderIds: readonly string[] }[];
}

// ---- risk ----------------------------------------------------------------------------------

export type MarginExposurePass = 'SPOT' | 'STRESSED_MARKED' | 'STRESSED_FILLED';
export type MarginBorrowBound = 'LOAN_CAP' | 'EXPOSURE' | 'POOL_INVENTORY' | 'NO_ASK';
export type MarginHealthRule = 'LEGACY' | 'ANCHORED_FLOOR' | 'STATIC_THRESHOLD';

export interface MarginAssetRiskView extends MarginAssetRef {
  readonly onAccount: bigint;
  readonly received: bigint;
  readonly locked: bigint;
  readonly settled: bigint;
  readonly holdings: bigint;
  readonly debt: bigint;
  readonly position: bigint;
  readonly effectivePosition: bigint;
  /** 1e18-scaled oracle prices. */
  readonly bid: bigint;
  readonly ask: bigint;
  readonly stale: boolean;
  readonly mark: bigint;
  readonly stressedMark: bigint;
  readonly debtValue: bigint;
  readonly stressBandBps: bigint;
  readonly absorptionBandBps: bigint;
  /**
   * What a Borrow allows now, on the current loan headroom (spec 2.6 note: "otherwise use current
   * loan headroom"): the figure the Borrow action and the ticket check against.
   */
  readonly borrowable: bigint;
  readonly borrowLimitedBy: MarginBorrowBound;
  /** What a Borrow allows when the same batch first returns the returnable quote (ReturnQuote, then Borrow). */
  readonly borrowableReturningQuoteFirst: bigint;
  readonly borrowReturningLimitedBy: MarginBorrowBound;
  readonly byLoanCap: bigint;
  readonly byExposure: bigint;
  readonly poolInventory: bigint;
}

export interface MarginHealthView {
  readonly rule: MarginHealthRule;
  readonly lossFloor: bigint | null;
  readonly threshold: bigint;
  readonly freezeLine: bigint;
  readonly absorptionCost: bigint;
  readonly stressedAbsorptionCost: bigint;
  readonly liquidatable: boolean;
  readonly frozen: boolean;
  readonly giveawayAllowance: bigint;
  readonly stressedEquity: bigint;
  /** V - threshold: liquidatable at or below 0. */
  readonly distanceToThreshold: bigint;
  /** min(stressed values) - freeze line: frozen below 0. */
  readonly distanceToFreeze: bigint;
}

export interface MarginRolloverView {
  readonly profitRequired: bigint;
  /** V - anchor + withdrawn - outside. */
  readonly progress: bigint;
  readonly remaining: bigint;
  readonly reached: boolean;
  readonly canEarnMore: boolean;
  readonly anchor: bigint;
  readonly withdrawn: bigint;
  readonly outside: bigint;
  readonly rolloversUsed: number;
  readonly maxRollovers: number;
  /** The service's own hint; the chain re-verifies at the deadline. */
  readonly eligibleNow: boolean | null;
}

/** Every quantity of shared/margin's RiskReport, as bigint, in collateral units unless said. */
export interface MarginRiskView {
  readonly lineCap: bigint;
  readonly netCollateral: bigint;
  /** L. */
  readonly creditLine: bigint;
  readonly collateralHeadroom: bigint;
  readonly undrawnLine: bigint;
  readonly equityAboveCap: bigint;
  readonly collateralHoldings: bigint;
  /** V. */
  readonly accountValue: bigint;
  readonly stressedMarkedValue: bigint;
  readonly stressedFilledValue: bigint;
  readonly traderEquity: bigint;
  readonly tradingBasis: bigint;
  readonly tradingPnl: bigint;
  readonly inKindDebtValue: bigint;
  readonly outstanding: bigint;
  readonly loanHeadroom: bigint;
  readonly drawableQuote: bigint;
  readonly reserve: bigint;
  readonly cashHeld: bigint;
  readonly spendableCash: bigint;
  readonly returnableQuote: bigint;
  readonly quoteLockedByBuys: bigint;
  readonly exposure: {
    readonly spot: bigint;
    readonly stressedMarked: bigint;
    readonly stressedFilled: bigint;
    readonly gross: bigint;
    readonly pass: MarginExposurePass;
  };
  readonly exposureHeadroom: bigint;
  readonly buyCapacity: bigint;
  readonly health: MarginHealthView;
  readonly rollover: MarginRolloverView | null;
  readonly assets: readonly MarginAssetRiskView[];
  /** Assets valued with the built-in stress or absorption band: figures are estimates. */
  readonly fallbackRiskParamAssets: readonly string[];
}

export interface MarginSessionView {
  readonly cohort: MarginCohort;
  readonly tierId: string | null;
  readonly tierVersion: bigint | null;
  readonly collateral: bigint;
  readonly fees: bigint;
  readonly quoteDrawn: bigint;
  readonly debts: readonly (MarginAssetRef & { readonly amount: bigint })[];
  /** Unix seconds; null when unknown. */
  readonly openedAt: bigint | null;
  /** Legacy automatic prolongation period, or null. */
  readonly autoProlong: MarginPeriod | null;
}

export interface MarginSettlementView {
  readonly status: 'Closed' | 'Liquidated' | 'Expired';
  /** Unix seconds, when known. */
  readonly endedAt: bigint | null;
  readonly pnl: bigint | null;
  readonly profitShare: bigint | null;
  readonly collateralReturned: bigint | null;
  readonly collateralForfeited: bigint | null;
  readonly returnedToParent: readonly MarginHolding[];
}

export interface MarginRiskFrame {
  readonly subscriptionId: string;
  readonly marginAccountId: string;
  /**
   * `live`: computed from the folded stream snapshot. `stale` (with the reason): a reconnect, a
   * sequence gap or a failed fold; the figures are the last live ones, main is fetching the state
   * again and signs no margin action until it is live.
   */
  readonly status: 'live' | 'stale';
  readonly staleReason: string | null;
  /** The margin stream's per-account sequence the figures include. */
  readonly sequence: bigint | null;
  /** Clock ms when the figures were computed. */
  readonly computedAt: number;
  readonly cohort: MarginCohort | null;
  readonly session: MarginSessionView | null;
  /** The countdown input, unix seconds; null without a session and for the no-expiry value. */
  readonly expiresAt: bigint | null;
  readonly noExpiry: boolean;
  readonly collateral: MarginAssetRef;
  readonly risk: MarginRiskView | null;
  /** Why there is no risk report (no session, or a snapshot that cannot be valued). */
  readonly riskProblem: { readonly code: string; readonly message: string } | null;
  /** Oracle prices flagged stale: a warning for the whole panel. */
  readonly stalePrices: readonly MarginAssetRef[];
  readonly poolPaused: boolean;
  readonly frozen: boolean;
  readonly liquidatable: boolean;
  /** The last ended session of this account (liquidation, expiry, close) and its settlement. */
  readonly lastSession: MarginSettlementView | null;
}

// ---- Turbo books -----------------------------------------------------------------------------

export interface TurboMarketView {
  readonly marketId: string;
  readonly pair: string;
  readonly hasTurboBook: boolean;
  readonly turboContractId: string | null;
  /** null when there is no Turbo book. */
  readonly connected: boolean | null;
  readonly paused: boolean | null;
  /** Turbo orders can be created now. */
  readonly tradable: boolean;
  /** Why the toggle is disabled or orders are refused; null when tradable. */
  readonly reason: string | null;
  /** Tiers whose books include this Turbo book. */
  readonly tierIds: readonly string[];
}

export interface TurboMarketsView {
  readonly networkId: string;
  readonly markets: readonly TurboMarketView[];
  /** Orders on Turbo books are signed as this Turbo Account; null: as the parent. */
  readonly tradingAs: string | null;
}

export interface TurboOrderCheck {
  /** The Turbo Account the order is signed as; null: the parent. */
  readonly tradingAs: string | null;
  readonly allowed: boolean;
  /** The order type that will be signed (a Market becomes BoundedMarket with its bounds). */
  readonly orderType: { readonly kind: string; readonly maxPrice: bigint | null; readonly minPrice: bigint | null };
  readonly side: Side;
  /** The order's price after conversion (the lock is priced at it). */
  readonly price: bigint;
  readonly quoteValue: bigint;
  /** Quote drawn or base borrowed in the same batch, when funding is on. */
  readonly draw: bigint;
  readonly borrow: bigint;
  readonly buyCapacity: bigint | null;
  readonly borrowable: bigint | null;
  readonly warnings: readonly string[];
  readonly refusal: { readonly code: string; readonly message: string } | null;
}
