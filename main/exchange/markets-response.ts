// GET /v1/markets (spec 2.3), parsed into the shared Market type.
// TODO(protocol core): replace with the shared/api schema once it lands.
import { z } from 'zod';
import type { B256 } from '../../shared/encoding/b256';
import type { Market } from '../../shared/market/market';

const b256 = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'expected 0x and 64 hex digits').transform((value) => value.toLowerCase() as B256);
const u64 = z.string().regex(/^\d{1,20}$/, 'expected a decimal integer string').transform((value) => BigInt(value));
const asset = z.object({ symbol: z.string(), asset: b256, decimals: z.number().int().min(0).max(30), max_precision: z.number().int().min(0).max(30) });

export const marketsResponse = z.object({
  chain_id: z.string().regex(/^0x[0-9a-fA-F]+$/, 'expected a hex string').transform((value) => BigInt(value)),
  books_registry_id: b256,
  accounts_registry_id: b256,
  trade_account_oracle_id: b256,
  base_asset_id: b256,
  markets: z.array(
    z.object({
      contract_id: b256,
      market_id: b256,
      maker_fee: u64,
      taker_fee: u64,
      min_order: u64,
      dust: u64,
      price_window: z.number(),
      base: asset,
      quote: asset,
    }),
  ),
});

export type MarketsResponse = z.output<typeof marketsResponse> & { markets: Market[] };
