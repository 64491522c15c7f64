// A Turbo Account's order before it is signed (margin-api 4.4 rules 3 and 5, 2.6): a plain Market
// becomes a BoundedMarket (or is refused), and the order is judged against the account's risk
// report from one live snapshot, with the reasons the protocol would give: a frozen account may
// not add exposure (AccountFrozen), a batch may not leave outstanding above L
// (OutstandingAboveCreditLine), and a buy or a short sale is compared with buy capacity and
// borrowable. The quote a buy lacks is drawn, and the base a sale lacks is borrowed, in the
// order's own batch before the order (rule 3), when funding is on. Pure: no I/O.
import { U64_MAX } from '../../../shared/encoding/decimal';
import { formatUnits } from '../../../shared/encoding/units';
import type { RiskReport } from '../../../shared/margin/index';
import { quoteValue } from '../../../shared/market/amounts';
import type { Market } from '../../../shared/market/market';
import type { OrderTypeIntentOf } from '../../../shared/market/order-kinds';
import type { Side } from '../../../shared/market/order-type';
import { priceTick } from '../../../shared/market/tick';
import { fail, ok, type Result } from '../../../shared/result';
import type { OrderTypeIntent } from '../trading/order-intents';
import { MarginCodes } from './codes';

export interface TurboOrderSettings {
  readonly convertMarketOrders: boolean;
  readonly marketSlippageBps: number;
  readonly fundOrders: boolean;
}

export const DEFAULT_TURBO_ORDER_SETTINGS: TurboOrderSettings = { convertMarketOrders: true, marketSlippageBps: 100, fundOrders: true };

export interface TurboOrderIntent {
  readonly side: Side;
  readonly orderType: OrderTypeIntent;
  readonly price: bigint;
  readonly quantity: bigint;
}

export interface TurboOrderPlan {
  readonly orderType: OrderTypeIntent;
  readonly price: bigint;
  readonly quantity: bigint;
  readonly quoteValue: bigint;
  /** Collateral drawn before the order in the same batch. */
  readonly draw: bigint;
  /** Base borrowed before the order in the same batch. */
  readonly borrow: bigint;
  readonly warnings: readonly string[];
}

const BPS = 10_000n;

/** The bounds of a converted market order: the ticket's price moved by the slippage, on the tick. */
export function boundMarketOrder(market: Market, side: Side, price: bigint, slippageBps: number): { orderType: OrderTypeIntentOf<'BoundedMarket'>; price: bigint } {
  const tick = priceTick(market);
  const slip = BigInt(slippageBps);
  if (side === 'Buy') {
    const worst = (((price * (BPS + slip)) / BPS) / tick) * tick;
    // The lowest price the book can quote: a bound must be above zero.
    return { orderType: { kind: 'BoundedMarket', maxPrice: worst, minPrice: tick }, price: worst };
  }
  const scaled = (price * (BPS - slip)) / BPS;
  const worst = ((scaled + tick - 1n) / tick) * tick;
  return { orderType: { kind: 'BoundedMarket', maxPrice: (U64_MAX / tick) * tick, minPrice: worst }, price: worst };
}

/** The order type a check reports: its kind, and its bounds when it has them. */
export function checkedOrderType(orderType: OrderTypeIntent): { kind: string; maxPrice: bigint | null; minPrice: bigint | null } {
  return orderType.kind === 'BoundedMarket' ? { kind: orderType.kind, maxPrice: orderType.maxPrice, minPrice: orderType.minPrice } : { kind: orderType.kind, maxPrice: null, minPrice: null };
}

function show(value: bigint, decimals: number, symbol: string): string {
  return `${formatUnits(value, decimals)} ${symbol}`;
}

/**
 * Convert and check one order of a Turbo Account. `report` is computed from the live state right
 * before; collateral figures are formatted with the market's quote asset (the pool's collateral).
 */
export function planTurboOrder(market: Market, intent: TurboOrderIntent, report: RiskReport, settings: TurboOrderSettings, poolPaused: boolean): Result<TurboOrderPlan> {
  const warnings: string[] = [];
  let orderType = intent.orderType;
  let price = intent.price;
  const quote = market.quote;
  const base = market.base;
  if (orderType.kind === 'Market') {
    if (!settings.convertMarketOrders) {
      return fail(
        MarginCodes.UNBOUNDED_MARKET_ORDER,
        'order_type: Market is refused on a Turbo Account (margin-api 4.4 rule 5: the pool funds an order at its worst price, and an unbounded market order has none); use BoundedMarket, or turn on the conversion of market orders',
        { field: 'orderType' },
      );
    }
    const bounded = boundMarketOrder(market, intent.side, intent.price, settings.marketSlippageBps);
    orderType = bounded.orderType;
    price = bounded.price;
    warnings.push(
      `Market order sent as BoundedMarket with a worst price of ${show(price, quote.decimals, quote.symbol)} (${settings.marketSlippageBps} bps from ${show(intent.price, quote.decimals, quote.symbol)}): a Turbo Account cannot place unbounded market orders.`,
    );
  } else if (orderType.kind === 'BoundedMarket' && intent.side === 'Buy' && orderType.maxPrice < price) {
    // A bounded buy never fills above its price; its lock is priced at it.
    price = orderType.maxPrice;
  }
  const value = quoteValue(market, price, intent.quantity);
  const asset = report.assets.find((entry) => entry.assetId === base.asset);
  const position = asset?.position ?? 0n;
  const effective = asset?.effectivePosition ?? 0n;

  const increasesExposure = intent.side === 'Buy' ? position >= 0n || intent.quantity > -position : intent.quantity > (effective > 0n ? effective : 0n);
  if (report.health.frozen && increasesExposure) {
    return fail(
      MarginCodes.FROZEN,
      `AccountFrozen: the account is frozen (stressed equity ${show(report.health.stressedEquity, quote.decimals, quote.symbol)} is below the freeze line minus k; distance ${show(report.health.distanceToFreeze, quote.decimals, quote.symbol)}): a ${intent.side} of ${show(intent.quantity, base.decimals, base.symbol)} would increase exposure. Only risk-reducing orders are accepted: sell down a long or buy back a short.`,
      { field: 'quantity' },
    );
  }

  let draw = 0n;
  let borrow = 0n;
  if (intent.side === 'Buy') {
    if (value > report.buyCapacity) {
      const bound = report.exposureHeadroom < report.spendableCash + report.drawableQuote ? `exposure headroom ${show(report.exposureHeadroom, quote.decimals, quote.symbol)} (L minus gross exposure)` : `spendable cash plus drawable quote`;
      return fail(
        MarginCodes.ABOVE_LIMIT,
        `The buy locks ${show(value, quote.decimals, quote.symbol)}, above the buy capacity of ${show(report.buyCapacity, quote.decimals, quote.symbol)} (bounded by ${bound}).`,
        { field: 'quantity', buyCapacity: report.buyCapacity.toString() },
      );
    }
    const missing = value - report.spendableCash;
    if (missing > 0n) {
      if (!settings.fundOrders) {
        return fail(MarginCodes.ABOVE_LIMIT, `The buy locks ${show(value, quote.decimals, quote.symbol)} but the account's spendable cash is ${show(report.spendableCash, quote.decimals, quote.symbol)}: draw ${show(missing, quote.decimals, quote.symbol)} first, or turn on funding of orders.`, { field: 'quantity' });
      }
      if (missing > report.loanHeadroom) {
        return fail(
          MarginCodes.ABOVE_CREDIT_LINE,
          `OutstandingAboveCreditLine: drawing ${show(missing, quote.decimals, quote.symbol)} for the buy would leave outstanding ${show(report.outstanding + missing, quote.decimals, quote.symbol)} above the credit line L of ${show(report.creditLine, quote.decimals, quote.symbol)}.`,
          { field: 'quantity' },
        );
      }
      if (poolPaused) return fail(MarginCodes.POOL_PAUSED, 'The margin pool is paused: the buy needs a draw, and draws are refused until it resumes.');
      draw = missing;
      warnings.push(`Draws ${show(draw, quote.decimals, quote.symbol)} from the pool in the same batch, before the order.`);
    }
  } else {
    // What can be sold without borrowing: the base held, less what resting sells already lock
    // (position - effective position is the resting sell quantity).
    const free = asset === undefined ? 0n : asset.holdings - (asset.position - asset.effectivePosition);
    const sellable = free > 0n ? free : 0n;
    const missing = intent.quantity - sellable;
    if (missing > 0n) {
      const limit = asset?.borrowable.amountWithoutReturn ?? 0n;
      if (!settings.fundOrders) {
        return fail(MarginCodes.ABOVE_LIMIT, `The sale of ${show(intent.quantity, base.decimals, base.symbol)} exceeds the ${show(sellable, base.decimals, base.symbol)} the account can sell: borrow ${show(missing, base.decimals, base.symbol)} first, or turn on funding of orders.`, { field: 'quantity' });
      }
      if (missing > limit) {
        const reason =
          asset?.borrowable.limitedByWithoutReturn === 'LOAN_CAP'
            ? `OutstandingAboveCreditLine: borrowing ${show(missing, base.decimals, base.symbol)} would leave outstanding above the credit line L of ${show(report.creditLine, quote.decimals, quote.symbol)}`
            : `borrowing ${show(missing, base.decimals, base.symbol)} is above what can be borrowed (${show(limit, base.decimals, base.symbol)}, limited by ${asset?.borrowable.limitedByWithoutReturn ?? 'NO_ASK'})`;
        return fail(asset?.borrowable.limitedByWithoutReturn === 'LOAN_CAP' ? MarginCodes.ABOVE_CREDIT_LINE : MarginCodes.ABOVE_LIMIT, `The sale needs a borrow: ${reason}.`, { field: 'quantity', borrowable: limit.toString() });
      }
      if (poolPaused) return fail(MarginCodes.POOL_PAUSED, 'The margin pool is paused: the sale needs a borrow, and borrows are refused until it resumes.');
      borrow = missing;
      warnings.push(`Borrows ${show(borrow, base.decimals, base.symbol)} from the pool in the same batch, before the order.`);
    }
  }
  return ok({ orderType, price, quantity: intent.quantity, quoteValue: value, draw, borrow, warnings });
}
