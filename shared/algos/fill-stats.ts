// An algorithm's fills summed the way the panel shows them: the volume-weighted average price and
// the slippage against the price when it started. Integer only; the rounding is stated per function.
import type { Market } from '../market/market';
import type { Side } from '../market/order-type';

export interface Fill {
  /** Raw quote units per whole base unit. */
  readonly price: bigint;
  /** Raw base units. */
  readonly quantity: bigint;
}

const BASIS_POINTS = 10_000n;

/**
 * Σ price × quantity / Σ quantity, rounded to the nearest raw unit (a half rounds up); null when
 * nothing filled. Prices are per whole base unit, so the base's decimals cancel out: the market is
 * taken so every caller passes the book the fills came from.
 */
export function averagePrice(fills: readonly Fill[], _market: Market): bigint | null {
  let notional = 0n;
  let quantity = 0n;
  for (const fill of fills) {
    notional += fill.price * fill.quantity;
    quantity += fill.quantity;
  }
  if (quantity <= 0n) return null;
  return (2n * notional + quantity) / (2n * quantity);
}

/**
 * How much worse `average` is than `arrival` for the trader, in basis points: positive when a buy
 * paid more or a sell received less. Rounded up (towards worse), so slippage is never understated.
 * Zero without an arrival price.
 */
export function slippageBps(side: Side, average: bigint, arrival: bigint): bigint {
  if (arrival <= 0n) return 0n;
  const worse = side === 'Buy' ? average - arrival : arrival - average;
  const scaled = worse * BASIS_POINTS;
  // Ceiling of a signed quotient (bigint division truncates towards zero).
  const quotient = scaled / arrival;
  return scaled % arrival > 0n ? quotient + 1n : quotient;
}
