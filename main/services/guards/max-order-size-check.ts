// The trader's maximum order size per market (Settings), for every order and every leg with a size
// of its own: a compromised page that skips the ticket's check still cannot sign more than the cap.
// Sizes are compared as main will sign them (after the market's step and whole-quote rules).
import type { Market } from '../../../shared/market/market';
import { fail, ok, type Result } from '../../../shared/result';
import type { GuardFacts } from './guard-facts';
import type { OrderIntent } from './order-intent';
import { quantityWords } from './words';

/** The code the ticket's own check uses too (renderer/src/features/ticket/ticket-model.ts). */
export const MAX_ORDER_SIZE = 'MAX_ORDER_SIZE';

export function checkMaxOrderSize(intent: OrderIntent, market: Market, facts: GuardFacts): Promise<Result<void>> {
  const cap = facts.maxQuantity(intent.marketId);
  if (cap === undefined || intent.quantity === null || intent.quantity <= cap) return Promise.resolve(ok(undefined));
  return Promise.resolve(
    fail(
      MAX_ORDER_SIZE,
      `Quantity ${quantityWords(market, intent.quantity)} is above your maximum order size of ${quantityWords(market, cap)} for ${market.base.symbol}/${market.quote.symbol} (Settings). Nothing was signed.`,
      { field: 'quantity', value: intent.quantity.toString(), maximum: cap.toString() },
    ),
  );
}
