// A market as the client works with it: the wire row of GET /v1/markets with money as bigint.
// Field names stay those of the wire so a reader can match them to the spec.
import type { B256 } from '../encoding/b256';

export interface MarketAsset {
  readonly symbol: string;
  /** Asset id. */
  readonly asset: B256;
  /** Raw units per whole unit are 10^decimals. */
  readonly decimals: number;
  /** Meaningful decimals; prices and quantities are truncated to it. */
  readonly max_precision: number;
}

/** What the order rules need; both canonical and Turbo rows satisfy it. */
export interface MarketRules {
  readonly base: MarketAsset;
  readonly quote: MarketAsset;
  /** ppm: 100 is 0.01 %. */
  readonly maker_fee: bigint;
  readonly taker_fee: bigint;
  /** Minimum quote value, `(price * quantity) / 10^base.decimals`, for buys and sells alike. */
  readonly min_order: bigint;
  /** Threshold below which an amount is ignored. */
  readonly dust: bigint;
}

export interface Market extends MarketRules {
  /** The order-book contract; sessions are scoped to it and orders are signed against it. */
  readonly contract_id: B256;
  readonly market_id: B256;
  readonly price_window: number;
  /** Turbo rows only (GET /v1/markets?turbo=true): `contract_id` is then the Turbo book. */
  readonly turbo?: boolean;
  /** Turbo rows: the paired canonical book. */
  readonly canonical_contract_id?: B256;
  /** Turbo rows: creates are refused while disconnected. */
  readonly connected?: boolean;
  /** Turbo rows: true if either book is paused. */
  readonly paused?: boolean;
  /** Turbo rows: the Turbo book's own bound on trigger slippage (raw integer as published). */
  readonly trigger_max_slippage?: bigint;
}

export const PPM = 1_000_000n;

/** 10^n as bigint. */
// Decimals are small integers; the powers are computed once (the engine asks for them per order).
const POWERS_OF_TEN: readonly bigint[] = Array.from({ length: 78 }, (_, exponent) => 10n ** BigInt(exponent));

export function powerOfTen(exponent: number): bigint {
  return POWERS_OF_TEN[exponent] ?? 10n ** BigInt(exponent);
}

/** One key per order book, a market's canonical book or its Turbo book (the id compared in lowercase). */
export function bookKey(marketId: string, turbo: boolean): string {
  return `${marketId.toLowerCase()}:${turbo ? 'turbo' : 'canonical'}`;
}
