// Margin (Turbo accounts) as the renderer sees it: tiers with the exact opening amounts, the pool,
// the parent's margin accounts, the live risk of one account, and the Turbo rows of the markets.
// Money is bigint in raw units (collateral-denominated figures in the collateral asset's units,
// prices 1e18-scaled as the margin state publishes them); formatting happens at the edge.
// The figures computed by shared/margin are typed there; these views take their fields by name
// (Pick/Omit) and add what the renderer needs beside them (symbols, decimals, the service's hints).
import type { Side } from '../../market/order-type';
import type { BorrowBound, ExposurePass, GrossExposure } from '../../margin/exposure';
import type { HealthRule } from '../../margin/health';
import type { Period } from '../../margin/opening';
import type { AssetRisk, HealthReport, RiskReport } from '../../margin/risk';
import type { RolloverProgress } from '../../margin/rollover';
import type { LastSession } from '../../margin/settlement';
import type { AssetBalance, Cohort, MarginTier, RolloverState, TurboTerms } from '../../margin/snapshot';

export type MarginCohort = Cohort;
export type MarginPeriod = Period;

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

/**
 * A tier: shared/margin's MarginTier constants, and its TurboTerms (zero, empty or false on a
 * Legacy tier, which has none).
 */
export interface MarginTierView extends Pick<MarginTier, 'line' | 'capital' | 'threshold' | 'openBuffer' | 'maintenance'>, Pick<TurboTerms, 'maxLossBps' | 'rolloverProfitBps' | 'maxRollovers' | 'forfeitCollateral'> {
  readonly tierId: string;
  readonly version: bigint;
  readonly name: string;
  /** `Turbo` (prepaid) when the tier carries `turbo`, else `Legacy`. */
  readonly cohort: MarginCohort;
  readonly onSale: boolean;
  /** floor(line × max_credit_line_bps / 10,000). */
  readonly lineCap: bigint;
  readonly profitShareBps: bigint;
  readonly requiredCollateral: bigint;
  readonly openFee: bigint;
  /** duration (and term_seconds) is the u64 no-expiry value. */
  readonly noExpiry: boolean;
  /** floor(line × rollover_profit_bps / 10,000); 0 without rollovers. */
  readonly profitRequired: bigint;
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

/**
 * One action that removes what blocks a close, with its exact amount: return drawn quote (or repay
 * in-kind debt) from what the account holds, or, on a legacy session, repay drawn quote (or buy
 * debt out) from posted collateral when the account holds too little, e.g. after a flatten left
 * only a remainder no order can sell.
 */
export interface CloseRemedy {
  readonly kind: 'returnQuote' | 'repay' | 'repayFromCollateral' | 'repayBaseFromCollateral';
  readonly asset: MarginAssetRef;
  readonly amount: bigint;
  /** The action in words ("Repay 51.25 USDC of drawn quote from posted collateral"). */
  readonly text: string;
}

export interface CloseMarginReport extends MarginActionReceipt {
  readonly closed: boolean;
  readonly steps: readonly CloseStep[];
  /**
   * When not closed: the actions that unblock the close, in order (each a margin action of its
   * own, then the close again); empty when nothing this terminal can send covers what remains
   * (the steps say what does).
   */
  readonly remedies: readonly CloseRemedy[];
  /** The list passed to CloseMarginSession, exactly as fetched right before. */
  readonly cleanups: readonly { readonly orderBookId: string; readonly orderIds: readonly string[] }[];
}

// ---- risk ----------------------------------------------------------------------------------

export type MarginExposurePass = ExposurePass;
export type MarginBorrowBound = BorrowBound;
export type MarginHealthRule = HealthRule;

/** One asset of the risk report, with its balances and what a Borrow of it allows. */
export interface MarginAssetRiskView
  extends MarginAssetRef,
    Pick<AssetBalance, 'onAccount' | 'received' | 'locked' | 'settled'>,
    Pick<AssetRisk, 'holdings' | 'debt' | 'position' | 'effectivePosition' | 'bid' | 'ask' | 'stale' | 'mark' | 'stressedMark' | 'debtValue' | 'stressBandBps' | 'absorptionBandBps'>,
    Pick<AssetRisk['borrowable'], 'byLoanCap' | 'byExposure' | 'poolInventory'> {
  /**
   * What a Borrow allows now, on the current loan headroom (spec 2.6 note: "otherwise use current
   * loan headroom"): the figure the Borrow action and the ticket check against.
   */
  readonly borrowable: bigint;
  readonly borrowLimitedBy: MarginBorrowBound;
  /** What a Borrow allows when the same batch first returns the returnable quote (ReturnQuote, then Borrow). */
  readonly borrowableReturningQuoteFirst: bigint;
  readonly borrowReturningLimitedBy: MarginBorrowBound;
}

/** The health lines and distances of shared/margin's HealthReport, as they are. */
export type MarginHealthView = HealthReport;

/** The rollover progress of shared/margin, with the state it was measured on and the service's hint. */
export interface MarginRolloverView extends RolloverProgress, RolloverState {
  /** The service's own hint; the chain re-verifies at the deadline. */
  readonly eligibleNow: boolean | null;
}

/**
 * Every quantity of shared/margin's RiskReport, in collateral units unless said; its assets,
 * health and rollover as the views above. The cohort, the no-expiry flag and the stale prices are
 * on the frame (MarginRiskFrame), not here.
 */
export interface MarginRiskView extends Omit<RiskReport, 'cohort' | 'noExpiry' | 'stalePriceAssets' | 'exposure' | 'health' | 'rollover' | 'assets'> {
  readonly exposure: GrossExposure;
  readonly health: MarginHealthView;
  readonly rollover: MarginRolloverView | null;
  readonly assets: readonly MarginAssetRiskView[];
}

export interface MarginSessionView extends Pick<MarginAccountView, 'tierId' | 'tierVersion'> {
  readonly cohort: MarginCohort;
  readonly collateral: bigint;
  readonly fees: bigint;
  readonly quoteDrawn: bigint;
  readonly debts: readonly (MarginAssetRef & { readonly amount: bigint })[];
  /** Unix seconds; null when unknown. */
  readonly openedAt: bigint | null;
  /** Legacy automatic prolongation period, or null. */
  readonly autoProlong: MarginPeriod | null;
}

/** The last ended session as shared/margin reads it, its returns named (symbol, decimals). */
export interface MarginSettlementView extends Omit<LastSession, 'returnedToParent'> {
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
