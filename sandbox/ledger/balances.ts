// Asset balances held by one owner (a wallet, a trading account, an outside contract), and the
// locked/unlocked balances an account keeps inside one order book. Both are journaled, so a
// reverted batch restores them, and both refuse to go negative (that would be a bug: the
// ledger checks funds before moving them).
import { BugError } from '../../shared/result';
import type { Journal } from '../engine/journal';

function restoreAmount(amounts: Map<string, bigint>, asset: string, before: bigint): void {
  amounts.set(asset, before);
}

export class AssetBalances {
  private readonly amounts = new Map<string, bigint>();
  constructor(private readonly journal: Journal) {}

  get(asset: string): bigint {
    return this.amounts.get(asset) ?? 0n;
  }

  add(asset: string, delta: bigint): void {
    if (delta === 0n) return;
    const before = this.amounts.get(asset) ?? 0n;
    const after = before + delta;
    if (after < 0n) throw new BugError(`balance of ${asset} would go negative: ${before} + ${delta}`);
    this.amounts.set(asset, after);
    if (this.journal.active) this.journal.recordCall(restoreAmount, this.amounts, asset, before);
  }

  entries(): IterableIterator<[string, bigint]> {
    return this.amounts.entries();
  }
}

/** An account's funds inside one book: base and quote, locked by open orders or unlocked. */
export class BookBalance {
  baseLocked = 0n;
  baseUnlocked = 0n;
  quoteLocked = 0n;
  quoteUnlocked = 0n;
  /** Fees this account paid in this book (statistics for GET /v1/balance, not holdings). */
  feesPaidBase = 0n;
  feesPaidQuote = 0n;
  private stamp = -1;

  constructor(private readonly journal: Journal) {}

  /** Record the current values once per transaction before the first change. */
  touch(): this {
    const journal = this.journal;
    if (journal.active && this.stamp !== journal.stamp) {
      this.stamp = journal.stamp;
      journal.recordCall(BookBalance.restore, this, this.baseLocked, this.baseUnlocked, this.quoteLocked, this.quoteUnlocked, this.feesPaidBase, this.feesPaidQuote);
    }
    return this;
  }

  /** Undo of `touch` (static: no closure per balance per transaction). */
  private static restore(balance: BookBalance, baseLocked: bigint, baseUnlocked: bigint, quoteLocked: bigint, quoteUnlocked: bigint, feesPaidBase: bigint, feesPaidQuote: bigint): void {
    balance.feesPaidBase = feesPaidBase;
    balance.feesPaidQuote = feesPaidQuote;
    balance.baseLocked = baseLocked;
    balance.baseUnlocked = baseUnlocked;
    balance.quoteLocked = quoteLocked;
    balance.quoteUnlocked = quoteUnlocked;
    balance.stamp = -1;
  }

  check(): void {
    if (this.baseLocked < 0n || this.baseUnlocked < 0n || this.quoteLocked < 0n || this.quoteUnlocked < 0n) {
      throw new BugError(`book balance went negative: ${this.baseLocked}/${this.baseUnlocked}/${this.quoteLocked}/${this.quoteUnlocked}`);
    }
  }
}
