// The trader's identity and account as main knows them. Keys never appear here: only addresses.
import type { OwnerStyle } from '../../crypto/address';

export interface KeychainView {
  readonly available: boolean;
  /** "Secret Service", "macOS Keychain", ... */
  readonly description: string;
  /** Why keys cannot be stored, when unavailable: what is missing, in plain words. */
  readonly reason: string | null;
  /** The exact commands that fix it on this OS, in order (empty when available or not a command away). */
  readonly commands: readonly string[];
}

export type OwnerCustody = 'keychain' | 'watch-only';

export interface OwnerView {
  readonly address: string;
  readonly style: OwnerStyle;
  /** `watch-only`: the key stays offline; owner-signed requests go through the offline signer. */
  readonly custody: OwnerCustody;
}

export interface TradeAccountView {
  readonly tradeAccountId: string;
  readonly nonce: bigint;
  /** null when the network has no whitelist (or it is not known yet). */
  readonly whitelisted: boolean | null;
}

export type SessionState = 'active' | 'renewing' | 'expiring' | 'expired';

export interface SessionView {
  readonly sessionAddress: string;
  /** Unix seconds. */
  readonly expiry: bigint;
  /** Order-book contracts the session may act on. */
  readonly contractIds: readonly string[];
  readonly state: SessionState;
  /** Unix seconds from which main renews it, for the length the trader chose; null when main will not (a watch-only owner, no markets remembered). */
  readonly renewsAt: bigint | null;
}

export type StepState = 'todo' | 'working' | 'done' | 'failed' | 'not-needed';

export interface OnboardingStep {
  readonly id: 'owner' | 'account' | 'funds' | 'whitelist' | 'session';
  readonly title: string;
  readonly state: StepState;
  /** What is happening or why it failed, in words a trader understands. */
  readonly detail: string | null;
}

export interface AccountState {
  readonly networkId: string;
  readonly keychain: KeychainView;
  readonly owners: readonly OwnerView[];
  /** The owner the terminal trades for on this network. */
  readonly activeOwner: OwnerView | null;
  readonly tradeAccount: TradeAccountView | null;
  readonly session: SessionView | null;
  readonly steps: readonly OnboardingStep[];
  /** True when orders can be placed: an account, a live session and a loaded session key. */
  readonly canTrade: boolean;
}

export interface KeyImportChallenge {
  readonly importId: string;
  /** Main's one-time ECDH P-256 public key (raw, uncompressed, hex): the renderer encrypts the pasted key to it. */
  readonly publicKey: string;
}
