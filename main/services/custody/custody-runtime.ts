// What the custody services need of the active network and of the keychain, as two small ports.
// `runtimePort` adapts main's NetworkRuntime to it; unit tests pass fakes. Keeping the services
// behind these ports keeps them free of electron and of the exchange client's construction.
import type { B256 } from '../../../shared/encoding/b256';
import type { WindowSnapshot } from '../../../shared/nonce/lane-window';
import type { WithdrawBody } from '../../../shared/protocol/owner-messages';
import type { SessionBody } from '../../../shared/protocol/session';
import { fail, ok, type Result } from '../../../shared/result';
import { RATE_RULES } from '../../exchange/rate-rules';
import type { MarketsIndex } from '../market-data/markets-index';
import type { NetworkRuntime } from '../network/network-runtime';
import type { NetworkConfig } from '../network/networks';
import type { NonceManager } from '../nonces/nonce-manager';
import type { AccountRecord, OwnerRecord, PreferencesStore, SessionRecord } from '../storage/preferences';
import type { SubmitRequest, SubmitSuccess } from '../trading/submitter';
import type { OwnerCallBodies } from './owner-submitter';

/** The session the exchange reports for the account; `unknown` where the response does not say. */
export type ExchangeSession = { readonly kind: 'known'; readonly sessionAddress: string | null } | { readonly kind: 'unknown' };

export interface ReferralInfo {
  readonly valid: boolean;
  readonly ownerAddress: string | null;
  readonly isActive: boolean;
}

export interface CustodyRuntime {
  readonly network: NetworkConfig;
  markets(): Promise<Result<MarketsIndex>>;
  activeOwner(): OwnerRecord | null;
  accountRecord(): AccountRecord | null;
  nonces(): NonceManager | null;
  /** The `parallelLanes` setting: order lanes 0..n-1. */
  orderLanes(): number;

  // The exchange (through the runtime's client: rate limited, parsed).
  onAccountBalance(tradeAccountId: B256, assetId: B256): Promise<Result<bigint>>;
  accountNonce(tradeAccountId: B256): Promise<Result<bigint>>;
  window(tradeAccountId: B256, lane: number): Promise<Result<WindowSnapshot>>;
  exchangeSession(tradeAccountId: B256): Promise<Result<ExchangeSession>>;
  postWithdraw(owner: B256, body: WithdrawBody): Promise<Result<{ readonly tx_id: string }>>;
  putSession(owner: B256, body: SessionBody): Promise<Result<{ readonly tx_id: string }>>;
  postOwnerCall(owner: B256, call: OwnerCallBodies): Promise<Result<{ readonly tx_id: string }>>;
  referralInfo(code: string): Promise<Result<ReferralInfo>>;
  /** Slots left in the client's withdraw budget of this owner, and when the next one frees (clock ms). */
  withdrawBudget(owner: B256): { readonly remaining: number; readonly nextFreeAt: number | null };
  /** Session actions through the trading submitter (journaled, reconciled). */
  submitSessionActions(request: SubmitRequest): Promise<Result<SubmitSuccess>>;
  /** Settle the account's lost order requests (the trading submitter's reconciliation). */
  reconcileOrders(): Promise<void>;

  // The account record in the data directory.
  loadLaneCursor(lane: number): bigint | null;
  saveLaneCursor(lane: number, nextIndex: bigint): Result<void>;
  /** Store the session now in force (as account-service does for a hot owner) and remember its markets. */
  storeSession(session: SessionRecord, marketIds: readonly string[]): Result<void>;
  /** Tell the windows the account changed; pull balances again. */
  refreshAccount(): void;
}

/** What custody needs of the key vault (KeyVault satisfies it). */
export interface CustodyKeys {
  signAsOwner(address: B256, digest: Uint8Array): Promise<Result<Uint8Array>>;
  createSessionKey(): Promise<Result<B256>>;
  deleteSessionKey(address: B256): Promise<Result<boolean>>;
  loadSessionKey(address: B256): Promise<Result<void>>;
}

/** The custody view of a NetworkRuntime. */
export function runtimePort(runtime: NetworkRuntime, network: NetworkConfig, preferences: PreferencesStore): CustodyRuntime {
  const updateRecord = (change: (record: AccountRecord) => AccountRecord): Result<void> => {
    const owner = runtime.accounts.activeOwner();
    if (!owner) return fail('NO_OWNER', 'There is no active owner');
    const saved = preferences.accounts.update((file) => {
      const entry = file.networks[network.id];
      const record = entry?.accounts[owner.address];
      if (!entry || !record) return file;
      return { ...file, networks: { ...file.networks, [network.id]: { ...entry, accounts: { ...entry.accounts, [owner.address]: change(record) } } } };
    });
    return saved.ok ? ok(undefined) : saved;
  };
  return {
    network,
    markets: async () => runtime.markets ? ok(runtime.markets) : runtime.loadMarkets(),
    activeOwner: () => runtime.accounts.activeOwner(),
    accountRecord: () => runtime.accounts.accountRecord(),
    nonces: () => runtime.nonces(),
    orderLanes: () => preferences.preferences.get().settings.parallelLanes,
    onAccountBalance: async (tradeAccountId, assetId) => {
      const balance = await runtime.rest.getBalance({ contract: tradeAccountId, asset_id: assetId });
      return balance.ok ? ok(balance.value.trading_account_balance) : balance;
    },
    accountNonce: async (tradeAccountId) => {
      const found = await runtime.rest.getAccount({ trade_account_id: tradeAccountId });
      if (!found.ok) return found;
      if (found.value.kind === 'none') return fail('NO_TRADE_ACCOUNT', `trading account ${tradeAccountId} is not known to the exchange`);
      runtime.accounts.observeNonce(found.value.trade_account.nonce);
      return ok(found.value.trade_account.nonce);
    },
    window: (tradeAccountId, lane) => runtime.rest.getAccountWindow({ trade_account_id: tradeAccountId, nonce_session_id: lane }),
    exchangeSession: async (tradeAccountId) => {
      const found = await runtime.rest.getAccount({ trade_account_id: tradeAccountId });
      if (!found.ok) return found;
      if (found.value.kind === 'none') return ok({ kind: 'known', sessionAddress: null });
      return ok(sessionOf(found.value.session));
    },
    postWithdraw: (owner, body) => runtime.rest.postAccountWithdraw(owner, body),
    putSession: (owner, body) => runtime.rest.putSession(owner, body),
    postOwnerCall: (owner, call) => {
      if (call.endpoint === 'upgrade') return runtime.rest.postAccountUpgrade(owner, call.body);
      if (call.endpoint === 'call') return runtime.rest.postAccountCall(owner, call.body);
      if (call.endpoint === 'calls') return runtime.rest.postAccountCalls(owner, call.body);
      return runtime.rest.postAccountActions(owner, call.body);
    },
    referralInfo: async (code) => {
      const info = await runtime.rest.getReferralCodeInfo(code);
      return info.ok ? ok({ valid: info.value.valid, ownerAddress: info.value.ownerAddress ?? null, isActive: info.value.isActive ?? false }) : info;
    },
    withdrawBudget: (owner) => {
      const lane = runtime.limiter.snapshot().find((snapshot) => snapshot.rule === RATE_RULES.withdraw.id && snapshot.key === owner);
      return lane ? { remaining: lane.remaining, nextFreeAt: lane.nextFreeAt } : { remaining: RATE_RULES.withdraw.limit, nextFreeAt: null };
    },
    submitSessionActions: (request) => runtime.submitter.submit(request),
    reconcileOrders: () => runtime.submitter.reconcileOpen(),
    loadLaneCursor: (lane) => runtime.accounts.accountRecord()?.laneCursors[String(lane)] ?? null,
    saveLaneCursor: (lane, nextIndex) => updateRecord((record) => ({ ...record, laneCursors: { ...record.laneCursors, [String(lane)]: nextIndex } })),
    storeSession: (session, marketIds) => {
      const saved = updateRecord((record) => ({ ...record, session: { ...session, contractIds: [...session.contractIds] } }));
      if (!saved.ok) return saved;
      runtime.accounts.rememberSessionMarkets(marketIds);
      return ok(undefined);
    },
    refreshAccount: () => {
      runtime.accounts.publish();
      void runtime.trading.refresh();
    },
  };
}

/** The session object of GET /v1/accounts is not specified (spec 2.2); read `session_id` where it is there. */
function sessionOf(session: unknown): ExchangeSession {
  if (session === null) return { kind: 'known', sessionAddress: null };
  if (typeof session !== 'object') return { kind: 'unknown' };
  const id = (session as { session_id?: unknown }).session_id;
  if (typeof id !== 'object' || id === null) return { kind: 'unknown' };
  const address = (id as { Address?: unknown }).Address;
  return typeof address === 'string' ? { kind: 'known', sessionAddress: address.toLowerCase() } : { kind: 'unknown' };
}
