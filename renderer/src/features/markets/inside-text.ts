// The inside market as the market bar shows it. The market-data stream groups prices in powers of
// ten from 10 raw units (spec: depth precisions 10 to 10^9); on a market whose price tick is finer
// (FUEL/USDC: 0.000001 USDC) the best bid the stream gives is floored and the best ask raised to
// that grouping, so the bar says so: "≥ 0.019970 / ≤ 0.020000" (the best bid is at least, the best
// ask at most, the figure shown), never a grouped price presented as the exact one.
import type { Market } from '../../../../shared/market/market';
import { priceTick } from '../../../../shared/market/tick';
import { formatPrice } from '../../format/market-format';
import { formatUnits } from '../../format/units';

export interface InsideText {
  readonly bid: string;
  readonly ask: string;
  /** The grouping of the prices shown (raw price units) when coarser than the market's tick, else null. */
  readonly grouping: bigint | null;
  /** The same in quote units ("0.00001"). */
  readonly groupingLabel: string | null;
}

export function insideText(market: Market, bestBid: bigint | null, bestAsk: bigint | null, precision: bigint | null): InsideText {
  const grouped = precision !== null && precision > priceTick(market);
  const bid = bestBid === null ? '—' : `${grouped ? '≥ ' : ''}${formatPrice(market, bestBid)}`;
  const ask = bestAsk === null ? '—' : `${grouped ? '≤ ' : ''}${formatPrice(market, bestAsk)}`;
  return { bid, ask, grouping: grouped ? precision : null, groupingLabel: grouped ? formatUnits(precision, market.quote.decimals) : null };
}

/** The finest grouping a depth stream has (spec: precisions 10 to 10^9 raw units). */
export const FINEST_STREAM_GROUPING = 10n;

/** The grouping of prices that came through a depth stream asked for `precision`. */
export function streamGrouping(precision: bigint | null): bigint | null {
  if (precision === null) return null;
  return precision < FINEST_STREAM_GROUPING ? FINEST_STREAM_GROUPING : precision;
}
