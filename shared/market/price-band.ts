// The price band: how far from the book's reference (the mid of the best bid and the best offer,
// or the one side there is) a price main signs may lie, in basis points, per market. Main refuses
// an order beyond it before signing; the Settings panel edits it and the ticket names it.

/**
 * The band of a market the trader did not set: 30 %. Wider than the price window of any market the
 * sandbox lists (10–25 %), so every order the exchange's own window would take (a resting bid well
 * under the touch, a stop far out) passes, while a slipped decimal point (×10, ÷10) or a price
 * typed for another market is refused before a nonce is spent on it.
 */
export const DEFAULT_PRICE_BAND_BPS = 3_000;

/** The widest band a setting may hold (0 turns the band off; anything wider than 100 % is the same as off for a sell). */
export const MAX_PRICE_BAND_BPS = 100_000;

/** The band of a market (bps; 0 is off): the trader's setting, else the default. */
export function priceBandOf(bands: Readonly<Record<string, number>>, marketId: string): number {
  return bands[marketId] ?? bands[marketId.toLowerCase()] ?? DEFAULT_PRICE_BAND_BPS;
}

/** Is `next` a looser band than `current` (wider, or off where it was on)? */
export function bandLoosens(current: number, next: number): boolean {
  if (current === 0) return false;
  return next === 0 || next > current;
}

/** The reference a band is measured from: the mid when both sides quote, else the side that does; null on an empty book. */
export function bandReference(bestBid: bigint | null, bestAsk: bigint | null): bigint | null {
  if (bestBid !== null && bestAsk !== null) return (bestBid + bestAsk) / 2n;
  return bestBid ?? bestAsk;
}

/** The lowest and highest price inside a band of `bps` around `reference` (raw quote units, inclusive). */
export function bandLimits(reference: bigint, bps: number): { readonly low: bigint; readonly high: bigint } {
  const width = (reference * BigInt(bps)) / 10_000n;
  const low = reference - width;
  return { low: low > 0n ? low : 0n, high: reference + width };
}

/** A band in words: "30 % (3000 bps)". */
export function bandText(bps: number): string {
  if (bps === 0) return 'off';
  const whole = Math.floor(bps / 100);
  const rest = bps % 100;
  return `${rest === 0 ? String(whole) : `${whole}.${String(rest).padStart(2, '0').replace(/0$/, '')}`} % (${bps} bps)`;
}
