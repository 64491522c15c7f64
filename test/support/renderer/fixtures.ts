// Markets shaped like the sandbox's: ETH/USDC (quote 6 decimals, price tick 0.01, quantity tick
// 0.0001) and ETH/USDT with the same symbols on another quote asset.
import type { Market } from '../../../shared/market/market';
import type { B256 } from '../../../shared/encoding/b256';
import type { PositionView } from '../../../shared/ipc/views';
import { closePlan, partialClosePlan, reversePlan } from '../../../shared/positions/close-plan';

const id = (byte: string) => `0x${byte.repeat(32)}` as B256;

export const ethUsdc: Market = {
  contract_id: id('c1'),
  market_id: id('a1'),
  base: { symbol: 'ETH', asset: id('ee'), decimals: 9, max_precision: 4 },
  quote: { symbol: 'USDC', asset: id('cc'), decimals: 6, max_precision: 2 },
  maker_fee: 100n,
  taker_fee: 250n,
  min_order: 1_000_000n,
  dust: 1_000_000n,
  price_window: 20,
};

export const ethUsdt: Market = {
  ...ethUsdc,
  contract_id: id('c2'),
  market_id: id('a2'),
  quote: { symbol: 'USDT', asset: id('dd'), decimals: 6, max_precision: 3 },
  maker_fee: 0n,
  taker_fee: 200n,
  min_order: 5_000_000n,
};

export const ethUsdcOther: Market = {
  ...ethUsdc,
  contract_id: id('c3'),
  market_id: id('a3'),
  quote: { symbol: 'USDC', asset: id('cf'), decimals: 6, max_precision: 2 },
};

/**
 * A position on ETH/USDC (Canonical, the trading account, flat, no fills) with the given fields;
 * its close, partial close and reverse plans are those of its size at its mark unless given.
 */
export const positionView = (fields: Partial<PositionView>): PositionView => ({
  close: closePlan(ethUsdc, fields.size ?? 0n, { price: fields.mark ?? null, takerFee: ethUsdc.taker_fee }),
  partials: ([25, 50, 75] as const).map((percent) => partialClosePlan(ethUsdc, fields.size ?? 0n, percent, { price: fields.mark ?? null, takerFee: ethUsdc.taker_fee })),
  reverse: reversePlan(ethUsdc, fields.size ?? 0n, { price: fields.mark ?? null, takerFee: ethUsdc.taker_fee }),
  limitTouch: null,
  // Main's plans at the closing side's touch (main/services/positions: limitClosePlan), post-only at the maker fee.
  limitCloses: ([25, 50, 75, 100] as const).map((percent) => partialClosePlan(ethUsdc, fields.size ?? 0n, percent, { price: fields.limitTouch ?? null, takerFee: ethUsdc.maker_fee })),
  account: `0x${'aa'.repeat(32)}`,
  accountKind: 'trading',
  marketId: ethUsdc.market_id,
  turbo: false,
  size: 0n,
  notClosable: null,
  averageEntry: null,
  basis: 0n,
  mark: null,
  markSide: null,
  unrealized: null,
  unrealizedBps: null,
  realized: 0n,
  realizedBps: null,
  feesBase: 0n,
  feesQuote: 0n,
  fills: 0,
  liquidation: null,
  freeze: null,
  ...fields,
});
