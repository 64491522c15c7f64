// The order path's unit fixture: a trading account, its owner and one market with a buy to place.
// Identities are fixed byte patterns, never keys of anything real.
import { b256 } from '../../shared/encoding/b256';
import { ethUsdc } from './shared/market/fixtures';

export const owner = b256(`0x${'11'.repeat(32)}`);
export const tradeAccount = b256(`0x${'22'.repeat(32)}`);
/** ETH/USDC, the market fixture of the market-rules tests. */
export const market = ethUsdc;
/** One group: buy 1 ETH at 3,000 USDC (Spot). */
export const groups = [{ market_id: market.market_id, market, actions: [{ kind: 'CreateOrder' as const, side: 'Buy' as const, price: 3_000_000_000_000n, quantity: 1_000_000_000n, order_type: { kind: 'Spot' as const } }] }];
