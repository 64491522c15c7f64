// Moving a market's last price to a target through the engine (control surface): the house
// maker rests a small order at the target, then the house taker sweeps every level up to (or
// down to) the target with a Market order. The last level swept is the target, so the last
// trade prints there and anything watching trades (trigger orders, later) sees it happen.
import { contractIdentity } from '../../shared/encoding/identity';
import type { Side } from '../../shared/market/order-type';
import { isRevert, revert, type Revert } from '../ledger/revert';
import type { Ledger } from '../ledger/ledger';
import type { MarketState } from '../ledger/market';
import type { House } from './accounts';
import { onPriceTick, validQuantity } from './sizing';

export function tradeThrough(ledger: Ledger, house: House, market: MarketState, target: bigint, txId: string, timestamp: bigint): Revert | undefined {
  const price = onPriceTick(market.config, target);
  const reference = market.referencePrice() ?? price;
  const takerSide: Side = price >= reference ? 'Buy' : 'Sell';
  const size = validQuantity(market.config, price);
  if (size === undefined) return revert('InvalidPrice', `no valid quantity exists at price ${price}`);
  return ledger.transact(() => {
    const makerContext = { account: house.maker, txId, timestamp };
    const resting = market.createOrder(makerContext, { side: takerSide === 'Buy' ? 'Sell' : 'Buy', price, quantity: size, orderType: { kind: 'Spot' } });
    if (isRevert(resting)) return resting;
    // Round the sweep up to a valid quantity (FractionalPrice); a Market order cancels the rest.
    const quantity = validQuantity(market.config, price, market.book.available(takerSide, { worst: price }, 1n << 62n)) ?? size;
    const sweep = market.createOrder({ account: house.taker, txId, timestamp }, { side: takerSide, price, quantity, orderType: { kind: 'Market' } });
    if (isRevert(sweep)) return sweep;
    for (const account of [house.maker, house.taker]) market.settle({ account, txId, timestamp }, contractIdentity(account.id));
    return undefined;
  });
}
