// The daily loss limit (Settings, per quote asset): once the signing account's P&L for the UTC day
// (daily-loss.ts) is at or past the limit, every order that adds exposure is refused; an order that
// only reduces the position (a close, a flatten) still passes, and cancels create no order.
import type { Market } from '../../../shared/market/market';
import { fail, ok, type Result } from '../../../shared/result';
import { GUARD_CODES } from './codes';
import type { GuardFacts } from './guard-facts';
import type { OrderIntent } from './order-intent';
import { pairOf, priceWords } from './words';

export async function checkDailyLoss(intent: OrderIntent, market: Market, facts: GuardFacts): Promise<Result<void>> {
  const limit = facts.dailyLossLimit(market.quote.asset);
  if (limit === undefined) return ok(undefined);
  const pnl = await facts.dayPnl(intent.account, market.quote.asset);
  if (pnl.ok && pnl.value > -limit) return ok(undefined);
  const position = await facts.position(intent.account, market, intent.turbo);
  if (position.ok && intent.quantity !== null) {
    const size = position.value.size;
    const closing = (size > 0n && intent.side === 'Sell') || (size < 0n && intent.side === 'Buy');
    if (closing && intent.quantity <= (size > 0n ? size : -size)) return ok(undefined);
  }
  if (!pnl.ok) {
    return fail(GUARD_CODES.DAILY_LOSS_UNKNOWN, `Your P&L for the day in ${market.quote.symbol} cannot be read now (${pnl.message}), so an order that adds exposure on ${pairOf(market, intent.turbo)} cannot be measured against your daily loss limit of ${priceWords(market, -limit)}. Nothing was signed; orders that reduce a position still pass.`, { field: 'quantity' });
  }
  return fail(
    GUARD_CODES.DAILY_LOSS,
    `Day P&L ${priceWords(market, pnl.value)} (since 00:00 UTC, realized and unrealized) is at or past your daily loss limit of ${priceWords(market, -limit)}: main refuses every order that adds exposure until the next UTC day, or until you loosen the limit (Settings). Orders that reduce a position and cancels still pass. Nothing was signed.`,
    { field: 'quantity', value: pnl.value.toString(), maximum: (-limit).toString() },
  );
}
