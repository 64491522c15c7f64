// The chart's price axis in exact units: a drag turns pixels into a price with bigint arithmetic
// only (uPlot's float scale is read once, at its two ends, as exact decimal text), snaps onto the
// market's price step, and the axes are labelled with the market's own decimals, thousands
// separators and a 24-hour clock. Pure: tested in test/renderer/chart-geometry.test.ts.
import { parseUnits } from '../../../../shared/encoding/units';
import type { MarketRules } from '../../../../shared/market/market';
import { priceTick } from '../../../../shared/market/tick';
import { formatPrice } from '../../format/market-format';

/** The visible price range of a plot: `top` at y = 0, `bottom` at y = height (CSS px). */
export interface PriceScale {
  readonly top: bigint;
  readonly bottom: bigint;
  readonly height: number;
}

/** Sub-pixel resolution of pointer positions: a thousandth of a CSS pixel. */
const MILLI = 1000;

/**
 * A float on the drawing scale as raw units, exact from its decimal text (rounded to the unit);
 * null for a value that is not a finite number. Negative values are kept (a scale may pad below 0).
 */
export function rawFromDrawing(value: number, decimals: number): bigint | null {
  if (!Number.isFinite(value)) return null;
  const negative = value < 0;
  const text = Math.abs(value).toFixed(Math.min(decimals, 100));
  const parsed = parseUnits(text, decimals, 'scale');
  if (!parsed.ok) return null;
  return negative ? -parsed.value : parsed.value;
}

/** The scale of a plot from uPlot's y range (floats) and the plotting area's height; null before it has one. */
export function priceScale(min: number | null | undefined, max: number | null | undefined, height: number, decimals: number): PriceScale | null {
  if (min == null || max == null || !(height > 0)) return null;
  const bottom = rawFromDrawing(min, decimals);
  const top = rawFromDrawing(max, decimals);
  if (bottom === null || top === null || top <= bottom) return null;
  return { top, bottom, height };
}

/** Integer division rounding half away from zero. */
function divRound(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const quotient = (n * 2n + d) / (d * 2n);
  return negative ? -quotient : quotient;
}

/** The raw price at `y` CSS px from the top of the plotting area (exact, rounded to the raw unit). */
export function priceAtOffset(scale: PriceScale, y: number): bigint {
  const offset = BigInt(Math.round(y * MILLI));
  const height = BigInt(Math.round(scale.height * MILLI));
  return scale.top - divRound((scale.top - scale.bottom) * offset, height);
}

/** Where a raw price is drawn, in CSS px from the top of the plotting area (a float, for drawing only). */
export function offsetOfPrice(scale: PriceScale, price: bigint): number {
  const height = BigInt(Math.round(scale.height * MILLI));
  const milli = divRound((scale.top - price) * height, scale.top - scale.bottom);
  return Number(milli) / MILLI;
}

/** The nearest multiple of `tick` (halves go up), never below one tick. */
export function snapToTick(price: bigint, tick: bigint): bigint {
  if (tick <= 0n) return price;
  const remainder = ((price % tick) + tick) % tick;
  const down = price - remainder;
  const snapped = remainder * 2n >= tick ? down + tick : down;
  return snapped < tick ? tick : snapped;
}

/**
 * A drag of a line grabbed at `startY` (its price `from`) to `y`: the price moves by what the
 * pointer moved on the scale (so the line stays under the grab point), snapped onto the market's
 * price step, never below one step. Exact: no float touches the price.
 */
export function dragPrice(market: MarketRules, scale: PriceScale, from: bigint, startY: number, y: number): bigint {
  const moved = priceAtOffset(scale, y) - priceAtOffset(scale, startY);
  return snapToTick(from + moved, priceTick(market));
}

/** The price axis labels: each split with the market's price decimals and thousands separators. */
export function priceAxisLabels(market: MarketRules, splits: readonly number[]): string[] {
  return splits.map((split) => {
    const raw = rawFromDrawing(split, market.quote.decimals);
    if (raw === null) return '';
    return raw < 0n ? `-${formatPrice(market, -raw)}` : formatPrice(market, raw);
  });
}

/**
 * The price gridline steps uPlot may choose from: 1, 2, 2.5 and 5 times a power of ten times the
 * price step, as drawing numbers, so no split is finer than the market quotes and labels never repeat.
 */
export function priceIncrements(market: MarketRules): number[] {
  const tick = priceTick(market);
  const scale = 10 ** market.quote.decimals;
  const steps: number[] = [];
  for (let power = 0; power <= 15; power++) {
    const base = tick * 10n ** BigInt(power);
    for (const [times, over] of [[1n, 1n], [2n, 1n], [5n, 2n], [5n, 1n]] as const) {
      const raw = (base * times) / over;
      if ((base * times) % over === 0n) steps.push(Number(raw) / scale);
    }
  }
  return steps;
}

function two(value: number): string {
  return value.toString().padStart(2, '0');
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * Time axis labels (splits in seconds), local time, 24-hour clock: "14:05" within a day, the date
 * ("26 Nov") where a day starts or on the first label, "26 Nov 2026"-style dates when the splits
 * are a day or more apart, and months as "Nov 2026" when they are a month or more apart. Seconds
 * only when the splits are under a minute apart.
 */
export function timeAxisLabels(splits: readonly number[]): string[] {
  const step = splits.length > 1 ? Math.abs(splits[1]! - splits[0]!) : 60;
  let previousDay = '';
  return splits.map((seconds, index) => {
    const date = new Date(seconds * 1000);
    const day = `${date.getDate()} ${MONTHS[date.getMonth()]}`;
    if (step >= 28 * 86_400) return `${MONTHS[date.getMonth()]} ${date.getFullYear()}`;
    if (step >= 86_400) return index === 0 || date.getMonth() === 0 ? `${day} ${date.getFullYear()}` : day;
    const clock = step < 60 ? `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}` : `${two(date.getHours())}:${two(date.getMinutes())}`;
    const newDay = day !== previousDay;
    previousDay = day;
    return newDay ? `${day} ${clock}` : clock;
  });
}
