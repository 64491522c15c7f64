// The header's words for the risk guards' state (main's `guardState`): the day's P&L against each
// daily loss limit ("Day P&L -412.00 / -500.00 USDC") in the precision the Positions panel's P&L
// figures use for that quote asset, and the orders of the last minute against the
// orders-per-minute limit. The tone says how near the limit is.
import type { DayPnlView, GuardStateView } from '../../../../shared/ipc/views';
import type { Market } from '../../../../shared/market/market';
import { assetDisplayDecimals, displayDecimals } from '../../format/columns';
import { formatUnits } from '../../format/units';
import { assetNames } from '../markets/market-label';

/** `calm` under 75 % of the limit used, `near` from 75 %, `breached` at the limit, `unknown` unread. */
export type GuardTone = 'calm' | 'near' | 'breached' | 'unknown';

export interface GuardFigure {
  readonly key: string;
  readonly text: string;
  readonly tone: GuardTone;
  readonly title: string;
}

/** A share of the limit from which the figure is shown as near it. */
const NEAR_PERCENT = 75n;

function signed(raw: bigint, decimals: number, digits: number): string {
  const cut = 10n ** BigInt(decimals - digits);
  const text = formatUnits(raw, decimals, digits, digits);
  return raw - (raw % cut) > 0n ? `+${text}` : text;
}

export function dayPnlFigure(row: DayPnlView, markets: readonly Market[]): GuardFigure {
  const side = markets.flatMap((market) => [market.base, market.quote]).find((candidate) => candidate.asset === row.quoteAsset);
  const decimals = side?.decimals ?? 0;
  // The Positions panel shows a P&L in its market's quote precision: the day's P&L sums the markets
  // quoted in the asset, so it takes the finest of theirs (not a finer one a market trading the
  // asset as its base gives it); the asset's own display precision when none quotes in it.
  const quoted = markets.filter((market) => market.quote.asset === row.quoteAsset).map((market) => displayDecimals(market.quote));
  const digits = Math.min(decimals, quoted.length > 0 ? Math.max(...quoted) : assetDisplayDecimals(row.quoteAsset, decimals, markets));
  const symbol = assetNames(markets).get(row.quoteAsset) ?? row.quoteAsset;
  const limit = signed(-row.limit, decimals, digits);
  const key = `day-pnl-${row.turboAccount ?? 'trading'}-${row.quoteAsset}`;
  const whose = row.turboAccount === null ? '' : `Turbo ${row.turboAccount.slice(0, 6)}…${row.turboAccount.slice(-4)} `;
  if (row.pnl === null) {
    return { key, text: `${whose}Day P&L ? / ${limit} ${symbol}`, tone: 'unknown', title: `Your P&L for the day in ${symbol} cannot be read now (${row.problem ?? 'unknown'}): orders that add exposure are refused until it can.` };
  }
  const tone: GuardTone = row.breached || row.pnl <= -row.limit ? 'breached' : row.pnl * 100n <= -row.limit * NEAR_PERCENT ? 'near' : 'calm';
  const pnl = signed(row.pnl, decimals, digits);
  const said =
    tone === 'breached'
      ? 'The daily loss limit is reached: main refuses every order that adds exposure until 00:00 UTC; orders that reduce a position and cancels pass.'
      : `Main refuses every order that adds exposure once it reaches ${limit} ${symbol}.`;
  return { key, text: `${whose}Day P&L ${pnl} / ${limit} ${symbol}`, tone, title: `${row.turboAccount === null ? 'The trading account’s' : `Turbo Account ${row.turboAccount}’s`} realized and unrealized P&L since 00:00 UTC in ${symbol}. ${said}` };
}

export function orderRateFigure(rate: NonNullable<GuardStateView['orderRate']>): GuardFigure {
  const tone: GuardTone = rate.count >= rate.limit ? 'breached' : BigInt(rate.count) * 100n >= BigInt(rate.limit) * NEAR_PERCENT ? 'near' : 'calm';
  return {
    key: 'order-rate',
    text: `Orders/min ${rate.count} / ${rate.limit}`,
    tone,
    title: `${rate.count} order${rate.count === 1 ? '' : 's'} signed in the last 60 s (amends included, cancels and legs not); main refuses an order past ${rate.limit} a minute.`,
  };
}

/** Every figure the header shows, day P&L first. */
export function guardFigures(view: GuardStateView | null, markets: readonly Market[]): GuardFigure[] {
  if (view === null) return [];
  return [...view.dayPnl.map((row) => dayPnlFigure(row, markets)), ...(view.orderRate === null ? [] : [orderRateFigure(view.orderRate)])];
}
