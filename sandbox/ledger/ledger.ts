// The sandbox's whole ledger: trading accounts, wallets, outside contracts, markets, what was
// minted. `transact` runs a batch atomically: everything inside is journaled; a revert or a
// bug rolls it all back, a success publishes the change set to the listeners (streams, read
// models). The invariant check (sum of every asset held + fees == minted) backs the tests.
import type { B256 } from '../../shared/encoding/b256';
import { contractIdentity, identityKind, identityValue, type Identity } from '../../shared/encoding/identity';
import type { NetworkConfig } from '../config/network';
import { Journal } from '../engine/journal';
import { newTradeAccount, type ContractAccount } from './accounts';
import { AssetBalances } from './balances';
import { ChangeSet } from './changes';
import { TurboLink } from '../turbo/link';
import { MarketState } from './market';
import { BoundedLog, type Trade } from './trades';

/** Turbo events kept for GET /v1/events. */
export const TURBO_EVENT_CAPACITY = 10_000;
import { isRevert, type Revert } from './revert';

export type ChangeListener = (changes: ChangeSet) => void;

export class Ledger {
  readonly journal = new Journal();
  readonly changes = new ChangeSet();
  readonly accounts = new Map<string, ContractAccount>();
  /** Owner identity key (`Address:0x…`) -> trading account id. */
  readonly accountByOwner = new Map<string, B256>();
  /** Wallet balances (Address identities): the faucet mints here, withdrawals may land here. */
  readonly wallets = new Map<string, AssetBalances>();
  /** Contracts that are not trading accounts (withdrawal destinations). */
  readonly outside = new Map<string, AssetBalances>();
  readonly markets = new Map<string, MarketState>();
  readonly marketsByContract = new Map<string, MarketState>();
  readonly minted = new Map<string, bigint>();
  /** Turbo books by canonical market id (margin 2.5). */
  readonly turbo = new Map<string, TurboLink>();
  /** GET /v1/events, oldest first, each with its `sequence`. */
  readonly turboEvents = new BoundedLog<Record<string, unknown>>(TURBO_EVENT_CAPACITY);
  private turboEventSequence = 0;
  private readonly listeners: ChangeListener[] = [];
  /** Run after every publish, once the change set is cleared (the trigger engine fires legs here). */
  private readonly afterPublish: (() => void)[] = [];

  constructor(
    readonly network: NetworkConfig,
    /** Attachment time of the Turbo books (ms): their bars before it are the canonical book's. */
    attachedAtMs = 0,
  ) {
    const isHouse = (account: string): boolean => this.accounts.get(account)?.house === true;
    for (const config of network.markets) {
      const market = new MarketState(config, this.journal, this.changes, isHouse);
      this.markets.set(config.market_id, market);
      this.marketsByContract.set(config.contract_id, market);
    }
    for (const config of network.turboMarkets) {
      const canonical = this.markets.get(config.market_id) as MarketState;
      const turbo = new MarketState(config, this.journal, this.changes, isHouse, true);
      this.marketsByContract.set(config.contract_id, turbo);
      this.turbo.set(config.market_id, new TurboLink(canonical, turbo, attachedAtMs, config.triggerMaxSlippage));
      this.logTurboEvent({ type: 'SidecarChanged', market_id: config.market_id, previous: null, current: config.contract_id, timestamp: (BigInt(attachedAtMs) * 1_000_000n).toString() });
    }
  }

  /** The book an order or trade belongs to: its Turbo book when it carries `turbo`. */
  marketOf(record: { readonly marketId: string; readonly turbo?: boolean }): MarketState | undefined {
    return record.turbo === true ? this.turbo.get(record.marketId)?.turbo : this.markets.get(record.marketId);
  }

  /** Every book: canonical ones, then Turbo ones. */
  allMarkets(): MarketState[] {
    return [...this.markets.values(), ...[...this.turbo.values()].map((link) => link.turbo)];
  }

  logTurboEvent(event: Record<string, unknown>): void {
    this.turboEvents.push({ sequence: String(++this.turboEventSequence), ...event });
  }

  onChange(listener: ChangeListener): void {
    this.listeners.push(listener);
  }

  /** `hook` runs after each publish; it may run transactions of its own (they publish in turn). */
  onPublished(hook: () => void): void {
    this.afterPublish.push(hook);
  }

  /**
   * Run `apply` as one atomic transaction. A returned Revert or a thrown error rolls back
   * every change; otherwise the changes are committed and published.
   */
  transact<T>(apply: () => T | Revert): T | Revert {
    this.journal.begin();
    this.changes.clear();
    let result: T | Revert;
    try {
      result = apply();
    } catch (error) {
      this.journal.rollback();
      this.changes.clear();
      throw error;
    }
    if (isRevert(result)) {
      this.journal.rollback();
      this.changes.clear();
      return result;
    }
    this.journal.commit();
    this.publish();
    return result;
  }

  /** Publish changes made outside a transaction (nonce consumption after a revert). */
  publish(): void {
    if (this.changes.empty) return;
    const { trades, orders, triggers } = this.changes;
    // Indexed loops: no iterator per list per transaction.
    for (let i = 0; i < trades.length; i++) this.marketOf(trades[i] as Trade)?.recordCommittedTrade(trades[i] as Trade);
    // Only a closed order joins its market's retention queue (an open one is kept by the book).
    for (let i = 0; i < orders.size; i++) {
      const order = orders.at(i);
      if (order.close) this.marketOf(order)?.retain(order);
    }
    for (let i = 0; i < triggers.size; i++) this.marketOf(triggers.at(i))?.triggers.retain(triggers.at(i));
    const turboEvents = this.changes.turboEvents;
    for (let i = 0; i < turboEvents.length; i++) this.logTurboEvent(turboEvents[i] as Record<string, unknown>);
    for (let i = 0; i < orders.size; i++) {
      const order = orders.at(i);
      // A shared quote that left the book (filled, cancelled, closed as dust) is complete.
      if (order.shared === true && order.close && order.completionLogged !== true) {
        order.completionLogged = true;
        this.logTurboEvent({ type: 'HouseOrderCompleted', market_id: order.marketId, order_id: order.id, timestamp: order.timestamp.toString() });
      }
    }
    // Indexed (an array iterator per loop per transaction otherwise); the length is read each time,
    // as an iterator would, so a listener or hook added meanwhile runs too.
    for (let i = 0; i < this.listeners.length; i++) (this.listeners[i] as ChangeListener)(this.changes);
    this.changes.clear();
    for (let i = 0; i < this.afterPublish.length; i++) (this.afterPublish[i] as () => void)();
  }

  accountOfOwner(owner: Identity): ContractAccount | undefined {
    const id = this.accountByOwner.get(ownerKey(owner));
    return id === undefined ? undefined : this.accounts.get(id);
  }

  /** A margin child: a contract account owned by its parent, never an owner's main account. */
  createMarginAccount(id: B256, parent: ContractAccount, index: bigint, nowSeconds: number): ContractAccount {
    const account = newTradeAccount(this.journal, id, contractIdentity(parent.id), this.network.tradeAccountImplementationId, nowSeconds, { parent: parent.id, index });
    this.accounts.set(id, account);
    this.journal.record(() => this.accounts.delete(id));
    return account;
  }

  /** The wallet that owns an account: its owner, or for a margin child its parent's owner. */
  ownerWalletOf(account: ContractAccount): string {
    const parent = account.margin === undefined ? undefined : this.accounts.get(account.margin.parent);
    return identityValue((parent ?? account).owner);
  }

  createAccount(id: B256, owner: Identity, nowSeconds: number): ContractAccount {
    const account = newTradeAccount(this.journal, id, owner, this.network.tradeAccountImplementationId, nowSeconds);
    this.accounts.set(id, account);
    this.accountByOwner.set(ownerKey(owner), id);
    return account;
  }

  /** The balances of an identity wherever it lives; created on first credit. */
  holder(identity: Identity): AssetBalances {
    const key = identityValue(identity);
    if (identityKind(identity) === 'ContractId') {
      const account = this.accounts.get(key);
      if (account) return account.balances;
      return getOrCreate(this.outside, key, () => new AssetBalances(this.journal));
    }
    return getOrCreate(this.wallets, key, () => new AssetBalances(this.journal));
  }

  mint(identity: Identity, asset: string, amount: bigint): void {
    this.holder(identity).add(asset, amount);
    this.minted.set(asset, (this.minted.get(asset) ?? 0n) + amount);
    if (identityKind(identity) === 'ContractId' && this.accounts.has(identityValue(identity))) this.changes.balances.add(identityValue(identity));
  }

  /** Per asset: everything held anywhere plus fees collected. Equals `minted` when sound. */
  holdings(): Map<string, bigint> {
    const totals = new Map<string, bigint>();
    const add = (asset: string, amount: bigint): void => {
      if (amount !== 0n) totals.set(asset, (totals.get(asset) ?? 0n) + amount);
    };
    for (const account of this.accounts.values()) for (const [asset, amount] of account.balances.entries()) add(asset, amount);
    for (const holder of [...this.wallets.values(), ...this.outside.values()]) for (const [asset, amount] of holder.entries()) add(asset, amount);
    for (const market of this.allMarkets()) {
      const { base, quote } = market.config;
      add(base.asset, market.feesBase);
      add(quote.asset, market.feesQuote);
      for (const balance of market.balances.values()) {
        add(base.asset, balance.baseLocked + balance.baseUnlocked);
        add(quote.asset, balance.quoteLocked + balance.quoteUnlocked);
      }
    }
    return totals;
  }

  /** Problems with the ledger's invariants; empty when sound. */
  checkInvariants(): string[] {
    const problems: string[] = [];
    const held = this.holdings();
    for (const asset of new Set([...held.keys(), ...this.minted.keys()])) {
      const h = held.get(asset) ?? 0n;
      const m = this.minted.get(asset) ?? 0n;
      if (h !== m) problems.push(`asset ${asset}: held + fees ${h} != minted ${m}`);
    }
    for (const market of this.allMarkets()) {
      const locked = new Map<string, { base: bigint; quote: bigint }>();
      for (const order of market.orders.values()) {
        if (order.close) {
          if (order.lockedRemaining !== 0n) problems.push(`order ${order.id} is closed but locks ${order.lockedRemaining}`);
          continue;
        }
        const entry = getOrCreate(locked, order.account, () => ({ base: 0n, quote: 0n }));
        if (order.side === 'Buy') entry.quote += order.lockedRemaining;
        else entry.base += order.lockedRemaining;
      }
      // Pending trigger legs hold their escrow locked in the book too.
      for (const [account, escrow] of market.triggers.escrowByAccount()) {
        const entry = getOrCreate(locked, account, () => ({ base: 0n, quote: 0n }));
        entry.base += escrow.base;
        entry.quote += escrow.quote;
      }
      for (const [account, balance] of market.balances) {
        const entry = locked.get(account) ?? { base: 0n, quote: 0n };
        if (entry.base !== balance.baseLocked || entry.quote !== balance.quoteLocked) {
          problems.push(`market ${market.config.name} account ${account}: locked ${balance.baseLocked}/${balance.quoteLocked} != open orders and trigger escrow ${entry.base}/${entry.quote}`);
        }
      }
      const bid = market.book.bestBid();
      const ask = market.book.bestAsk();
      // A Turbo book's resting orders never match each other: only the canonical book must be uncrossed.
      if (!market.turbo && bid !== undefined && ask !== undefined && bid >= ask) problems.push(`market ${market.config.name} is crossed: ${bid} >= ${ask}`);
    }
    return problems;
  }
}

export function ownerKey(identity: Identity): string {
  return `${identityKind(identity)}:${identityValue(identity)}`;
}

function getOrCreate<K, V>(map: Map<K, V>, key: K, create: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = create();
    map.set(key, value);
  }
  return value;
}
