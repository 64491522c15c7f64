// An iceberg shows `visible` at a time and refreshes it as it fills, up to the total. The last
// refresh takes the whole remainder when what would be left after it is below the smallest order
// the book accepts, so no unplaceable crumb is left behind.
import type { Market } from '../market/market';
import { minimumOrderSize, sizeStep } from '../market/minimum-size';

/**
 * The next visible size: `visible` floored to the size step and raised to the smallest order the
 * book accepts (at `price`, the iceberg's price; step and dust only without it), or all of
 * `remaining` when that is not more, or when what would be left is below that minimum.
 */
export function nextIcebergSlice(market: Market, input: { visible: bigint; remaining: bigint; price?: bigint | null }): bigint {
  if (input.remaining <= 0n) return 0n;
  const step = sizeStep(market);
  const minimum = minimumOrderSize(market, input.price ?? null);
  const floored = input.visible - (input.visible % step);
  const slice = floored < minimum ? minimum : floored;
  if (slice >= input.remaining) return input.remaining;
  return input.remaining - slice < minimum ? input.remaining : slice;
}
