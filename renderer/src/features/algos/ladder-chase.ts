// The chase a ladder row's context menu offers: the ladder's own Size, the row's price (as a click
// there would price it) as the limit, following the touch with no offset, at the table's rate.
import type { Market } from '../../../../shared/market/market';
import type { Side } from '../../../../shared/market/order-type';
import { priceTick } from '../../../../shared/market/tick';
import { editablePrice } from '../../format/market-format';
import { clickPrice } from '../ladder/ladder-layout';
import { algoSpec, type AlgoFormResult } from './algo-form';

/** The limit a chase from this row has: the row's price made valid for the side. */
export function ladderChaseLimit(market: Market, side: Side, rowPrice: bigint): bigint {
  return clickPrice(side, rowPrice, priceTick(market));
}

export function ladderChase(market: Market, turbo: boolean, side: Side, rowPrice: bigint, sizeText: string): AlgoFormResult {
  return algoSpec(market, turbo, { kind: 'chase', side, quantityText: sizeText, texts: { limitPrice: editablePrice(market, ladderChaseLimit(market, side, rowPrice)) } });
}
