// Display formatting: the only place raw bigint units become text.

/** 1234500n with 3 decimals -> "1,234.5" (trailing zeros trimmed down to `minFraction`). */
export function formatUnits(raw: bigint, decimals: number, minFraction = 0, maxFraction = decimals): string {
  const negative = raw < 0n;
  const value = negative ? -raw : raw;
  const scale = 10n ** BigInt(decimals);
  const whole = value / scale;
  let fraction = decimals > 0 ? (value % scale).toString().padStart(decimals, '0') : '';
  if (maxFraction < decimals) fraction = fraction.slice(0, maxFraction);
  fraction = fraction.replace(/0+$/, '');
  if (fraction.length < minFraction) fraction = fraction.padEnd(minFraction, '0');
  const wholeText = whole.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${wholeText}${fraction ? `.${fraction}` : ''}`;
}

/** A fee in ppm as a percentage: 100n -> "0.01%". */
export function formatPpm(ppm: bigint): string {
  return `${formatUnits(ppm, 4)}%`;
}

export function shortId(id: string): string {
  return id.length > 14 ? `${id.slice(0, 8)}…${id.slice(-4)}` : id;
}
