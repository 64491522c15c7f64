// Account and balance bodies: GET /v1/accounts (spec 2.2), GET /v1/balance and the balance
// stream (spec 2.5, wire notes: total_unlocked includes trading_account_balance).
import { identityToJson } from '../../shared/encoding/identity';
import type { ContractAccount } from '../ledger/accounts';
import type { Ledger } from '../ledger/ledger';

export function accountView(account: ContractAccount | undefined): Record<string, unknown> {
  if (account === undefined) return { trade_account_id: null, trade_account: null, session: null };
  return {
    trade_account_id: account.id,
    trade_account: {
      last_modification: account.lastModification,
      nonce: account.nonce.toString(),
      owner: identityToJson(account.owner),
      synced_with_network: true,
    },
    session:
      account.session === null
        ? null
        : {
            session_id: identityToJson(account.session.sessionId),
            expiry: account.session.expiry.toString(),
            contract_ids: [...account.session.contractIds],
          },
  };
}

export interface BalanceView {
  order_books: Record<string, { locked: string; unlocked: string; fee: string }>;
  total_locked: string;
  total_unlocked: string;
  trading_account_balance: string;
}

/**
 * Balances of one asset of a trading account: on the account and in every book trading it, Turbo
 * books included (GET /v1/balance is account-wide: margin-api 2.5 says it ignores `turbo`). A
 * canonical book's entry is keyed by its market id (spec 2.5); a Turbo book shares that market id,
 * so its entry is keyed by the book's own contract id (docs/sandbox.md).
 */
export function accountBalanceView(ledger: Ledger, account: ContractAccount, asset: string): BalanceView {
  const onAccount = account.balances.get(asset);
  let locked = 0n;
  let unlocked = onAccount;
  const books: BalanceView['order_books'] = {};
  for (const market of ledger.allMarkets()) {
    const isBase = market.config.base.asset === asset;
    if (!isBase && market.config.quote.asset !== asset) continue;
    const balance = market.balances.get(account.id);
    if (market.turbo && balance === undefined) continue; // a Turbo book the account never used
    const bookLocked = balance === undefined ? 0n : isBase ? balance.baseLocked : balance.quoteLocked;
    const bookUnlocked = balance === undefined ? 0n : isBase ? balance.baseUnlocked : balance.quoteUnlocked;
    const fee = balance === undefined ? 0n : isBase ? balance.feesPaidBase : balance.feesPaidQuote;
    books[market.turbo ? market.config.contract_id : market.config.market_id] = { locked: bookLocked.toString(), unlocked: bookUnlocked.toString(), fee: fee.toString() };
    locked += bookLocked;
    unlocked += bookUnlocked;
  }
  return { order_books: books, total_locked: locked.toString(), total_unlocked: unlocked.toString(), trading_account_balance: onAccount.toString() };
}

/** A wallet holds no book balances: everything it has is unlocked. */
export function walletBalanceView(amount: bigint): BalanceView {
  return { order_books: {}, total_locked: '0', total_unlocked: amount.toString(), trading_account_balance: amount.toString() };
}
