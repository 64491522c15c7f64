// The trail distance typed in the legs list, in the unit the trader chose: a whole number of ticks,
// a percent of the reference (two decimals, sent as basis points), or a price distance in quote on
// the price step. Empty is none. A refusal names the field and the value typed.
import { parseUnits } from '../../../../shared/encoding/units';
import type { ProtectiveDistance } from '../../../../shared/ipc/views';
import type { Market } from '../../../../shared/market/market';
import { priceTick } from '../../../../shared/market/tick';
import { fail, ok, type Result } from '../../../../shared/result';
import { formatPrice } from '../../format/market-format';

export type TrailUnit = ProtectiveDistance['kind'];

const FIELD = 'Trail distance';

export function parseTrailDistance(market: Market, text: string, unit: TrailUnit): Result<ProtectiveDistance | null> {
  const typed = text.trim();
  if (typed === '') return ok(null);
  const details = { field: FIELD };
  switch (unit) {
    case 'ticks':
      if (!/^\d{1,7}$/.test(typed) || BigInt(typed) === 0n) return fail('INVALID_TICKS', `${FIELD}: "${typed}" is not a whole number of ticks from 1 to 9,999,999`, details);
      return ok({ kind: 'ticks', ticks: BigInt(typed) });
    case 'percent': {
      const basisPoints = parseUnits(typed, 2, FIELD);
      if (!basisPoints.ok) return fail('INVALID_PERCENT', `${FIELD}: "${typed}" % is not a percent with at most two decimals`, details);
      if (basisPoints.value < 1n || basisPoints.value > 5_000n) return fail('INVALID_PERCENT', `${FIELD}: "${typed}" % is not between 0.01 and 50`, details);
      return ok({ kind: 'percent', basisPoints: basisPoints.value });
    }
    case 'price': {
      const amount = parseUnits(typed, market.quote.decimals, FIELD);
      if (!amount.ok) return fail(amount.code, `${FIELD}: "${typed}" ${market.quote.symbol} is not a plain decimal price distance`, details);
      if (amount.value === 0n) return fail('INVALID_PRICE', `${FIELD}: "${typed}" ${market.quote.symbol} must be above zero`, details);
      const tick = priceTick(market);
      if (amount.value % tick !== 0n) return fail('PRICE_PRECISION', `${FIELD}: "${typed}" ${market.quote.symbol} is not on the price step of ${formatPrice(market, tick)} ${market.quote.symbol}`, details);
      return ok({ kind: 'price', amount: amount.value });
    }
  }
}

/** "50 ticks", "1.25 %", "12.50 USDC". */
export function trailDistanceText(market: Market, distance: ProtectiveDistance): string {
  switch (distance.kind) {
    case 'ticks':
      return `${distance.ticks} ticks`;
    case 'percent':
      return `${Number(distance.basisPoints) / 100} %`;
    case 'price':
      return `${formatPrice(market, distance.amount)} ${market.quote.symbol}`;
  }
}
