// Reduce-only, held by main: the venue has no such flag, so an order the trader marked reduce-only
// is checked against the signing account's position on its book, read from the fills now, less the
// closing orders already resting and the closing legs pending. Only orders that execute at once qualify (one that rests could be
// turned into a flip by later fills of other orders). A size that would pass zero is refused with
// the largest size that would not, never clipped: the trader signs what the ticket showed or nothing.
import type { Market } from '../../../shared/market/market';
import { ORDER_KIND_TABLE } from '../../../shared/market/order-kinds';
import type { Side } from '../../../shared/market/order-type';
import { truncateQuantity } from '../../../shared/market/tick';
import { fail, ok, type Result } from '../../../shared/result';
import { GUARD_CODES } from './codes';
import type { GuardFacts } from './guard-facts';
import type { OrderIntent } from './order-intent';
import { pairOf, quantityWords } from './words';

export async function checkReduceOnly(intent: OrderIntent, market: Market, facts: GuardFacts): Promise<Result<void>> {
  if (!intent.reduceOnly || intent.kind === 'trigger') return ok(undefined);
  const pair = pairOf(market, intent.turbo);
  if (!ORDER_KIND_TABLE[intent.kind].executesAtOnce) {
    return fail(
      GUARD_CODES.REDUCE_ONLY,
      `Reduce-only: a ${ORDER_KIND_TABLE[intent.kind].label} order can rest on the book, where later fills of your other orders could turn it into a flip; main signs reduce-only orders as Market, Bounded market or Fill or kill only. Nothing was signed.`,
      { field: 'orderType', value: intent.kind },
    );
  }
  const position = await facts.position(intent.account, market, intent.turbo);
  if (!position.ok) {
    return fail(GUARD_CODES.REDUCE_ONLY_UNKNOWN, `Reduce-only: your position on ${pair} cannot be read now (${position.message}), so nothing can be capped to it. Nothing was signed.`, { field: 'reduceOnly' });
  }
  if (position.value.legsUnknown !== null) {
    return fail(GUARD_CODES.REDUCE_ONLY_UNKNOWN, `Reduce-only: what your pending legs on ${pair} close cannot be read now (${position.value.legsUnknown}), so nothing can be capped to the position. Nothing was signed.`, { field: 'reduceOnly' });
  }
  const { size, restingClosing, legsClosing } = position.value;
  const quantity = intent.quantity ?? 0n;
  if (size === 0n) {
    return fail(GUARD_CODES.REDUCE_ONLY, `Reduce-only: you have no ${market.base.symbol} position on ${pair} to reduce; at most 0 ${market.base.symbol}. Nothing was signed.`, { field: 'quantity', value: quantity.toString(), maximum: '0' });
  }
  const closing: Side = size > 0n ? 'Sell' : 'Buy';
  const magnitude = size > 0n ? size : -size;
  const held = `${size > 0n ? 'long' : 'short'} ${quantityWords(market, magnitude)}`;
  if (intent.side !== closing) {
    return fail(GUARD_CODES.REDUCE_ONLY, `Reduce-only: a ${intent.side.toLowerCase()} would add to your ${held} on ${pair}; only a ${closing.toLowerCase()} reduces it. Nothing was signed.`, {
      field: 'side',
      value: intent.side,
      maximum: '0',
    });
  }
  const free = magnitude - restingClosing - legsClosing;
  const maximum = free > 0n ? truncateQuantity(market, free).value : 0n;
  if (quantity <= maximum) return ok(undefined);
  const committed = [restingClosing > 0n ? `${quantityWords(market, restingClosing)} in resting ${closing.toLowerCase()}s` : '', legsClosing > 0n ? `${quantityWords(market, legsClosing)} in pending take-profit/stop-loss legs` : ''].filter(Boolean);
  const less = committed.length > 0 ? ` less ${committed.join(' and ')}` : '';
  return fail(
    GUARD_CODES.REDUCE_ONLY,
    `Reduce-only: ${quantityWords(market, quantity)} would ${maximum === 0n && committed.length > 0 ? 'go beyond' : 'flip'} your ${held}${less} on ${pair}; at most ${quantityWords(market, maximum)}. Nothing was signed.`,
    { field: 'quantity', value: quantity.toString(), maximum: maximum.toString() },
  );
}
