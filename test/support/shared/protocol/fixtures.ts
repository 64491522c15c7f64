// Fixed ids and a hand-written encoder built on Buffer, independent of shared/encoding.
import { b256, type B256 } from '../../../../shared/encoding/b256';
import type { Market } from '../../../../shared/market/market';
import { ascii, bytes32, u64 } from '../crypto/independent';

export const ids = {
  tradeAccount: b256(`0x${'77'.repeat(32)}`),
  book: b256(`0x${'c1'.repeat(32)}`),
  turboBook: b256(`0x${'c2'.repeat(32)}`),
  market: b256(`0x${'a1'.repeat(32)}`),
  baseAsset: b256(`0x${'ba'.repeat(32)}`),
  quoteAsset: b256(`0x${'9c'.repeat(32)}`),
  registry: b256(`0x${'5e'.repeat(32)}`),
  pool: b256(`0x${'90'.repeat(32)}`),
  child: b256(`0x${'d0'.repeat(32)}`),
  order: b256(`0x${'0d'.repeat(32)}`),
  referer: b256(`0x${'4e'.repeat(32)}`),
  zero: b256(`0x${'00'.repeat(32)}`),
};

export const market: Market = {
  contract_id: ids.book,
  market_id: ids.market,
  base: { symbol: 'ETH', asset: ids.baseAsset, decimals: 9, max_precision: 3 },
  quote: { symbol: 'USDC', asset: ids.quoteAsset, decimals: 9, max_precision: 2 },
  maker_fee: 100n,
  taker_fee: 250n,
  min_order: 1_000_000_000n,
  dust: 1_000n,
  price_window: 20,
};

export const targets = { trade_account_id: ids.tradeAccount, accounts_registry_id: ids.registry, margin_pool_id: ids.pool, margin_collateral_asset_id: ids.quoteAsset };

export function selector(name: string): Buffer {
  return Buffer.concat([u64(name.length), ascii(name)]);
}

export function identity(kind: 'Address' | 'ContractId', id: B256): Buffer {
  return Buffer.concat([u64(kind === 'Address' ? 0 : 1), bytes32(id)]);
}

/** contract ‖ selector ‖ u64 amount ‖ asset ‖ u64 gas(max) ‖ Option<u64 len ‖ data>, by hand. */
export function callBytes(contract: B256, name: string, amount: bigint, asset: B256, data: Buffer | null): Buffer {
  const option = data === null ? u64(0) : Buffer.concat([u64(1), u64(data.length), data]);
  return Buffer.concat([bytes32(contract), selector(name), u64(amount), bytes32(asset), Buffer.from('ffffffffffffffff', 'hex'), option]);
}
