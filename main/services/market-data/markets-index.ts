// The markets of the connected network, canonical rows and their Turbo rows, looked up by market
// id (never by symbol: two markets may share symbols and differ by quote asset id).
import type { MarketsResponse } from '../../../shared/api/market-schemas';
import type { B256 } from '../../../shared/encoding/b256';
import type { Market } from '../../../shared/market/market';
import { fail, ok, type Result } from '../../../shared/result';

export const UNKNOWN_MARKET = 'UNKNOWN_MARKET';
export const NO_TURBO_BOOK = 'NO_TURBO_BOOK';

export interface AssetInfo {
  readonly assetId: B256;
  readonly symbol: string;
  readonly decimals: number;
}

export class MarketsIndex {
  private readonly canonical = new Map<string, Market>();
  private readonly turbo = new Map<string, Market>();
  private readonly assetsById = new Map<string, AssetInfo>();

  constructor(
    readonly response: MarketsResponse,
    turboRows: readonly Market[] = [],
  ) {
    for (const market of response.markets) {
      this.canonical.set(market.market_id, market);
      for (const asset of [market.base, market.quote]) this.assetsById.set(asset.asset, { assetId: asset.asset, symbol: asset.symbol, decimals: asset.decimals });
    }
    for (const row of turboRows) this.turbo.set(row.market_id, row);
  }

  get chainId(): bigint {
    return this.response.chain_id;
  }

  markets(): Market[] {
    return [...this.canonical.values()];
  }

  turboMarkets(): Market[] {
    return [...this.turbo.values()];
  }

  assets(): AssetInfo[] {
    return [...this.assetsById.values()];
  }

  asset(assetId: string): AssetInfo | undefined {
    return this.assetsById.get(assetId);
  }

  /** The row to trade on: the canonical book, or its Turbo book. */
  market(marketId: string, turbo = false): Result<Market> {
    if (turbo) {
      const row = this.turbo.get(marketId);
      if (row) return ok(row);
      if (!this.canonical.has(marketId)) return fail(UNKNOWN_MARKET, `market ${marketId} is not listed on this network`, { field: 'marketId' });
      return fail(NO_TURBO_BOOK, `market ${marketId} has no Turbo order book`, { field: 'marketId' });
    }
    const row = this.canonical.get(marketId);
    return row ? ok(row) : fail(UNKNOWN_MARKET, `market ${marketId} is not listed on this network`, { field: 'marketId' });
  }

  /** The market whose canonical or Turbo book is this contract. */
  byContract(contractId: string): { market: Market; turbo: boolean } | null {
    for (const market of this.canonical.values()) if (market.contract_id === contractId) return { market, turbo: false };
    for (const market of this.turbo.values()) if (market.contract_id === contractId) return { market, turbo: true };
    return null;
  }

  /**
   * Contracts a session for these markets must cover: each canonical book and its Turbo book, and
   * the accounts registry (RegisterReferer targets it).
   */
  contractIdsFor(marketIds: readonly string[]): Result<B256[]> {
    const ids: B256[] = [this.response.accounts_registry_id];
    for (const marketId of marketIds) {
      const market = this.canonical.get(marketId);
      if (!market) return fail(UNKNOWN_MARKET, `market ${marketId} is not listed on this network`, { field: 'marketIds' });
      ids.push(market.contract_id);
      const turbo = this.turbo.get(marketId);
      if (turbo) ids.push(turbo.contract_id);
    }
    return ok([...new Set(ids)]);
  }
}
