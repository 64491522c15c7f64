// Margin helpers for the sandbox contract tests: a parent trader with its children, requests built
// and signed with shared/protocol exactly as the terminal would (parallel nonces for children).
import type { B256 } from '../../../shared/encoding/b256';
import { signDigest } from '../../../shared/crypto/index';
import type { Market } from '../../../shared/market/market';
import { packParallelNonce } from '../../../shared/nonce/parallel-packing';
import type { SessionAction } from '../../../shared/protocol/actions';
import type { CallMarket } from '../../../shared/protocol/action-calls';
import type { NonceChoice } from '../../../shared/protocol/nonce-choice';
import { prepareSessionActions, sessionActionsBody } from '../../../shared/protocol/session-actions';
import type { HttpResult, SandboxClient, Trader } from './client';

export interface Network {
  readonly registry: B256;
  readonly pool: B256;
  readonly collateral: B256;
  readonly canonical: Market[];
  readonly turbo: (Market & { canonical_contract_id: B256 })[];
}

export async function readNetwork(client: SandboxClient): Promise<Network> {
  const { markets, accountsRegistryId } = await client.markets();
  const turboRows = await client.get<{ markets: Record<string, unknown>[] }>('/v1/markets?turbo=true');
  const turbo = turboRows.body.markets.map((row) => {
    const base = row.base as Record<string, unknown>;
    const quote = row.quote as Record<string, unknown>;
    return {
      contract_id: row.contract_id as B256,
      canonical_contract_id: row.canonical_contract_id as B256,
      market_id: row.market_id as B256,
      maker_fee: BigInt(row.maker_fee as string),
      taker_fee: BigInt(row.taker_fee as string),
      min_order: BigInt(row.min_order as string),
      dust: BigInt(row.dust as string),
      price_window: row.price_window as number,
      base: { symbol: base.symbol as string, asset: base.asset as B256, decimals: base.decimals as number, max_precision: base.max_precision as number },
      quote: { symbol: quote.symbol as string, asset: quote.asset as B256, decimals: quote.decimals as number, max_precision: quote.max_precision as number },
    };
  });
  const pool = await client.get<{ pool_id: B256; collateral_asset_id: B256 }>('/v1/margin/pool');
  return { registry: accountsRegistryId, pool: pool.body.pool_id, collateral: pool.body.collateral_asset_id, canonical: markets, turbo };
}

export interface Group {
  readonly market: Market | CallMarket & { market_id: B256 };
  readonly turbo?: boolean;
  readonly actions: SessionAction[];
}

/** Signs batches for a parent and its children with the parent's session key. */
export class MarginSigner {
  private readonly cursors = new Map<string, bigint>();

  constructor(
    readonly trader: Trader,
    readonly network: Network,
  ) {}

  /** A fresh parallel nonce of `account` (lane 1), expiring 120 s after the sandbox clock. */
  async parallelNonce(account: B256): Promise<NonceChoice> {
    const position = this.cursors.get(account) ?? 0n;
    this.cursors.set(account, position + 1n);
    const clock = await this.trader.client.get<{ now_ms: number }>('/control/clock');
    const expiry = BigInt(Math.floor(clock.body.now_ms / 1000)) + 120n;
    const packed = packParallelNonce({ lane: 1, expiry, word_position: position / 128n, bit_position: Number(position % 128n) });
    if (!packed.ok) throw new Error(packed.message);
    return { kind: 'parallel', value: packed.value };
  }

  body(account: B256, groups: readonly Group[], nonce: NonceChoice): Record<string, unknown> {
    const session = this.trader.session;
    if (!session) throw new Error('no session');
    const prepared = prepareSessionActions({
      trade_account_id: account,
      session_id: { Address: session.address },
      nonce,
      groups: groups.map((group) => ({ market_id: group.market.market_id, market: group.market, ...(group.turbo === true ? { turbo: true } : {}), actions: group.actions })),
      targets: { accounts_registry_id: this.network.registry, margin_pool_id: this.network.pool, margin_collateral_asset_id: this.network.collateral },
      settle_before_orders: false,
      collect_orders: true,
    });
    if (!prepared.ok) throw new Error(prepared.message);
    return sessionActionsBody(prepared.value, signDigest(prepared.value.digest, session.privateKey)) as unknown as Record<string, unknown>;
  }

  /** A parent batch (sequential nonce) to `path`. */
  async parent(groups: readonly Group[], path = '/v1/session/actions'): Promise<HttpResult> {
    const body = this.body(this.trader.accountId, groups, { kind: 'sequential', value: this.trader.nonce });
    const reply = await this.trader.client.request('POST', path, body, this.trader.headers);
    if (reply.status === 200 || 'reason' in reply.body) this.trader.nonce += 1n;
    return reply;
  }

  /** A Turbo Account batch (parallel nonce, the parent's session key). */
  async child(child: B256, groups: readonly Group[], nonce?: NonceChoice): Promise<HttpResult> {
    const body = this.body(child, groups, nonce ?? (await this.parallelNonce(child)));
    return this.trader.client.request('POST', '/v1/session/actions', body, this.trader.headers);
  }
}
