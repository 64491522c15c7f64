// The price band: an order's price (a market order's: its bound) and a leg's trigger price must lie
// within the market's band around the book's reference, so a slipped decimal point or a price meant
// for another market is refused before a nonce is spent on it, rather than reverted by the
// exchange's own window after.
import { formatUnits } from '../../../shared/encoding/units';
import type { Market } from '../../../shared/market/market';
import { ORDER_KIND_TABLE } from '../../../shared/market/order-kinds';
import { bandLimits, bandReference, bandText } from '../../../shared/market/price-band';
import { priceTick } from '../../../shared/market/tick';
import { fail, ok, type Result } from '../../../shared/result';
import { GUARD_CODES } from './codes';
import type { GuardFacts } from './guard-facts';
import type { OrderIntent } from './order-intent';
import { pairOf, priceWords } from './words';

function what(intent: OrderIntent): string {
  return intent.kind === 'trigger' ? 'Trigger price' : ORDER_KIND_TABLE[intent.kind].takesPrice ? 'Price' : 'The market order’s bound';
}

export async function checkPriceBand(intent: OrderIntent, market: Market, facts: GuardFacts): Promise<Result<void>> {
  const bps = facts.bandBps(intent.marketId);
  if (bps === 0) return ok(undefined);
  const pair = pairOf(market, intent.turbo);
  const band = bandText(bps);
  const prices = await facts.bookPrices(market, intent.turbo);
  if (!prices.ok) {
    return fail(GUARD_CODES.NO_REFERENCE, `${pair}: the book could not be read (${prices.message}), so ${what(intent).toLowerCase()} ${priceWords(market, intent.price)} cannot be checked against your price band of ${band}. Nothing was signed; try again when the book is back.`, {
      field: 'price',
      bandBps: bps,
    });
  }
  const reference = bandReference(prices.value.bestBid, prices.value.bestAsk);
  if (reference === null) {
    // An order that can only rest has nothing to trade with on an empty book; one that takes
    // liquidity at once would take it at whatever arrives first.
    if (intent.kind !== 'trigger' && ORDER_KIND_TABLE[intent.kind].executesAtOnce) {
      return fail(GUARD_CODES.NO_REFERENCE, `${pair}: the book is empty (${prices.value.source}), so a ${ORDER_KIND_TABLE[intent.kind].label} order has no price to be measured against your price band of ${band}. Nothing was signed.`, {
        field: 'price',
        bandBps: bps,
      });
    }
    return ok(undefined);
  }
  // The limits shown and applied are prices the market can take: the band's edges moved inward onto the tick.
  const edges = bandLimits(reference, bps);
  const tick = priceTick(market);
  const low = ((edges.low + tick - 1n) / tick) * tick;
  const high = (edges.high / tick) * tick;
  if (intent.price >= low && intent.price <= high) return ok(undefined);
  const distance = intent.price > reference ? intent.price - reference : reference - intent.price;
  const distanceBps = reference === 0n ? 0n : (distance * 10_000n) / reference;
  const side = prices.value.bestBid !== null && prices.value.bestAsk !== null ? 'the mid of the best bid and offer' : prices.value.bestBid !== null ? 'the best bid, the only side quoted' : 'the best offer, the only side quoted';
  return fail(
    GUARD_CODES.PRICE_BAND,
    `${what(intent)} ${priceWords(market, intent.price)} is ${formatUnits(distanceBps, 2)} % ${intent.price > reference ? 'above' : 'below'} the reference ${priceWords(market, reference)} (${side}, ${prices.value.source}) on ${pair}: beyond your price band of ${band}, which allows ${priceWords(market, low)} to ${priceWords(market, high)}. Nothing was signed; change the price, or widen the band in Settings.`,
    { field: 'price', value: intent.price.toString(), reference: reference.toString(), low: low.toString(), high: high.toString(), bandBps: bps },
  );
}
