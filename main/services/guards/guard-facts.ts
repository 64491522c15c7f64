// What the checks read, through one port the runtime fills from main's own state: the market's
// rules, the trader's band setting, the book's best prices, and the signing account's position.
import type { Market } from '../../../shared/market/market';
import type { Result } from '../../../shared/result';

/** The best prices a band is measured from, and where they were read. */
export interface BookPrices {
  readonly bestBid: bigint | null;
  readonly bestAsk: bigint | null;
  /** "the live book" (main's own book from the stream) or "the book read now" (a REST read). */
  readonly source: string;
}

/** The signing account's position on one book, and what already closes it. */
export interface PositionFacts {
  /** Signed size in raw base units: positive long, negative short. */
  readonly size: bigint;
  /** Remaining quantity of the account's open orders on this book on the closing side. */
  readonly restingClosing: bigint;
  /** What the account's pending legs on this book would close when they fire (an OCO pair once, at the larger). */
  readonly legsClosing: bigint;
  /**
   * Why legsClosing is not the whole of it (a leg sized from an order no longer open), or null. Only
   * what caps an order to the position (reduce-only) needs the legs; the size stays known.
   */
  readonly legsUnknown: string | null;
}

/** Remaining quantity (raw base units) of the account's open orders on one book, per side. */
export interface RestingOrders {
  readonly buy: bigint;
  readonly sell: bigint;
}

export interface GuardFacts {
  market(marketId: string, turbo: boolean): Result<Market>;
  /** The trader's maximum order size for the market (raw base units), or undefined for none. */
  maxQuantity(marketId: string): bigint | undefined;
  /** The trader's maximum order notional for the market (raw quote units), or undefined for none. */
  maxNotional(marketId: string): bigint | undefined;
  /** The trader's maximum position for the market (raw base units, either side), or undefined for none. */
  maxPosition(marketId: string): bigint | undefined;
  /** The trader's daily loss limit in a quote asset (raw units, positive), or undefined for none. */
  dailyLossLimit(quoteAsset: string): bigint | undefined;
  /** The account's P&L in the quote asset since 00:00 UTC (daily-loss.ts), raw quote units. */
  dayPnl(account: string, quoteAsset: string): Promise<Result<bigint>>;
  /** The market's price band in bps (0: off). */
  bandBps(marketId: string): number;
  /** The book's best prices now: the live book when main has one, else a read of the exchange's book. */
  bookPrices(market: Market, turbo: boolean): Promise<Result<BookPrices>>;
  /** The account's position on the book, read from its fills now. */
  position(account: string, market: Market, turbo: boolean): Promise<Result<PositionFacts>>;
  /** The account's open orders on the book, as main's order list holds them now. */
  restingOrders(account: string, market: Market, turbo: boolean): RestingOrders;
}
