// Contract accounts. Every account is a contract holding balances per asset; a trading
// account (kind 'trade') is the only kind today, and a margin child will be one more kind
// with a parent, sharing the balances, nonce and session machinery below.
import type { B256 } from '../../shared/encoding/b256';
import type { Identity } from '../../shared/encoding/identity';
import type { LaneWindow } from '../../shared/nonce/lane-window';
import type { Journal } from '../engine/journal';
import { AssetBalances } from './balances';

export interface Session {
  /** The session key's identity (`{Address: sha256(public key)}`). */
  readonly sessionId: Identity;
  /** Unix seconds. */
  readonly expiry: bigint;
  /** Order-book contracts (and, later, margin contracts) the key may act on. */
  readonly contractIds: ReadonlySet<string>;
  readonly txId: string;
}

/** A trading account, or a margin child (Turbo Account) registered by a parent trading account. */
export type AccountKind = 'trade' | 'margin';

/** What a margin child adds: its parent, its index and its margin session (sandbox/margin). */
export interface MarginLink {
  readonly parent: B256;
  readonly index: bigint;
}

export interface ContractAccount {
  readonly kind: AccountKind;
  readonly id: B256;
  readonly owner: Identity;
  /** Unix seconds. */
  readonly createdAt: number;
  lastModification: number;
  /** Sequential nonce: the next value an owner or session message must carry. */
  nonce: bigint;
  session: Session | null;
  whitelisted: boolean;
  /** The house (market maker, control surface) is exempt from the price window. */
  house: boolean;
  implementation: B256;
  referer: Identity | null;
  readonly balances: AssetBalances;
  /** Parallel nonce lanes 0-4, created on first use. */
  readonly lanes: Map<number, LaneWindow>;
  /** Present exactly on margin children. */
  readonly margin?: MarginLink;
}

export function newTradeAccount(journal: Journal, id: B256, owner: Identity, implementation: B256, nowSeconds: number, margin?: MarginLink): ContractAccount {
  return {
    kind: margin === undefined ? 'trade' : 'margin',
    ...(margin === undefined ? {} : { margin }),
    id,
    owner,
    createdAt: nowSeconds,
    lastModification: nowSeconds,
    nonce: 0n,
    session: null,
    whitelisted: false,
    house: false,
    implementation,
    referer: null,
    balances: new AssetBalances(journal),
    lanes: new Map(),
  };
}
