// Custody as the renderer sees it: owner-signed requests (withdrawals, sessions) made with a hot
// owner key or prepared for the offline signer, the deposit instructions, referrals, and the
// offline signer of the app's offline mode. Money is bigint in raw units; no key and no
// passphrase ever appears here, only addresses, signatures (which are public) and documents.
import type { OwnerStyle } from '../../crypto/address';
import type { SessionView } from './account';

export type OwnerRequestKind = 'withdraw' | 'session' | 'owner-call';

/** How an owner-signed request is numbered (spec 2.7, 5.9). */
export type OwnerNonceView =
  | { readonly kind: 'sequential'; readonly value: bigint }
  | {
      readonly kind: 'parallel';
      /** The packed u256 that is signed and sent. */
      readonly value: bigint;
      readonly lane: number;
      readonly wordPosition: bigint;
      readonly bitPosition: number;
      /** Unix seconds; the ledger refuses the nonce after it. */
      readonly expiry: bigint;
    };

/** One labelled line of a request, exactly as the offline signer (CLI and offline mode) prints it. */
export interface RequestLineView {
  readonly label: string;
  readonly value: string;
}

/**
 * `awaiting-signature`: carry the request to the offline signer and import its answer.
 * `submitting`: the signature was verified and the request is on its way.
 * `outcome-unknown`: it was sent but the answer was lost, and the ledger cannot tell yet whether
 *   it landed; importing the same signature again re-checks first and never sends a second request.
 * `expired`: refused from now on; cancel it and prepare a new one.
 */
export type OwnerRequestState = 'awaiting-signature' | 'submitting' | 'outcome-unknown' | 'expired';

export interface OwnerRequestView {
  readonly kind: OwnerRequestKind;
  readonly state: OwnerRequestState;
  readonly networkId: string;
  readonly owner: string;
  readonly tradeAccountId: string;
  readonly requestId: string;
  /** SHA-256 of the canonical request text: the signer's answer must name it. */
  readonly requestHash: string;
  /** What it does, in words (rebuilt from the fields on both machines). */
  readonly description: string;
  /** Every field, labelled, in reading order: the signer shows exactly these. */
  readonly lines: readonly RequestLineView[];
  readonly nonce: OwnerNonceView;
  /** Unix seconds. */
  readonly createdAt: bigint;
  readonly expiresAt: bigint;
  /** Things a person should know that do not make the request invalid. */
  readonly warnings: readonly string[];
  /** A suggested name and the text of the request file (indented canonical JSON). */
  readonly fileName: string;
  readonly fileText: string;
  /** The QR payloads (LTQR1 framing), one per code, in order; shown in a loop when there are several. */
  readonly qrPayloads: readonly string[];
  /** The same codes as `data:image/png;base64,…` URLs, generated in main. */
  readonly qrImages: readonly string[];
  /** Why the request is in its state (a lost answer, an expiry), when there is something to say. */
  readonly detail: string | null;
}

/** What happened to an owner-signed request that was sent. */
export interface OwnerSubmissionView {
  readonly kind: OwnerRequestKind;
  /** The journal entry of the signed request. */
  readonly journalId: string;
  readonly requestId: string | null;
  /** `accepted`: answered with a transaction; `landed`: the answer was lost and the ledger shows it landed. */
  readonly status: 'accepted' | 'landed';
  readonly txId: string | null;
  readonly description: string;
  readonly detail: string;
  /** The session now in force, after a session request. */
  readonly session: SessionView | null;
  /** Milliseconds since the epoch. */
  readonly at: number;
}

export interface OwnerRequestsView {
  readonly networkId: string | null;
  readonly owner: string | null;
  readonly custody: 'keychain' | 'watch-only' | null;
  /** At most one per kind. */
  readonly pending: readonly OwnerRequestView[];
  /** The latest request that went out from this terminal (either custody), newest only. */
  readonly lastResult: OwnerSubmissionView | null;
}

export interface DepositAssetView {
  readonly assetId: string;
  readonly symbol: string;
  readonly decimals: number;
  /** Markets that trade it, as `BASE/QUOTE` with their market ids. */
  readonly markets: readonly { readonly marketId: string; readonly pair: string }[];
}

export interface DepositInstructionsView {
  readonly networkId: string;
  readonly networkName: string;
  readonly production: boolean;
  readonly hasFaucet: boolean;
  /** Where deposits go: the trading account's contract id; null until the account exists. */
  readonly tradeAccountId: string | null;
  readonly assets: readonly DepositAssetView[];
  /** What to do, sentence by sentence; the first says the transfer must name asset id and amount. */
  readonly sentences: readonly string[];
}

export interface ReferralCodeView {
  readonly code: string;
  readonly valid: boolean;
  readonly active: boolean;
  /** The referrer's owner address, as the lookup gave it. */
  readonly refererAddress: string | null;
  /** True when the code can be registered now. */
  readonly usable: boolean;
  /** Why it cannot, when it cannot. */
  readonly reason: string | null;
}

export interface ReferralRegistrationView {
  readonly code: string;
  readonly refererAddress: string;
  readonly journalId: string;
  readonly txId: string;
}

// ---- the offline mode (the app on the air-gapped machine) ---------------------------------

/** Main's one-time ECDH P-256 key for sending a secret (passphrase, private key) encrypted. */
export interface SecretChallengeView {
  readonly exchangeId: string;
  /** Raw uncompressed P-256 public key, hex. */
  readonly publicKey: string;
}

export interface OfflineRequestPreview {
  readonly requestId: string;
  readonly requestHash: string;
  readonly kind: OwnerRequestKind;
  readonly owner: string;
  readonly ownerStyle: OwnerStyle;
  /** The same lines the CLI's `show` prints. */
  readonly lines: readonly RequestLineView[];
  readonly warnings: readonly string[];
  /** The closing line: what was checked and how long the request has left. */
  readonly check: string;
  readonly expiresAt: bigint;
  /** This machine's clock when it was checked (unix seconds). */
  readonly checkedAt: bigint;
}

export interface KeystoreView {
  /** The name chosen for it; the file is `<name>.keystore.json` in the data directory's `keystores` folder. */
  readonly name: string;
  /** Null when the file cannot be used; `problem` says why. */
  readonly address: string | null;
  readonly style: OwnerStyle | null;
  /** Test-only KDF parameters. */
  readonly weak: boolean;
  readonly problem: string | null;
}

export interface OfflineSignatureView {
  readonly requestId: string;
  readonly requestHash: string;
  readonly signature: string;
  readonly signer: string;
  readonly fileName: string;
  readonly fileText: string;
  readonly qrPayloads: readonly string[];
  readonly qrImages: readonly string[];
}

/** A destination on the withdrawal allow-list of the active network. */
export interface AllowedAddressView {
  readonly kind: 'Address' | 'ContractId';
  readonly value: string;
  readonly label: string;
  /** Epoch milliseconds. */
  readonly addedAt: number;
  /** A hot owner's withdrawal to it is refused before this moment (epoch milliseconds). */
  readonly usableFrom: number;
}

export interface AllowedAddressesView {
  readonly networkId: string;
  readonly addresses: readonly AllowedAddressView[];
  /** The delay before first use of an address added now, in milliseconds (24 h; 10 s on the local sandbox). */
  readonly delayMs: number;
  /** How this app confirms: a native dialog (Electron) or a code printed on the host's terminal (browser host). */
  readonly confirmation: 'dialog' | 'host-code';
}

/** One owner method main allows (main/services/custody/owner-methods.ts): what the form shows and asks. */
export interface OwnerMethodView {
  readonly method: string;
  /** `POST /v1/accounts/upgrade` and the like. */
  readonly endpoint: string;
  readonly title: string;
  /** What it does, in a trader's words. */
  readonly explains: string;
  readonly parameters: readonly { readonly name: string; readonly label: string; readonly kind: 'market' | 'b256' }[];
}

/** The outcome of an owner method signed with the owner key. */
export interface OwnerMethodResultView {
  readonly method: string;
  readonly endpoint: string;
  readonly journalId: string;
  readonly status: 'accepted' | 'landed';
  readonly txId: string | null;
  readonly description: string;
  readonly detail: string;
}
