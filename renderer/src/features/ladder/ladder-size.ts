// The ladder's size: what a click on the ladder and the buy/sell hotkeys trade (its own Size field,
// never the ticket's quantity). Presets come from the settings (per market, raw base units); a
// market without any gets defaults from the smallest order its book accepts (size step, dust
// threshold, min_order at the current price), so the first click is never refused for its size.
import type { MarketRules } from '../../../../shared/market/market';
import { minimumOrderSize } from '../../../../shared/market/minimum-size';

/** Four default presets from the smallest accepted size: ×1, ×2, ×5, ×10. None without a price. */
export function defaultPresets(market: MarketRules, price: bigint | null): bigint[] {
  if (price === null || price <= 0n) return [];
  const first = minimumOrderSize(market, price);
  return [first, first * 2n, first * 5n, first * 10n];
}

export interface LadderPresets {
  readonly presets: readonly bigint[];
  /** The trader's own (Settings or +), not the defaults. */
  readonly configured: boolean;
  /** The smallest size the book accepts now: a preset below it is offered disabled, never traded. */
  readonly minimum: bigint;
}

/** The presets the ladder offers: the trader's own for this market, else the defaults. */
export function ladderPresets(configured: readonly bigint[] | undefined, market: MarketRules, price: bigint | null): LadderPresets {
  const minimum = minimumOrderSize(market, price);
  if (configured !== undefined && configured.length > 0) return { presets: configured, configured: true, minimum };
  return { presets: defaultPresets(market, price), configured: false, minimum };
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
