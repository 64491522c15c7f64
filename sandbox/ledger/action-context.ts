// Who acts, in which transaction, and when: what every ledger action is given. Its own module
// so the trigger book, the margin engine and Turbo matching read it without importing the market.
import type { ContractAccount } from './accounts';

export interface ActionContext {
  readonly account: ContractAccount;
  readonly txId: string;
  /** Nanoseconds since the epoch. */
  readonly timestamp: bigint;
}
