import { b256 } from '../../../../shared/encoding/b256';
import type { Market } from '../../../../shared/market/market';

/** ETH/USDC, both 9 decimals; prices to 2 decimals (tick 10^7), quantities to 3 (tick 10^6). */
export const ethUsdc: Market = {
  contract_id: b256(`0x${'c1'.repeat(32)}`),
  market_id: b256(`0x${'a1'.repeat(32)}`),
  base: { symbol: 'ETH', asset: b256(`0x${'ba'.repeat(32)}`), decimals: 9, max_precision: 3 },
  quote: { symbol: 'USDC', asset: b256(`0x${'9c'.repeat(32)}`), decimals: 9, max_precision: 2 },
  maker_fee: 100n,
  taker_fee: 250n,
  min_order: 1_000_000_000n,
  dust: 1_000_000n,
  price_window: 20,
};

/** ETH/USDC with USDC at 6 decimals (ETH 9, sizes to 3, prices to 2), no price window: the trading service's unit tests. */
export const ethUsdcSixDecimals: Market = {
  contract_id: b256(`0x${'c1'.repeat(32)}`),
  market_id: b256(`0x${'a1'.repeat(32)}`),
  base: { symbol: 'ETH', asset: b256(`0x${'01'.repeat(32)}`), decimals: 9, max_precision: 3 },
  quote: { symbol: 'USDC', asset: b256(`0x${'02'.repeat(32)}`), decimals: 6, max_precision: 2 },
  maker_fee: 100n,
  taker_fee: 250n,
  min_order: 10_000_000n,
  dust: 1_000_000n,
  price_window: 0,
};
