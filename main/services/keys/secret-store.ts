// Where main keeps secrets (owner keys held hot, session keys). The only implementation used by
// the app is the OS keychain (main/platform/keychain.ts); there is deliberately no file-backed
// fallback: with no secure store, the app refuses to store keys and says why.
import type { Result } from '../../../shared/result';

export const KEYCHAIN_UNAVAILABLE = 'KEYCHAIN_UNAVAILABLE';
export const KEYCHAIN_FAILURE = 'KEYCHAIN_FAILURE';

export interface SecretStore {
  /** A human name for the store, e.g. "Secret Service (gnome-keyring)". */
  readonly description: string;
  set(account: string, secret: string): Promise<Result<void>>;
  /** The secret, or null when there is none for the account. */
  get(account: string): Promise<Result<string | null>>;
  /** True when a secret was deleted, false when there was none. */
  delete(account: string): Promise<Result<boolean>>;
  /** Account names that hold a secret under this app's service name. */
  list(): Promise<Result<string[]>>;
}
