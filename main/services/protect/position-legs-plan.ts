// What to do with a position's take-profit / stop-loss pair now (pure): keep it, place or resize it
// to the position, cancel it, or stop managing it. The pair closes the position (a sell pair for a
// long, a buy pair for a short) and is sized to it: a fill that adds grows it, a partial close
// shrinks it, a flat or flipped position takes it away. A pair that is no longer on the exchange
// (it fired, or the trader cancelled it) is never placed again by itself.
import { formatUnits } from '../../../shared/encoding/units';
import { quoteValue } from '../../../shared/market/amounts';
import type { Market } from '../../../shared/market/market';
import type { Side } from '../../../shared/market/order-type';
import { explicitQuantity } from '../triggers/trigger-intents';

/** Whether the pair's legs are still pending, as the last complete read of the legs says. */
export type LegsPending = 'all' | 'some' | 'none' | 'unknown';

export type PositionLegsPlan =
  | { readonly kind: 'keep' }
  /** Cancel the legs on the exchange (if any) and place the pair at this size, in one signed batch. */
  | { readonly kind: 'place'; readonly quantity: bigint }
  /** Cancel the legs; `end`: stop managing the position (else wait until it can be protected again). */
  | { readonly kind: 'cancel'; readonly end: boolean; readonly why: 'flat' | 'flipped' | 'too-small' }
  /** Nothing on the exchange to cancel: stop managing. */
  | { readonly kind: 'end'; readonly why: 'flat' | 'flipped' | 'legs-gone' };

export interface PositionLegsInput {
  /** The side of the pair's orders: Sell protects a long, Buy a short. */
  readonly side: Side;
  /** The position on the book now, signed (positive long), raw base units. */
  readonly position: bigint;
  /** The size the pair is placed at on the exchange; 0 when no pair is placed. */
  readonly placed: bigint;
  readonly pending: LegsPending;
  /** The largest size the pair can be signed at for a position this large; 0 when none can. */
  readonly signable: (size: bigint) => bigint;
}

export function planPositionLegs(input: PositionLegsInput): PositionLegsPlan {
  const { side, position, placed, pending } = input;
  if (placed > 0n) {
    // Before a complete read nothing is known; a pair partly or wholly gone fired or was cancelled.
    if (pending === 'unknown') return { kind: 'keep' };
    if (pending !== 'all') return { kind: 'end', why: 'legs-gone' };
  }
  if (position === 0n) return placed > 0n ? { kind: 'cancel', end: true, why: 'flat' } : { kind: 'end', why: 'flat' };
  const long = position > 0n;
  if (long !== (side === 'Sell')) return placed > 0n ? { kind: 'cancel', end: true, why: 'flipped' } : { kind: 'end', why: 'flipped' };
  const target = input.signable(long ? position : -position);
  if (target === placed) return { kind: 'keep' };
  if (target === 0n) return { kind: 'cancel', end: false, why: 'too-small' };
  return { kind: 'place', quantity: target };
}

/**
 * The size a pair at these trigger prices can be signed at for a position of `size`: floored to the
 * step, lowered to a whole quote value at every price, and 0 when that is dust or below the
 * market's minimum order at a price (the leg would be refused when it fires).
 */
export function signablePairSize(market: Market, size: bigint, prices: readonly bigint[]): bigint {
  const legs = prices.map((price) => ({ order_type: { kind: 'Market' as const }, trigger_price: price }));
  const { quantity } = explicitQuantity(market, size, legs);
  if (quantity <= 0n || quantity < market.dust) return 0n;
  if (prices.some((price) => quoteValue(market, price, quantity) < market.min_order)) return 0n;
  return quantity;
}

export function showSize(market: Market, quantity: bigint): string {
  return `${formatUnits(quantity, market.base.decimals)} ${market.base.symbol}`;
}

/**
 * The take-profit and stop-loss of an automatic bracket: the offsets (ticks, or basis points of the
 * entry) from the average entry, toward profit and toward loss for the position's side, on the
 * price step rounded toward the entry (never farther than the offset). Null for a leg not set, or
 * one that would fall to zero or below.
 */
export function autoBracketPrices(input: { entry: bigint; long: boolean; unit: 'ticks' | 'percent'; takeProfit: bigint | null; stopLoss: bigint | null; tick: bigint }): { takeProfit: bigint | null; stopLoss: bigint | null } {
  const { entry, long, tick } = input;
  const distance = (offset: bigint) => (input.unit === 'ticks' ? offset * tick : (entry * offset) / 10_000n);
  const at = (offset: bigint | null, up: boolean): bigint | null => {
    if (offset === null) return null;
    const raw = up ? entry + distance(offset) : entry - distance(offset);
    const price = up ? raw - (raw % tick) : raw + ((tick - (raw % tick)) % tick);
    return price > 0n && price !== entry ? price : null;
  };
  return { takeProfit: at(input.takeProfit, long), stopLoss: at(input.stopLoss, !long) };
}
