// A minimal client for the sandbox tests: HTTP with fetch and requests built and signed with
// shared/protocol and shared/crypto exactly as the terminal does.
import { randomBytes } from 'node:crypto';
import type { B256 } from '../../../shared/encoding/b256';
import { contractIdentity } from '../../../shared/encoding/identity';
import { addressOf, generatePrivateKey, publicKeyOf, signDigest, type OwnerStyle } from '../../../shared/crypto/index';
import type { SessionAction } from '../../../shared/protocol/actions';
import type { NonceChoice } from '../../../shared/protocol/nonce-choice';
import { prepareSessionActions, sessionActionsBody } from '../../../shared/protocol/session-actions';
import { sessionBody, sessionDigest } from '../../../shared/protocol/session';
import type { Market } from '../../../shared/market/market';

export interface Wallet {
  readonly privateKey: Uint8Array;
  readonly address: B256;
  readonly style: OwnerStyle;
}

export function newWallet(style: OwnerStyle = 'ledger'): Wallet {
  const privateKey = generatePrivateKey((n) => new Uint8Array(randomBytes(n)));
  return { privateKey, address: addressOf(publicKeyOf(privateKey), style), style };
}

export interface HttpResult<T = Record<string, unknown>> {
  readonly status: number;
  readonly body: T;
}

export class SandboxClient {
  constructor(readonly url: string) {}

  async request<T = Record<string, unknown>>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResult<T>> {
    const response = await fetch(`${this.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
  }

  get<T = Record<string, unknown>>(path: string): Promise<HttpResult<T>> {
    return this.request<T>('GET', path);
  }

  async markets(): Promise<{ chainId: bigint; accountsRegistryId: B256; markets: Market[]; raw: Record<string, unknown> }> {
    const { body } = await this.get<Record<string, unknown> & { markets: Record<string, unknown>[] }>('/v1/markets');
    const markets = body.markets.map((row) => {
      const base = row.base as Record<string, unknown>;
      const quote = row.quote as Record<string, unknown>;
      return {
        contract_id: row.contract_id as B256,
        market_id: row.market_id as B256,
        maker_fee: BigInt(row.maker_fee as string),
        taker_fee: BigInt(row.taker_fee as string),
        min_order: BigInt(row.min_order as string),
        dust: BigInt(row.dust as string),
        price_window: row.price_window as number,
        base: { symbol: base.symbol as string, asset: base.asset as B256, decimals: base.decimals as number, max_precision: base.max_precision as number },
        quote: { symbol: quote.symbol as string, asset: quote.asset as B256, decimals: quote.decimals as number, max_precision: quote.max_precision as number },
      } satisfies Market;
    });
    return { chainId: BigInt(body.chain_id as string), accountsRegistryId: body.accounts_registry_id as B256, markets, raw: body };
  }
}

/** A trader with an owner wallet, a trading account, funds and (after `openSession`) a session key. */
export class Trader {
  session: Wallet | undefined;
  nonce = 0n;

  constructor(
    readonly client: SandboxClient,
    readonly owner: Wallet,
    readonly accountId: B256,
    readonly chainId: bigint,
  ) {}

  static async create(client: SandboxClient, options: { style?: OwnerStyle; fund?: boolean } = {}): Promise<Trader> {
    const owner = newWallet(options.style);
    const created = await client.request<{ trade_account_id: B256; nonce: string }>('POST', '/v1/accounts', { identity: { Address: owner.address } });
    if (created.status !== 200) throw new Error(`POST /v1/accounts: ${created.status} ${JSON.stringify(created.body)}`);
    const { chainId } = await client.markets();
    const trader = new Trader(client, owner, created.body.trade_account_id, chainId);
    if (options.fund !== false) {
      const minted = await client.request('POST', '/api/sandbox/mint-v2', { contract: trader.accountId });
      if (minted.status !== 200) throw new Error(`mint: ${JSON.stringify(minted.body)}`);
    }
    return trader;
  }

  get headers(): Record<string, string> {
    return { 'Svc-Owner-Id': this.owner.address };
  }

  async readNonce(): Promise<bigint> {
    const { body } = await this.client.get<{ trade_account: { nonce: string } }>(`/v1/accounts?trade_account_id=${this.accountId}`);
    this.nonce = BigInt(body.trade_account.nonce);
    return this.nonce;
  }

  sessionRequestBody(contractIds: readonly B256[], expiry: bigint, session: Wallet, nonce = this.nonce): Record<string, unknown> {
    const grant = { nonce, chain_id: this.chainId, session_address: session.address, expiry, contract_ids: contractIds };
    const signature = signDigest(sessionDigest(grant, this.owner.style), this.owner.privateKey);
    return sessionBody(this.accountId, grant, signature) as unknown as Record<string, unknown>;
  }

  async openSession(contractIds: readonly B256[], expiry: bigint): Promise<HttpResult> {
    const session = newWallet('ledger');
    await this.readNonce();
    const result = await this.client.request('PUT', '/v1/session', this.sessionRequestBody(contractIds, expiry, session), this.headers);
    if (result.status === 200) {
      this.session = session;
      this.nonce += 1n;
    }
    return result;
  }

  actionsBody(market: Market, actions: SessionAction[], options: { nonce?: NonceChoice; collect?: boolean; settle?: boolean; registryId?: B256; signer?: Wallet; groups?: { market: Market; actions: SessionAction[] }[] } = {}): Record<string, unknown> {
    const signer = options.signer ?? this.session;
    if (!signer) throw new Error('no session');
    const groups = (options.groups ?? [{ market, actions }]).map((group) => ({ market_id: group.market.market_id, market: group.market, actions: group.actions }));
    const prepared = prepareSessionActions({
      trade_account_id: this.accountId,
      session_id: { Address: signer.address },
      nonce: options.nonce ?? { kind: 'sequential', value: this.nonce },
      groups,
      targets: options.registryId ? { accounts_registry_id: options.registryId } : undefined,
      settle_before_orders: options.settle ?? false,
      collect_orders: options.collect ?? true,
    });
    if (!prepared.ok) throw new Error(prepared.message);
    return sessionActionsBody(prepared.value, signDigest(prepared.value.digest, signer.privateKey)) as unknown as Record<string, unknown>;
  }

  async act(market: Market, actions: SessionAction[], options: Parameters<Trader['actionsBody']>[2] = {}): Promise<HttpResult> {
    const body = this.actionsBody(market, actions, options);
    const result = await this.client.request('POST', '/v1/session/actions', body, this.headers);
    // A refusal keeps the nonce; a success or an on-chain revert consumes it.
    if ((options.nonce ?? { kind: 'sequential' }).kind === 'sequential' && (result.status === 200 || 'reason' in result.body)) this.nonce += 1n;
    return result;
  }

  settle(): SessionAction {
    return { kind: 'SettleBalance', to: contractIdentity(this.accountId) };
  }
}

export function order(side: 'Buy' | 'Sell', price: bigint, quantity: bigint, orderType: Extract<SessionAction, { kind: 'CreateOrder' }>['order_type'] = { kind: 'Spot' }): SessionAction {
  return { kind: 'CreateOrder', side, price, quantity, order_type: orderType };
}

export const HOUR = 3600n;
export function secondsFromNow(seconds: bigint): bigint {
  return BigInt(Math.floor(Date.now() / 1000)) + seconds;
}
