// Positions per book and signing account, computed in main from the account's fills (average
// cost, shared/positions/accounting.ts), and the result of a flatten. Money is bigint raw units:
// sizes in base, prices in quote per whole base, P&L in quote.
import type { ClosePlan, PartialClosePlan, ReversePlan } from '../../positions/close-plan';

/** A liquidation or freeze price of a Turbo Account's position (shared/positions/liquidation.ts). */
export interface TriggerPriceView {
  /** Raw quote per whole base; null when no move of this asset alone reaches the line. */
  readonly price: bigint | null;
  /** The line is reached at today's prices already. */
  readonly now: boolean;
}

export interface PositionView {
  /** The account whose fills these are and who signs a flatten: the trading account or a Turbo Account. */
  readonly account: string;
  readonly accountKind: 'trading' | 'turbo-account';
  readonly marketId: string;
  /** The market's Turbo book (true) or its canonical book. */
  readonly turbo: boolean;
  /** Signed raw base units: positive long, negative short, zero flat (realized P&L only). */
  readonly size: bigint;
  /**
   * Null when the position can be closed by one order; otherwise why not (it is below the market's
   * quantity step or its minimum order value: a remainder such as a buy's fee in base leaves).
   */
  readonly notClosable: string | null;
  /**
   * What a flatten of this position sends now (shared/positions/close-plan.ts): the closing order's
   * side and size, what it leaves on the account and why no order can close that, or why no order
   * is sent at all. The flatten confirmation states it; main applies the same plan before signing.
   */
  readonly close: ClosePlan;
  /** What a close of 25, 50 and 75 % of this position sends now and leaves, in that order (main's plans, as `close`). */
  readonly partials: readonly PartialClosePlan[];
  /** What a reverse sends now: the close and an opening order of the same size, in one signed batch. */
  readonly reverse: ReversePlan;
  /**
   * The best price on the closing side of the book (the best ask for a long, the best bid for a
   * short): where a close by limit rests, joining the touch; null when flat or that side is empty.
   */
  readonly limitTouch: bigint | null;
  /** What a close by limit of 25, 50, 75 and 100 % sends now: a post-only order at `limitTouch` (maker fee), sized as the partials are. */
  readonly limitCloses: readonly PartialClosePlan[];
  /** Null when flat. */
  readonly averageEntry: bigint | null;
  /**
   * Quote raw units the open position cost (long, positive) or brought in (short, negative): with
   * the size, what a window marks the position at its live book with (unrealized = mark value −
   * basis, shared/positions/accounting.ts), so every panel values the same position at the same mark.
   */
  readonly basis: bigint;
  /** The exit price the position is marked at: the best bid for a long, the best ask for a short; null when flat or the book is empty. */
  readonly mark: bigint | null;
  readonly markSide: 'bid' | 'ask' | null;
  /** Quote raw units; null without a mark. */
  readonly unrealized: bigint | null;
  /** Basis points of the open basis (10,000 = 100 %). */
  readonly unrealizedBps: bigint | null;
  /** Quote raw units realized by closing, fees included. */
  readonly realized: bigint;
  /** Basis points of the basis closed. */
  readonly realizedBps: bigint | null;
  /** Fees paid: buys pay in base, sales in quote. */
  readonly feesBase: bigint;
  readonly feesQuote: bigint;
  readonly fills: number;
  /** Turbo Accounts only (null otherwise, or while the margin state is not live). */
  readonly liquidation: TriggerPriceView | null;
  readonly freeze: TriggerPriceView | null;
}

export interface PositionsView {
  readonly positions: readonly PositionView[];
  /** Milliseconds since the epoch when the fills and marks were read. */
  readonly asOf: number;
  /** Books whose figures could not be read (history or depth), in words; their rows are missing or unmarked. */
  readonly problems: readonly string[];
}

export interface FlattenReport {
  readonly requested: number;
  /** Closing orders accepted, with the order ids the exchange gave them. */
  readonly placed: readonly {
    readonly marketId: string;
    readonly turbo: boolean;
    readonly account: string;
    readonly orderIds: readonly string[];
    /** Raw base units the closing order was placed for. */
    readonly quantity: bigint;
    /** The signed position it leaves once filled in full (a remainder no order can close; after a partial close or a reverse, the position left). */
    readonly remainder: bigint;
  }[];
  readonly failed: readonly { readonly marketId: string; readonly turbo: boolean; readonly account: string; readonly reason: string }[];
  /** Signed batches sent (the 5-action cap packs several books into one). */
  readonly batches: number;
}
