// What a refusal means to a trader, in one place: every on-chain revert reason the exchange can
// answer (the spec's and the sandbox's, docs/sandbox.md "Revert reasons") and every failure code
// main returns, each as a sentence that says what happened and what to do. The raw exchange text
// is never thrown away: `describeFailure` returns it as `details`, which the notification centre
// shows behind its "Details" toggle. Runtime-neutral: main and the renderer both use it.
import { formatUnits } from '../encoding/units';
import type { MarketRules } from '../market/market';
import type { Failure } from '../result';

/** What the caller knows about the order (or action) the refusal answers; every field optional. */
export interface RefusalContext {
  /** "ETH/USDC": the market as the screen names it. */
  readonly pair?: string;
  readonly base?: { readonly symbol: string; readonly decimals: number };
  /** `shown`: the market's price decimals (max_precision), so a price reads as the ladder writes it. */
  readonly quote?: { readonly symbol: string; readonly decimals: number; readonly shown?: number };
  readonly side?: 'Buy' | 'Sell';
  readonly price?: bigint;
  readonly quantity?: bigint;
  /** Market rules, in raw units: min_order in quote, dust in base; price_window in percent. */
  readonly minOrder?: bigint;
  readonly dust?: bigint;
  readonly priceWindow?: number;
  /** The amount the order locks and what the signing account had unlocked of that asset. */
  readonly needs?: { readonly amount: bigint; readonly symbol: string; readonly decimals: number; readonly available: bigint | null };
}

type Sentence = (context: RefusalContext) => string;

/** What the sentences may say about a market: its name as the screen writes it and its rules. */
export function marketRefusalContext(market: MarketRules & { readonly price_window?: number }, pair: string): RefusalContext {
  return {
    pair,
    base: { symbol: market.base.symbol, decimals: market.base.decimals },
    quote: { symbol: market.quote.symbol, decimals: market.quote.decimals, shown: Math.max(0, market.quote.max_precision) },
    minOrder: market.min_order,
    dust: market.dust,
    ...(market.price_window === undefined ? {} : { priceWindow: market.price_window }),
  };
}

function amount(raw: bigint, decimals: number): string {
  return formatUnits(raw, decimals, { groupSeparator: ',' });
}

function market(context: RefusalContext): string {
  return context.pair ?? 'this market';
}

function priceText(context: RefusalContext): string | null {
  if (context.price === undefined || !context.quote) return null;
  const shown = Math.min(context.quote.shown ?? 0, context.quote.decimals);
  return `${formatUnits(context.price, context.quote.decimals, { groupSeparator: ',', minimumFractionDigits: shown })} ${context.quote.symbol}`;
}

function sizeText(context: RefusalContext): string | null {
  return context.quantity !== undefined && context.base ? `${amount(context.quantity, context.base.decimals)} ${context.base.symbol}` : null;
}

/**
 * One sentence per revert reason. Keyed by the reason exactly as the exchange writes it. Order
 * reasons first (spec 7 and the wire notes name TraderNotWhiteListed, PricePrecision,
 * FractionalPrice, QuantityMustBeParentOrder, MarketNotFound), then trigger legs, owner calls and margin.
 */
export const REVERT_SENTENCES: Readonly<Record<string, Sentence>> = {
  // Orders
  TraderNotWhiteListed: (c) => `This trading account is not whitelisted on ${market(c)}: whitelist it in Account setup, then send the order again.`,
  InvalidQuantity: (c) => `The order has no size: enter a quantity above 0${c.base ? ` ${c.base.symbol}` : ''}.`,
  InvalidPrice: (c) => `The order has no valid price: enter a price above 0${c.quote ? ` ${c.quote.symbol}` : ''}.`,
  PricePrecision: (c) => `${priceText(c) ? `The price ${priceText(c)}` : 'The price'} is not on ${market(c)}'s price tick: round it to the tick and send it again.`,
  QuantityPrecision: (c) => `${sizeText(c) ? `The size ${sizeText(c)}` : 'The size'} has more decimals than ${market(c)} accepts: round it and send it again.`,
  InvalidBounds: () => 'The bounded market order has its bounds the wrong way round: the lowest price must be below the highest.',
  FractionalPrice: (c) => `Price times size does not come to a whole number of ${c.quote?.symbol ?? 'quote'} units: change the size by one step and send it again.`,
  OrderBelowMinimum: (c) =>
    c.minOrder !== undefined && c.quote ? `The order is below ${market(c)}'s minimum of ${amount(c.minOrder, c.quote.decimals)} ${c.quote.symbol}: increase the size.` : `The order is below ${market(c)}'s minimum order value: increase the size.`,
  DustOrder: (c) => (c.dust !== undefined && c.base ? `The size is below ${market(c)}'s smallest tradable amount (${amount(c.dust, c.base.decimals)} ${c.base.symbol}): increase it.` : `The size is below ${market(c)}'s smallest tradable amount: increase it.`),
  Overflow: () => 'The order is too large for the exchange to compute: reduce the size or the price.',
  PriceOutsideWindow: (c) => {
    const band = c.priceWindow !== undefined ? `${c.priceWindow}%` : 'the allowed band';
    const price = priceText(c);
    return `${price ? `The price ${price} is` : 'The price is'} more than ${band} away from ${market(c)}'s last trade: the exchange only takes limit prices within ${band} of it. Use a price nearer the market, or a market order.`;
  },
  InsufficientBalance: (c) =>
    c.needs && c.needs.available !== null
      ? `Not enough ${c.needs.symbol}: the order needs ${amount(c.needs.amount, c.needs.decimals)} ${c.needs.symbol}, you have ${amount(c.needs.available, c.needs.decimals)} ${c.needs.symbol}.`
      : c.needs
        ? `Not enough ${c.needs.symbol}: the order needs ${amount(c.needs.amount, c.needs.decimals)} ${c.needs.symbol} unlocked in the trading account.`
        : 'Not enough funds in the trading account for this: deposit, settle a book, or reduce the size.',
  PostOnlyWouldTake: (c) => `Post-only order not placed: ${priceText(c) ? `at ${priceText(c)} ` : ''}it would have traded at once against the ${c.side === 'Sell' ? 'best bid' : c.side === 'Buy' ? 'best offer' : 'book'}. Nothing traded.`,
  FillOrKillNotFilled: (c) => `Fill-or-kill order not filled: the book could not fill ${sizeText(c) ? `all ${sizeText(c)}` : 'the whole size'}${priceText(c) ? ` at ${priceText(c)} or better` : ''}, so nothing traded.`,
  OrderNotFound: () => 'That order is no longer open (it filled, was cancelled, or is not yours): nothing was changed.',
  MarketNotFound: (c) => `${c.pair ? `${c.pair} has no such book` : 'The exchange does not know this market or book'} (a Turbo book may not exist for it): nothing was sent.`,
  Unauthorized: () => 'This account is not allowed to do that on the exchange: nothing was changed.',
  UnsupportedCall: () => 'The exchange does not support this call on that contract: nothing was changed.',
  InvalidArguments: () => 'The exchange refused the values of this call: nothing was changed. See the details.',
  InvalidDestination: () => 'The destination address is not valid for this transfer: nothing was sent.',
  RefererAlreadyRegistered: () => 'A referrer is already registered for this account: it cannot be changed.',
  // Trigger legs (take-profit, stop-loss)
  TriggerAtMarket: () => 'The trigger price is exactly the market price: put it above or below the market.',
  NoReferencePrice: (c) => `${c.pair ?? 'The market'} has no trade and no quotes yet, so a trigger has no side of the market: wait for the first trade.`,
  TriggerSlippageExceeded: () => "The leg's slippage is wider than this Turbo book allows: narrow it.",
  TriggerSameSide: () => 'Both legs of the pair are on the same side of the market: one must be above it and one below.',
  TriggerSideMismatch: () => "The leg's side does not close the position of its order: a buy's legs sell, a sale's legs buy.",
  TriggerParentMismatch: () => 'The leg names an order of another market or account: attach it to one of your orders in this market.',
  TriggerLockOrder: () => "The leg's funds are held by its order: cancel the leg before moving or cancelling the order.",
  ParentOrderNotFound: () => 'The order this leg belongs to is not open any more: the leg was not placed.',
  ParentOrderClosed: () => 'The order this leg belongs to is already closed: the leg was not placed.',
  ParentOrderRequired: () => 'This leg needs an order to attach to: place the entry order with it.',
  QuantityMustBeParentOrder: () => "A leg attached to an order takes the order's size: leave the leg's size to follow the order.",
  UnboundedMarketOrder: () => 'A Turbo Account cannot send an unbounded market order: give it a worst price (bounded market) instead.',
  // Margin and Turbo Accounts
  NoActiveSession: () => 'The Turbo Account has no active margin session: open one in the Margin panel first.',
  SessionActive: () => 'The margin session is still active: close it before doing this.',
  SessionAlreadyActive: () => 'A margin session is already open on this Turbo Account.',
  OutstandingAboveCreditLine: () => 'This would take the Turbo Account above its credit line: reduce the size or add collateral.',
  AccountFrozen: () => 'The Turbo Account is frozen near its liquidation line: only actions that reduce risk are accepted. Reduce the position or add collateral.',
  WithdrawalTooLarge: () => 'Withdrawing this much would leave the Turbo Account frozen or liquidatable: withdraw less.',
  RiskUnavailable: () => 'The exchange cannot value the Turbo Account right now (a price is missing): try again in a moment.',
  InsufficientCollateral: () => 'Not enough collateral in the Turbo Account for this: add collateral or reduce the amount.',
  InsufficientPoolInventory: () => 'The lending pool does not hold enough of this asset to lend it now: borrow less or try later.',
  CollateralNotBorrowable: () => 'This asset cannot be borrowed on this margin tier.',
  AssetNotSupported: () => 'This asset is not supported by the margin account.',
  BookNotInTier: () => "This book is not part of the Turbo Account's margin tier.",
  DebtOutstanding: () => 'The Turbo Account still owes a debt: repay it first.',
  RepayExceedsDebt: () => 'The repayment is more than the debt: repay at most what is owed.',
  RepayExceedsDrawn: () => 'The repayment is more than was drawn: repay at most what was drawn.',
  ReturnExceedsDrawn: () => 'The amount returned is more than was drawn: return at most what was drawn.',
  ExpectedQuantityMismatch: () => 'The amount the exchange computed differs from the one signed (the state moved): reload the margin state and try again.',
  InexactOpeningAmount: () => 'A prepaid tier must be opened with its exact amount: reload the tier and try again.',
  OpeningAmountBelowFloor: () => "The opening amount is below the tier's floor: raise it to the amount the tier asks for.",
  PeriodNotAllowed: () => 'This tier does not offer that period: choose one of the periods it lists.',
  ProlongNotAvailable: () => 'The session cannot be prolonged now.',
  TierNotFound: () => 'That margin tier is not offered any more: choose another one.',
  PoolPaused: () => 'The lending pool is paused: borrowing and lending wait until it resumes.',
  NotLiquidatable: () => 'The Turbo Account is not liquidatable.',
  InvalidIndex: () => 'The exchange refused an index in the request (the state moved): reload and try again.',
  InvalidMarginAccountId: () => 'The Turbo Account named is not valid.',
  MarginAccountNotFound: () => 'The exchange does not know that Turbo Account.',
  StaleCleanups: () => 'The Turbo Account changed while it was being closed (orders or balances moved): reload it and close again.',
};

/** "PriceOutsideWindow" -> "price outside window". */
function words(reason: string): string {
  return reason
    .replace(/_/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .trim();
}

/** The trader sentence of a revert reason; an unknown reason still reads as a sentence and says nothing changed. */
export function revertSentence(reason: string, context: RefusalContext = {}): string {
  const known = Object.hasOwn(REVERT_SENTENCES, reason) ? REVERT_SENTENCES[reason] : undefined;
  if (known) return known(context);
  const said = words(reason);
  return `The exchange refused the transaction (${said === '' ? 'no reason given' : said}): nothing was changed. See the details.`;
}

/**
 * Sentences for the refusals the exchange answers before submission, by the error name it sends
 * (sandbox/http/errors.ts ERROR_NAMES; main keeps it as details.exchangeName).
 */
export const REFUSAL_SENTENCES: Readonly<Record<string, Sentence>> = {
  MarketNotFound: REVERT_SENTENCES.MarketNotFound!,
  OrderNotFound: REVERT_SENTENCES.OrderNotFound!,
  MarketPaused: (c) => `${market(c)} is paused: the exchange takes no new orders there until it resumes.`,
  HouseBookDisconnected: (c) => `The Turbo book of ${market(c)} is disconnected: new orders wait until it is back.`,
  NoSession: () => 'There is no trading session: create one in Account setup.',
  SessionExpired: () => 'The trading session has expired: renew it in Account setup.',
  ContractNotInSessionScope: () => "This book is not in the trading session's scope: renew the session with it.",
  MarginAccountNotInSessionScope: () => "This Turbo Account is not in the trading session's scope: renew the session with it.",
  NonceMismatch: () => 'The request used an outdated sequence number: the terminal resynchronised it; send again.',
  ParallelNonceNotUsable: () => 'The request used an outdated sequence number: the terminal resynchronised it; send again.',
  UnboundedMarketOrder: REVERT_SENTENCES.UnboundedMarketOrder!,
  TooManyActions: () => 'A signed batch holds at most 5 actions: split it.',
  InvalidExecutionBound: () => 'The worst price of the order is not valid: set a positive bound.',
  HouseActionOnTurboBook: () => 'That action is only for the canonical book.',
};

/** Sentences for main's own failure codes where the code says more to a trader than main's message. */
export const CODE_SENTENCES: Readonly<Record<string, Sentence>> = {
  RATE_LIMITED: () => "The exchange's rate limit refused it (another device on the same owner may be using the budget): the details say whether it was retried and whether anything could have landed.",
  TIMEOUT: () => 'The exchange did not answer in time: nothing was sent. Check the connection and try again.',
  NETWORK_ERROR: () => 'The exchange cannot be reached: nothing was sent. Check the connection.',
  SERVER_ERROR: () => 'The exchange failed to process the request (a server error): try again shortly.',
  OUTCOME_UNKNOWN: () => 'No clear answer after sending (lost, timed out, or a server error the exchange may give after applying it): the request may have been applied. The terminal checks with the exchange; do not send it again before the result is known.',
  SIGNATURE_INVALID: () => 'The exchange did not accept the signature: nothing was applied. Check that the session key is current (Account setup).',
  TOO_MANY_ACTIONS: REFUSAL_SENTENCES.TooManyActions!,
};

export interface FailureText {
  /** What a trader reads first. */
  readonly sentence: string;
  /** The raw text and codes, for the "Details" toggle. */
  readonly details: string;
}

/** The raw text of a failure: its code, main's message and the structured details (exchange code, revert reason, receipts). */
export function failureDetails(failure: Pick<Failure, 'code' | 'message' | 'details'>): string {
  const lines = [`${failure.code}: ${failure.message}`];
  for (const [key, value] of Object.entries(failure.details ?? {})) {
    if (value !== null && value !== undefined) lines.push(`${key}: ${String(value)}`);
  }
  return lines.join('\n');
}

/** A failure as a trader reads it, with the raw text kept as details. */
export function describeFailure(failure: Pick<Failure, 'code' | 'message' | 'details'>, context: RefusalContext = {}): FailureText {
  const details = failureDetails(failure);
  const reason = failure.details?.reason;
  const name = failure.details?.exchangeName;
  let sentence: string;
  if (failure.code === 'ONCHAIN_REVERT' && typeof reason === 'string') sentence = revertSentence(reason, context);
  else if (typeof name === 'string' && Object.hasOwn(REFUSAL_SENTENCES, name)) sentence = REFUSAL_SENTENCES[name]!(context);
  else if (Object.hasOwn(CODE_SENTENCES, failure.code)) sentence = CODE_SENTENCES[failure.code]!(context);
  // main's own failures (validation, readiness, confirmations) are written as sentences already.
  else sentence = failure.message;
  return { sentence, details };
}
