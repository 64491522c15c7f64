// What the Positions row's TP/SL fields ask main for (pure): each price typed as a price, or as an
// offset from the position's average entry in ticks or in percent (toward profit for the
// take-profit, toward loss for the stop-loss), on the price step. A refusal names the field and
// the value typed.
import { parseUnits } from '../../../../shared/encoding/units';
import type { Market } from '../../../../shared/market/market';
import { priceTick } from '../../../../shared/market/tick';
import { fail, ok, type Result } from '../../../../shared/result';

export type OffsetUnit = 'price' | 'ticks' | 'percent';

export interface BracketFields {
  readonly takeProfit: string;
  readonly stopLoss: string;
  readonly unit: OffsetUnit;
}

/** One field: empty (none), a price, or an offset from the entry; `up`: the leg sits above the entry. */
export function bracketPrice(market: Market, text: string, unit: OffsetUnit, entry: bigint | null, up: boolean, field: string): Result<bigint | null> {
  const typed = text.trim();
  if (typed === '') return ok(null);
  const tick = priceTick(market);
  if (unit === 'price') {
    const price = parseUnits(typed, market.quote.decimals, field);
    if (!price.ok) return price;
    if (price.value <= 0n) return fail('INVALID_PRICE', `${field}: "${typed}" must be above zero`, { field });
    if (price.value % tick !== 0n) return fail('PRICE_PRECISION', `${field}: "${typed}" is not on the price step of ${market.quote.max_precision} decimals`, { field });
    return ok(price.value);
  }
  if (entry === null) return fail('ENTRY_UNKNOWN', `${field}: an offset needs the position's average entry, which is not known; type a price`, { field });
  let distance: bigint;
  if (unit === 'ticks') {
    if (!/^\d{1,7}$/.test(typed) || BigInt(typed) === 0n) return fail('INVALID_TICKS', `${field}: "${typed}" is not a whole number of ticks from 1 to 9,999,999`, { field });
    distance = BigInt(typed) * tick;
  } else {
    // Percent with up to two decimals, as basis points.
    const basisPoints = parseUnits(typed, 2, field);
    if (!basisPoints.ok) return basisPoints;
    if (basisPoints.value <= 0n || basisPoints.value >= 10_000n) return fail('INVALID_PERCENT', `${field}: "${typed}" % must be above 0 and below 100`, { field });
    distance = (entry * basisPoints.value) / 10_000n;
  }
  // On the step, rounded toward the entry (never farther than the offset typed).
  const raw = up ? entry + distance : entry - distance;
  const price = up ? raw - (raw % tick) : raw + ((tick - (raw % tick)) % tick);
  if (price <= 0n) return fail('INVALID_PRICE', `${field}: "${typed}" ${unit} from the entry leaves no price above zero`, { field });
  return ok(price);
}

/** Both fields for a position of this side: a long's take-profit above the entry, its stop-loss below (a short's the other way). */
export function bracketRequest(market: Market, fields: BracketFields, entry: bigint | null, long: boolean): Result<{ takeProfit: bigint | null; stopLoss: bigint | null }> {
  const takeProfit = bracketPrice(market, fields.takeProfit, fields.unit, entry, long, 'Take-profit');
  if (!takeProfit.ok) return takeProfit;
  const stopLoss = bracketPrice(market, fields.stopLoss, fields.unit, entry, !long, 'Stop-loss');
  if (!stopLoss.ok) return stopLoss;
  if (takeProfit.value === null && stopLoss.value === null) return fail('NOTHING_TO_MANAGE', 'Take-profit: enter a take-profit, a stop-loss, or both', { field: 'Take-profit' });
  return ok({ takeProfit: takeProfit.value, stopLoss: stopLoss.value });
}

/** The automatic bracket's offsets as main takes them: whole ticks, or a percent (two decimals) as basis points. */
export function autoBracketRequest(fields: { takeProfit: string; stopLoss: string; unit: 'ticks' | 'percent' }): Result<{ unit: 'ticks' | 'percent'; takeProfit: bigint | null; stopLoss: bigint | null }> {
  const offset = (text: string, field: string): Result<bigint | null> => {
    const typed = text.trim();
    if (typed === '') return ok(null);
    if (fields.unit === 'ticks') {
      if (!/^\d{1,7}$/.test(typed) || BigInt(typed) === 0n || BigInt(typed) > 1_000_000n) return fail('INVALID_TICKS', `${field}: "${typed}" is not a whole number of ticks from 1 to 1,000,000`, { field });
      return ok(BigInt(typed));
    }
    const basisPoints = parseUnits(typed, 2, field);
    if (!basisPoints.ok || basisPoints.value <= 0n || basisPoints.value >= 10_000n) return fail('INVALID_PERCENT', `${field}: "${typed}" % is not a percent above 0 and below 100 with at most two decimals`, { field });
    return ok(basisPoints.value);
  };
  const takeProfit = offset(fields.takeProfit, 'Take-profit offset');
  if (!takeProfit.ok) return takeProfit;
  const stopLoss = offset(fields.stopLoss, 'Stop-loss offset');
  if (!stopLoss.ok) return stopLoss;
  if (takeProfit.value === null && stopLoss.value === null) return fail('NOTHING_TO_MANAGE', 'Take-profit offset: enter a take-profit offset, a stop-loss offset, or both', { field: 'Take-profit offset' });
  return ok({ unit: fields.unit, takeProfit: takeProfit.value, stopLoss: stopLoss.value });
}
