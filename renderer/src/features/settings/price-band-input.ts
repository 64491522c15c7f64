// The price band field of the Settings panel: percent text in (two decimals at most: 0.01 % is one
// basis point), the market's bands as main takes them out. Empty puts the market back on the
// default band; 0 turns it off. Main confirms any widening in its trusted surface.
import { formatUnits, parseUnits } from '../../../../shared/encoding/units';
import { DEFAULT_PRICE_BAND_BPS, MAX_PRICE_BAND_BPS, priceBandOf } from '../../../../shared/market/price-band';
import { fail, ok, type Result } from '../../../../shared/result';

/** The bands with this market's set from the field's text. */
export function bandsWithText(bands: Readonly<Record<string, number>>, marketId: string, text: string): Result<Record<string, number>> {
  const next = { ...bands };
  const trimmed = text.trim().replace(/\s*%$/, '');
  if (trimmed === '') {
    delete next[marketId];
    return ok(next);
  }
  const parsed = parseUnits(trimmed, 2, 'Price band', BigInt(MAX_PRICE_BAND_BPS));
  if (!parsed.ok) return fail(parsed.code, `${parsed.message} (a percentage such as 30 or 2.5; 0 turns the band off; at most ${MAX_PRICE_BAND_BPS / 100} %)`);
  next[marketId] = Number(parsed.value);
  return ok(next);
}

/** The field's text for a market: its own band in percent, or empty while it keeps the default. */
export function bandFieldText(bands: Readonly<Record<string, number>>, marketId: string): string {
  return bands[marketId] === undefined ? '' : formatUnits(BigInt(priceBandOf(bands, marketId)), 2);
}

export const DEFAULT_BAND_TEXT = `${formatUnits(BigInt(DEFAULT_PRICE_BAND_BPS), 2)} %`;
