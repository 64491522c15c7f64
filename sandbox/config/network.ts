// What the sandbox network serves: its assets, its markets and the registry ids of
// GET /v1/markets. Every id is derived from the seed (ids.ts). The markets differ on purpose
// (decimals, max_precision, fees, min_order, dust, price_window, whitelisting) so a client
// that assumes any of them is caught here, and two markets share the symbols ETH and a
// dollar quote (ETH/USDC, ETH/USDT) so clients must match asset ids, not symbols.
import type { B256 } from '../../shared/encoding/b256';
import type { Market, MarketAsset } from '../../shared/market/market';
import { deriveId } from '../ids';

export interface AssetConfig {
  readonly key: string;
  readonly symbol: string;
  readonly id: B256;
  readonly decimals: number;
  /** Raw units the faucet mints per request. */
  readonly faucetAmount: bigint;
}

/**
 * A market as shared/market's rules take it (wire field names, money as bigint), plus what
 * only the sandbox knows. `dust` is a base quantity (docs/sandbox.md); `price_window` is a
 * percentage band around the reference price.
 */
export interface MarketConfig extends Market {
  /** BASE/QUOTE, unique within the network. */
  readonly name: string;
  readonly whitelistRequired: boolean;
  /** Starting mid price for the house maker, raw quote units per whole base unit. */
  readonly initialMid: bigint;
}

/** A Turbo book paired with a canonical market (margin 2.5): its own contract, fees and limits. */
export interface TurboMarketConfig extends MarketConfig {
  readonly canonicalContractId: B256;
  /** Bps a trigger may slip past its trigger price (Turbo rows carry it; margin 2.5). */
  readonly triggerMaxSlippage: number;
}

export interface NetworkConfig {
  readonly chainId: bigint;
  readonly booksRegistryId: B256;
  readonly accountsRegistryId: B256;
  readonly tradeAccountOracleId: B256;
  /** Implementation a new trade account starts with. */
  readonly tradeAccountImplementationId: B256;
  /** Implementation the trade-account oracle publishes (what POST /v1/accounts/upgrade moves to). */
  readonly oracleImplementationId: B256;
  readonly baseAssetId: B256;
  readonly assets: readonly AssetConfig[];
  readonly markets: readonly MarketConfig[];
  /** Turbo books by canonical market id. */
  readonly turboMarkets: readonly TurboMarketConfig[];
  /** The margin pool: the target of every Turbo Account action (draw, borrow, …). */
  readonly marginPoolId: B256;
  /** The pool's collateral (quote) asset: USDC. */
  readonly marginCollateralAssetId: B256;
}

interface TurboSpec {
  readonly market: string;
  readonly makerFeePpm: bigint;
  readonly takerFeePpm: bigint;
  readonly minOrder: bigint;
  readonly priceWindow: number;
  readonly triggerMaxSlippage: number;
}

// Two canonical markets quoted in the pool's collateral asset get a Turbo book, with fees and
// limits of their own so a client that copies the canonical row's values is caught.
const TURBO: readonly TurboSpec[] = [
  { market: 'ETH/USDC', makerFeePpm: 50n, takerFeePpm: 300n, minOrder: 5_000_000n, priceWindow: 25, triggerMaxSlippage: 150 },
  { market: 'BTC/USDC', makerFeePpm: 0n, takerFeePpm: 350n, minOrder: 20_000_000n, priceWindow: 20, triggerMaxSlippage: 200 },
];

interface AssetSpec {
  /** Unique within the network; equals the symbol except for a second asset with the same symbol. */
  readonly key: string;
  readonly symbol: string;
  readonly decimals: number;
  readonly faucetWhole: bigint;
}

const ASSETS: readonly AssetSpec[] = [
  { key: 'ETH', symbol: 'ETH', decimals: 9, faucetWhole: 10n },
  { key: 'USDC', symbol: 'USDC', decimals: 6, faucetWhole: 100_000n },
  { key: 'USDT', symbol: 'USDT', decimals: 6, faucetWhole: 100_000n },
  { key: 'BTC', symbol: 'BTC', decimals: 8, faucetWhole: 1n },
  { key: 'FUEL', symbol: 'FUEL', decimals: 9, faucetWhole: 1_000_000n },
  // A bridged dollar with the same symbol as USDC but its own asset id: clients must match ids.
  { key: 'USDC.b', symbol: 'USDC', decimals: 6, faucetWhole: 100_000n },
];

interface MarketSpec {
  readonly base: string;
  readonly quote: string;
  readonly baseMaxPrecision: number;
  readonly quoteMaxPrecision: number;
  readonly makerFeePpm: bigint;
  readonly takerFeePpm: bigint;
  readonly minOrder: bigint;
  readonly dust: bigint;
  readonly priceWindow: number;
  readonly whitelistRequired: boolean;
  readonly initialMid: bigint;
}

const MARKETS: readonly MarketSpec[] = [
  // Price tick 0.01 USDC, quantity tick 0.0001 ETH: on-tick orders never hit FractionalPrice.
  { base: 'ETH', quote: 'USDC', baseMaxPrecision: 4, quoteMaxPrecision: 2, makerFeePpm: 100n, takerFeePpm: 250n, minOrder: 1_000_000n, dust: 1_000_000n, priceWindow: 20, whitelistRequired: false, initialMid: 3_000_000_000n },
  // Same pair, other quote asset: tick 0.001 USDT x 0.0001 ETH = 1e8, so FractionalPrice can occur.
  { base: 'ETH', quote: 'USDT', baseMaxPrecision: 4, quoteMaxPrecision: 3, makerFeePpm: 0n, takerFeePpm: 200n, minOrder: 5_000_000n, dust: 1_000_000n, priceWindow: 10, whitelistRequired: false, initialMid: 3_001_000_000n },
  { base: 'BTC', quote: 'USDC', baseMaxPrecision: 5, quoteMaxPrecision: 1, makerFeePpm: 50n, takerFeePpm: 150n, minOrder: 10_000_000n, dust: 1_000n, priceWindow: 15, whitelistRequired: false, initialMid: 60_000_000_000n },
  // Whole-token quantities, no price tick (max_precision equals decimals); needs whitelisting.
  // Same symbols as ETH/USDC (ETH_USDC), other quote asset: market_pair resolves to the first one.
  { base: 'ETH', quote: 'USDC.b', baseMaxPrecision: 4, quoteMaxPrecision: 2, makerFeePpm: 150n, takerFeePpm: 300n, minOrder: 1_000_000n, dust: 1_000_000n, priceWindow: 20, whitelistRequired: false, initialMid: 2_999_500_000n },
  { base: 'FUEL', quote: 'USDC', baseMaxPrecision: 0, quoteMaxPrecision: 6, makerFeePpm: 200n, takerFeePpm: 400n, minOrder: 1_000_000n, dust: 0n, priceWindow: 25, whitelistRequired: true, initialMid: 20_000n },
];

export function buildNetwork(seed: number, chainId: bigint): NetworkConfig {
  const assets = ASSETS.map((spec) => ({
    key: spec.key,
    symbol: spec.symbol,
    id: deriveId(seed, `asset/${spec.key}`),
    decimals: spec.decimals,
    faucetAmount: spec.faucetWhole * 10n ** BigInt(spec.decimals),
  }));
  const byKey = new Map(assets.map((a) => [a.key, a]));
  const side = (key: string, maxPrecision: number): MarketAsset => {
    const asset = byKey.get(key);
    if (!asset) throw new Error(`network: unknown asset ${key}`);
    return { symbol: asset.symbol, asset: asset.id, decimals: asset.decimals, max_precision: maxPrecision };
  };
  const markets = MARKETS.map((spec): MarketConfig => {
    const name = `${spec.base}/${spec.quote}`;
    return {
      name,
      contract_id: deriveId(seed, `book/${name}`),
      market_id: deriveId(seed, `market/${name}`),
      base: side(spec.base, spec.baseMaxPrecision),
      quote: side(spec.quote, spec.quoteMaxPrecision),
      maker_fee: spec.makerFeePpm,
      taker_fee: spec.takerFeePpm,
      min_order: spec.minOrder,
      dust: spec.dust,
      price_window: spec.priceWindow,
      whitelistRequired: spec.whitelistRequired,
      initialMid: spec.initialMid,
    };
  });
  const turboMarkets = TURBO.map((spec): TurboMarketConfig => {
    const canonical = markets.find((market) => market.name === spec.market);
    if (!canonical) throw new Error(`network: unknown market ${spec.market}`);
    return {
      ...canonical,
      contract_id: deriveId(seed, `turbo-book/${canonical.name}`),
      canonicalContractId: canonical.contract_id,
      maker_fee: spec.makerFeePpm,
      taker_fee: spec.takerFeePpm,
      min_order: spec.minOrder,
      price_window: spec.priceWindow,
      whitelistRequired: false,
      triggerMaxSlippage: spec.triggerMaxSlippage,
    };
  });
  return {
    chainId,
    turboMarkets,
    marginPoolId: deriveId(seed, 'margin/pool'),
    marginCollateralAssetId: deriveId(seed, 'asset/USDC'),
    booksRegistryId: deriveId(seed, 'registry/books'),
    accountsRegistryId: deriveId(seed, 'registry/accounts'),
    tradeAccountOracleId: deriveId(seed, 'oracle/trade-account'),
    tradeAccountImplementationId: deriveId(seed, 'implementation/trade-account/1'),
    oracleImplementationId: deriveId(seed, 'implementation/trade-account/2'),
    baseAssetId: deriveId(seed, 'asset/ETH'),
    assets,
    markets,
  };
}
