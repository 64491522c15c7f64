// Display of margin figures: the only place the margin components turn raw bigint units into text.
// Collateral-denominated figures are raw units of the collateral asset; oracle prices are
// 1e18-scaled, so one whole unit of an asset is worth price / 1e18 whole collateral units.
import type { MarginAssetRef } from '../../../../shared/ipc/views/margin';
import { formatUnits } from '../../format/units';
import { formatRemaining } from '../../format/time';

/** "1,234.5 USDC". */
export function money(raw: bigint, asset: MarginAssetRef): string {
  return `${formatUnits(raw, asset.decimals)} ${asset.symbol}`;
}

/** "+12.5 USDC" / "-3 USDC": a signed figure (PnL, distances). */
export function signedMoney(raw: bigint, asset: MarginAssetRef): string {
  return `${raw > 0n ? '+' : ''}${money(raw, asset)}`;
}

/** The oracle price of one whole unit in the collateral asset, cut (never rounded up) to its decimals. */
export function oraclePrice(price: bigint, collateral: MarginAssetRef): string {
  return `${formatUnits(price, 18, 0, Math.min(18, collateral.decimals))} ${collateral.symbol}`;
}

/** 1,500 bps -> "15%". */
export function basisPoints(bps: bigint): string {
  return `${formatUnits(bps, 2)}%`;
}

/**
 * Share of `part` in `whole` as a percentage for a progress bar, clamped to 0..100. Display only:
 * the number never feeds back into money.
 */
export function percentOf(part: bigint, whole: bigint): number {
  if (whole <= 0n) return part > 0n ? 100 : 0;
  if (part <= 0n) return 0;
  const permille = (part * 1000n) / whole;
  return permille >= 1000n ? 100 : Number(permille) / 10;
}

/** The countdown to a session's expiry; "No expiry" for the u64 no-expiry value (never counted down). */
export function expiryText(expiresAt: bigint | null, noExpiry: boolean, nowMs: number): string {
  if (noExpiry) return 'No expiry';
  if (expiresAt === null) return '—';
  return formatRemaining(Number(expiresAt) * 1000 - nowMs);
}

export function shortAccount(id: string): string {
  return id.length > 18 ? `${id.slice(0, 10)}…${id.slice(-6)}` : id;
}
