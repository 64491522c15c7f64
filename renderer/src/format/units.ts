// Display formatting: the only place raw bigint units become text. The digits come from
// shared/encoding's formatUnits (exact, never rounds); this file only adds the display habits of
// the terminal (thousands separators, fixed fraction digits per market).
import { formatUnits as formatExact } from '../../../shared/encoding/units';

/**
 * 1234500n with 3 decimals -> "1,234.5". Trailing zeros are trimmed down to `minFraction`.
 * `maxFraction` below `decimals` truncates (never rounds): callers use it only for values that
 * are already on a coarser tick, or for labels where the cut is stated.
 */
export function formatUnits(raw: bigint, decimals: number, minFraction = 0, maxFraction = decimals): string {
  let value = raw;
  if (maxFraction < decimals) {
    const cut = 10n ** BigInt(decimals - maxFraction);
    value = raw - (raw % cut);
  }
  return formatExact(value, decimals, { minimumFractionDigits: Math.min(minFraction, decimals), groupSeparator: ',' });
}

/** A fee in ppm as a percentage: 100n -> "0.01%". */
export function formatPpm(ppm: bigint): string {
  return `${formatUnits(ppm, 4)}%`;
}

export function shortId(id: string): string {
  return id.length > 14 ? `${id.slice(0, 8)}…${id.slice(-4)}` : id;
}
