// The ladder's size: what a click trades when the trader has not typed a quantity. Presets come
// from the settings (per market, raw base units); a market without any gets defaults sized from
// its minimum order value at the current price, so the first click never fails for want of a size.
import type { MarketRules } from '../../../../shared/market/market';
import { powerOfTen } from '../../../../shared/market/market';
import { quantityTick } from '../../../../shared/market/tick';

/**
 * The smallest "round" quantity (1, 2 or 5 times a power of ten, on the quantity tick) whose value
 * at `price` reaches the market's minimum order value. Raw base units; bigint throughout.
 */
export function minimumRoundSize(market: MarketRules, price: bigint): bigint {
  const tick = quantityTick(market);
  const unit = powerOfTen(market.base.decimals);
  const enough = (quantity: bigint) => (quantity * price) / unit >= market.min_order && quantity * price > 0n;
  for (let magnitude = tick; magnitude <= unit * 1_000_000_000n; magnitude *= 10n) {
    for (const multiple of [1n, 2n, 5n]) {
      const quantity = magnitude * multiple;
      if (enough(quantity)) return quantity;
    }
  }
  return unit;
}

/** Four default presets from the minimum round size: ×1, ×2, ×5, ×10. */
export function defaultPresets(market: MarketRules, price: bigint | null): bigint[] {
  if (price === null || price <= 0n) return [];
  const first = minimumRoundSize(market, price);
  return [first, first * 2n, first * 5n, first * 10n];
}

/** The presets the ladder offers: the trader's own for this market, else the defaults. */
export function ladderPresets(configured: readonly bigint[] | undefined, market: MarketRules, price: bigint | null): { readonly presets: readonly bigint[]; readonly configured: boolean } {
  if (configured !== undefined && configured.length > 0) return { presets: configured, configured: true };
  return { presets: defaultPresets(market, price), configured: false };
}

/** A preset list with `size` added: sorted, without duplicates, at most 8 (the settings' limit), keeping the new size. */
export function withPreset(presets: readonly bigint[], size: bigint): bigint[] {
  const all = [...new Set([...presets, size])].sort((left, right) => (left < right ? -1 : left > right ? 1 : 0));
  while (all.length > 8) {
    const drop = all.findIndex((value) => value !== size);
    all.splice(drop, 1);
  }
  return all;
}
