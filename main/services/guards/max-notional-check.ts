// The trader's maximum order notional per market (Settings): the quote value of an order at its
// price (a market order's: its price bound, the most it may cost), so a slipped digit in the size
// of an expensive market is refused before a nonce is taken. A leg sized from its order was
// measured with that order. An order that only reduces the position (a flatten, a close) passes:
// the cap bounds new exposure, and must never trap a position larger than it.
import { quoteValue } from '../../../shared/market/amounts';
import type { Market } from '../../../shared/market/market';
import { fail, ok, type Result } from '../../../shared/result';
import { GUARD_CODES } from './codes';
import type { GuardFacts } from './guard-facts';
import type { OrderIntent } from './order-intent';
import { pairOf, priceWords, quantityWords } from './words';

export async function checkMaxNotional(intent: OrderIntent, market: Market, facts: GuardFacts): Promise<Result<void>> {
  const cap = facts.maxNotional(intent.marketId);
  if (cap === undefined || intent.quantity === null) return ok(undefined);
  const notional = quoteValue(market, intent.price, intent.quantity);
  if (notional <= cap) return ok(undefined);
  const position = await facts.position(intent.account, market, intent.turbo);
  if (position.ok) {
    const size = position.value.size;
    const closing = (size > 0n && intent.side === 'Sell') || (size < 0n && intent.side === 'Buy');
    if (closing && intent.quantity <= (size > 0n ? size : -size)) return ok(undefined);
  }
  return fail(
    GUARD_CODES.MAX_NOTIONAL,
    `${quantityWords(market, intent.quantity)} at ${priceWords(market, intent.price)} is ${priceWords(market, notional)}: above your maximum order notional of ${priceWords(market, cap)} on ${pairOf(market, intent.turbo)} (Settings). Nothing was signed.`,
    { field: 'quantity', value: notional.toString(), maximum: cap.toString() },
  );
}
