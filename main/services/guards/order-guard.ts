// Main's order guards: one list of checks over every order a signed request would create, run by the
// submitter before a nonce is taken, so every path that signs an order (ticket, ladder, hotkeys,
// chart, amend, brackets, stops and OCO pairs, Turbo Account orders, flatten) passes through the
// same checks and nothing is signed when one refuses: the maximum order size and notional, the
// price band, reduce-only, the maximum position and the daily loss limit. A new guard is one more entry of ORDER_CHECKS.
import type { Market } from '../../../shared/market/market';
import type { ActionGroup } from '../../../shared/protocol/session-actions';
import { ok, type Result } from '../../../shared/result';
import type { BookPrices, GuardFacts, PositionFacts } from './guard-facts';
import { orderIntents, type OrderIntent } from './order-intent';
import { checkMaxOrderSize } from './max-order-size-check';
import { checkMaxNotional } from './max-notional-check';
import { checkMaxPosition } from './max-position-check';
import { checkDailyLoss } from './daily-loss-check';
import type { OrderRate } from './order-rate';
import { checkPriceBand } from './price-band-check';
import { checkReduceOnly } from './reduce-only-check';

/** One check of one order: ok, or the refusal (a code naming the guard, the figure and the limit). */
export type OrderCheck = (intent: OrderIntent, market: Market, facts: GuardFacts) => Promise<Result<void>>;

/** The checks, cheapest first: the size and notional caps read only the settings, the band the book, reduce-only, the position cap and the daily loss the fills. */
export const ORDER_CHECKS: readonly OrderCheck[] = [checkMaxOrderSize, checkMaxNotional, checkPriceBand, checkReduceOnly, checkMaxPosition, checkDailyLoss];

/** The facts read once per request, however many of its orders ask for them. */
function readOnce(facts: GuardFacts): GuardFacts {
  const prices = new Map<string, Promise<Result<BookPrices>>>();
  const positions = new Map<string, Promise<Result<PositionFacts>>>();
  const dayPnls = new Map<string, Promise<Result<bigint>>>();
  return {
    market: (marketId, turbo) => facts.market(marketId, turbo),
    maxQuantity: (marketId) => facts.maxQuantity(marketId),
    maxNotional: (marketId) => facts.maxNotional(marketId),
    maxPosition: (marketId) => facts.maxPosition(marketId),
    restingOrders: (account, market, turbo) => facts.restingOrders(account, market, turbo),
    dailyLossLimit: (quoteAsset) => facts.dailyLossLimit(quoteAsset),
    dayPnl: (account, quoteAsset) => {
      const key = `${account}:${quoteAsset}`;
      let read = dayPnls.get(key);
      if (read === undefined) dayPnls.set(key, (read = facts.dayPnl(account, quoteAsset)));
      return read;
    },
    bandBps: (marketId) => facts.bandBps(marketId),
    bookPrices: (market, turbo) => {
      const key = `${market.market_id}:${turbo}`;
      let read = prices.get(key);
      if (read === undefined) prices.set(key, (read = facts.bookPrices(market, turbo)));
      return read;
    },
    position: (account, market, turbo) => {
      const key = `${account}:${market.market_id}:${turbo}`;
      let read = positions.get(key);
      if (read === undefined) positions.set(key, (read = facts.position(account, market, turbo)));
      return read;
    },
  };
}

/** Every check over every order, in order; the first refusal is the answer. */
export async function guardOrders(intents: readonly OrderIntent[], facts: GuardFacts, checks: readonly OrderCheck[] = ORDER_CHECKS): Promise<Result<void>> {
  if (intents.length === 0) return ok(undefined);
  const once = readOnce(facts);
  for (const intent of intents) {
    const market = once.market(intent.marketId, intent.turbo);
    if (!market.ok) return market;
    for (const check of checks) {
      const checked = await check(intent, market.value, once);
      if (!checked.ok) return checked;
    }
  }
  return ok(undefined);
}

/** What the submitter asks before it takes a nonce for a request. */
export interface GuardRequest {
  readonly groups: readonly ActionGroup[];
  /** The account that signs it. */
  readonly account: string;
  readonly reduceOnly: boolean;
}

/** The orders-per-minute meter and the trader's limit (0: none), shared by every submitter of the network. */
export interface RateGuard {
  readonly meter: OrderRate;
  readonly limit: () => number;
}

/** Every guard over the request's orders, the orders per minute first, without counting them. */
async function checkRequest(intents: readonly OrderIntent[], facts: GuardFacts, rate?: RateGuard): Promise<Result<void>> {
  if (rate !== undefined) {
    const fits = rate.meter.check(intents, rate.limit());
    if (!fits.ok) return fits;
  }
  return guardOrders(intents, facts);
}

export async function guardRequest(request: GuardRequest, facts: GuardFacts, rate?: RateGuard): Promise<Result<void>> {
  const intents = orderIntents(request.groups, { account: request.account, reduceOnly: request.reduceOnly });
  const guarded = await checkRequest(intents, facts, rate);
  // Counted once every guard passed, just before the nonce is taken.
  if (guarded.ok && rate !== undefined) rate.meter.record(intents);
  return guarded;
}

/**
 * What guardRequest would answer for a request now, counting nothing: a pre-check (the Turbo
 * ticket's) shows the refusal the send would meet, with the same code and words.
 */
export function previewRequest(request: GuardRequest, facts: GuardFacts, rate?: RateGuard): Promise<Result<void>> {
  return checkRequest(orderIntents(request.groups, { account: request.account, reduceOnly: request.reduceOnly }), facts, rate);
}
