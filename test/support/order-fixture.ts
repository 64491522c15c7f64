// The order path's unit fixture: a trading account, its owner and one market with a buy to place.
// Identities are fixed byte patterns, never keys of anything real.
import { b256 } from '../../shared/encoding/b256';
import type { Market } from '../../shared/market/market';

export const owner = b256(`0x${'11'.repeat(32)}`);
export const tradeAccount = b256(`0x${'22'.repeat(32)}`);
export const market: Market = {
  contract_id: b256(`0x${'33'.repeat(32)}`),
  market_id: b256(`0x${'44'.repeat(32)}`),
  base: { symbol: 'ETH', asset: b256(`0x${'55'.repeat(32)}`), decimals: 9, max_precision: 3 },
  quote: { symbol: 'USDC', asset: b256(`0x${'66'.repeat(32)}`), decimals: 9, max_precision: 2 },
  maker_fee: 100n,
  taker_fee: 200n,
  min_order: 1n,
  dust: 1n,
  price_window: 0,
};
/** One group: buy 1 ETH at 3,000 USDC (Spot). */
export const groups = [{ market_id: market.market_id, market, actions: [{ kind: 'CreateOrder' as const, side: 'Buy' as const, price: 3_000_000_000_000n, quantity: 1_000_000_000n, order_type: { kind: 'Spot' as const } }] }];
