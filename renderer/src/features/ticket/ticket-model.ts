// The order ticket as a pure function: text fields in, either the exact request for placeOrder
// (with its fee and the amount it will lock) or the first reason it would be refused. Parsing is
// shared/encoding's parseUnits and every market rule is shared/market's validateOrder, so the
// ticket refuses exactly what main and the exchange refuse, before anything is signed.
import { parseUnits } from '../../../../shared/encoding/units';
import type { RequestInput } from '../../../../shared/ipc/contract';
import type { FillView, OrderView, PositionsView, TriggerView } from '../../../../shared/ipc/views';
import { forwardedAmount, lowerQuantityToWholeQuote, orderFee, quoteValue, type Forwarded } from '../../../../shared/market/amounts';
import type { Market } from '../../../../shared/market/market';
import { ORDER_KIND_TABLE, ORDER_KINDS, orderKindRecord, orderKindsWhere, signOrderType } from '../../../../shared/market/order-kinds';
import type { OrderTypeKind, Side } from '../../../../shared/market/order-type';
import { quantityTick, truncateToTick } from '../../../../shared/market/tick';
import { validateOrder } from '../../../../shared/market/validate-order';
import { formatAmount, formatPrice, formatQuantity } from '../../format/market-format';

export { ORDER_KINDS };

export const ORDER_KIND_LABELS: Record<OrderTypeKind, string> = orderKindRecord((kind) => ORDER_KIND_TABLE[kind].label);

export const ORDER_KIND_HELP: Record<OrderTypeKind, string> = {
  Spot: 'Takes what it can at your price or better; the rest rests on the book.',
  Market: 'Immediate or cancel no worse than the best opposite price when sent: it takes only what is offered at that price, and the rest is cancelled. To sweep deeper levels, use Bounded market with your worst price.',
  Limit: 'Rests at your price with price-time priority; the timestamp is stamped now unless you set one.',
  PostOnly: 'Rests only as a maker: refused if any part would trade immediately.',
  FillOrKill: 'Executes in full immediately, or not at all.',
  BoundedMarket: 'Executes immediately, only at prices between the min and max prices; what is not filled at once is cancelled.',
};

/**
 * What the two bounds of a Bounded market order mean for a side (exchange-api.md 2.4: market
 * execution inside [min_price, max_price], max_price >= min_price; both are prices on the tick,
 * above zero). The bound on the side's worst price is the trader's limit; the other is required by
 * the exchange and only keeps the order from filling at a better price than it.
 */
export function boundedMarketHelp(side: Side): { readonly max: string; readonly min: string } {
  return side === 'Buy'
    ? {
        max: 'The most this buy pays: it fills only at offers at or below this price (funds are locked at it). Raise it to take deeper offers.',
        min: 'The exchange requires a floor too (above zero, at most the max price): this buy takes no offer below it. The best bid leaves every offer on the book.',
      }
    : {
        min: 'The least this sell accepts: it fills only at bids at or above this price. Lower it to reach deeper bids.',
        max: 'The exchange requires a ceiling too (at least the min price): this sell takes no bid above it. The best offer leaves every bid on the book.',
      };
}

/**
 * Bounds from the live inside: a buy pays at most the best offer and its floor is the best bid; a
 * sell accepts at least the best bid and its ceiling is the best offer. Either way the required
 * bound lies beyond every level of the other side now. Null without both sides of the book.
 */
export function boundedMarketPrefill(bestBid: bigint | null, bestAsk: bigint | null): { readonly maxPrice: bigint; readonly minPrice: bigint } | null {
  if (bestBid === null || bestAsk === null || bestBid > bestAsk) return null;
  // The same two prices for both sides; which one is the trader's limit is the side's worst price.
  return { maxPrice: bestAsk, minPrice: bestBid };
}

export type TicketField = 'price' | 'quantity' | 'maxPrice' | 'minPrice' | 'timestamp' | 'order';

export interface TicketFields {
  readonly side: Side;
  readonly kind: OrderTypeKind;
  readonly priceText: string;
  readonly quantityText: string;
  readonly maxPriceText: string;
  readonly minPriceText: string;
  /** Unix seconds for a Limit order; empty lets main stamp the current time. */
  readonly timestampText: string;
}

export interface TicketContext {
  readonly market: Market;
  readonly turbo: boolean;
  /** From settings: the largest quantity the trader allows in this market (raw base), or null. */
  readonly maxOrderQuantity: bigint | null;
  readonly bestBid: bigint | null;
  readonly bestAsk: bigint | null;
  /** Unlocked quote and base (raw), or null when balances are not known. */
  readonly availableQuote: bigint | null;
  readonly availableBase: bigint | null;
}

export type PlaceOrderInput = RequestInput<'placeOrder'>;

export interface TicketReady {
  readonly ok: true;
  readonly request: PlaceOrderInput;
  /** The price the amounts are computed at (for market orders, the best opposite price: an estimate). */
  readonly price: bigint;
  readonly priceIsEstimate: boolean;
  readonly quantity: bigint;
  readonly quoteValue: bigint;
  /** Taker fee if the whole order executes as taker: the worst case, in quote raw units. */
  readonly takerFee: bigint;
  readonly locked: Forwarded;
  /** Things worth knowing that do not block the order. */
  readonly warnings: readonly string[];
}

export interface TicketRefused {
  readonly ok: false;
  readonly field: TicketField;
  readonly code: string;
  readonly message: string;
}

export type TicketEvaluation = TicketReady | TicketRefused;

function refuse(field: TicketField, code: string, message: string): TicketRefused {
  return { ok: false, field, code, message };
}

function fieldOf(details: Readonly<Record<string, unknown>> | undefined, fallback: TicketField): TicketField {
  const field = details?.['field'];
  if (field === 'price' || field === 'Price' || field === 'Limit price') return 'price';
  if (field === 'Maximum price') return 'maxPrice';
  if (field === 'Minimum price') return 'minPrice';
  if (field === 'quantity') return 'quantity';
  return fallback;
}

function parsePrice(market: Market, text: string, label: string, field: TicketField): TicketRefused | bigint {
  if (text.trim() === '') return refuse(field, 'MISSING', `${label} is empty.`);
  const parsed = parseUnits(text.trim(), market.quote.decimals, label);
  return parsed.ok ? parsed.value : refuse(field, parsed.code, parsed.message);
}

export function evaluateTicket(fields: TicketFields, context: TicketContext): TicketEvaluation {
  const { market } = context;
  const warnings: string[] = [];
  if (fields.quantityText.trim() === '') return refuse('quantity', 'MISSING', 'Enter a quantity: the Quantity field is empty.');
  const quantityParsed = parseUnits(fields.quantityText.trim(), market.base.decimals, 'Quantity');
  if (!quantityParsed.ok) return refuse('quantity', quantityParsed.code, quantityParsed.message);
  const quantity = quantityParsed.value;

  let price: bigint;
  let priceIsEstimate = false;
  let requestType: PlaceOrderInput['orderType'];
  switch (fields.kind) {
    case 'Market': {
      const best = fields.side === 'Buy' ? context.bestAsk : context.bestBid;
      if (best === null) return refuse('order', 'NO_LIQUIDITY', `There are no ${fields.side === 'Buy' ? 'offers to buy from' : 'bids to sell to'}; a market order would be cancelled unfilled.`);
      price = best;
      priceIsEstimate = true;
      requestType = { kind: 'Market' };
      // Said exactly: the exchange executes a Market order no worse than its
      // price, the best opposite price when sent; it does not sweep deeper levels.
      warnings.push(
        context.turbo
          ? `Market order: on a Turbo book main sends it bounded (see the check below); at the best ${fields.side === 'Buy' ? 'offer' : 'bid'} ${formatPrice(market, best)} ${market.quote.symbol} now.`
          : `Market order: fills only what is offered at ${formatPrice(market, best)} ${market.quote.symbol} or better (the best ${fields.side === 'Buy' ? 'offer' : 'bid'} now); whatever is not filled at once is cancelled, not rested. To take deeper levels, use Bounded market with your worst price.`,
      );
      break;
    }
    case 'BoundedMarket': {
      const help = boundedMarketHelp(fields.side);
      const lower = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);
      if (fields.maxPriceText.trim() === '') return refuse('maxPrice', 'MISSING', `Max price is empty: ${lower(help.max)}`);
      if (fields.minPriceText.trim() === '') return refuse('minPrice', 'MISSING', `Min price is empty: ${lower(help.min)}`);
      const maxPrice = parsePrice(market, fields.maxPriceText, 'Max price', 'maxPrice');
      if (typeof maxPrice !== 'bigint') return maxPrice;
      const minPrice = parsePrice(market, fields.minPriceText, 'Min price', 'minPrice');
      if (typeof minPrice !== 'bigint') return minPrice;
      if (maxPrice === 0n) return refuse('maxPrice', 'ZERO_PRICE', 'Max price must be above zero.');
      // The worst price for the side is the order's price and what locks funds: a buy may pay up
      // to the maximum, a sell receives at least the minimum.
      price = fields.side === 'Buy' ? maxPrice : minPrice;
      requestType = { kind: 'BoundedMarket', maxPrice, minPrice };
      break;
    }
    case 'Limit': {
      const parsed = parsePrice(market, fields.priceText, 'Price', 'price');
      if (typeof parsed !== 'bigint') return parsed;
      price = parsed;
      let timestamp: bigint | undefined;
      if (fields.timestampText.trim() !== '') {
        if (!/^[0-9]{1,12}$/.test(fields.timestampText.trim())) return refuse('timestamp', 'INVALID_TIMESTAMP', `Timestamp ${JSON.stringify(fields.timestampText)} is not whole Unix seconds.`);
        timestamp = BigInt(fields.timestampText.trim());
      }
      requestType = timestamp === undefined ? { kind: 'Limit' } : { kind: 'Limit', timestamp };
      break;
    }
    default: {
      const parsed = parsePrice(market, fields.priceText, 'Price', 'price');
      if (typeof parsed !== 'bigint') return parsed;
      price = parsed;
      requestType = { kind: fields.kind };
    }
  }

  if (context.maxOrderQuantity !== null && quantity > context.maxOrderQuantity) {
    return refuse(
      'quantity',
      'MAX_ORDER_SIZE',
      `Quantity ${formatQuantity(market, quantity)} ${market.base.symbol} is above your maximum order size of ${formatQuantity(market, context.maxOrderQuantity)} ${market.base.symbol} (Settings).`,
    );
  }

  // Checked as main will sign it; an absent Limit timestamp is checked as 0 (main stamps the time).
  const orderType = signOrderType(requestType, price, 0n);
  const validated = validateOrder({ ...market, turbo: context.turbo }, { side: fields.side, price, quantity, order_type: orderType });
  if (!validated.ok) return refuse(fieldOf(validated.details, 'order'), validated.code, validated.message);

  // Post only against the book this window has: one that would trade now is refused here, not
  // signed for the exchange to revert (PostOnlyWouldTake).
  if (fields.kind === 'PostOnly') {
    const opposite = fields.side === 'Buy' ? context.bestAsk : context.bestBid;
    if (opposite !== null && (fields.side === 'Buy' ? price >= opposite : price <= opposite)) {
      return refuse(
        'price',
        'POST_ONLY_WOULD_CROSS',
        `Post only: a ${fields.side.toLowerCase()} at ${formatPrice(market, price)} would trade against the best ${fields.side === 'Buy' ? 'offer' : 'bid'} ${formatPrice(market, opposite)} ${market.quote.symbol} now, and the exchange refuses it. Set a price ${fields.side === 'Buy' ? 'below' : 'above'} ${formatPrice(market, opposite)}.`,
      );
    }
  }

  // A Limit order priced through the inside trades now, as a taker, before any rest of it rests:
  // said before signing (a ladder click in the bid column above the best offer does exactly this).
  if (fields.kind === 'Limit') {
    const opposite = fields.side === 'Buy' ? context.bestAsk : context.bestBid;
    if (opposite !== null && (fields.side === 'Buy' ? price >= opposite : price <= opposite)) {
      const best = `the best ${fields.side === 'Buy' ? 'offer' : 'bid'} ${formatPrice(market, opposite)} ${market.quote.symbol}`;
      warnings.push(
        price === opposite
          ? `Takes liquidity: this ${fields.side.toLowerCase()} at ${best} trades now at the taker fee; only what is not filled there rests.`
          : `Crosses the spread: this ${fields.side.toLowerCase()} at ${formatPrice(market, price)} trades now against ${best} and every level up to its price, at the taker fee; only what is not filled there rests.`,
      );
    }
  }

  // More than the signing account has unlocked: the exchange would revert it (InsufficientBalance).
  const locked = forwardedAmount(market, fields.side, price, quantity);
  const available = fields.side === 'Buy' ? context.availableQuote : context.availableBase;
  if (available !== null && locked.amount > available) {
    const asset = fields.side === 'Buy' ? market.quote : market.base;
    return refuse(
      'quantity',
      'INSUFFICIENT_BALANCE',
      `Not enough ${asset.symbol}: this order locks ${formatAmount(locked.amount, asset.decimals)} ${asset.symbol} but only ${formatAmount(available, asset.decimals)} ${asset.symbol} is unlocked: reduce the size, or settle a book first.`,
    );
  }
  return {
    ok: true,
    request: { marketId: market.market_id, ...(context.turbo ? { turbo: true } : {}), side: fields.side, orderType: requestType, price, quantity },
    price,
    priceIsEstimate,
    quantity,
    quoteValue: quoteValue(market, price, quantity),
    takerFee: orderFee(market, price, quantity, 'taker'),
    locked,
    warnings,
  };
}

/**
 * The quantity that uses `percent` (0-100) of what is available: buys spend quote
 * (available * percent / 100 worth at `price`), sells sell base. Floored to the quantity tick and
 * to a whole quote value at that price, so the result always passes the precision rules.
 */
export function quantityForPercent(market: Market, side: Side, percent: number, price: bigint | null, available: bigint): bigint {
  if (!Number.isInteger(percent) || percent <= 0 || available <= 0n) return 0n;
  const share = (available * BigInt(Math.min(percent, 100))) / 100n;
  if (side === 'Sell') return truncateToTick(share, quantityTick(market)).value;
  if (price === null || price <= 0n) return 0n;
  const scale = 10n ** BigInt(market.base.decimals);
  const affordable = (share * scale) / price;
  return lowerQuantityToWholeQuote(market, price, affordable);
}

/**
 * Who signs an order on the book in view, and so whose funds "Available" is: the trading account
 * on a canonical book, and on a Turbo book unless a Turbo Account is selected to trade Turbo books
 * ("Trade Turbo books as this account"), which then signs with its own funds and credit.
 */
export type TicketSigner = { readonly kind: 'trading-account' } | { readonly kind: 'turbo-account'; readonly account: string };

export function ticketSigner(turbo: boolean, tradingAs: string | null | undefined): TicketSigner {
  return turbo && tradingAs ? { kind: 'turbo-account', account: tradingAs } : { kind: 'trading-account' };
}

/** What the ticket knows of the balance an order would spend (the signing trading account's). */
export type TicketBalanceState =
  /** Known and current. */
  | { readonly kind: 'known' }
  /** Not read yet, or being read again (just after setup, a network switch, a reconnect). */
  | { readonly kind: 'loading'; readonly symbol: string; readonly problem: string | null }
  /** Not the trading account's balance: a Turbo Account signs, and main checks its funds. */
  | { readonly kind: 'not-ours' };

export interface SendState {
  /** Why the order cannot be sent now, in words for the button's title and the line under it; '' when it can. */
  readonly reason: string;
  /** The reason is a plain fact of the form not yet filled in (shown muted, not as an error). */
  readonly incomplete: boolean;
}

/**
 * Why the ticket's send button is disabled, always in words: the ticket says it before
 * the trader touches the form, not only after. `blocked` is a reason that has nothing to do with the
 * form (no session, Turbo rules or check, a bracket leg). Balances still loading come before a
 * refusal the evaluation made from a balance that is not known yet.
 */
export function sendState(evaluation: TicketEvaluation, balance: TicketBalanceState, blocked: string, sending: boolean): SendState {
  if (sending) return { reason: '', incomplete: false };
  if (blocked !== '') return { reason: blocked, incomplete: false };
  if (balance.kind === 'loading') {
    return { reason: `Balances loading…: the ${balance.symbol} available to this order is not known yet${balance.problem ? ` (${balance.problem})` : ''}.`, incomplete: true };
  }
  if (evaluation.ok) return { reason: '', incomplete: false };
  return { reason: evaluation.message, incomplete: evaluation.code === 'MISSING' };
}

// ---- reduce-only ---------------------------------------------------------------------------------
// The venue has no reduce-only flag (exchange-api.md 2.4: Spot, Market, Limit, PostOnly, FillOrKill,
// BoundedMarket). The ticket makes it exact on our side where it can: only for an order that
// executes at once (Market, Bounded market, Fill or kill: nothing is left resting for later fills
// to turn into a flip), only against a position known from a read of the fills made after the
// window's last fill of that book, on the closing side, and capped so that this order together
// with every closing order already resting and every pending closing leg cannot take the position
// past zero. Everything else is refused with the reason (docs/protocol.md "Reduce-only").

/** Order types reduce-only can be exact for: they execute at once and never rest. */
export const REDUCE_ONLY_KINDS: readonly OrderTypeKind[] = orderKindsWhere('executesAtOnce');

export interface ReduceOnlyContext {
  readonly market: Market;
  readonly side: Side;
  readonly kind: OrderTypeKind;
  /** The order's quantity (raw base), or null while the field does not parse. */
  readonly quantity: bigint | null;
  /**
   * The signing account's position on this book: its signed size (raw base, positive long), or
   * `unknown` with the reason (not read yet, stale, the book's history unreadable).
   */
  readonly position: { readonly size: bigint } | { readonly unknown: string };
  /** Remaining quantity of the account's orders resting on this book, on the closing side. */
  readonly restingClosing: bigint;
  /** Quantity the account's pending legs on this book would close when they fire (an OCO pair once). */
  readonly legsClosing: bigint;
  /** The book in words, for the messages: "Canonical book" / "Turbo book". */
  readonly book: string;
}

export type ReduceOnlyCheck =
  | { readonly ok: true; readonly cap: bigint; readonly text: string }
  | { readonly ok: false; readonly code: string; readonly message: string; readonly cap: bigint | null };

export function reduceOnlyCheck(context: ReduceOnlyContext): ReduceOnlyCheck {
  const { market } = context;
  const base = market.base.symbol;
  if (!REDUCE_ONLY_KINDS.includes(context.kind)) {
    return {
      ok: false,
      code: 'REDUCE_ONLY_RESTING',
      cap: null,
      message: `Reduce-only works here with Market, Bounded market or Fill or kill only: this venue has no reduce-only flag, and a ${ORDER_KIND_LABELS[context.kind]} order can rest on the book, where fills of your other orders could later turn it into a flip. Choose one of those types, or size a resting order yourself.`,
    };
  }
  if ('unknown' in context.position) {
    return { ok: false, code: 'REDUCE_ONLY_POSITION_UNKNOWN', cap: null, message: `Reduce-only needs your position on the ${context.book}, which is not known now (${context.position.unknown}); nothing can be capped to it.` };
  }
  const size = context.position.size;
  if (size === 0n) return { ok: false, code: 'REDUCE_ONLY_NO_POSITION', cap: null, message: `Reduce-only: you have no ${base} position on the ${context.book} to reduce.` };
  const closing: Side = size > 0n ? 'Sell' : 'Buy';
  const magnitude = size > 0n ? size : -size;
  const what = `${size > 0n ? 'long' : 'short'} ${formatQuantity(market, magnitude)} ${base}`;
  if (context.side !== closing) {
    return { ok: false, code: 'REDUCE_ONLY_WRONG_SIDE', cap: null, message: `Reduce-only: a ${context.side.toLowerCase()} would add to your ${what}; only a ${closing.toLowerCase()} reduces it.` };
  }
  const committed = context.restingClosing + context.legsClosing;
  const free = magnitude - committed;
  const cap = free > 0n ? truncateToTick(free, quantityTick(market)).value : 0n;
  const parts = [context.restingClosing > 0n ? `${formatQuantity(market, context.restingClosing)} in resting ${closing.toLowerCase()}s` : '', context.legsClosing > 0n ? `${formatQuantity(market, context.legsClosing)} in pending take-profit/stop-loss legs` : ''].filter(Boolean);
  const less = parts.length > 0 ? ` less ${parts.join(' and ')}` : '';
  if (cap === 0n) {
    return { ok: false, code: 'REDUCE_ONLY_COVERED', cap: 0n, message: `Reduce-only: your ${what} is already covered by ${parts.join(' and ') || 'nothing the quantity step allows'}; cancel some of them to close more.` };
  }
  if (context.quantity !== null && context.quantity > cap) {
    return { ok: false, code: 'REDUCE_ONLY_FLIP', cap, message: `Reduce-only: ${formatQuantity(market, context.quantity)} ${base} would flip your ${what}${less}; at most ${formatQuantity(market, cap)} ${base}.` };
  }
  return { ok: true, cap, text: `Reduce-only: closes at most ${formatQuantity(market, cap)} ${base} of your ${what}${less}.` };
}

/** What the window knows, to fill a ReduceOnlyContext for one book and signing account. */
export interface ReduceOnlyFacts {
  readonly market: Market;
  readonly turbo: boolean;
  /** The account that signs on this book (trading account or the selected Turbo Account). */
  readonly account: string | null;
  /** The last positions read, or null before the first answer. */
  readonly positions: PositionsView | null;
  /** Why the last read failed, if it did. */
  readonly positionsError: string | null;
  readonly openOrders: readonly OrderView[];
  readonly pendingLegs: readonly TriggerView[];
  /** Fills the window knows (newest first or any order). */
  readonly fills: readonly Pick<FillView, 'orderId' | 'marketId' | 'turbo' | 'quantity' | 'time'>[];
}

/**
 * The position (or why it is unknown) and the quantities already committed to closing it. A read of
 * the positions older than the window's newest fill of the book is not trusted; a pending leg sized
 * from an order whose filled size the window cannot tell makes the commitment unknown.
 */
export function reduceOnlyFacts(facts: ReduceOnlyFacts): Pick<ReduceOnlyContext, 'position' | 'restingClosing' | 'legsClosing'> {
  const { market, turbo } = facts;
  const none = { restingClosing: 0n, legsClosing: 0n };
  if (facts.account === null) return { position: { unknown: 'no signing account yet' }, ...none };
  if (facts.positionsError !== null) return { position: { unknown: `the positions could not be read: ${facts.positionsError}` }, ...none };
  const view = facts.positions;
  if (view === null) return { position: { unknown: 'the fills are still being read' }, ...none };
  if (view.problems.length > 0) return { position: { unknown: view.problems.join('; ') }, ...none };
  const onBook = (fill: { marketId: string; turbo: boolean }) => fill.marketId === market.market_id && fill.turbo === turbo;
  const newestFill = facts.fills.filter(onBook).reduce((newest, fill) => Math.max(newest, fill.time), 0);
  if (newestFill > view.asOf) return { position: { unknown: 'your last fill on this book is newer than the positions read; reading them again' }, ...none };
  const position = view.positions.find((candidate) => candidate.account === facts.account && onBook(candidate));
  const size = position?.size ?? 0n;
  if (size === 0n) return { position: { size: 0n }, ...none };
  const closing: Side = size > 0n ? 'Sell' : 'Buy';
  let restingClosing = 0n;
  for (const order of facts.openOrders) {
    if (!onBook(order) || order.side !== closing || (order.account !== '' && order.account !== facts.account)) continue;
    if (order.status === 'open' || order.status === 'partially-filled') restingClosing += order.quantity - order.filled;
  }
  // Legs: each closes its own size, or what its order has filled (an open order: its filled part;
  // what it fills later adds to the position as much as to the leg; a closed one: the fills the
  // window knows).
  const sizeOf = (leg: TriggerView): bigint | null => {
    if (leg.quantity !== null) return leg.quantity;
    const parent = facts.openOrders.find((order) => order.orderId === leg.parentOrderId);
    if (parent !== undefined) return parent.filled;
    const filled = facts.fills.filter((fill) => fill.orderId === leg.parentOrderId).reduce((sum, fill) => sum + fill.quantity, 0n);
    return filled > 0n ? filled : null;
  };
  const pairs = new Map<string, bigint>();
  for (const leg of facts.pendingLegs) {
    if (!onBook(leg) || leg.side !== closing || leg.state !== 'pending') continue;
    const legSize = sizeOf(leg);
    if (legSize === null) return { position: { unknown: `the size of the pending leg ${leg.triggerId.slice(0, 8)}… (sized from its order) is not known here` }, ...none };
    // An OCO pair fires one leg only: counted once, at the larger.
    const key = leg.ocoId === null ? leg.triggerId : [leg.triggerId, leg.ocoId].sort().join('|');
    pairs.set(key, (pairs.get(key) ?? 0n) > legSize ? pairs.get(key)! : legSize);
  }
  const legsClosing = [...pairs.values()].reduce((sum, value) => sum + value, 0n);
  return { position: { size }, restingClosing, legsClosing };
}
