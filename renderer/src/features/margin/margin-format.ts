// Display of margin figures: the only place the margin components turn raw bigint units into text.
// Collateral-denominated figures are raw units of the collateral asset; oracle prices are
// 1e18-scaled, so one whole unit of an asset is worth price / 1e18 whole collateral units.
import { createSignal } from 'solid-js';
import type { MarginAssetRef, MarginPeriod } from '../../../../shared/ipc/views/margin';
import type { MarketsView } from '../../../../shared/ipc/views';
import { formatUnits } from '../../format/units';
import { assetDisplayDecimals } from '../../format/columns';
import { formatRemaining } from '../../format/time';

// The display decimals of each asset, learnt from the markets: the one precision every panel shows
// the asset in (format/columns.ts `assetDisplayDecimals`, the largest `max_precision` any market
// gives it), so an amount on the Margin panel reads as it does in Balances, Funds and the ticket.
const [displayDecimals, setDisplayDecimals] = createSignal<ReadonlyMap<string, number>>(new Map());

/** The display decimals per asset id, from the network's markets. */
export function displayDecimalsOf(markets: MarketsView | null | undefined): Map<string, number> {
  const rows = markets?.markets ?? [];
  const next = new Map<string, number>();
  for (const market of rows) {
    for (const side of [market.base, market.quote]) if (!next.has(side.asset)) next.set(side.asset, assetDisplayDecimals(side.asset, side.decimals, rows));
  }
  return next;
}

/** Learn the assets' display decimals from the markets the window has. */
export function learnDisplayDecimals(markets: MarketsView | null | undefined): void {
  if (markets) {
    setDisplayDecimals(displayDecimalsOf(markets));
    setPriceDecimals(priceDecimalsOf(markets));
  }
}

// A price of one asset in the collateral is shown as the market of that pair shows it (ETH in USDC
// as the ETH/USDC ladder does), not in the collateral's amount precision.
const [priceDecimals, setPriceDecimals] = createSignal<ReadonlyMap<string, number>>(new Map());

/** The price decimals per `base|quote` pair, from the network's markets. */
export function priceDecimalsOf(markets: MarketsView | null | undefined): Map<string, number> {
  const next = new Map<string, number>();
  for (const market of markets?.markets ?? []) next.set(`${market.base.asset}|${market.quote.asset}`, Math.max(0, Math.min(market.quote.decimals, market.quote.max_precision)));
  return next;
}

/** The decimals an amount of the asset is shown with: its display decimals, else all its decimals. */
export function shownDecimals(asset: MarginAssetRef): number {
  return displayDecimals().get(asset.assetId) ?? asset.decimals;
}

/**
 * "1,234.50 USDC": exactly the asset's display decimals (cut toward zero, never rounded up: a
 * figure of risk is never shown better than it is by the rounding), thousands separated.
 */
export function money(raw: bigint, asset: MarginAssetRef): string {
  const shown = shownDecimals(asset);
  return `${formatUnits(raw, asset.decimals, shown, shown)} ${asset.symbol}`;
}

/**
 * "0.00008389 ETH": an amount the account holds or owes, at least the asset's display decimals and
 * every further digit it has. Never cut: a holding no order can close (a remainder below the size
 * step) is shown as it is, as Positions shows it, not as "0.0000 ETH".
 */
export function holding(raw: bigint, asset: MarginAssetRef): string {
  return `${formatUnits(raw, asset.decimals, shownDecimals(asset))} ${asset.symbol}`;
}

/** What an amount typed in the asset's units must look like: "0.01" for 2 display decimals. */
export function amountStep(asset: MarginAssetRef): string {
  const shown = shownDecimals(asset);
  return shown === 0 ? '1' : `0.${'0'.repeat(shown - 1)}1`;
}

const PERIOD_WORDS: Readonly<Record<MarginPeriod, string>> = { SixHours: '6 hours', Day: '1 day', Week: '1 week', Month: '1 month (30 days)' };

const PERIOD_SECONDS: Readonly<Record<MarginPeriod, bigint>> = { SixHours: 21_600n, Day: 86_400n, Week: 604_800n, Month: 2_592_000n };

/** "1 week", or "1 week (term 28 days)" where the term the opening buys is not the period itself. */
export function periodOfferText(period: MarginPeriod, termSeconds: bigint | null): string {
  return termSeconds === null || termSeconds === PERIOD_SECONDS[period] ? periodText(period) : `${periodText(period)} (term ${durationText(termSeconds)})`;
}

/** A tier period in words: "6 hours", "1 week". */
export function periodText(period: MarginPeriod): string {
  return PERIOD_WORDS[period];
}

/** A duration in seconds, in words: "6 hours", "7 days", "1 day 12 hours", "45 minutes". */
export function durationText(seconds: bigint): string {
  if (seconds <= 0n) return '0 seconds';
  const day = 86_400n;
  const hour = 3_600n;
  const plural = (count: bigint, unit: string) => `${count} ${unit}${count === 1n ? '' : 's'}`;
  const days = seconds / day;
  const hours = (seconds % day) / hour;
  const minutes = (seconds % hour) / 60n;
  const parts: string[] = [];
  if (days > 0n) parts.push(plural(days, 'day'));
  if (hours > 0n) parts.push(plural(hours, 'hour'));
  if (days === 0n && minutes > 0n) parts.push(plural(minutes, 'minute'));
  if (parts.length === 0) parts.push(plural(seconds, 'second'));
  return parts.join(' ');
}

/**
 * The oracle price a position is marked at (margin-api: mark(pos) uses the bid for a holding, the
 * ask for a short), and which one it is.
 */
export function markPrice(position: bigint, bid: bigint, ask: bigint): { readonly price: bigint; readonly side: 'bid' | 'ask' } {
  return position < 0n ? { price: ask, side: 'ask' } : { price: bid, side: 'bid' };
}

/** "+12.5 USDC" / "-3 USDC": a signed figure (PnL, distances). */
export function signedMoney(raw: bigint, asset: MarginAssetRef): string {
  return `${raw > 0n ? '+' : ''}${money(raw, asset)}`;
}

/** The oracle price of one whole unit in the collateral asset, cut (never rounded up) to its decimals. */
export function oraclePrice(price: bigint, collateral: MarginAssetRef, assetId?: string): string {
  const pair = assetId === undefined ? undefined : priceDecimals().get(`${assetId}|${collateral.assetId}`);
  const shown = Math.min(18, pair ?? shownDecimals(collateral));
  return `${formatUnits(price, 18, shown, shown)} ${collateral.symbol}`;
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
