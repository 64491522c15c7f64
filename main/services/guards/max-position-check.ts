// The trader's maximum position per market (Settings), on either side: an order is measured by the
// position it could leave at worst, the position now plus this order plus the account's other
// resting orders on the same side (each of which may fill), so a ladder of small orders cannot
// build what one large order may not. An order that leaves the exposure no larger than now (one
// that only reduces) always passes, so a position above a limit lowered since can still be closed.
import type { Market } from '../../../shared/market/market';
import { fail, ok, type Result } from '../../../shared/result';
import { GUARD_CODES } from './codes';
import type { GuardFacts } from './guard-facts';
import type { OrderIntent } from './order-intent';
import { pairOf, quantityWords } from './words';

export async function checkMaxPosition(intent: OrderIntent, market: Market, facts: GuardFacts): Promise<Result<void>> {
  const cap = facts.maxPosition(intent.marketId);
  if (cap === undefined || intent.quantity === null) return ok(undefined);
  const pair = pairOf(market, intent.turbo);
  const position = await facts.position(intent.account, market, intent.turbo);
  if (!position.ok) {
    return fail(GUARD_CODES.MAX_POSITION_UNKNOWN, `Your position on ${pair} cannot be read now (${position.message}), so the order cannot be measured against your maximum position of ${quantityWords(market, cap)}. Nothing was signed.`, { field: 'quantity' });
  }
  const size = position.value.size;
  const resting = facts.restingOrders(intent.account, market, intent.turbo);
  const buying = intent.side === 'Buy';
  const restingSameSide = buying ? resting.buy : resting.sell;
  // The worst exposure on the order's side: long for a buy, short for a sell.
  const now = buying ? size : -size;
  const worst = now + restingSameSide + intent.quantity;
  if (worst <= cap || worst <= now) return ok(undefined);
  const parts = [`your position ${size === 0n ? 'flat' : `${size > 0n ? 'long' : 'short'} ${quantityWords(market, size > 0n ? size : -size)}`}`];
  if (restingSameSide > 0n) parts.push(`${quantityWords(market, restingSameSide)} in resting ${buying ? 'buys' : 'sells'}`);
  parts.push(`this ${buying ? 'buy' : 'sell'} of ${quantityWords(market, intent.quantity)}`);
  return fail(
    GUARD_CODES.MAX_POSITION,
    `${parts.join(', ')} could leave you ${buying ? 'long' : 'short'} ${quantityWords(market, worst)} on ${pair}: above your maximum position of ${quantityWords(market, cap)} (Settings). Nothing was signed.`,
    { field: 'quantity', value: worst.toString(), maximum: cap.toString() },
  );
}
