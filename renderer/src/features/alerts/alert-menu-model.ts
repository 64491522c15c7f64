// What the alert menu of the ladder and the chart offers at a price: an alert when the bid, the
// ask, the last trade or the mark (the midpoint of bid and ask) crosses it, in the direction that price lies from where that source is now
// (above it: crosses above; below: crosses below). Re-armed one price step back past the level.
import type { RequestInput } from '../../../../shared/ipc/contract';
import type { AlertPriceSource } from '../../../../shared/ipc/views/alerts';
import type { Market } from '../../../../shared/market/market';
import { referenceMark } from '../../../../shared/market/reference-mark';
import { priceTick } from '../../../../shared/market/tick';
import { formatPrice } from '../../format/market-format';

export interface AlertChoice {
  readonly source: AlertPriceSource;
  readonly label: string;
  readonly input: RequestInput<'createAlert'>;
}

export interface CurrentPrices {
  readonly bid: bigint | null;
  readonly ask: bigint | null;
  readonly last: bigint | null;
}

const SOURCES: readonly AlertPriceSource[] = ['bid', 'ask', 'last', 'mark'];
const NAMES: Readonly<Record<AlertPriceSource, string>> = { bid: 'bid', ask: 'ask', last: 'last trade', mark: 'mark' };

/** One choice per source that has a price now and is not already at `price`. */
export function alertChoices(market: Market, turbo: boolean, price: bigint, current: CurrentPrices): AlertChoice[] {
  const choices: AlertChoice[] = [];
  for (const source of SOURCES) {
    const now = source === 'mark' ? referenceMark(current.bid, current.ask) : current[source];
    if (now === null || now === price) continue;
    const direction = price > now ? 'above' : 'below';
    choices.push({
      source,
      label: `Alert when the ${NAMES[source]} crosses ${direction} ${formatPrice(market, price)}`,
      input: { condition: { kind: 'price', marketId: market.market_id, turbo, source, direction, price, hysteresis: priceTick(market) }, repeat: false, cooldownSeconds: 60, sound: true },
    });
  }
  return choices;
}
